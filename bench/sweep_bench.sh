#!/usr/bin/env bash
# Sweep throughput, side by side in one run (docs/sweep.md "Throughput"): for the foot and the
# quadruped studies, samples/s of
#   - bench_sweep_throughput: the bare core (model evaluate_batch + solve_impact on pre-drawn
#     states: a host-API loop at its leanest), the sweep's chunk work, and sweep::run;
#   - the plain pipeline `obliq model M --state S | obliq impact -` on the same number of states;
#   - `obliq sweep` with 1 thread, all threads, and under mpirun with 2 and 4 ranks of 1 thread
#     (samples/s from the summary's run.samples_per_s: the slowest rank's sweep time).
# Usage: bench/sweep_bench.sh BUILD_DIR [SAMPLES]   (a shared machine is noisy: say so with numbers)
set -euo pipefail
build=${1:-build}
samples=${2:-40000}
src=$(cd "$(dirname "$0")/.." && pwd)
obliq=$build/obliq
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpi=()
[ "$(id -u)" = 0 ] && mpi+=(--allow-run-as-root)
mpi+=(--oversubscribe)

echo "== bench_sweep_throughput (Google Benchmark, real time; 16384 samples per iteration)"
"$build/bench/bench_sweep_throughput" --benchmark_min_time=1 2>/dev/null | grep -E "^BM_" |
  awk '{ for (i = 1; i <= NF; ++i) if ($i ~ /items_per_second/) { split($i, a, "=");
         printf "%s %s samples/s (real time); main-thread CPU %.2f us/sample\n", $1, a[2], $4 * 1000 / 16384 } }'

rate() { python3 -c 'import json,sys; print("%.0f" % json.load(open(sys.argv[1]))["run"]["samples_per_s"])' "$1"; }
for name in foot_landing quadruped_touchdown; do
  study="$work/$name.json"
  python3 - "$src/examples/$name.json" "$study" "$samples" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); s["samples"] = int(sys.argv[3]); s["collect"]["rows"] = 0
json.dump(s, open(sys.argv[2], "w"))
PY
  model=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["mechanism"]["model"])' "$study")
  echo "== $name ($samples samples)"
  # The plain pipeline on the sweep's own states (from its rows: q, qdot are not in the rows, so
  # the states are the study's pre-impact state with the same qdot perturbation scale).
  python3 - "$study" "$work/states.jsonl" "$samples" <<'PY'
import json, random, sys
s = json.load(open(sys.argv[1])); m = s["mechanism"]; n = int(sys.argv[3]); r = random.Random(1)
sd = s["perturb"]["qdot"]["sd"]
with open(sys.argv[2], "w") as f:
    for i in range(n):
        v = [x + r.gauss(0, sd[k] if isinstance(sd, list) else sd) for k, x in enumerate(m["qdot"])]
        f.write(json.dumps({"id": i, "q": m["q"], "qdot": v}) + "\n")
PY
  t0=$(date +%s.%N)
  "$obliq" model "$model" --state "$work/states.jsonl" --e 0.3 | "$obliq" impact - > /dev/null
  t1=$(date +%s.%N)
  python3 -c "print('pipeline obliq model | obliq impact: %.0f samples/s' % ($samples / ($t1 - $t0)))"
  for threads in 1 0; do
    "$obliq" sweep "$study" -o "$work/s$threads" --threads "$threads" --no-plots --quiet > /dev/null
    echo "obliq sweep --threads $threads: $(rate "$work/s$threads/summary.json") samples/s"
  done
  if command -v mpirun > /dev/null; then
    for np in 2 4; do
      mpirun "${mpi[@]}" -np "$np" "$obliq" sweep "$study" -o "$work/m$np" --threads 1 --no-plots --quiet > /dev/null
      echo "mpirun -np $np obliq sweep --threads 1: $(rate "$work/m$np/summary.json") samples/s"
    done
  fi
done
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%Y-%m-%dT%H:%MZ)"

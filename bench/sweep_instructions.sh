#!/usr/bin/env bash
# Instructions per sample (callgrind) of a sweep against the bare core on the same samples, one
# thread, for the foot and the quadruped studies: the counts beside bench/sweep_bench.sh's
# samples/s that do not move with the machine's load. The bare core is bench_sweep_throughput's
# bare_pass (evaluate_batch + solve_impact on states drawn beforehand), the sweep is
# sweep::run (draws, evaluation, solve, outputs, statistics); each is counted inclusive, per call
# (bench/callgrind_per_call.py), over one Google Benchmark iteration of 16384 samples.
#   bench/sweep_instructions.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
bin="$build/bench/bench_sweep_throughput"
command -v valgrind >/dev/null || { echo "skipped: valgrind not installed (apt-get install valgrind)"; exit 0; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
samples=16384  # per iteration (bench/sweep_throughput.cpp, kSamples)
echo "| study | bare core instr/sample | sweep instr/sample | sweep / bare |"
echo "|---|---|---|---|"
for study in 0 1; do
  name=$([ $study = 0 ] && echo foot_landing || echo quadruped_touchdown)
  valgrind --tool=callgrind --callgrind-out-file="$dir/sweep.$study" --collect-atstart=no \
    --toggle-collect='*bare_pass*' --toggle-collect='obliq::sweep::run(*' \
    "$bin" --benchmark_filter="BM_(Bare|Sweep)/study:$study/threads:1/" >/dev/null 2>"$dir/log" ||
    { cat "$dir/log"; exit 1; }
  read -r bare sweep < <(python3 "$root/bench/callgrind_per_call.py" "$dir/sweep.$study" bare_pass 'obliq::sweep::run(' | xargs)
  echo "| $name | $((bare / samples)) | $((sweep / samples)) | $(python3 -c "print(f'{$sweep/$bare:.2f}x')") |"
done

#!/usr/bin/env bash
# Where the time goes, for each issue-16 target that the README marks not met: `perf record`
# (self time per function, `perf report --sort symbol`) of
#   lcp        bench_lcp_vs_siconos (obliq's solvers and Siconos's side by side in one process),
#   cli        `obliq impact --threads 1` on ball lines and on (12, 4) lines,
#   pinocchio  bench_model_vs_pinocchio --profile obliq on TALOS (and --profile pinocchio),
# and for the core at (12, 4) callgrind instruction counts with the costliest functions
# (bench/core_instructions.sh). Run by bench/run_all.sh (part `profile`).
#   bench/profile.sh [BUILD_DIR] [--quick]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
quick=0; [ "${2:-}" = --quick ] && quick=1
command -v perf >/dev/null || { echo "skipped: perf not installed (apt-get install linux-perf)"; exit 0; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
top=14
# perf report's self-time table, one line per function: share, then the name without its
# arguments (templates kept), [k]ernel/[.]user mark dropped.
report() {
  perf report -i "$1" --no-children --sort symbol --stdio --percent-limit 0.8 2>/dev/null |
    grep -E '^ +[0-9.]+%' | sed -n "1,${top}p" |
    sed -E 's/^ +([0-9.]+%) +\[.\] +/\1  /; s/\(([^()]|\([^()]*\))*\)( const)?( \[clone[^]]*\])?$//; s/ +$//' |
    sed -E 's/[ -]+$//' | cut -c1-150 | sed 's/^/    /'
}
record() {  # record OUT CMD...: perf record of CMD (its stdout dropped)
  local out=$1; shift
  perf record -q -F 2000 -o "$out" -- "$@" >/dev/null 2>"$work/perf.err" || { echo "    (perf record failed: $(tail -1 "$work/perf.err"))"; return 1; }
}

echo "### LCP: bench_lcp_vs_siconos (Siconos's functions are lcp_*, do_pivot*; obliq's obliq::lcp::*)"
echo
n=100; [ $quick = 1 ] && n=10
if [ -x "$build/bench/siconos/bench_lcp_vs_siconos" ] && record "$work/lcp.data" taskset -c 0 "$build/bench/siconos/bench_lcp_vs_siconos" $n; then
  report "$work/lcp.data"
else
  echo "    skipped: bench_lcp_vs_siconos not built (Siconos numerics missing)"
fi

echo
echo "### Core at (12, 4): callgrind instructions per scenario (bench/core_instructions.sh)"
echo
bash "$root/bench/core_instructions.sh" "$build" 12 4 8

echo
echo "### Command line: obliq impact --threads 1 -o /dev/null"
lines=200000; big=20000; [ $quick = 1 ] && lines=20000 && big=2000
python3 "$root/bench/cli_inputs.py" "$work" "$lines" "$big"  # the same files as bench/cli_throughput.sh
for f in ball s12_4; do
  echo
  echo "$f.jsonl ($(wc -l < "$work/$f.jsonl") lines):"
  echo
  record "$work/cli.$f.data" "$build/obliq" impact "$work/$f.jsonl" --threads 1 -o /dev/null && report "$work/cli.$f.data"
done

echo
echo "### Pinocchio comparison, TALOS: bench_model_vs_pinocchio --profile obliq, then --profile pinocchio"
bin="$build/bench/pinocchio/bench_model_vs_pinocchio"
if [ -x "$bin" ] && python3 -c "import importlib.metadata as m, pinocchio; m.version('example-robot-data')" 2>/dev/null; then
  states=2000; [ $quick = 1 ] && states=200
  python3 "$root/bench/pinocchio/model_vs_pinocchio.py" "$bin" --robots talos --states $states --rounds 1 \
    --inputs "$work/pin" >/dev/null 2>"$work/pin.cmd" || { echo "    model_vs_pinocchio.py failed"; cat "$work/pin.cmd"; exit 1; }
  read -r -a cmd < <(grep -m1 "bench_model_vs_pinocchio" "$work/pin.cmd")
  for side in obliq pinocchio; do
    echo
    echo "$side:"
    echo
    record "$work/pin.$side.data" "${cmd[@]}" --profile $side && report "$work/pin.$side.data"
  done
else
  echo
  echo "    skipped: bench_model_vs_pinocchio not built or pin / example-robot-data missing"
fi

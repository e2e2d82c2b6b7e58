#!/usr/bin/env bash
# Instructions per scenario (callgrind) of the core on one thread and of the Eigen reference at
# one shape, the four kind x law cells, plus the core's most expensive functions (self
# instructions) in each cell: a count that does not move with the machine's load, beside the
# timings of bench/run_solver_bench.sh. Only solve_impact / solve_dynamics are counted
# (callgrind --toggle-collect), not the data generation; the number of calls is read from the
# callgrind output (bench/callgrind_per_call.py), so the figure is per solved scenario. The last
# column is the share of the core's counted instructions spent in the answer's certificate
# (impact_certificate / dynamics_certificate, inclusive: everything it calls).
#   bench/core_instructions.sh [BUILD_DIR] [N M] [TOP]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
n=${2:-12}
m=${3:-4}
top=${4:-8}
bin="$build/bench/bench_solver_throughput"
command -v valgrind >/dev/null || { echo "skipped: valgrind not installed (apt-get install valgrind)"; exit 0; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "| kind | law | n | m | reference instr/scenario | core instr/scenario (1 thread) | reference / core | certificate share of the core |"
echo "|---|---|---|---|---|---|---|---|"
profiles=()
for kind in 0 1; do
  for law in 0 1; do
    fn=$([ $kind = 0 ] && echo solve_impact || echo solve_dynamics)
    declare -A ir=()
    for which in reference core_1thread; do
      out="$dir/$which.$kind.$law.out"
      valgrind --tool=callgrind --callgrind-out-file="$out" --collect-atstart=no \
        --toggle-collect="void obliq::$fn<double>(*" \
        "$bin" --benchmark_filter="^BM_$which<double>/n:$n/m:$m/kind:$kind/law:$law/" >/dev/null 2>"$dir/log" ||
        { cat "$dir/log"; exit 1; }
      count=$([ $which = reference ] && echo 128 || echo 1024)  # scenarios per call (bench/solver_throughput.cpp)
      read -r inc calls < <(python3 "$root/bench/callgrind_per_call.py" --totals "$out" "void obliq::$fn<double>(")
      ir[$which]=$([ "$calls" -gt 0 ] && echo $(( inc / (calls * count) )) || echo nan)
    done
    kn=$([ $kind = 0 ] && echo impact || echo dynamics)
    ln=$([ $law = 0 ] && echo projection || echo complementarity)
    cert=$([ $kind = 0 ] && echo impact_certificate || echo dynamics_certificate)
    read -r -a cg < <(python3 "$root/bench/callgrind_per_call.py" --totals "$dir/core_1thread.$kind.$law.out" \
      "void obliq::$fn<double>(" "obliq::$cert<double>(" | xargs)
    share=$(python3 -c "print(f'{100 * ${cg[2]} / ${cg[0]}:.1f} %')" 2>/dev/null || echo nan)
    echo "| $kn | $ln | $n | $m | ${ir[reference]} | ${ir[core_1thread]} | $(python3 -c "print(f'{${ir[reference]}/${ir[core_1thread]}:.1f}x')") | $share |"
    profiles+=("$kn $ln: $(callgrind_annotate --threshold=100 "$dir/core_1thread.$kind.$law.out" 2>/dev/null |
      python3 -c '
import re, sys
top, out = int(sys.argv[1]), []
for line in sys.stdin:
    mt = re.match(r"\s*[\d,]+ \(\s*([\d.]+)%\)\s+(.*)$", line)
    if not mt or "PROGRAM TOTALS" in line: continue
    name = re.sub(r" \[/[^]]*\]$", "", mt.group(2)).split(":", 1)[-1]
    name = re.sub(r" \[clone[^]]*\]", "", name)
    name = re.sub(r"\((?:[^()]|\([^()]*\))*\)( const)?$", "", name).split(" ")[-1]
    out.append(f"{name} {mt.group(1)} %")
    if len(out) >= top: break
print("; ".join(out))' "$top")")
    unset ir
  done
done
echo
echo "Core's most expensive functions per cell (callgrind self instructions, share of the counted total):"
for p in "${profiles[@]}"; do echo "- $p"; done

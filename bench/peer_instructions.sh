#!/usr/bin/env bash
# Instructions (callgrind) of obliq and of its peers on the same work, the sibling of
# bench/core_instructions.sh: counts that do not move with the machine's load.
#   lcp        bench_lcp_vs_siconos --instructions M: per problem, Siconos's lcp_lexicolemke and
#              obliq's Lemke on the cold table's full-rank random contact LCPs (m = 4, 12, 24);
#              only the two pass functions are counted (--toggle-collect).
#   pinocchio  bench_model_vs_pinocchio --profile obliq|obliq-dense|pinocchio: per state, obliq's
#              model evaluation + impact (M factored along the tree; and dense) against Pinocchio's fk + crba + nle + contact rows +
#              impulseDynamics; the count of --rounds 2 minus that of --rounds 1 (5 passes over
#              the states, set-up cancelled), divided by 5 x states.
# A part whose program is not built here (Siconos numerics, or Pinocchio's CMake package:
# configure with -DOBLIQ_PINOCCHIO_PREFIX="$(python3 -m cmeel cmake)") is skipped with a note.
#   bench/peer_instructions.sh [BUILD_DIR] [STATES] [ROBOTS]   (defaults: build 100 solo12,talos)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
states=${2:-100}
robots=${3:-solo12,talos}
command -v valgrind >/dev/null || { echo "skipped: valgrind not installed (apt-get install valgrind)"; exit 0; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# total OUT: the instructions callgrind counted (its summary line).
total() { python3 -c 'import sys
for line in open(sys.argv[1], errors="replace"):
    if line.startswith(("summary:", "totals:")): print(line.split()[1]); break' "$1"; }

echo "### LCP: instructions per problem, Siconos lcp_lexicolemke vs obliq Lemke (full rank, 200 problems)"
echo
lcp="$build/bench/siconos/bench_lcp_vs_siconos"
if [ -x "$lcp" ]; then
  echo "| m | Siconos lemke instr/problem | obliq lemke instr/problem | Siconos / obliq |"
  echo "|---|---|---|---|"
  for m in 4 12 24; do
    declare -A ir=()
    for side in siconos obliq; do
      valgrind --tool=callgrind --callgrind-out-file="$dir/lcp.$side.$m" --collect-atstart=no \
        --toggle-collect="*${side}_lemke_pass*" "$lcp" --instructions $m 200 >/dev/null 2>"$dir/log" ||
        { cat "$dir/log"; exit 1; }
      ir[$side]=$(( $(total "$dir/lcp.$side.$m") / 200 ))
    done
    echo "| $m | ${ir[siconos]} | ${ir[obliq]} | $(python3 -c "print(f'{${ir[siconos]}/${ir[obliq]}:.2f}x')") |"
    unset ir
  done
else
  echo "skipped: $lcp not built (Siconos numerics missing)"
fi

echo
echo "### Model evaluation + impact: instructions per state, Pinocchio vs obliq ($states states)"
echo
pin="$build/bench/pinocchio/bench_model_vs_pinocchio"
[ -x "$pin" ] && pin=$(realpath "$pin")
if [ -x "$pin" ] && python3 -c "import importlib.metadata as m, pinocchio; m.version('example-robot-data')" 2>/dev/null; then
  python3 "$root/bench/pinocchio/model_vs_pinocchio.py" "$pin" --robots "$robots" --states "$states" --rounds 1 \
    --inputs "$dir/pin" >/dev/null 2>"$dir/pin.cmd" || { echo "model_vs_pinocchio.py failed"; cat "$dir/pin.cmd"; exit 1; }
  echo "| robot | nv | Pinocchio instr/state | obliq instr/state | obliq, dense M, instr/state | Pinocchio / obliq |"
  echo "|---|---|---|---|---|---|"
  while read -r -a cmd; do
    robot=$(printf '%s\n' "${cmd[@]}" | grep -m1 -A1 -- '--urdf' | tail -1 | xargs basename | sed 's/\.urdf$//')
    declare -A ir=()
    for side in pinocchio obliq obliq-dense; do
      for rounds in 1 2; do
        valgrind --tool=callgrind --callgrind-out-file="$dir/pin.$side.$rounds" "${cmd[@]}" --profile $side \
          --rounds $rounds >/dev/null 2>"$dir/log" || { cat "$dir/log"; exit 1; }
      done
      ir[$side]=$(( ($(total "$dir/pin.$side.2") - $(total "$dir/pin.$side.1")) / (5 * states) ))
    done
    nv=$(python3 -c "import json,sys; print(len(json.loads(open(sys.argv[1]).readline())['qdot']))" \
      "$(printf '%s\n' "${cmd[@]}" | grep -m1 -A1 -- '--states' | tail -1)")
    echo "| $robot | $nv | ${ir[pinocchio]} | ${ir[obliq]} | ${ir[obliq-dense]} | $(python3 -c "print(f'{${ir[pinocchio]}/${ir[obliq]}:.2f}x')") |"
    unset ir
  done < <(grep "^$pin " "$dir/pin.cmd")
else
  echo "skipped: $pin not built (configure with -DOBLIQ_PINOCCHIO_PREFIX=\"\$(python3 -m cmeel cmake)\") or pin / example-robot-data missing"
fi

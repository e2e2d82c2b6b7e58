#!/usr/bin/env bash
# Instructions (callgrind) of obliq and of its peers on the same work, the sibling of
# bench/core_instructions.sh: counts that do not move with the machine's load.
#   lcp        bench_lcp_vs_siconos --instructions M: per problem, Siconos's lcp_lexicolemke and
#              obliq's Lemke on the cold table's full-rank random contact LCPs (m = 4, 12, 24);
#              only the two pass functions are counted (--toggle-collect).
#   friction   bench_friction_vs_siconos 10 NC: per problem, obliq's exact-cone solve and Siconos's
#              fc3d_nsgs (each side's out-of-line solve function, what the timed passes run;
#              bench/callgrind_per_call.py), at 1, 4, 12 and 24 contacts.
#   pinocchio  bench_model_vs_pinocchio --profile obliq|obliq-dense|pinocchio: per state, obliq's
#              model evaluation + impact (M factored along the tree; and dense) against Pinocchio's fk + crba + nle + contact rows +
#              impulseDynamics; the count of --rounds 2 minus that of --rounds 1 (5 passes over
#              the states, set-up cancelled), divided by 5 x states.
# A part whose program is not built here (Siconos numerics, or Pinocchio's CMake package:
# configure with -DOBLIQ_PINOCCHIO_PREFIX="$(python3 -m cmeel cmake)") is skipped with a note.
#   bench/peer_instructions.sh [BUILD_DIR] [STATES] [ROBOTS] [PARTS]
#   (defaults: build 100 solo12,talos lcp,friction,pinocchio)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
states=${2:-100}
robots=${3:-solo12,talos}
parts=",${4:-lcp,friction,pinocchio},"
wants() { [[ "$parts" == *",$1,"* ]]; }
command -v valgrind >/dev/null || { echo "skipped: valgrind not installed (apt-get install valgrind)"; exit 0; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# total OUT: the instructions callgrind counted (its summary line).
total() { python3 -c 'import sys
for line in open(sys.argv[1], errors="replace"):
    if line.startswith(("summary:", "totals:")): print(line.split()[1]); break' "$1"; }

if wants lcp; then
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

fi
if wants friction; then
echo
echo "### Friction: instructions per problem, Siconos fc3d_nsgs vs obliq's cone solve (10 problems per size)"
echo
fr="$build/bench/siconos/bench_friction_vs_siconos"
if [ -x "$fr" ]; then
  echo "| contacts | Siconos fc3d_nsgs instr/problem | obliq cone instr/problem | Siconos / obliq |"
  echo "|---|---|---|---|"
  for nc in 1 4 12 24; do
    valgrind --tool=callgrind --callgrind-out-file="$dir/fr.$nc" --collect-atstart=no \
      --toggle-collect='*siconos_nsgs_solve*' --toggle-collect='*obliq_cone_solve*' "$fr" 10 $nc >/dev/null 2>"$dir/log" ||
      { cat "$dir/log"; exit 1; }
    read -r sic obl < <(python3 "$root/bench/callgrind_per_call.py" "$dir/fr.$nc" siconos_nsgs_solve obliq_cone_solve | xargs)
    echo "| $nc | $sic | $obl | $(python3 -c "print(f'{$sic/$obl:.2f}x')") |"
  done
else
  echo "skipped: $fr not built (Siconos numerics missing)"
fi
fi

if wants pinocchio; then
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
fi

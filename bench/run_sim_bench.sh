#!/usr/bin/env bash
# The Simulator's benchmark (README "Benchmarks", docs/simulator.md): scenario-steps per second
# for batches of 1, 1e3, 1e5 of ball, cradle, biped5, quadruped and Solo-12 (example-robot-data's
# URDF, free base, contacts at the four feet), both integrators, one thread and all threads;
# then the side-by-side run against Siconos (its bouncing ball) and MuJoCo (the quadruped).
# Usage: bench/run_sim_bench.sh BUILD_DIR [SICONOS_PYTHON]
set -euo pipefail
build=${1:-build}
siconos_python=${2:-python3}
robots=$(python3 -c "import importlib.metadata as m; print(m.distribution('example-robot-data').locate_file('cmeel.prefix/share/example-robot-data/robots'))")
"$build/bench/bench_sim_throughput" --json --min-time 0.3 \
  --urdf "$robots/solo_description/robots/solo12.urdf" --urdf-name solo12 \
  --urdf-contacts FL_FOOT,FR_FOOT,HL_FOOT,HR_FOOT
python3 "$(dirname "$0")/sim_vs_peers.py" "$build/bench/bench_sim_throughput" --siconos-python "$siconos_python" --markdown

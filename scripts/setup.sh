#!/usr/bin/env bash
# Installs what obliq needs on Debian 12 (run as root): the toolchain and libraries from
# Debian's packages (Siconos for the peer checks), and from PyPI Pinocchio + example-robot-data
# (the model layer's peer checks), the Python package's build and test requirements, and MuJoCo
# (the Simulator benchmark's peer). Idempotent: packages already present are not fetched again.
set -euo pipefail

apt_packages=(
  build-essential cmake ninja-build pkg-config
  libeigen3-dev nlohmann-json3-dev libcli11-dev   # reference linear algebra, JSON, arguments
  libsimdjson-dev                                  # the fast JSON reader of scenario lines
  libgtest-dev libbenchmark-dev                    # tests and benchmarks
  liburdfdom-dev                                   # URDF models
  libsiconos-numerics-dev                          # peer LCP solvers (benchmark only)
  librandom123-dev libboost-dev                    # sweeps: Philox draws, Boost.Math quantile functions
  libhdf5-dev gnuplot-nox                          # sweeps: per-sample rows in HDF5, PNG plots
  libopenmpi-dev openmpi-bin                       # sweeps across processes: mpirun -np K obliq sweep
  python3-siconos                                  # peer integrators (tests/sim/siconos_compare.py)
  clang libclang-rt-dev                            # fuzz targets: libFuzzer, ASan, UBSan (scripts/ci/fuzz.sh)
  libomp-dev                                       # clang's OpenMP (LLVM libomp, Archer for TSan: scripts/ci/sanitize.sh)
)
missing=()
command -v python3 >/dev/null 2>&1 || apt_packages+=(python3 python3-pip)
for p in "${apt_packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "obliq setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# From PyPI: Pinocchio (`pin`) and example-robot-data, the model layer's reference; numpy,
# nanobind and scikit-build-core to build the Python package (`pip install .`, python/), pytest
# and gymnasium for its tests and environments. Only what is missing is installed.
pip_wanted=(pin example-robot-data numpy nanobind scikit-build-core pytest gymnasium)
mapfile -t pip_packages < <(python3 - "${pip_wanted[@]}" <<'PY'
import sys
from importlib import metadata
for name in sys.argv[1:]:
    try:
        metadata.version(name)
    except metadata.PackageNotFoundError:
        print(name)
PY
)
if [ ${#pip_packages[@]} -gt 0 ]; then
  echo "obliq setup: installing ${pip_packages[*]} from PyPI"
  python3 -m pip install --quiet --disable-pip-version-check "${pip_packages[@]}" ||
    python3 -m pip install --quiet --disable-pip-version-check --break-system-packages "${pip_packages[@]}"
fi

# MuJoCo: the Simulator benchmark's peer on the quadruped (bench/sim_vs_peers.py).
if ! python3 -c "import mujoco" >/dev/null 2>&1; then
  echo "obliq setup: installing mujoco from PyPI"
  python3 -m pip install --quiet --disable-pip-version-check mujoco ||
    python3 -m pip install --quiet --disable-pip-version-check --break-system-packages mujoco
fi

#!/usr/bin/env bash
# CI step: the Python package. Builds a wheel from this tree (pip wheel through scikit-build-core;
# the build requirements come from scripts/setup.sh, so no build isolation), installs it into a
# private folder (the system's site-packages are left alone) and runs pytest on python/tests,
# whose cross-checks run the command line built by scripts/test.sh ($OBLIQ_BUILD_DIR/obliq);
# with the CUDA backend, the backend="cuda" tests once more on its CPU emulation (below).
set -euo pipefail
cd "$(dirname "$0")/../.."
start=$SECONDS
build=${OBLIQ_BUILD_DIR:-build}
py=${PYTHON:-python3}
out="$build/python"
rm -rf "$out/dist" "$out/site"
cmake_args=()
if command -v ccache >/dev/null 2>&1; then cmake_args+=("-Ccmake.define.CMAKE_CXX_COMPILER_LAUNCHER=ccache"); fi
# With nvcc on the PATH the wheel carries the CUDA backend (libobliq_cuda.so beside the module,
# python/CMakeLists.txt), and pytest checks that backend="cuda" finds it (OBLIQ_EXPECT_CUDA_BACKEND).
export PATH="/usr/local/cuda/bin:$PATH"
if command -v nvcc >/dev/null 2>&1; then
  cmake_args+=("-Ccmake.define.OBLIQ_ENABLE_CUDA=ON")
  export OBLIQ_EXPECT_CUDA_BACKEND=1
fi
"$py" -m pip wheel . --no-deps --no-build-isolation --disable-pip-version-check -q -w "$out/dist" \
  -Cbuild-dir="$out/build" "${cmake_args[@]}"
"$py" -m pip install --no-deps --disable-pip-version-check --root-user-action=ignore -q --target "$out/site" "$out"/dist/obliq-*.whl
echo "python: wheel built and installed in $((SECONDS - start)) s"

export PYTHONPATH="$PWD/$out/site${PYTHONPATH:+:$PYTHONPATH}"
export OBLIQ_CLI="$PWD/$build/obliq"
# The installed package, not the source folder, must be the one imported.
"$py" -c "import obliq, sys; assert obliq.__file__.startswith('$PWD/$out/site'), obliq.__file__"
set +e
"$py" -m pytest -q -p no:cacheprovider python/tests
rc=$?
set -e
if [ "$rc" -eq 5 ]; then
  echo "python: pytest collected no tests (exit 5): that is a failure here" >&2
  rc=1
fi
# The device path (backend="cuda") on the CPU emulation of the CUDA backend: the tests that use
# it run again in a process whose backend="cuda" loads the emulated table (tests/cuda_emulation's
# libobliq_cuda_emulated.so, built by scripts/test.sh), since a process loads one backend.
if [ "${OBLIQ_EXPECT_CUDA_BACKEND:-}" = "1" ]; then
  emulated="$PWD/$build/tests/cuda_emulation/libobliq_cuda_emulated.so"
  if [ ! -f "$emulated" ]; then
    echo "python: $emulated is missing (build $build first: scripts/test.sh)" >&2
    rc=1
  else
    set +e
    OBLIQ_CUDA_LIBRARY="$emulated" OBLIQ_CUDA_EMULATED=1 "$py" -m pytest -q -p no:cacheprovider -k cuda \
      python/tests/test_cuda_emulated.py python/tests/test_simulator.py python/tests/test_envs.py
    emulated_rc=$?
    set -e
    echo "python: device path on the emulated backend: exit $emulated_rc"
    [ "$emulated_rc" -eq 0 ] || rc=1
  fi
fi
echo "python: CI step took $((SECONDS - start)) s (exit $rc)"
exit "$rc"

#!/usr/bin/env bash
# Sets up, builds everything (CUDA parts too when nvcc is found) and runs the whole test suite.
# GPU tests skip themselves when no device is present.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
build=${OBLIQ_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" -j"$(nproc)"
ctest --test-dir "$build" --output-on-failure -j"$(nproc)" --timeout 900

#!/usr/bin/env bash
# bench/gpu_check.sh: the one command that checks the GPU side of obliq (docs/cuda.md).
#
#   bench/gpu_check.sh                  configure + build (CUDA, sm_90) in build-gpu/, run the GPU
#                                       tests, run the throughput benchmark
#   bench/gpu_check.sh --build-only     the build only, then pack the two programs and the shared
#                                       libraries they need that are not CUDA's into
#                                       build-gpu/gpu-bin/ (for a GPU machine that lacks the
#                                       build dependencies: carry that folder there)
#   bench/gpu_check.sh --prebuilt DIR   no build: run DIR/obliq_cuda_tests and DIR/obliq_gpu_bench
#   --quick                             the benchmark at (12, 4) only (a smoke run)
#
# Designed to finish in under 8 minutes on an H200 (16 cores): the build is about 2-4 minutes
# (nvcc on the fused kernels dominates), the tests under a minute, and the benchmark is capped by
# its own --budget-s (default here: what is left of 7 minutes, at most 300 s). Logs go to
# $OUT (when set, as on the device machine) or to build-gpu/.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
BUILD=${OBLIQ_GPU_BUILD:-$ROOT/build-gpu}
LOGS=${OUT:-$BUILD}
mode=full
prebuilt=
quick=
while [ $# -gt 0 ]; do
  case "$1" in
    --build-only) mode=build ;;
    --prebuilt) mode=prebuilt; prebuilt=$(cd "$2" && pwd); shift ;;
    --quick) quick=--quick ;;
    *) echo "usage: bench/gpu_check.sh [--build-only | --prebuilt DIR] [--quick]" >&2; exit 2 ;;
  esac
  shift
done
mkdir -p "$BUILD" "$LOGS"
t0=$(date +%s)
elapsed() { echo $(( $(date +%s) - t0 )); }
say() { echo "== gpu_check [$(elapsed) s] $*"; }

if command -v nvidia-smi >/dev/null 2>&1; then
  nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,clocks.max.mem --format=csv 2>&1 | tee "$LOGS/gpu.txt"
fi

if [ "$mode" != prebuilt ]; then
  say "configure ($BUILD, sm_90)"
  cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DOBLIQ_ENABLE_CUDA=ON -DOBLIQ_BUILD_TESTS=ON >"$LOGS/configure.log" 2>&1 \
    || { tail -30 "$LOGS/configure.log"; echo "gpu_check: configure failed (see configure.log)"; exit 1; }
  grep -q "obliq: CUDA backend ON" "$LOGS/configure.log" || { echo "gpu_check: nvcc not found: no CUDA backend"; exit 1; }
  say "build obliq_cuda_tests obliq_gpu_bench"
  # Only what this script runs (not the device-check object, the CLI or the CPU test programs).
  cmake --build "$BUILD" --target obliq_cuda_tests obliq_gpu_bench -j "$(nproc)" >"$LOGS/build.log" 2>&1 \
    || { grep -E "error|FAILED" "$LOGS/build.log" | head -40; echo "gpu_check: build failed (see build.log)"; exit 1; }
  BIN_TESTS=$BUILD/tests/cuda/obliq_cuda_tests
  BIN_BENCH=$BUILD/cuda/obliq_gpu_bench
  if command -v cuobjdump >/dev/null 2>&1; then  # registers / stack of the fused kernels
    cuobjdump -res-usage "$BIN_BENCH" 2>/dev/null | grep -A1 -E "impact_kernel|dynamics_kernel" | grep -E "Function|REG" \
      | sed 's/^/  /' | head -16
  fi
  if [ "$mode" = build ]; then
    PACK=$BUILD/gpu-bin
    rm -rf "$PACK" && mkdir -p "$PACK/lib"
    cp "$BIN_TESTS" "$BIN_BENCH" "$PACK/"
    # Shared libraries that are neither the C library nor CUDA's (those come with the driver
    # and the toolkit on the GPU machine).
    ldd "$BIN_TESTS" "$BIN_BENCH" | awk '/=> \//{print $3}' | sort -u \
      | grep -v -E '/(libc|libm|libpthread|libdl|librt|ld-linux[^/]*)\.so|libcuda\.so|libcudart|libcublas|libcusolver|libcusparse|libnvJitLink' \
      | while read -r lib; do cp -L "$lib" "$PACK/lib/"; done
    du -sh "$PACK"
    say "packed into $PACK (run there: bench/gpu_check.sh --prebuilt $PACK)"
    exit 0
  fi
else
  BIN_TESTS=$prebuilt/obliq_cuda_tests
  BIN_BENCH=$prebuilt/obliq_gpu_bench
  export LD_LIBRARY_PATH="$prebuilt/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
fi

status=0
say "GPU tests"
"$BIN_TESTS" --gtest_color=no 2>&1 | tee "$LOGS/gpu_tests.log" | grep -E "^\[ *(OK|FAILED|SKIPPED|PASSED|==========) *\]|Failure|error" | head -80
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1

budget=$(( 420 - $(elapsed) ))
[ "$budget" -gt 300 ] && budget=300
[ "$budget" -lt 30 ] && budget=30
say "throughput benchmark (budget ${budget} s)"
"$BIN_BENCH" $quick --budget-s "$budget" 2>&1 | tee "$LOGS/gpu_bench.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1

say "done, status $status"
exit $status

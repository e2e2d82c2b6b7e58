#!/usr/bin/env bash
# CI step: which CUDA architectures a build folder is configured for (cmake/cuda_architectures.cmake,
# docs/cuda.md "Building"), on the first configure and on reconfigures of the same folder with
# other settings: the default (PTX for compute_90, with nvcc's fast device compile), CUDAARCHS,
# -DCMAKE_CUDA_ARCHITECTURES (which stays until the next -D), -U (back to CUDAARCHS). Configure
# only, into a temporary folder, with the libraries only (a few seconds a configure). Skipped
# (exit 0, said so) without nvcc.
set -euo pipefail
cd "$(dirname "$0")/../.."
start=$(date +%s)
export PATH="/usr/local/cuda/bin:$PATH"
if ! command -v nvcc >/dev/null 2>&1; then
  echo "cuda_architectures: skipped (no nvcc on the PATH)"
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build=$work/build
# The caller's own settings must not leak in (the cases below set what they test).
unset CUDAARCHS NVCC_APPEND_FLAGS CMAKE_CUDA_ARCHITECTURES
failed=0
step=0
nvcc_fast=no
nvcc --help >"$work/nvcc-help.txt" 2>&1 || true
grep -q -- '--Ofast-compile' "$work/nvcc-help.txt" && nvcc_fast=yes

# configure ENV_CUDAARCHS EXPECTED_ARCHS EXPECTED_FAST(yes|no) [cmake args...]
configure() {
  local env_archs=$1 expected=$2 fast=$3
  shift 3
  step=$((step + 1))
  local log=$work/configure-$step.log
  if ! env ${env_archs:+CUDAARCHS=$env_archs} cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DOBLIQ_ENABLE_CUDA=ON -DOBLIQ_BUILD_TESTS=OFF -DOBLIQ_BUILD_BENCH=OFF -DOBLIQ_BUILD_CLI=OFF \
      -DOBLIQ_BUILD_SWEEP=OFF -DOBLIQ_BUILD_MODEL=OFF -DOBLIQ_BUILD_IO=OFF -DOBLIQ_USE_CCACHE=OFF "$@" >"$log" 2>&1; then
    echo "cuda_architectures: FAIL step $step (CUDAARCHS='$env_archs' $*): cmake failed:"
    grep -E "Error|error|empty" "$log" | awk 'NR <= 10 {print "  " $0}'
    failed=1
    return 0
  fi
  grep -q "obliq: CUDA backend ON" "$log" || { echo "cuda_architectures: FAIL step $step: no CUDA backend"; failed=1; return 0; }
  local cached
  cached=$(sed -n 's/^CMAKE_CUDA_ARCHITECTURES:[A-Z]*=//p' "$build/CMakeCache.txt")
  # nvcc's fast device compile, on the kernels' command lines (build.ninja holds the flags).
  local has_fast=no
  grep -q -- "-Ofc=max" "$build/build.ninja" && has_fast=yes
  [ "$nvcc_fast" = yes ] || fast=no  # only where this nvcc knows the flag
  if [ "$cached" = "$expected" ] && [ "$has_fast" = "$fast" ]; then
    echo "cuda_architectures: ok   step $step (CUDAARCHS='$env_archs' $*): cached '$cached', -Ofc=max $has_fast"
  else
    echo "cuda_architectures: FAIL step $step (CUDAARCHS='$env_archs' $*): cached '$cached' (expected '$expected'), -Ofc=max $has_fast (expected $fast)"
    failed=1
  fi
}

configure ""         90-virtual yes                                       # a plain first configure: PTX only
configure 90         90         no                                        # CUDAARCHS on a reconfigure: machine code
configure ""         90         no                                        # CUDAARCHS gone: the folder keeps its choice
configure 90         80-virtual yes -DCMAKE_CUDA_ARCHITECTURES=80-virtual # -D wins over CUDAARCHS
configure 90-virtual 80-virtual yes                                       # ... and stays until the next -D
configure 90         90         no  -UCMAKE_CUDA_ARCHITECTURES            # -U: CUDAARCHS decides again
configure 90-virtual 90-virtual yes                                       # ... and again
configure ""         90-real    no  -DCMAKE_CUDA_ARCHITECTURES=90-real    # bench/gpu_check.sh's configure
configure 90-virtual 90-real    no                                        # the -D stays
echo "cuda_architectures: $step configures in $(( $(date +%s) - start )) s"
[ $failed -eq 0 ] || { echo "cuda_architectures: FAILED"; exit 1; }

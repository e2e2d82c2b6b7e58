#!/usr/bin/env bash
# bench/gpu_check.sh: the one unattended run that checks the GPU side of obliq (docs/cuda.md).
#
#   bench/gpu_check.sh --build-only      here (a machine with the build dependencies, no GPU
#                                        needed): configure and build for sm_90, then pack the two
#                                        programs and the few shared libraries they need into
#                                        $BUILD/gpu-pack (under 64 MiB; libstdc++ and libgcc linked
#                                        statically, so the GPU machine's own are never displaced)
#   bench/gpu_check.sh --prebuilt DIR    there (a bare GPU machine with the CUDA toolkit): run
#                                        the packed programs in DIR, nothing is built
#   bench/gpu_check.sh                   both on one machine
#
# Steps on the GPU, each under a timeout, each writing its full log to $LOGS/<step>.log before
# anything is filtered: probe the device; the GPU tests; compute-sanitizer memcheck, initcheck
# and racecheck on a small filtered set; GPU vs CPU on 1,000 scenarios sampled from a 1e6
# batch of each class; the throughput benchmark. Then $LOGS/report.txt (under 200 lines) is
# printed. Exit status 0 only when every step passed: no device, a GPU test that fails or
# skips, a sanitizer error, a GPU/CPU disagreement or a step that times out is a failure.
# Designed for under 8 minutes of GPU time (a rerun fits in 15).
#
# Environment: OBLIQ_GPU_BUILD (build folder, default build-gpu), OBLIQ_GPU_JOBS (build jobs,
# default nproc), OUT (log folder on the device machine; default $BUILD/gpu-logs).
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
BUILD=${OBLIQ_GPU_BUILD:-$ROOT/build-gpu}
case "$BUILD" in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
JOBS=${OBLIQ_GPU_JOBS:-$(nproc)}
mode=full
pack=
while [ $# -gt 0 ]; do
  case "$1" in
    --build-only) mode=build ;;
    --prebuilt) mode=prebuilt; pack=${2:-}; shift ;;
    *) echo "usage: bench/gpu_check.sh [--build-only | --prebuilt DIR]" >&2; exit 2 ;;
  esac
  shift
done
if [ "$mode" = prebuilt ]; then
  [ -d "$pack" ] || { echo "gpu_check: --prebuilt needs the packed folder (bench/gpu_check.sh --build-only makes it)" >&2; exit 2; }
  pack=$(cd "$pack" && pwd)
fi
LOGS=${OUT:-$BUILD/gpu-logs}
mkdir -p "$LOGS"
REPORT=$LOGS/report.txt
: >"$REPORT"
t0=$(date +%s)
failed=0
elapsed() { echo $(( $(date +%s) - t0 )); }
note() { echo "$*" | tee -a "$REPORT"; }

# step NAME TIMEOUT_S CMD...: runs CMD under a timeout with its full output in $LOGS/NAME.log,
# notes PASS/FAIL with the time; returns CMD's status (124 on a timeout).
step() {
  local name=$1 limit=$2
  shift 2
  local s0
  s0=$(date +%s)
  timeout -k 10 "$limit" "$@" >"$LOGS/$name.log" 2>&1
  local rc=$?
  local verdict=PASS extra=
  [ $rc -eq 0 ] || verdict=FAIL
  [ $rc -eq 124 ] && extra="(timed out after $limit s)"
  note "$(printf '%-22s %-5s %4d s  rc %d %s' "$name" "$verdict" $(( $(date +%s) - s0 )) $rc "$extra")"
  return $rc
}
fail() { failed=1; note "FAIL: $*"; }

note "obliq gpu_check, $(date -u '+%Y-%m-%d %H:%M UTC'), mode $mode, commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || cat "${pack:-/nonexistent}/COMMIT" 2>/dev/null || echo unknown)"

# --- build and pack ----------------------------------------------------------------------------
if [ "$mode" != prebuilt ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
  launchers=()
  if command -v ccache >/dev/null 2>&1; then
    launchers=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
  fi
  # Static libstdc++/libgcc: the device machine's C++ runtime is neither needed nor displaced.
  # RUNPATH $ORIGIN/lib and nothing else (no build-tree folders, which would hide a library
  # missing from the pack when the pack is tried here): the packed libraries are found without
  # LD_LIBRARY_PATH. (A -Wl,-rpath,$ORIGIN in the linker flags does not survive: the build's
  # shell expands $ORIGIN to nothing.) The test program is not run at build time (PRE_TEST
  # discovery): outside the pack it does not find libobliq_cuda.so.
  # Machine code at full optimization, whatever the caller's shell says: a CUDAARCHS or a
  # NVCC_APPEND_FLAGS (-Ofc=max, say) meant for a PTX-only test build must not reach the pack.
  for var in CUDAARCHS NVCC_APPEND_FLAGS NVCC_PREPEND_FLAGS; do
    [ -z "${!var:-}" ] || note "ignored for this build: $var='${!var}'"
    unset "$var"
  done
  step configure 600 cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DOBLIQ_ENABLE_CUDA=ON -DOBLIQ_BUILD_TESTS=ON "${launchers[@]}" \
    "-DCMAKE_EXE_LINKER_FLAGS=-static-libstdc++ -static-libgcc" \
    "-DCMAKE_SHARED_LINKER_FLAGS=-static-libstdc++ -static-libgcc" \
    -DCMAKE_BUILD_WITH_INSTALL_RPATH=ON "-DCMAKE_INSTALL_RPATH=\$ORIGIN/lib" \
    -DCMAKE_GTEST_DISCOVER_TESTS_DISCOVERY_MODE=PRE_TEST \
    || { tail -30 "$LOGS/configure.log"; exit 1; }
  grep -q "obliq: CUDA backend ON" "$LOGS/configure.log" || { note "FAIL: nvcc not found: no CUDA backend"; exit 1; }
  grep -q '^CMAKE_CUDA_ARCHITECTURES:[A-Z]*=90$' "$BUILD/CMakeCache.txt" ||
    { note "FAIL: $BUILD is not configured for sm_90: $(grep '^CMAKE_CUDA_ARCHITECTURES' "$BUILD/CMakeCache.txt")"; exit 1; }
  step build 3600 cmake --build "$BUILD" --target obliq_cuda_tests obliq_gpu_bench -j "$JOBS" \
    || { grep -E "error|FAILED" "$LOGS/build.log" | awk 'NR <= 40'; exit 1; }
  TESTS=$BUILD/tests/cuda/obliq_cuda_tests
  BENCH=$BUILD/cuda/obliq_gpu_bench
  if command -v cuobjdump >/dev/null 2>&1; then  # registers, stack and shared memory of the kernels
    cuobjdump -res-usage "$BENCH" >"$LOGS/resources.log" 2>&1
    awk '/Function/ {f=$2} /REG:/ {print "  " f " " $0}' "$LOGS/resources.log" | grep -E "impact_kernel|dynamics_kernel" \
      | sed -E 's/_Z[0-9A-Za-z_]*(impact|dynamics)_kernel[0-9A-Za-z_]*/\1_kernel/' | awk 'NR <= 12' | tee -a "$REPORT"
  fi
  if command -v cuobjdump >/dev/null 2>&1 && ! cuobjdump --list-elf "$BUILD/cuda/libobliq_cuda.so" 2>/dev/null | grep -q sm_90; then
    fail "libobliq_cuda.so holds no sm_90 machine code (cuobjdump --list-elf)"
  fi
  PACK=$BUILD/gpu-pack
  rm -rf "$PACK" && mkdir -p "$PACK/lib"
  cp "$TESTS" "$BENCH" "$PACK/"
  cp -L "$BUILD/cuda/libobliq_cuda.so" "$PACK/lib/"
  git -C "$ROOT" rev-parse --short HEAD >"$PACK/COMMIT" 2>/dev/null || true
  # Shared libraries to carry: not the C library's, not the driver's, not cuBLAS/cuSOLVER (the
  # toolkit's, hundreds of MB); libstdc++ and libgcc_s must not appear at all (linked statically).
  # Resolved as the packed programs resolve them (libobliq_cuda.so through $ORIGIN/lib).
  ldd "$PACK/obliq_cuda_tests" "$PACK/obliq_gpu_bench" "$PACK/lib/libobliq_cuda.so" >"$LOGS/ldd-build.log" 2>&1
  grep -q "not found" "$LOGS/ldd-build.log" && fail "a library of the pack is not found here: $(grep 'not found' "$LOGS/ldd-build.log" | sort -u | tr '\n' ' ')"
  # Direct dependencies (cuBLAS itself needs the GPU machine's libgcc_s, which is as it should be).
  if readelf -d "$TESTS" "$BENCH" "$BUILD/cuda/libobliq_cuda.so" | grep NEEDED | grep -qE "libstdc\+\+|libgcc_s"; then
    fail "the programs still need libstdc++/libgcc_s as shared libraries (readelf -d)"
  fi
  for program in "$TESTS" "$BENCH"; do
    runpath=$(readelf -d "$program" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
    [ "$runpath" = '$ORIGIN/lib' ] || fail "$(basename "$program")'s RUNPATH is '$runpath', not \$ORIGIN/lib"
  done
  awk '/=> \// {print $3}' "$LOGS/ldd-build.log" | sort -u \
    | grep -v -E '/(libc|libm|libpthread|libdl|librt|libutil|libstdc\+\+|libgcc_s|ld-linux[^/]*)\.so|libcuda\.so|libcublas|libcusolver|libcusparse|libnvJitLink' \
    | while read -r lib; do [ "$(dirname "$lib")" = "$PACK/lib" ] || cp -L "$lib" "$PACK/lib/"; done
  # compute-sanitizer, which the nvcc-only toolkit lacks: from NVIDIA's PyPI wheel (downloaded
  # once into $BUILD/sanitizer), without its docs, 32-bit tools and headers, as a tarball of
  # about 12 MB that the run unpacks into a temporary folder.
  wheel=$(ls "$BUILD"/sanitizer/nvidia_cuda_sanitizer_api-13*.whl 2>/dev/null | awk 'NR == 1')
  if [ -z "$wheel" ]; then
    timeout 300 python3 -m pip download --no-deps -q "nvidia-cuda-sanitizer-api==13.*" -d "$BUILD/sanitizer" \
      >"$LOGS/sanitizer-download.log" 2>&1
    wheel=$(ls "$BUILD"/sanitizer/nvidia_cuda_sanitizer_api-13*.whl 2>/dev/null | awk 'NR == 1')
  fi
  if [ -n "$wheel" ]; then
    rm -rf "$BUILD/sanitizer/x"
    python3 - "$wheel" "$BUILD/sanitizer/x" <<'PY'
import os, sys, zipfile
keep = "nvidia/cu13/compute-sanitizer/"
with zipfile.ZipFile(sys.argv[1]) as z:
    for i in z.infolist():
        rest = i.filename[len(keep):]
        if not i.filename.startswith(keep) or rest.split("/")[0] in ("docs", "x86", "include") or i.is_dir():
            continue
        path = os.path.join(sys.argv[2], "compute-sanitizer", rest)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(z.read(i))
        os.chmod(path, (i.external_attr >> 16) & 0o777 or 0o644)
PY
    tar -czf "$PACK/compute-sanitizer.tar.gz" -C "$BUILD/sanitizer/x" compute-sanitizer
    note "compute-sanitizer packed from $(basename "$wheel")"
  else
    note "compute-sanitizer: the wheel could not be downloaded (sanitizer-download.log); the sanitizer steps will fail there"
  fi
  cp "$ROOT/bench/gpu_check.sh" "$PACK/"
  bytes=$(du -sb "$PACK" | cut -f1)
  note "packed $(ls "$PACK/lib" | tr '\n' ' ')+ 2 programs: $(( bytes / 1048576 )) MiB in $PACK"
  [ "$bytes" -lt $(( 64 * 1048576 )) ] || fail "the pack is over 64 MiB"
  # Both modes run the packed programs, so that what runs here is what runs there.
  TESTS=$PACK/obliq_cuda_tests
  BENCH=$PACK/obliq_gpu_bench
  if [ "$mode" = build ]; then
    note "build-only: done in $(elapsed) s; on the GPU machine: bench/gpu_check.sh --prebuilt <this pack>"
    exit $failed
  fi
else
  TESTS=$pack/obliq_cuda_tests
  BENCH=$pack/obliq_gpu_bench
fi
pack_dir=$(dirname "$TESTS")

# --- run -----------------------------------------------------------------------------------------
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
# Appended, never prepended: the machine's own library paths keep precedence; the pack's own
# libraries come through the programs' RUNPATH ($ORIGIN/lib).
export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$CUDA_HOME/lib64"
export PATH="$PATH:$CUDA_HOME/bin"
ldd "$TESTS" "$BENCH" >"$LOGS/ldd.log" 2>&1
if grep -q "not found" "$LOGS/ldd.log"; then
  fail "shared libraries not found: $(grep 'not found' "$LOGS/ldd.log" | awk '{print $1}' | sort -u | tr '\n' ' ')"
fi
if command -v nvidia-smi >/dev/null 2>&1; then
  timeout 30 nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader \
    >"$LOGS/nvidia-smi.log" 2>&1
  note "nvidia-smi: $(awk 'NR <= 2' "$LOGS/nvidia-smi.log" | tr '\n' ' ')"
else
  note "nvidia-smi: not on the PATH"
fi

if ! step probe 60 "$BENCH" --probe; then
  note "$(awk 'NR <= 3' "$LOGS/probe.log")"
  # The programs must still load and list their tests where there is no device.
  step list-tests 60 "$TESTS" --gtest_list_tests && note "the test program loads: $(grep -c '^  ' "$LOGS/list-tests.log") tests listed"
  fail "no usable CUDA device: nothing was tested"
  note "total $(elapsed) s"
  exit 1
fi
note "$(awk 'NR <= 1' "$LOGS/probe.log")"

step gpu-tests 300 "$TESTS" --gtest_color=no || failed=1
passed=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$LOGS/gpu-tests.log" | awk 'NR == 1')
skipped=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$LOGS/gpu-tests.log" | awk 'NR == 1')
nfailed=$(grep -c '^\[  FAILED  \] [A-Za-z]' "$LOGS/gpu-tests.log")
note "gpu tests: ${passed:-0} passed, ${skipped:-0} skipped, $nfailed failed"
grep '^\[  FAILED  \] [A-Za-z]' "$LOGS/gpu-tests.log" | sort -u | awk 'NR <= 20 {print "  " $0}' | tee -a "$REPORT"
[ "${skipped:-0}" -eq 0 ] || fail "a GPU is present but ${skipped} tests skipped"
[ -n "$passed" ] || fail "the GPU tests did not report a summary (crash or timeout: see gpu-tests.log)"

sanitizer=$(command -v compute-sanitizer)
if [ -z "$sanitizer" ] && [ -f "$pack_dir/compute-sanitizer.tar.gz" ]; then
  sanitizer_dir=$(mktemp -d)
  trap 'rm -rf "$sanitizer_dir"' EXIT
  tar -xzf "$pack_dir/compute-sanitizer.tar.gz" -C "$sanitizer_dir" && sanitizer=$sanitizer_dir/compute-sanitizer/compute-sanitizer
fi
if [ -n "$sanitizer" ] && [ -x "$sanitizer" ]; then
  note "compute-sanitizer: $sanitizer ($("$sanitizer" --version 2>&1 | grep -o 'Version [0-9.]*' | awk 'NR == 1'))"
  for tool in memcheck initcheck racecheck; do
    step "sanitizer-$tool" 150 "$sanitizer" --tool "$tool" --error-exitcode 7 --print-limit 20 \
      "$TESTS" --gtest_color=no --gtest_filter='*SanitizerSet*' || failed=1
    note "  $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$LOGS/sanitizer-$tool.log" | awk 'NR == 1') $(grep -cE '^\[       OK \]' "$LOGS/sanitizer-$tool.log") test(s) ok"
  done
else
  fail "compute-sanitizer not found (on the PATH, in $CUDA_HOME/bin, or packed)"
fi

step compare 240 "$BENCH" --compare || failed=1
grep -E '^compare' "$LOGS/compare.log" | awk 'NR <= 30' | tee -a "$REPORT" >/dev/null

budget=$(( 450 - $(elapsed) ))
[ "$budget" -gt 200 ] && budget=200
[ "$budget" -lt 30 ] && budget=30
step bench $(( budget + 60 )) "$BENCH" --budget-s "$budget" || failed=1
grep -E '^(device|measured)' "$LOGS/bench.log" | tee -a "$REPORT" >/dev/null
grep -E '^ *[0-9]+ +[0-9]+ +(double|float)|^ +n +m ' "$LOGS/bench.log" | awk 'NR <= 110' | tee -a "$REPORT" >/dev/null

note "total $(elapsed) s; $( [ $failed -eq 0 ] && echo 'every step passed' || echo 'FAILED (see the lines above and the logs in '"$LOGS"')')"
awk 'NR <= 199' "$REPORT" >"$REPORT.tmp" && mv "$REPORT.tmp" "$REPORT"
exit $failed

#!/usr/bin/env bash
# bench/gpu_check.sh: the one unattended run that checks and measures the GPU side of obliq
# (docs/cuda.md, issue 30 steps 1-2).
#
#   bench/gpu_check.sh --build-only      here (a machine with the build dependencies, no GPU
#                                        needed): configure and build for sm_90 (ptxas -v: the
#                                        registers, stack and spills of every kernel go to the
#                                        report), then pack the three programs and the few shared
#                                        libraries they need into $BUILD/gpu-pack (under 64 MiB;
#                                        libstdc++ and libgcc linked statically, so the GPU
#                                        machine's own are never displaced)
#   bench/gpu_check.sh --prebuilt DIR    there (a bare GPU machine with the CUDA toolkit): run
#                                        the packed programs in DIR, nothing is built
#   bench/gpu_check.sh                   both on one machine
#   --budget-s S                         the run's budget (default 450 s: with the start-up, one
#                                        call of at most 8 minutes)
#   --require-device                     no usable device is a failure (exit 3), not a skip
#
# Steps on the GPU, in this order, each under its own timeout (the smaller of its cap and what
# the budget leaves after the floors kept for the steps still to come; a step left under 15 s
# is skipped with a line saying so), each writing its full log to $LOGS/<step>.log before
# anything is filtered:
#   probe        the device (obliq_gpu_bench --probe)                                   cap  30 s
#   impacts      impact scenarios/s at (12, 4), double and float, fused (interleaved and
#                contiguous), warp and library (cuBLAS/cuSOLVER), batches 1e3..1e6      cap  90 s
#   sim          the Simulator's quadruped, Moreau-Jean with friction (mu 0.8, cone),
#                4,096 .. 131,072 copies, float64 and float32 (obliq_gpu_sim_bench)    cap 120 s
#   compare      GPU vs CPU on 1,000 scenarios sampled from a 1e6 batch of each class,
#                every method, with the certificate's worst residual of the GPU answers cap 120 s
#   gpu-tests    obliq_cuda_tests (every GPU test, the Thrust device test included)     cap 240 s
#   sanitizer-*  compute-sanitizer memcheck, initcheck, racecheck on '*SanitizerSet*'   cap  60 s each
#   env          an RL environment's step (Simulator::step_pd, 4 steps per env step) on the
#                quadruped, 4,096 .. 65,536 copies, float32 and float64, in what is left, the
#                state resident on the device (DeviceSimulator, --resident: what obliq.envs
#                with backend="cuda" run) and then copied per call (Simulator)          cap  60 s
#   impacts-more the other shapes, (6, 3) and (30, 8), in what is left                  cap 120 s
# The measurements come first: they are what the run is for, and the GPU tests' run time is
# the least known (docs/cuda.md estimates tens of seconds to two minutes). Then $LOGS/report.txt
# is printed, ending with one summary table: date, card (nvidia-smi), every step's verdict and
# time, the (12, 4) paths side by side, the quadruped rates, and each target marked met / not
# met (>= 2.5e8 impacts/s at (12, 4) double and >= 5x the cuBLAS/cuSOLVER path; >= 2.9e6
# quadruped steps/s in float64, MJX's humanoid rate on an H200).
# Exit status: 0 when every step that ran passed (a missed performance target is reported, not
# a failure); 1 when a step failed (a GPU test that fails or skips, a sanitizer error, a GPU/CPU
# disagreement or an uncertified GPU answer, a timeout, a broken pack). Without a usable device
# every device step is skipped with the runtime's reason and the exit status is 0 (3 with
# --require-device).
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
budget_s=450
require_device=0
while [ $# -gt 0 ]; do
  case "$1" in
    --build-only) mode=build ;;
    --prebuilt) mode=prebuilt; pack=${2:-}; shift ;;
    --budget-s) budget_s=${2:-}; shift ;;
    --require-device) require_device=1 ;;
    *) echo "usage: bench/gpu_check.sh [--build-only | --prebuilt DIR] [--budget-s S] [--require-device]" >&2; exit 2 ;;
  esac
  shift
done
case "$budget_s" in ''|*[!0-9]*) echo "gpu_check: --budget-s wants whole seconds" >&2; exit 2 ;; esac
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
  # discovery): outside the pack it does not find libobliq_cuda.so. The library's size: 90-real
  # (sm_90 machine code and no PTX: the pack runs on the lent H100 or H200 only) and
  # --compress-mode=size (the fatbins, machine code compressed too: cuda/CMakeLists.txt, in
  # nvcc 13's smallest form, which a CUDA 13 driver reads): the Simulator's kernel files' images
  # are megabytes each (docs/cuda.md "Running the GPU checks"), and the pack must stay under 64 MiB.
  # Machine code at full optimization, whatever the caller's shell says: a CUDAARCHS or a
  # NVCC_APPEND_FLAGS (-Ofc=max, say) meant for a PTX-only test build must not reach the pack.
  for var in CUDAARCHS NVCC_APPEND_FLAGS NVCC_PREPEND_FLAGS; do
    [ -z "${!var:-}" ] || note "ignored for this build: $var='${!var}'"
    unset "$var"
  done
  step configure 600 cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90-real \
    -DOBLIQ_ENABLE_CUDA=ON -DOBLIQ_BUILD_TESTS=ON "${launchers[@]}" \
    "-DCMAKE_EXE_LINKER_FLAGS=-static-libstdc++ -static-libgcc" \
    "-DCMAKE_SHARED_LINKER_FLAGS=-static-libstdc++ -static-libgcc" \
    -DCMAKE_BUILD_WITH_INSTALL_RPATH=ON "-DCMAKE_INSTALL_RPATH=\$ORIGIN/lib" \
    -DCMAKE_GTEST_DISCOVER_TESTS_DISCOVERY_MODE=PRE_TEST "-DCMAKE_CUDA_FLAGS=-Xptxas=-v --compress-mode=size" \
    || { tail -30 "$LOGS/configure.log"; exit 1; }
  grep -q "obliq: CUDA backend ON" "$LOGS/configure.log" || { note "FAIL: nvcc not found: no CUDA backend"; exit 1; }
  grep -q '^CMAKE_CUDA_ARCHITECTURES:[A-Z]*=90-real$' "$BUILD/CMakeCache.txt" ||
    { note "FAIL: $BUILD is not configured for sm_90: $(grep '^CMAKE_CUDA_ARCHITECTURES' "$BUILD/CMakeCache.txt")"; exit 1; }
  # The Simulator's kernel files first (cuda/sim_kernels/: one per configuration and scalar
  # type, 16), as many at once as MemAvailable allows, then the rest with $JOBS. At sm_90 -O3
  # (2026-12-07, per file: docs/cuda.md "Registers, stack and spills at sm_90", "The contact law
  # apart") every file's nvcc takes at most 1.7 GB and 8.1 min of CPU (two at a time beside a CI
  # run; the Moreau-Jean files took up to 8.7 GiB before their phase kernels, the event-driven
  # ones ran out of a 14 GB cap before their parts' kernels): the rules below (10 GB and 6 GB
  # each) leave room.
  mem_gb=$(awk '/^MemAvailable:/ {printf "%d", $2 / 1048576}' /proc/meminfo 2>/dev/null)
  jobs_for() {  # jobs_for GB_EACH: how many at once, 1 to $JOBS
    local j=$(( ${mem_gb:-$1} / $1 ))
    [ "$j" -gt "$JOBS" ] && j=$JOBS
    [ "$j" -lt 1 ] && j=1
    echo "$j"
  }
  [ -n "$mem_gb" ] && [ "$mem_gb" -lt 10 ] &&
    note "warning: ${mem_gb} GB of memory available; ptxas may need about 9 GB for a Moreau-Jean Simulator kernel file"
  sim_objects() {  # sim_objects INTEGRATOR: the object files of that integrator's kernels
    local src
    for src in "$ROOT"/cuda/sim_kernels/*_"$1"_*.cu; do
      echo "cuda/CMakeFiles/obliq_cuda.dir/sim_kernels/$(basename "$src").o"
    done
  }
  mapfile -t mj_objects < <(sim_objects moreau_jean)
  mapfile -t ed_objects < <(sim_objects event_driven)
  note "the Simulator's kernel files: ${#mj_objects[@]} Moreau-Jean, $(jobs_for 10) at a time; ${#ed_objects[@]} event-driven, $(jobs_for 6) at a time"
  step build-sim-mj 7200 cmake --build "$BUILD" -j "$(jobs_for 10)" --target "${mj_objects[@]}" \
    || { grep -E "error|FAILED|Killed" "$LOGS/build-sim-mj.log" | awk 'NR <= 40'; exit 1; }
  step build-sim-ed 14400 cmake --build "$BUILD" -j "$(jobs_for 6)" --target "${ed_objects[@]}" \
    || { grep -E "error|FAILED|Killed|fatal" "$LOGS/build-sim-ed.log" | awk 'NR <= 40'; exit 1; }
  step build 7200 cmake --build "$BUILD" --target obliq_cuda_tests obliq_gpu_bench obliq_gpu_sim_bench -j "$JOBS" \
    || { grep -E "error|FAILED|Killed" "$LOGS/build.log" | awk 'NR <= 40'; exit 1; }
  TESTS=$BUILD/tests/cuda/obliq_cuda_tests
  BENCH=$BUILD/cuda/obliq_gpu_bench
  SIMB=$BUILD/cuda/obliq_gpu_sim_bench
  # Registers, stack and spills of every kernel at sm_90 (ptxas -v, from the build log; a ccache
  # hit replays them). A rebuild that compiled no CUDA file has none: the last table is kept.
  cat "$LOGS/build-sim-mj.log" "$LOGS/build-sim-ed.log" "$LOGS/build.log" >"$LOGS/build-all.log"
  if python3 "$ROOT/bench/ptxas_resources.py" "$LOGS/build-all.log" --all >"$LOGS/ptxas.new" 2>&1; then
    mv "$LOGS/ptxas.new" "$BUILD/ptxas.txt"
  fi
  if [ -s "$BUILD/ptxas.txt" ]; then
    note "ptxas -v, sm_90 (warps/SM: the register file's limit; every row in ptxas.txt of the pack):"
    awk 'NR == 1 || (/ sm_90 / && !/\(function\)/)' "$BUILD/ptxas.txt" | awk 'NR <= 30 {print "  " $0}' | tee -a "$REPORT"
  else
    note "ptxas -v: no table (see $LOGS/ptxas.new)"
  fi
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
  cp "$TESTS" "$BENCH" "$SIMB" "$PACK/"
  [ -s "$BUILD/ptxas.txt" ] && cp "$BUILD/ptxas.txt" "$PACK/"
  cp -L "$BUILD/cuda/libobliq_cuda.so" "$PACK/lib/"
  git -C "$ROOT" rev-parse --short HEAD >"$PACK/COMMIT" 2>/dev/null || true
  # Shared libraries to carry: not the C library's, not the driver's, not cuBLAS/cuSOLVER (the
  # toolkit's, hundreds of MB); libstdc++ and libgcc_s must not appear at all (linked statically).
  # Resolved as the packed programs resolve them (libobliq_cuda.so through $ORIGIN/lib).
  ldd "$PACK/obliq_cuda_tests" "$PACK/obliq_gpu_bench" "$PACK/obliq_gpu_sim_bench" "$PACK/lib/libobliq_cuda.so" \
    >"$LOGS/ldd-build.log" 2>&1
  grep -q "not found" "$LOGS/ldd-build.log" && fail "a library of the pack is not found here: $(grep 'not found' "$LOGS/ldd-build.log" | sort -u | tr '\n' ' ')"
  # Direct dependencies (cuBLAS itself needs the GPU machine's libgcc_s, which is as it should be).
  if readelf -d "$TESTS" "$BENCH" "$SIMB" "$BUILD/cuda/libobliq_cuda.so" | grep NEEDED | grep -qE "libstdc\+\+|libgcc_s"; then
    fail "the programs still need libstdc++/libgcc_s as shared libraries (readelf -d)"
  fi
  for program in "$TESTS" "$BENCH" "$SIMB"; do
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
    # xz -9e, not gzip: 5.4 MB against 12.2 MB (2026-12-07), what keeps the pack under 64 MiB.
    tar -cf - -C "$BUILD/sanitizer/x" compute-sanitizer | xz -9e -T2 >"$PACK/compute-sanitizer.tar.xz"
    note "compute-sanitizer packed from $(basename "$wheel")"
  else
    note "compute-sanitizer: the wheel could not be downloaded (sanitizer-download.log); the sanitizer steps will fail there"
  fi
  cp "$ROOT/bench/gpu_check.sh" "$PACK/"
  bytes=$(du -sb "$PACK" | cut -f1)
  note "packed $(ls "$PACK/lib" | tr '\n' ' ')+ 3 programs: $(( bytes / 1048576 )) MiB in $PACK"
  [ "$bytes" -lt $(( 64 * 1048576 )) ] || fail "the pack is over 64 MiB"
  # Both modes run the packed programs, so that what runs here is what runs there.
  TESTS=$PACK/obliq_cuda_tests
  BENCH=$PACK/obliq_gpu_bench
  SIMB=$PACK/obliq_gpu_sim_bench
  if [ "$mode" = build ]; then
    note "build-only: done in $(elapsed) s; on the GPU machine: bench/gpu_check.sh --prebuilt <this pack>"
    exit $failed
  fi
else
  TESTS=$pack/obliq_cuda_tests
  BENCH=$pack/obliq_gpu_bench
  SIMB=$pack/obliq_gpu_sim_bench
fi
pack_dir=$(dirname "$TESTS")

# --- run -----------------------------------------------------------------------------------------
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
# Appended, never prepended: the machine's own library paths keep precedence; the pack's own
# libraries come through the programs' RUNPATH ($ORIGIN/lib).
export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$CUDA_HOME/lib64"
export PATH="$PATH:$CUDA_HOME/bin"
run_t0=$(date +%s)
deadline=$(( run_t0 + budget_s ))
note "run budget ${budget_s} s (deadline $(date -u -d "@$deadline" '+%H:%M:%S UTC' 2>/dev/null || echo "+${budget_s} s"))"
ldd "$TESTS" "$BENCH" "$SIMB" >"$LOGS/ldd.log" 2>&1
if grep -q "not found" "$LOGS/ldd.log"; then
  fail "shared libraries not found: $(grep 'not found' "$LOGS/ldd.log" | awk '{print $1}' | sort -u | tr '\n' ' ')"
fi
card="none found by nvidia-smi"
if command -v nvidia-smi >/dev/null 2>&1; then
  timeout 30 nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader \
    >"$LOGS/nvidia-smi.log" 2>&1
  [ -s "$LOGS/nvidia-smi.log" ] && card=$(awk 'NR <= 2' "$LOGS/nvidia-smi.log" | tr '\n' ' ' | sed 's/ *$//')
  note "nvidia-smi: $card"
else
  card="nvidia-smi not on the PATH"
  note "nvidia-smi: not on the PATH"
fi

# Per-step verdicts for the summary: "NAME|VERDICT|SECONDS|NOTE".
verdicts=()
record() { verdicts+=("$1|$2|$3|${4:-}"); }
# bstep NAME CAP RESERVE CMD...: step under min(CAP, what the budget leaves after RESERVE s kept
# for the steps still to come); skipped (status 125) when that is under 15 s. A step that ran
# and failed (or timed out) marks the run failed.
bstep() {
  local name=$1 cap=$2 reserve=$(( $3 * budget_s / 450 ))  # the floors scale with the budget
  shift 3
  local left=$(( deadline - $(date +%s) - reserve ))
  local limit=$(( cap < left ? cap : left ))
  if [ "$limit" -lt 15 ]; then
    note "$(printf '%-22s %-5s %4s    budget: %d s left after %d s kept for the later steps' "$name" SKIP - $(( left + reserve )) "$reserve")"
    record "$name" "SKIP (budget)" 0
    return 125
  fi
  local s0 rc
  s0=$(date +%s)
  step "$name" "$limit" "$@"
  rc=$?
  local v=PASS
  [ $rc -eq 0 ] || { v="FAIL (rc $rc)"; failed=1; }
  [ $rc -eq 124 ] && v="FAIL (timeout $limit s)"
  record "$name" "$v" $(( $(date +%s) - s0 ))
  return $rc
}
device_steps="impacts sim compare gpu-tests sanitizer-memcheck sanitizer-initcheck sanitizer-racecheck env env-per-call impacts-more"

have_device=1
s0=$(date +%s)
if step probe 30 "$BENCH" --probe; then
  record probe PASS $(( $(date +%s) - s0 ))
  note "$(awk 'NR <= 1' "$LOGS/probe.log")"
else
  have_device=0
  why=$(grep -m1 -E 'no CUDA device|nothing measured|error' "$LOGS/probe.log" || awk 'NR == 1' "$LOGS/probe.log")
  record probe "NO DEVICE" $(( $(date +%s) - s0 )) "$why"
  note "no usable CUDA device: ${why:-the probe printed nothing (see probe.log)}"
  # The programs must still load: the test program lists its tests, the benchmarks print usage.
  if step list-tests 60 "$TESTS" --gtest_list_tests; then
    note "the test program loads: $(grep -c '^  ' "$LOGS/list-tests.log") tests listed"
  else
    fail "the test program does not load (list-tests.log)"
  fi
  timeout 30 "$SIMB" --backend cuda --models quadruped --batches 8 --integrators moreau --min-time 0.01 \
    >"$LOGS/sim-nodevice.log" 2>&1
  if grep -q "backend cuda: no CUDA device" "$LOGS/sim-nodevice.log"; then
    note "the Simulator's benchmark loads and reports: $(grep -m1 -o 'backend cuda: no CUDA device.*' "$LOGS/sim-nodevice.log" | cut -c1-100)"
  else
    fail "obliq_gpu_sim_bench did not report the missing device (sim-nodevice.log): $(awk 'NR <= 2' "$LOGS/sim-nodevice.log" | tr '\n' ' ')"
  fi
  for name in $device_steps; do
    note "$(printf '%-22s %-5s' "$name" SKIP)    no CUDA device"
    record "$name" "SKIP (no device)" 0
  done
fi

if [ $have_device -eq 1 ]; then
  # Floors kept for the later steps (s): impacts -> sim 60, compare 60, gpu-tests 90, sanitizers 3 x 20.
  bstep impacts 90 270 "$BENCH" --shapes 12x4 --budget-s 75 --run-s 6
  bstep sim 120 210 "$SIMB" --backend cuda --models quadruped --integrators moreau --mu 0.8 --friction cone \
    --batches 4096,16384,65536,131072 --scalar double,float --min-time 1 --budget-s 85 --cuda-scratch-mb 16384 --json
  bstep compare 120 150 "$BENCH" --compare
  grep -E '^compare' "$LOGS/compare.log" | awk 'NR <= 30' | tee -a "$REPORT" >/dev/null

  bstep gpu-tests 240 60 "$TESTS" --gtest_color=no
  if [ -s "$LOGS/gpu-tests.log" ]; then
    passed=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$LOGS/gpu-tests.log" | awk 'NR == 1')
    skipped=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$LOGS/gpu-tests.log" | awk 'NR == 1')
    nfailed=$(grep -c '^\[  FAILED  \] [A-Za-z]' "$LOGS/gpu-tests.log")
    thrust_ok=$(grep -cE '^\[       OK \] CudaSanitizerSet\.SweepReductions' "$LOGS/gpu-tests.log")
    note "gpu tests: ${passed:-0} passed, ${skipped:-0} skipped, $nfailed failed (the Thrust device test: $( [ "$thrust_ok" -gt 0 ] && echo ok || echo 'not ok'))"
    grep '^\[  FAILED  \] [A-Za-z]' "$LOGS/gpu-tests.log" | sort -u | awk 'NR <= 20 {print "  " $0}' | tee -a "$REPORT"
    [ "${skipped:-0}" -eq 0 ] || fail "a GPU is present but ${skipped} tests skipped"
    [ -n "$passed" ] || fail "the GPU tests did not report a summary (crash or timeout: see gpu-tests.log)"
  fi

  sanitizer=$(command -v compute-sanitizer)
  if [ -z "$sanitizer" ] && [ -f "$pack_dir/compute-sanitizer.tar.xz" ]; then
    sanitizer_dir=$(mktemp -d)
    trap 'rm -rf "$sanitizer_dir"' EXIT
    # tar's xz where the machine has one, else Python's lzma.
    { tar -xJf "$pack_dir/compute-sanitizer.tar.xz" -C "$sanitizer_dir" 2>/dev/null ||
        python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' \
          "$pack_dir/compute-sanitizer.tar.xz" "$sanitizer_dir"; } &&
      sanitizer=$sanitizer_dir/compute-sanitizer/compute-sanitizer
  fi
  if [ -n "$sanitizer" ] && [ -x "$sanitizer" ]; then
    note "compute-sanitizer: $sanitizer ($("$sanitizer" --version 2>&1 | grep -o 'Version [0-9.]*' | awk 'NR == 1'))"
    reserve=40
    for tool in memcheck initcheck racecheck; do
      bstep "sanitizer-$tool" 60 "$reserve" "$sanitizer" --tool "$tool" --error-exitcode 7 --print-limit 20 \
        "$TESTS" --gtest_color=no --gtest_filter='*SanitizerSet*'
      [ -s "$LOGS/sanitizer-$tool.log" ] &&
        note "  $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$LOGS/sanitizer-$tool.log" | awk 'NR == 1') $(grep -cE '^\[       OK \]' "$LOGS/sanitizer-$tool.log") test(s) ok"
      reserve=$(( reserve - 20 ))
    done
  else
    fail "compute-sanitizer not found (on the PATH, in $CUDA_HOME/bin, or packed)"
    for tool in memcheck initcheck racecheck; do record "sanitizer-$tool" "FAIL (no sanitizer)" 0; done
  fi

  left=$(( deadline - $(date +%s) - 20 ))
  if [ "$left" -ge 45 ]; then
    bstep env 60 0 "$SIMB" --backend cuda --models quadruped --integrators moreau --mu 0.8 --friction cone \
      --env-frame-skip 4 --batches 4096,16384,65536 --scalar float,double --min-time 1 --resident \
      --budget-s $(( left - 30 > 45 ? 45 : left - 30 )) --cuda-scratch-mb 16384 --json
    left=$(( deadline - $(date +%s) - 20 ))
    bstep env-per-call 40 0 "$SIMB" --backend cuda --models quadruped --integrators moreau --mu 0.8 --friction cone \
      --env-frame-skip 4 --batches 4096,65536 --scalar float --min-time 1 \
      --budget-s $(( left - 30 > 25 ? 25 : left - 30 )) --cuda-scratch-mb 16384 --json
  else
    note "$(printf '%-22s %-5s' env SKIP)    budget: $left s left"
    record env "SKIP (budget)" 0
    record env-per-call "SKIP (budget)" 0
  fi

  left=$(( deadline - $(date +%s) - 20 ))
  if [ "$left" -ge 45 ]; then
    bstep impacts-more 120 0 "$BENCH" --shapes 6x3,30x8 --budget-s $(( left - 30 > 90 ? 90 : left - 30 )) --run-s 6
  else
    note "$(printf '%-22s %-5s' impacts-more SKIP)    budget: $left s left"
    record impacts-more "SKIP (budget)" 0
  fi
fi

# --- summary ---------------------------------------------------------------------------------------
# impacts.log / impacts-more.log rows: n m type batch method layout law time ms rate /s ...
best_rate() {  # best_rate TYPE METHOD [LAYOUT]: "RATE BATCH" of the best (12, 4) run, or nothing
  cat "$LOGS/impacts.log" 2>/dev/null | awk -v t="$1" -v me="$2" -v la="${3:-}" \
    '$1 == 12 && $2 == 4 && $3 == t && $5 == me && (la == "" || $6 == la) && $11 == "/s" && $10 + 0 > best {best = $10 + 0; b = $4}
     END {if (best > 0) printf "%.3e %s\n", best, b}'
}
sim_rate() {  # sim_rate SCALAR BATCH: steps/s and failed copies of that run, or nothing
  grep -h '"backend":"cuda"' "$LOGS/sim.log" 2>/dev/null | grep "\"scalar\":\"$1\"" | grep "\"batch\":$2," |
    sed -n 's/.*"steps_per_s":\([^,]*\),.*"failed":\([0-9]*\).*/\1 \2/p' | awk 'NR == 1'
}
env_rate() {  # env_rate SCALAR BATCH [LOG]: env-steps/s and failed copies of that env run, or nothing
  grep -h '"backend":"cuda"' "$LOGS/${3:-env}.log" 2>/dev/null | grep "\"scalar\":\"$1\"" | grep "\"batch\":$2," |
    sed -n 's/.*"env_steps_per_s":\([^,]*\),"failed":\([0-9]*\).*/\1 \2/p' | awk 'NR == 1'
}
verdict() { awk -v x="$1" -v t="$2" 'BEGIN {print (x + 0 >= t + 0) ? "met" : "not met"}'; }
{
  echo
  echo "==== obliq gpu_check summary ===="
  echo "date     $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "card     $card"
  [ $have_device -eq 1 ] && echo "device   $(awk 'NR == 1' "$LOGS/probe.log")"
  echo "commit   $(cat "$pack_dir/COMMIT" 2>/dev/null || git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "run      $(( $(date +%s) - run_t0 )) s of a ${budget_s} s budget"
  echo
  printf '%-22s %-22s %6s  %s\n' step verdict "time" note
  for v in "${verdicts[@]}"; do
    IFS='|' read -r n vv t nn <<<"$v"
    printf '%-22s %-22s %5ss  %s\n' "$n" "$vv" "$t" "$nn"
  done
  echo
  if [ $have_device -eq 1 ] && [ -s "$LOGS/impacts.log" ]; then
    lib_d=$(best_rate double library | awk '{print $1}')
    echo "impact scenarios/s at (12, 4), projection law, best over batches 1e3..1e6 (x: / library)"
    printf '  %-20s %-30s %-30s\n' path double float
    for p in "fused interleaved" "fused contiguous" "warp contiguous" "library contiguous"; do
      set -- $p
      line="  $(printf '%-20s ' "$1/$2")"
      for t in double float; do
        r=$(best_rate "$t" "$1" "$2")
        lib=$(best_rate "$t" library | awk '{print $1}')
        if [ -n "$r" ]; then
          x=$(awk -v a="${r%% *}" -v b="${lib:-0}" 'BEGIN {if (b > 0) printf "%.1fx", a / b; else print "-"}')
          line="$line$(printf '%-30s ' "${r%% *} @${r##* } $x")"
        else
          line="$line$(printf '%-30s ' "not measured")"
        fi
      done
      echo "$line"
    done
  fi
  if [ $have_device -eq 1 ] && [ -s "$LOGS/sim.log" ]; then
    echo "quadruped steps/s on the device (Moreau-Jean, mu 0.8 cone; failed copies in brackets)"
    printf '  %-10s %-22s %-22s\n' copies float64 float32
    for b in 4096 16384 65536 131072; do
      d=$(sim_rate double $b)
      f=$(sim_rate float $b)
      printf '  %-10s %-22s %-22s\n' $b "${d:+$(echo $d | awk '{printf "%.3e [%d]", $1, $2}')}" \
        "${f:+$(echo $f | awk '{printf "%.3e [%d]", $1, $2}')}"
    done
  fi
  if [ $have_device -eq 1 ] && [ -s "$LOGS/env.log" ]; then
    echo "quadruped env-steps/s on the device (step_pd: 4 steps of 5 ms per env step, PD on 12 joints, mu 0.8 cone;"
    echo "  resident: the state stays on the device (obliq.envs, backend=\"cuda\"); per call: copied in and out each env step)"
    printf '  %-10s %-22s %-22s %-22s\n' copies "float32 resident" "float64 resident" "float32 per call"
    for b in 4096 16384 65536; do
      f=$(env_rate float $b)
      d=$(env_rate double $b)
      c=$(env_rate float $b env-per-call)
      printf '  %-10s %-22s %-22s %-22s\n' $b "${f:+$(echo $f | awk '{printf "%.3e [%d]", $1, $2}')}" \
        "${d:+$(echo $d | awk '{printf "%.3e [%d]", $1, $2}')}" "${c:+$(echo $c | awk '{printf "%.3e [%d]", $1, $2}')}"
    done
  fi
  echo
  printf '%-58s %-26s %s\n' target measured verdict
  if [ $have_device -eq 1 ]; then
    best_d=; best_path=
    for p in warp fused; do
      r=$(best_rate double $p | awk '{print $1}')
      if [ -n "$r" ] && awk -v a="$r" -v b="${best_d:-0}" 'BEGIN {exit !(a > b)}'; then best_d=$r; best_path=$p; fi
    done
    lib_d=$(best_rate double library | awk '{print $1}')
    if [ -n "$best_d" ]; then
      printf '%-58s %-26s %s\n' "impacts/s (12, 4) double, best path >= 2.5e8" "$best_d ($best_path)" "$(verdict "$best_d" 2.5e8)"
    else
      printf '%-58s %-26s %s\n' "impacts/s (12, 4) double, best path >= 2.5e8" "not measured" "not met (not measured)"
    fi
    if [ -n "$best_d" ] && [ -n "$lib_d" ]; then
      x=$(awk -v a="$best_d" -v b="$lib_d" 'BEGIN {printf "%.2f", a / b}')
      printf '%-58s %-26s %s\n' "best path / library (cuBLAS/cuSOLVER) >= 5x" "${x}x (library $lib_d)" "$(verdict "$x" 5)"
    else
      printf '%-58s %-26s %s\n' "best path / library (cuBLAS/cuSOLVER) >= 5x" "not measured" "not met (not measured)"
    fi
    sim_best=$(for b in 4096 16384 65536 131072; do sim_rate double $b | awk -v b=$b '$2 == 0 {printf "%.3e %s\n", $1, b}'; done |
      sort -g -r | awk 'NR == 1')
    if [ -n "$sim_best" ]; then
      printf '%-58s %-26s %s\n' "quadruped steps/s float64 >= 2.9e6 (no failed copies)" "${sim_best% *} @${sim_best#* }" \
        "$(verdict "${sim_best% *}" 2.9e6)"
    else
      printf '%-58s %-26s %s\n' "quadruped steps/s float64 >= 2.9e6 (no failed copies)" "not measured" "not met (not measured)"
    fi
    cmp_worst=$(sed -n 's/.*worst certificate \([^ ]*\) (tol \([^,]*\),.*/\1 \2/p' "$LOGS/compare.log" 2>/dev/null |
      awk '{r = $1 / $2; if (r > w) {w = r; v = $1 " (tol " $2 ")"}} END {print v}')
    printf '%-58s %-26s %s\n' "GPU = CPU on 1,000 samples per class, certified" "${cmp_worst:-not measured}" \
      "$(grep -q '^compare: PASS' "$LOGS/compare.log" 2>/dev/null && echo met || echo 'not met')"
    san=met
    for tool in memcheck initcheck racecheck; do
      grep -qE '(ERROR|RACECHECK) SUMMARY: 0 ' "$LOGS/sanitizer-$tool.log" 2>/dev/null || san="not met"
    done
    printf '%-58s %-26s %s\n' "compute-sanitizer clean (memcheck, initcheck, racecheck)" "" "$san"
  else
    for t in "impacts/s (12, 4) double, best path >= 2.5e8" "best path / library (cuBLAS/cuSOLVER) >= 5x" \
      "quadruped steps/s float64 >= 2.9e6 (no failed copies)" "GPU = CPU on 1,000 samples per class, certified" \
      "compute-sanitizer clean (memcheck, initcheck, racecheck)"; do
      printf '%-58s %-26s %s\n' "$t" "not measured" "no device"
    done
  fi
  echo
  if [ $have_device -eq 0 ]; then
    if [ $require_device -eq 1 ]; then
      echo "result: FAILED: no usable CUDA device (--require-device); nothing was measured"
    else
      echo "result: no usable CUDA device: every device step skipped, nothing measured (the pack loads: exit $failed)"
    fi
  else
    echo "result: $( [ $failed -eq 0 ] && echo 'every step that ran passed' || echo "FAILED (see the lines above and the logs in $LOGS)")"
  fi
} | tee -a "$REPORT"
note "total $(elapsed) s"
awk 'NR <= 199' "$REPORT" >"$REPORT.tmp" && mv "$REPORT.tmp" "$REPORT"
[ $have_device -eq 0 ] && [ $require_device -eq 1 ] && exit 3
exit $failed

#!/usr/bin/env bash
# CI step: a part of the test suite under the sanitizers, built with clang in build dirs of its own
# (docs/limits.md "Sanitizers" says which part and why; the whole suite twice more does not fit
# CI's time budget on 2 cores).
#  1. AddressSanitizer (with LeakSanitizer) + UndefinedBehaviorSanitizer, -fno-sanitize-recover=all:
#     the `obliq` binary and the tests of the hostile-input paths: tests/cli/hostile_* and
#     tests/model/hostile_* (issue 10's reproducers, run through the sanitized binary),
#     tests/cli/parse_test.cpp (the JSON Lines reader), tests/lcp but its random-classes file (the
#     LCP readers, solvers and `obliq lcp`). -O0: compiling is the cost.
#  2. ThreadSanitizer on the OpenMP backend, with LLVM's libomp (Debian's libomp-dev) and its
#     Archer tool, which tells TSan about OpenMP's synchronization: tests/host_api (the CPU
#     backend's batches, bitwise identity across thread counts) and tests/sim (the Simulator's
#     threaded batches). A racy OpenMP program is checked
#     first to be reported, so that a clean run means something.
# A sanitizer report anywhere, in a test program or in an `obliq` it runs, is written to a log
# file; the step fails on a failed test or on any such file. Each part prints its time.
set -euo pipefail
cd "$(dirname "$0")/../.."
start=$(date +%s)
jobs=$(nproc)
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

configure() {  # configure BUILD_DIR "SANITIZER FLAGS" OPT TEST_FILES_REGEX
  cmake -S . -B "$1" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++ \
    -DOBLIQ_ENABLE_CUDA=OFF -DOBLIQ_BUILD_BENCH=OFF -DOBLIQ_TEST_SOURCES="$4" \
    -DCMAKE_CXX_FLAGS="$2 -fno-omit-frame-pointer -gline-tables-only" -DCMAKE_CXX_FLAGS_RELEASE="$3 -DNDEBUG" \
    -DCMAKE_EXE_LINKER_FLAGS="$2" >/dev/null
}
reports() {  # fails when a sanitizer wrote a report
  if compgen -G "$logs/$1.*" >/dev/null; then
    cat "$logs/$1".* | head -n 80
    echo "sanitize: $1: $(ls "$logs/$1".* | wc -l) sanitizer report(s), above"
    return 1
  fi
}

# --- 1. ASan + UBSan ---------------------------------------------------------------------------
t0=$(date +%s)
asan=${OBLIQ_ASAN_BUILD_DIR:-build-asan}
configure "$asan" "-fsanitize=address,undefined -fno-sanitize-recover=all" "${OBLIQ_ASAN_OPT:--O0}" \
  '^tests/(cli/(hostile_|parse_)|model/hostile_|lcp/(cli|core_solvers|hostile|row_certificate|siconos_peer)_)'
cmake --build "$asan" -j"$jobs" --target obliq_cli obliq_cli_tests obliq_model_tests obliq_lcp_tests
t1=$(date +%s)
# (cli.ParseLine.MutatedLines* is left out: it is a small fuzzer of the same reader, 84 s at -O0,
# and fuzz/scenario_line does that job under the same sanitizers.)
ASAN_OPTIONS=detect_leaks=1:log_path=$logs/asan UBSAN_OPTIONS=print_stacktrace=1:log_path=$logs/asan \
  ctest --test-dir "$asan" -R '^(cli|model|lcp)\.' -E '^cli\.ParseLine\.MutatedLines' -j"$jobs" --timeout 900 --output-on-failure >"$logs/asan-ctest.log" 2>&1 ||
  { tail -n 80 "$logs/asan-ctest.log"; reports asan || true; echo "sanitize: ASan+UBSan tests FAILED"; exit 1; }
reports asan
echo "sanitize: ASan+UBSan: $(grep -o '[0-9]* tests failed out of [0-9]*' "$logs/asan-ctest.log"), build $((t1 - t0)) s, tests $(( $(date +%s) - t1 )) s, no findings"

# --- 2. TSan, OpenMP through LLVM's libomp + Archer -------------------------------------------
t0=$(date +%s)
export TSAN_OPTIONS="ignore_noninstrumented_modules=1:halt_on_error=1:log_path=$logs/tsan"
export ARCHER_OPTIONS=verbose=1  # Archer says on standard output that it is loaded
# The canary: a race between the threads of an OpenMP team must be reported; a race-free program
# must not be, even where only the runtime orders the accesses (data one thread wrote is read by
# another in the next parallel region: without Archer, TSan reports that as a race, and with
# gcc's libgomp too).
cat >"$logs/canary.cpp" <<'EOF'
#include <cstdio>
#include <vector>
int main(int argc, char**) {
  std::vector<double> a(1000, 0.0);
  double sum = 0;
  int racy = 0;
  for (int rep = 0; rep < 20; ++rep) {
#pragma omp parallel for num_threads(2) schedule(static)
    for (int i = 0; i < 1000; ++i) a[i] += i;
#pragma omp parallel for num_threads(2) schedule(static) reduction(+ : sum)
    for (int i = 0; i < 1000; ++i) sum += a[999 - i] += 1;
  }
  if (argc > 1) {  // ten teams, each thread writing racy a thousand times (one increment per
    for (int r = 0; r < 10; ++r) {  // thread went unreported in 1 of 40 runs on a loaded machine)
#pragma omp parallel num_threads(2)
      for (int k = 0; k < 1000; ++k) racy++;
    }
  }
  std::printf("%g %d\n", sum, racy);
}
EOF
clang++ -fsanitize=thread -fopenmp=libomp -O1 -g "$logs/canary.cpp" -o "$logs/canary"
"$logs/canary" >"$logs/canary.err" 2>&1 || { cat "$logs/canary.err" "$logs"/tsan.* 2>/dev/null; echo "sanitize: TSan reports a race-free OpenMP program"; exit 1; }
grep -q 'Archer detected' "$logs/canary.err" || { cat "$logs/canary.err"; echo "sanitize: libomp did not load Archer"; exit 1; }
if "$logs/canary" racy >/dev/null 2>&1 || ! grep -qs 'data race' "$logs"/tsan.*; then
  echo "sanitize: TSan did not report the canary's race"; exit 1
fi
rm -f "$logs"/tsan.*
tsan=${OBLIQ_TSAN_BUILD_DIR:-build-tsan}
configure "$tsan" "-fsanitize=thread" "${OBLIQ_TSAN_OPT:--O1}" '^tests/(host_api|sim)/[^/]*\.cpp$'
cmake --build "$tsan" -j"$jobs" --target obliq_host_api_tests obliq_sim_tests
t1=$(date +%s)
# Each test program once with two threads per OpenMP team (the tests that compare thread counts
# set their own).
OMP_NUM_THREADS=2 ctest --test-dir "$tsan" -R '^(host_api|sim)\.' -E '^sim\.siconos' -j"$jobs" --timeout 900 \
  --output-on-failure >"$logs/tsan-ctest.log" 2>&1 ||
  { tail -n 80 "$logs/tsan-ctest.log"; reports tsan || true; echo "sanitize: TSan tests FAILED"; exit 1; }
reports tsan
echo "sanitize: TSan (libomp + Archer): $(grep -o '[0-9]* tests failed out of [0-9]*' "$logs/tsan-ctest.log"), build $((t1 - t0)) s, tests $(( $(date +%s) - t1 )) s, no findings"
echo "sanitize: CI step took $(( $(date +%s) - start )) s"

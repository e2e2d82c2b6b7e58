#!/usr/bin/env bash
# CI step: the libFuzzer targets of fuzz/ (the JSON Lines readers of impact/dynamics and lcp, the
# shared line reader of model --state / simulate --state, the Siconos .dat reader, the URDF loader),
# built with clang, AddressSanitizer (with LeakSanitizer) and UndefinedBehaviorSanitizer. Each
# target first runs every seed of fuzz/corpus/<target>/ (issue 10's hostile inputs: a finding
# there is a regression), then mutates them for OBLIQ_FUZZ_RUNS inputs (default 100000) or
# OBLIQ_FUZZ_SECONDS seconds (default 12: the CI time budget), whichever comes first; the number
# of inputs each target ran is printed. Any crash, sanitizer report, leak, trap or timeout fails
# the step. A longer campaign (docs/limits.md "Fuzzing"):
#   OBLIQ_FUZZ_RUNS=1000000 OBLIQ_FUZZ_SECONDS=0 bash scripts/ci/fuzz.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
start=$(date +%s)
runs=${OBLIQ_FUZZ_RUNS:-100000}
seconds=${OBLIQ_FUZZ_SECONDS:-12}
build=${OBLIQ_FUZZ_BUILD_DIR:-build-fuzz}
targets=(scenario_line lcp_line json_line siconos_reader urdf)
flags="-fsanitize=address,undefined,fuzzer-no-link -fno-sanitize-recover=undefined -fno-omit-frame-pointer -gline-tables-only"
launcher=()
command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++ \
  -DOBLIQ_ENABLE_CUDA=OFF -DOBLIQ_BUILD_TESTS=OFF -DOBLIQ_BUILD_BENCH=OFF -DOBLIQ_BUILD_FUZZ=ON \
  -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" "${launcher[@]}" >/dev/null
cmake --build "$build" -j"$(nproc)" --target "${targets[@]/#/fuzz_}"
built=$(date +%s)
echo "fuzz: ASan+UBSan build of the targets took $(( built - start )) s"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
for t in "${targets[@]}"; do
  work=$(mktemp -d)
  t0=$(date +%s)
  # -seed fixed: the same inputs every run; new inputs at most 4 KiB (the seeds may be larger).
  "$build/fuzz/fuzz_$t" -runs="$runs" -max_total_time="$seconds" -seed=1 -max_len=4096 -timeout=10 \
    -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$build/$t-" "$work" "fuzz/corpus/$t" >"$work.log" 2>&1 ||
    { tail -n 60 "$work.log"; echo "fuzz: $t FAILED (the input that failed is saved as $build/$t-*)"; exit 1; }
  done_runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work.log" | grep -o '[0-9]*$')
  echo "fuzz: $t: $(ls "fuzz/corpus/$t" | wc -l) seeds, $done_runs inputs, $(grep -o 'cov: [0-9]*' "$work.log" | tail -n1), $(( $(date +%s) - t0 )) s, no findings"
  rm -rf "$work" "$work.log"
done
echo "fuzz: CI step took $(( $(date +%s) - start )) s (build $(( built - start )) s)"

#!/usr/bin/env bash
# CI step: the libFuzzer targets of fuzz/ (the JSON Lines readers of impact/dynamics, lcp and the
# shared line reader of model --state, the Siconos .dat reader, the URDF loader), built with clang,
# ASan and UBSan, each run for a fixed number of inputs (OBLIQ_FUZZ_RUNS, default 100000) from the
# seed corpus fuzz/corpus/<target>/. Any crash, sanitizer report or trap fails the step.
# A longer campaign: OBLIQ_FUZZ_RUNS=1000000 bash scripts/ci/fuzz.sh (docs/fuzzing.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
start=$(date +%s)
runs=${OBLIQ_FUZZ_RUNS:-100000}
build=${OBLIQ_FUZZ_BUILD_DIR:-build-fuzz}
targets=(scenario_line lcp_line json_line siconos_reader urdf)
flags="-fsanitize=address,undefined,fuzzer-no-link -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
launcher=()
command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++ \
  -DOBLIQ_ENABLE_CUDA=OFF -DOBLIQ_BUILD_TESTS=OFF -DOBLIQ_BUILD_BENCH=OFF -DOBLIQ_BUILD_FUZZ=ON \
  -DCMAKE_CXX_FLAGS="$flags" "${launcher[@]}" >/dev/null
cmake --build "$build" -j"$(nproc)" --target "${targets[@]/#/fuzz_}"
built=$(date +%s)
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
for t in "${targets[@]}"; do
  work=$(mktemp -d)
  t0=$(date +%s)
  # -seed fixed: the same inputs every run; new inputs at most 4 KiB (the seeds may be larger).
  "$build/fuzz/fuzz_$t" -runs="$runs" -seed=1 -max_len=4096 -rss_limit_mb=4096 -print_final_stats=1 \
    "$work" "fuzz/corpus/$t" 2>"$work.log" || { tail -n 60 "$work.log"; echo "fuzz: $t FAILED"; exit 1; }
  echo "fuzz: $t: $runs inputs, $(grep -o 'cov: [0-9]*' "$work.log" | tail -n1), $(( $(date +%s) - t0 )) s, no findings"
  rm -rf "$work" "$work.log"
done
echo "fuzz: build $(( built - start )) s, runs $(( $(date +%s) - built )) s, total $(( $(date +%s) - start )) s"

#!/usr/bin/env bash
# CI step: the libFuzzer targets of fuzz/ (the JSON Lines readers of impact/dynamics and lcp, the
# shared line reader of model --state / simulate --state, the Siconos .dat reader, the URDF loader),
# built with clang, AddressSanitizer (with LeakSanitizer) and UndefinedBehaviorSanitizer. Each
# target first runs every seed of fuzz/corpus/<target>/ whole (issue 10's hostile inputs, some of
# them 200 KB: a finding there is a regression), then mutates the seeds of at most -max_len bytes
# for exactly OBLIQ_FUZZ_RUNS inputs (default 100000, fixed -seed: the same inputs every run).
# The targets run OBLIQ_FUZZ_JOBS at a time (default: the number of cores), and the number of
# inputs each ran, its rate and its time are printed. Any crash, sanitizer report, leak, trap or
# timeout fails the step, and so does a target that ran fewer inputs than asked. The longer
# campaign of docs/limits.md "Fuzzing":
#   OBLIQ_FUZZ_RUNS=1000000 OBLIQ_FUZZ_JOBS=1 nice -n 19 bash scripts/ci/fuzz.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
start=$(date +%s)
runs=${OBLIQ_FUZZ_RUNS:-100000}
jobs=${OBLIQ_FUZZ_JOBS:-$(nproc)}
build=${OBLIQ_FUZZ_BUILD_DIR:-build-fuzz}
max_len=4096
# The slowest first (measured rates, docs/limits.md), so that the lanes end together.
targets=(scenario_line lcp_line urdf json_line siconos_reader)
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
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# One target: its seeds whole, then `runs` mutated inputs. Writes $logs/$t.{log,line}; returns
# nonzero on a finding.
fuzz_one() {
  local t=$1 bin="$build/fuzz/fuzz_$1" t0 seeds work n rate
  t0=$(date +%s)
  "$bin" -timeout=10 -rss_limit_mb=4096 -artifact_prefix="$build/$t-" fuzz/corpus/"$t"/* >"$logs/$t.log" 2>&1 ||
    { echo "fuzz: $t FAILED on a seed of fuzz/corpus/$t (a regression)" >"$logs/$t.line"; return 1; }
  # libFuzzer cuts a seed longer than -max_len to its first max_len bytes; those were run whole
  # above, and mutating their first 4 KiB is slower (big inputs) and finds no more.
  seeds="$logs/$t.seeds" work="$logs/$t.work"
  mkdir -p "$seeds" "$work"
  find fuzz/corpus/"$t" -type f -size -$((max_len + 1))c -exec cp {} "$seeds"/ \;
  "$bin" -runs="$runs" -seed=1 -max_len=$max_len -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix="$build/$t-" "$work" "$seeds" >>"$logs/$t.log" 2>&1 ||
    { echo "fuzz: $t FAILED (the input that failed is saved as $build/$t-*)" >"$logs/$t.line"; return 1; }
  n=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$logs/$t.log" | grep -o '[0-9]*$')
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$logs/$t.log" | grep -o '[0-9]*$')
  if [ "${n:-0}" -lt "$runs" ]; then
    echo "fuzz: $t ran only ${n:-0} of $runs inputs" >"$logs/$t.line"; return 1
  fi
  echo "fuzz: $t: $(ls fuzz/corpus/"$t" | wc -l) seeds whole, then $n inputs ($rate/s), $(grep -o 'cov: [0-9]*' "$logs/$t.log" | tail -n1), $(( $(date +%s) - t0 )) s, no findings" >"$logs/$t.line"
}

declare -A pid_of=()
failed=()
finish() {  # wait for one running target ($1 = "any") or all, print its line
  local p t
  for t in "${!pid_of[@]}"; do
    p=${pid_of[$t]}
    if [ "$1" = all ] || ! kill -0 "$p" 2>/dev/null; then
      wait "$p" || failed+=("$t")
      cat "$logs/$t.line"
      unset "pid_of[$t]"
      [ "$1" = all ] || return 0
    fi
  done
  return 1
}
for t in "${targets[@]}"; do
  while [ ${#pid_of[@]} -ge "$jobs" ]; do finish any || sleep 0.2; done
  fuzz_one "$t" &
  pid_of[$t]=$!
done
finish all || true
if [ ${#failed[@]} -gt 0 ]; then
  for t in "${failed[@]}"; do tail -n 60 "$logs/$t.log"; done
  echo "fuzz: FAILED: ${failed[*]}"
  exit 1
fi
echo "fuzz: CI step took $(( $(date +%s) - start )) s (build $(( built - start )) s, $jobs at a time)"

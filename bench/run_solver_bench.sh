#!/usr/bin/env bash
# Runs bench_solver_throughput once and prints scenarios/s per backend and the ratios
# core(1 thread)/reference and core(all threads)/core(1 thread), measured side by side.
# Usage: bench/run_solver_bench.sh [BUILD_DIR] [extra Google Benchmark flags]
set -euo pipefail
build=${1:-build}
shift || true
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$build/bench/bench_solver_throughput"
[ -x "$bin" ] || cmake --build "$build" --target bench_solver_throughput -j2 >/dev/null
out=$(mktemp)
"$bin" --benchmark_format=json "$@" > "$out"
python3 - "$out" <<'PY'
import json, sys, collections
data = json.load(open(sys.argv[1]))
rows = collections.defaultdict(dict)
for b in data["benchmarks"]:
    name = b["name"]                       # BM_core_1thread<double>/n:12/m:4/kind:0/law:1/min_time...
    parts = name.split("/")
    fn, scalar = parts[0].split("<")
    scalar = scalar.rstrip(">")
    args = dict(p.split(":") for p in parts[1:] if ":" in p and not p.startswith("min_time"))
    key = (["impact", "dynamics"][int(args["kind"])], ["projection", "complementarity"][int(args["law"])],
           int(args["n"]), int(args["m"]))
    rows[key][(fn.replace("BM_", ""), scalar)] = b.get("items_per_second", float("nan"))
ctx = data["context"]
print(f"# {ctx.get('date','')}  host cpus: {ctx.get('num_cpus')}  (scenarios per second; ratios from this one run)")
print("| kind | law | n | m | reference | core 1 thread | core all threads | core float 1 thread | core 1t / reference | all / 1t |")
print("|---|---|---|---|---|---|---|---|---|---|")
for key in sorted(rows):
    r = rows[key]
    ref = r.get(("reference", "double"), float("nan"))
    c1 = r.get(("core_1thread", "double"), float("nan"))
    ca = r.get(("core_all_threads", "double"), float("nan"))
    f1 = r.get(("core_1thread", "float"), float("nan"))
    print(f"| {key[0]} | {key[1]} | {key[2]} | {key[3]} | {ref:.3g} | {c1:.3g} | {ca:.3g} | {f1:.3g} | {c1/ref:.1f}x | {ca/c1:.2f}x |")
PY
rm -f "$out"

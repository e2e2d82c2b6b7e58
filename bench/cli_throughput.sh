#!/usr/bin/env bash
# The command line against the solve alone (issue 16's targets): `obliq impact` on JSON Lines files
# (ball scenarios n = 3, m = 1, and random (12, 4) scenarios; complementarity law, every row
# closed and approaching) beside bench_line_io, which takes the same file's text path apart
# (bench/line_io.cpp): the scenario reader's MB/s on one thread (and nlohmann's DOM reader's),
# the output writer's MB/s, and the host API's solve time of the same scenarios as one Batch
# (no text). The pipeline figure is wall-clock, best of 3, reading, parsing, solving, formatting
# and writing (to /dev/null). Each measurement prints the 1-minute load average read just before
# it: on a shared machine the two-thread figures mostly measure the other work.
# Usage: bench/cli_throughput.sh BUILD_DIR [BALL_LINES] [LINES_12_4]
set -euo pipefail
build=${1:-build}
ball=${2:-1000000}
big=${3:-20000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$(dirname "$0")/cli_inputs.py" "$work" "$ball" "$big"
python3 - "$build" "$work" <<'PY'
import json, os, subprocess, sys, time
build, work = sys.argv[1], sys.argv[2]
obliq, line_io = f"{build}/obliq", f"{build}/bench/bench_line_io"
def load():
    return float(open("/proc/loadavg").read().split()[0])
def best(cmd, reps=3):
    t = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        t = min(t, time.perf_counter() - t0)
    return t
def met(ok):
    return "met" if ok else "**not met**"
files = (("ball.jsonl", "n = 3, m = 1", 3.0), ("s12_4.jsonl", "n = 12, m = 4", 1.5))
rows, parse_rows, scale_rows = [], [], []
for name, shape, target in files:
    path = os.path.join(work, name)
    lines = sum(1 for _ in open(path))
    mb = os.path.getsize(path) / 1e6
    pipe = {}
    for threads in (1, 2):
        l0 = load()
        io = json.loads(subprocess.run([line_io, path, "--threads", str(threads)], check=True,
                                       capture_output=True, text=True).stdout)
        l1 = load()
        t = best([obliq, "impact", path, "--threads", str(threads), "-o", "/dev/null"])
        pipe[threads] = (t, l1)
        if threads == 1:
            parse_rows.append((name, shape, lines, mb, io, l0))
        ratio = t / io["solve_s"]
        rows.append(f"| {name} ({shape}) | {lines} | {mb:.1f} | {threads} | {l1:.1f} | {t:.3f} | {lines / t:,.0f} | "
                    f"{mb / t:.1f} | {io['solve_s']:.3f} ({io['solve_per_s']:,.0f}/s) | {ratio:.1f}x | "
                    f"{target}x: {met(ratio <= target)} |")
    s = pipe[1][0] / pipe[2][0]
    scale_rows.append(f"| {name} ({shape}) | {lines} | {pipe[1][0]:.3f} | {pipe[2][0]:.3f} | {s:.2f}x | "
                      f"{pipe[1][1]:.1f}, {pipe[2][1]:.1f} | 1.8x: {met(s >= 1.8)} |")
print("Reading and writing on one thread (bench_line_io, best of 3; load = 1-minute load average before the run):")
print()
print("| input | lines | MB | load | scenario reader MB/s (simdjson) | nlohmann DOM reader MB/s | writer MB/s (output) | target: reader >= 300 MB/s |")
print("|---|---|---|---|---|---|---|---|")
for name, shape, lines, mb, io, l0 in parse_rows:
    print(f"| {name} ({shape}) | {lines} | {mb:.1f} | {l0:.1f} | {io['parse_MBps']:.0f} | {io['parse_nlohmann_MBps']:.0f} | "
          f"{io['format_MBps']:.0f} | {met(io['parse_MBps'] >= 300)} |")
print()
print("`obliq impact FILE -o /dev/null` against the host API's solve of the same scenarios (one Batch, same threads):")
print()
print("| input | lines | MB | threads | load | obliq impact s | lines/s | MB/s | solve alone s (scenarios/s) | pipeline / solve | target |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
print("\n".join(rows))
print()
print("Thread scaling of `obliq impact` (wall-clock, best of 3):")
print()
print("| input | lines | 1 thread s | 2 threads s | speed-up | load (1t, 2t) | target |")
print("|---|---|---|---|---|---|---|")
print("\n".join(scale_rows))
PY

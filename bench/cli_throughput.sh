#!/usr/bin/env bash
# The command line against the solve alone: lines/s and MB/s of `obliq impact` on JSON Lines files
# (ball scenarios n = 3, m = 1, and random (12, 4) scenarios, complementarity law, every row closed
# and approaching), with one and all threads, beside `obliq bench` (the host API's solve of
# in-memory batches of the same shape and law, no text). Best of 3 wall-clock runs each; the
# pipeline figure includes reading, parsing, solving, formatting and writing (to /dev/null).
# Usage: bench/cli_throughput.sh BUILD_DIR [BALL_LINES] [LINES_12_4]
set -euo pipefail
build=${1:-build}
ball=${2:-100000}
big=${3:-10000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work" "$ball" "$big" <<'PY'
import json, sys
import numpy as np
work, ball, big = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = np.random.default_rng(1)
with open(f"{work}/ball.jsonl", "w") as f:
    for i in range(ball):
        f.write(json.dumps({"id": i, "M": [[2, 0, 0], [0, 2, 0], [0, 0, 2]], "qdot": [float(rng.normal()), 0.0, -3.0],
                            "A_u": [[0, 0, 1]], "e": float(rng.uniform())}) + "\n")
with open(f"{work}/s12_4.jsonl", "w") as f:
    for i in range(big):
        B = rng.normal(size=(12, 12))
        A = rng.normal(size=(4, 12))
        v = rng.normal(size=12)
        v -= np.linalg.pinv(A) @ (A @ v + 0.5)
        f.write(json.dumps({"id": i, "M": (B @ B.T + 12 * np.eye(12)).tolist(), "qdot": v.tolist(),
                            "A_u": A.tolist(), "e": 0.5}) + "\n")
PY
python3 - "$build/obliq" "$work" <<'PY'
import json, os, subprocess, sys, time
obliq, work = sys.argv[1], sys.argv[2]
def best(cmd, reps=3):
    t = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        t = min(t, time.perf_counter() - t0)
    return t
print("| input | lines | MB | threads | obliq impact lines/s | MB/s | solve alone (obliq bench) scenarios/s | pipeline time / solve time |")
print("|---|---|---|---|---|---|---|---|")
for name, n, m in (("ball.jsonl", 3, 1), ("s12_4.jsonl", 12, 4)):
    path = os.path.join(work, name)
    lines = sum(1 for _ in open(path))
    mb = os.path.getsize(path) / 1e6
    for threads in (1, 0):
        t = best([obliq, "impact", path, "--threads", str(threads), "-o", "/dev/null"])
        out = subprocess.run([obliq, "bench", "--n", str(n), "--m", str(m), "--law", "complementarity",
                              "--backend", "cpu", "--threads", str(threads), "--batch", str(lines), "--json"],
                             check=True, capture_output=True, text=True).stdout
        solve = json.loads(out.strip().splitlines()[0])["scenarios_per_second"]
        print(f"| {name} (n = {n}, m = {m}) | {lines} | {mb:.1f} | {threads or 'all'} | {lines / t:,.0f} | "
              f"{mb / t:.1f} | {solve:,.0f} | {solve * t / lines:.1f}x |")
PY

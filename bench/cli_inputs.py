#!/usr/bin/env python3
"""The command-line benchmark's input files (bench/cli_throughput.sh, bench/profile.sh): DIR/ball.jsonl,
BALL_LINES ball scenarios (n = 3, m = 1), and DIR/s12_4.jsonl, LINES_12_4 random (12, 4) scenarios
(complementarity law by default, every row closed and approaching), from a fixed seed.

Usage: cli_inputs.py DIR BALL_LINES LINES_12_4
"""
import json, sys
import numpy as np
work, ball, big = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = np.random.default_rng(1)
with open(f"{work}/ball.jsonl", "w") as f:
    qx, e = rng.normal(size=ball), rng.uniform(size=ball)
    for i in range(ball):
        f.write(json.dumps({"id": i, "M": [[2, 0, 0], [0, 2, 0], [0, 0, 2]], "qdot": [float(qx[i]), 0.0, -3.0],
                            "A_u": [[0, 0, 1]], "e": float(e[i])}) + "\n")
with open(f"{work}/s12_4.jsonl", "w") as f:
    for i in range(big):
        B = rng.normal(size=(12, 12))
        A = rng.normal(size=(4, 12))
        v = rng.normal(size=12)
        v -= np.linalg.pinv(A) @ (A @ v + 0.5)
        f.write(json.dumps({"id": i, "M": (B @ B.T + 12 * np.eye(12)).tolist(), "qdot": v.tolist(),
                            "A_u": A.tolist(), "e": 0.5}) + "\n")

#!/usr/bin/env python3
"""Env-steps per second of each obliq vector environment (obliq alone, no peer), side by side in
one run: the tasks' own costs beside the stand task's, whose rate bench/rl_vs_mujoco.py compares
with MuJoCo. Random actions in [-1, 1], autoresets included, elapsed time over --steps env steps
after --warmup, --rounds rounds (the tasks interleaved round by round), one Simulator thread.

Usage: rl_task_rates.py [--envs 4096] [--steps 30] [--warmup 10] [--rounds 3] [--threads 1]"""
import argparse
import time

import numpy as np

from obliq.envs import QuadrupedStandEnv, QuadrupedVelocityEnv
from obliq.envs.solo12 import Solo12VelocityEnv

TASKS = {"stand": QuadrupedStandEnv, "velocity": QuadrupedVelocityEnv, "solo12-velocity": Solo12VelocityEnv}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--envs", type=int, default=4096)
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    envs = {name: cls(args.envs, threads=args.threads) for name, cls in TASKS.items()}
    for env in envs.values():
        env.reset(seed=0)
        for _ in range(args.warmup):
            env.step(rng.uniform(-1, 1, env.action_space.shape).astype(np.float32))
    rates = {name: [] for name in envs}
    for _ in range(args.rounds):
        for name, env in envs.items():
            actions = [rng.uniform(-1, 1, env.action_space.shape).astype(np.float32) for _ in range(args.steps)]
            t0 = time.perf_counter()
            for a in actions:
                env.step(a)
            rates[name].append(args.envs * args.steps / (time.perf_counter() - t0))
    stand = np.median(rates["stand"])
    print(f"| task | env-steps/s (median of {args.rounds}) | rounds | / stand |")
    print("|---|---|---|---|")
    for name, r in rates.items():
        print(f"| {name} | {np.median(r):,.0f} | {', '.join(f'{x:,.0f}' for x in r)} | {np.median(r) / stand:.2f}x |")


if __name__ == "__main__":
    main()

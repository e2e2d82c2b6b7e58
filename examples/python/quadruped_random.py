#!/usr/bin/env python3
"""A random policy on 4096 quadruped environments (obliq.envs.QuadrupedStandEnv) for 1000 steps;
prints env-steps/s (one env step = 4 Simulator steps of 5 ms, PD tracking, observations,
rewards, autoreset included).

    python3 examples/python/quadruped_random.py [--envs 4096] [--steps 1000] [--threads 0]

Needs the obliq package (pip install .) and gymnasium."""
import argparse
import time

import numpy as np

from obliq.envs import QuadrupedStandEnv


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--envs", type=int, default=4096)
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--threads", type=int, default=0, help="0: all hardware threads")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    envs = QuadrupedStandEnv(args.envs, threads=args.threads)
    obs, _ = envs.reset(seed=args.seed)
    envs.action_space.seed(args.seed)
    episodes = returns = 0.0
    t0 = time.perf_counter()
    for _ in range(args.steps):
        obs, reward, terminated, truncated, info = envs.step(envs.action_space.sample())
        returns += reward.sum()
        episodes += np.count_nonzero(terminated | truncated)
    dt = time.perf_counter() - t0
    print(f"{args.envs} envs x {args.steps} steps in {dt:.1f} s: {args.envs * args.steps / dt:,.0f} env-steps/s "
          f"({args.envs * args.steps * envs.frame_skip / dt:,.0f} Simulator steps/s); {episodes:.0f} episodes ended, "
          f"mean reward per step {returns / (args.envs * args.steps):.3f}")
    envs.close()


if __name__ == "__main__":
    main()

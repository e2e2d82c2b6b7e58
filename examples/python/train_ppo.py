#!/usr/bin/env python3
"""Trains a PPO policy (stable-baselines3) from scratch on an obliq environment, records a learning
curve against a random policy, and measures the trained policy on fresh episodes.

    python3 examples/python/train_ppo.py --task stand --minutes 10 --out runs/stand
    python3 examples/python/train_ppo.py --task velocity --minutes 60 --out runs/velocity

Why stable-baselines3: a maintained, documented PPO that runs on CPU numpy arrays through its
VecEnv interface (obliq.envs.sb3), so training needs no GPU; rsl_rl (legged_gym, Isaac Lab) keeps
its rollouts in torch tensors on a device and fits a GPU batch of thousands of copies better.

Writes to --out: curve.csv (env steps, wall seconds, mean episode return, success), curve.png,
eval.json (the trained policy on --eval-episodes fresh episodes, and the random policy on the same
count) and policy.zip. Success: stand, the fraction of episodes held to truncation; velocity, the
fraction whose mean tracking error over the episode's second half is within 0.1 m/s (planar) and
0.2 rad/s (yaw). Needs obliq, gymnasium, stable-baselines3 (which brings torch and matplotlib)."""
import argparse
import csv
import json
import time
from pathlib import Path

import numpy as np
import torch
from stable_baselines3 import PPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import VecMonitor

from obliq.envs import QuadrupedStandEnv, QuadrupedVelocityEnv
from obliq.envs.sb3 import SB3VecEnv

TASKS = {
    # envs, steps per rollout, PPO settings, episode length for training and evaluation
    "stand": dict(cls=QuadrupedStandEnv, envs=64, n_steps=128, batch=2048, epochs=5, lr=3e-4, net=[128, 128],
                  episode=500),
    "velocity": dict(cls=QuadrupedVelocityEnv, envs=256, n_steps=48, batch=3072, epochs=5, lr=3e-4,
                     net=[256, 128], episode=500),
}


def evaluate(task, policy, episodes, seed):
    """Runs `episodes` fresh episodes (all at once, one copy each, no autoreset) with `policy`
    (obs -> actions; None: uniform random actions). Returns (mean return, success fraction,
    per-episode tracking errors (velocity) or None)."""
    spec = TASKS[task]
    env = spec["cls"](episodes, max_episode_steps=spec["episode"])
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    alive = np.ones(episodes, bool)
    ret = np.zeros(episodes)
    err_sum, err_n = np.zeros((episodes, 2)), np.zeros(episodes)
    held = np.zeros(episodes, bool)
    for k in range(spec["episode"]):
        a = rng.uniform(-1, 1, (episodes, env.nu)).astype(np.float32) if policy is None else policy(obs)
        obs, r, term, trunc, _ = env.step(a)
        ret += r * alive
        if task == "velocity" and k >= spec["episode"] // 2:
            err_sum += env.tracking_error() * alive[:, None]
            err_n += alive
        held |= alive & trunc
        alive &= ~(term | trunc)
        if not alive.any():
            break
    if task == "stand":
        return float(ret.mean()), float(held.mean()), None
    err = err_sum / np.maximum(err_n, 1)[:, None]
    ok = held & (err[:, 0] <= 0.1) & (err[:, 1] <= 0.2)
    return float(ret.mean()), float(ok.mean()), dict(
        planar_error_mean=float(err[held, 0].mean()) if held.any() else None,
        yaw_error_mean=float(err[held, 1].mean()) if held.any() else None,
        held=float(held.mean()), commands=env.commands.tolist(), errors=err.tolist())


class Curve(BaseCallback):
    """Every `every` env steps: the mean return of the episodes that ended since the last point
    (VecMonitor's), and the trained policy's success on a small fresh evaluation."""

    def __init__(self, task, every, eval_episodes, out, t0, minutes):
        super().__init__()
        self.task, self.every, self.eval_episodes, self.out, self.t0 = task, every, eval_episodes, out, t0
        self.deadline = t0 + 60 * minutes
        self.rows, self.next = [], every

    def _on_step(self):
        if self.num_timesteps >= self.next:
            self.next += self.every
            eps = [e["r"] for e in self.model.ep_info_buffer]
            ret, success, _ = evaluate(self.task, lambda o: self.model.predict(o, deterministic=True)[0],
                                       self.eval_episodes, seed=len(self.rows) + 1000)
            row = dict(steps=self.num_timesteps, seconds=round(time.perf_counter() - self.t0, 1),
                       train_return=float(np.mean(eps)) if eps else float("nan"), eval_return=ret,
                       success=success)
            self.rows.append(row)
            print(json.dumps(row), flush=True)
        return time.perf_counter() < self.deadline


def plot(rows, baseline, task, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    steps = [r["steps"] / 1e6 for r in rows]
    fig, ax = plt.subplots(1, 2, figsize=(10, 3.6))
    ax[0].plot(steps, [r["eval_return"] for r in rows], label="PPO (evaluation)")
    ax[0].plot(steps, [r["train_return"] for r in rows], alpha=0.6, label="PPO (training episodes)")
    ax[0].axhline(baseline[0], color="gray", ls="--", label="random policy")
    ax[0].set_xlabel("env steps (millions)")
    ax[0].set_ylabel("mean episode return")
    ax[0].legend()
    ax[1].plot(steps, [100 * r["success"] for r in rows], label="PPO")
    ax[1].axhline(100 * baseline[1], color="gray", ls="--", label="random policy")
    ax[1].set_xlabel("env steps (millions)")
    ax[1].set_ylabel("held episodes (%)" if task == "stand" else "tracking within 0.1 m/s, 0.2 rad/s (%)")
    ax[1].set_ylim(-2, 102)
    ax[1].legend()
    fig.suptitle(f"obliq {task}: PPO (stable-baselines3) from scratch, wall {rows[-1]['seconds'] / 60:.1f} min")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--task", choices=sorted(TASKS), default="stand")
    ap.add_argument("--minutes", type=float, default=10.0, help="wall-clock training budget")
    ap.add_argument("--every", type=int, default=0, help="env steps between curve points (0: 20 points in "
                    "the budget's expected steps)")
    ap.add_argument("--eval-episodes", type=int, default=1000, help="fresh episodes of the final evaluation")
    ap.add_argument("--curve-episodes", type=int, default=64, help="fresh episodes of each curve point")
    ap.add_argument("--threads", type=int, default=1, help="torch threads (obliq steps on its own threads)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=Path("runs/ppo"))
    args = ap.parse_args()
    spec = TASKS[args.task]
    torch.set_num_threads(args.threads)
    args.out.mkdir(parents=True, exist_ok=True)

    baseline = evaluate(args.task, None, args.eval_episodes, seed=args.seed + 1)
    print(f"random policy: mean return {baseline[0]:.2f}, success {baseline[1]:.3f}", flush=True)
    venv = VecMonitor(SB3VecEnv(spec["cls"](spec["envs"], max_episode_steps=spec["episode"])))
    venv.seed(args.seed)
    model = PPO("MlpPolicy", venv, n_steps=spec["n_steps"], batch_size=spec["batch"], n_epochs=spec["epochs"],
                learning_rate=spec["lr"], gamma=0.99, gae_lambda=0.95, clip_range=0.2, ent_coef=0.0,
                policy_kwargs=dict(net_arch=spec["net"], activation_fn=torch.nn.ELU), seed=args.seed,
                device="cpu", verbose=0)
    every = args.every or max(spec["envs"] * spec["n_steps"], int(args.minutes * 60 * 2500 / 20))
    t0 = time.perf_counter()
    curve = Curve(args.task, every, args.curve_episodes, args.out, t0, args.minutes)
    model.learn(total_timesteps=10**10, callback=curve)
    wall = time.perf_counter() - t0
    model.save(args.out / "policy.zip")
    trained = evaluate(args.task, lambda o: model.predict(o, deterministic=True)[0], args.eval_episodes,
                       seed=args.seed + 2)
    with open(args.out / "curve.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(curve.rows[0]))
        w.writeheader()
        w.writerows(curve.rows)
    result = dict(task=args.task, env_steps=int(model.num_timesteps), wall_seconds=round(wall, 1),
                  eval_episodes=args.eval_episodes, trained_return=trained[0], trained_success=trained[1],
                  random_return=baseline[0], random_success=baseline[1], torch_threads=args.threads,
                  envs=spec["envs"], seed=args.seed)
    if trained[2]:
        result.update({k: v for k, v in trained[2].items() if k not in ("commands", "errors")})
    (args.out / "eval.json").write_text(json.dumps(result, indent=1) + "\n")
    plot(curve.rows, baseline, args.task, args.out / "curve.png")
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()

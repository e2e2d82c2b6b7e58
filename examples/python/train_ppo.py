#!/usr/bin/env python3
"""Trains a PPO policy (rsl_rl or stable-baselines3) from scratch on an obliq environment, records a
learning curve against a random policy, and measures the trained policy on fresh episodes.

    python3 examples/python/train_ppo.py --task velocity --library rsl_rl --minutes 60 --out runs/velocity
    python3 examples/python/train_ppo.py --task stand --library sb3 --minutes 10 --out runs/stand

Libraries. rsl_rl (rsl-rl-lib, obliq.envs.rsl_rl): the PPO that legged_gym and Isaac Lab train
their locomotion tasks with, run here with their flat velocity task's settings (24 steps per copy
and iteration, 5 epochs of 4 mini-batches, adaptive learning rate at KL 0.01, entropy 0.01, ELU
MLPs of 128-128-128 as Isaac Lab's flat Anymal/Go1 tasks) on thousands of copies, on the CPU:
the default for the velocity task. stable-baselines3 (obliq.envs.sb3): a maintained PPO on CPU
numpy arrays, the default for the stand task (64 copies: 97.6 % held after 10 minutes,
bench/results/ppo-2026-12-04.md).

Writes to --out: curve.csv (env steps, wall seconds, mean return of the training episodes ended
since the last point, the evaluation return and success of a small fresh evaluation), curve.png,
eval.json (the trained policy on --eval-episodes fresh episodes, and the random policy on the same
count) and the policy (policy.zip for SB3, policy.pt for rsl_rl). Success: stand, the fraction of
episodes held to truncation; velocity, the fraction held to truncation whose mean tracking error
over the episode's second half is within 0.1 m/s (planar) and 0.2 rad/s (yaw). Needs obliq,
gymnasium, matplotlib and the library (rsl-rl-lib or stable-baselines3, both bring torch)."""
import argparse
import csv
import json
import time
from pathlib import Path

import numpy as np
import torch

from obliq.envs import QuadrupedStandEnv, QuadrupedVelocityEnv
from obliq.envs.solo12 import Solo12VelocityEnv

TASKS = {
    # envs, steps per rollout, PPO settings, episode length for training and evaluation, per library
    "stand": dict(cls=QuadrupedStandEnv, episode=500, library="sb3",
                  sb3=dict(envs=64, n_steps=128, batch=2048, epochs=5, lr=3e-4, net=[128, 128]),
                  rsl_rl=dict(envs=1024, n_steps=24, net=[128, 128, 128], init_std=1.0)),
    "velocity": dict(cls=QuadrupedVelocityEnv, episode=500, train_episode=1000, library="rsl_rl",
                     sb3=dict(envs=256, n_steps=48, batch=3072, epochs=5, lr=3e-4, net=[256, 128]),
                     rsl_rl=dict(envs=1024, n_steps=24, net=[128, 128, 128], init_std=0.5)),
    # the velocity task on Solo-12 (the package's models/solo12.urdf), same settings
    "solo12-velocity": dict(cls=Solo12VelocityEnv, episode=500, train_episode=1000, library="rsl_rl",
                            sb3=dict(envs=256, n_steps=48, batch=3072, epochs=5, lr=3e-4, net=[256, 128]),
                            rsl_rl=dict(envs=1024, n_steps=24, net=[128, 128, 128], init_std=0.5)),
}
VELOCITY_TASKS = ("velocity", "solo12-velocity")


def evaluate(task, policy, episodes, seed, threads=1):
    """Runs `episodes` fresh episodes (all at once, one copy each, no autoreset) with `policy`
    (obs -> actions; None: uniform random actions). Returns (mean return, success fraction,
    velocity: a dict of tracking errors and their per-episode values; stand: None)."""
    spec = TASKS[task]
    env = spec["cls"](episodes, max_episode_steps=spec["episode"], threads=threads)
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
        if task in VELOCITY_TASKS and k >= spec["episode"] // 2:
            err_sum += env.tracking_error() * alive[:, None]
            err_n += alive
        held |= alive & trunc
        alive &= ~(term | trunc)
        if not alive.any():
            break
    if task not in VELOCITY_TASKS:
        return float(ret.mean()), float(held.mean()), None
    err = err_sum / np.maximum(err_n, 1)[:, None]
    ok = held & (err[:, 0] <= 0.1) & (err[:, 1] <= 0.2)
    fwd = held & (np.abs(env.commands[:, 0]) <= 0.5)
    return float(ret.mean()), float(ok.mean()), dict(
        planar_error_mean=float(err[held, 0].mean()) if held.any() else None,
        yaw_error_mean=float(err[held, 1].mean()) if held.any() else None,
        planar_error_median=float(np.median(err[held, 0])) if held.any() else None,
        yaw_error_median=float(np.median(err[held, 1])) if held.any() else None,
        planar_within_0_1=float((held & (err[:, 0] <= 0.1)).mean()),
        yaw_within_0_2=float((held & (err[:, 1] <= 0.2)).mean()),
        forward_speed_max=float(np.abs(env.commands[fwd, 0]).max()) if fwd.any() else None,
        held=float(held.mean()), commands=env.commands.tolist(), errors=err.tolist(), held_mask=held.tolist())


class CurveLog:
    """The learning curve: a row every `every` env steps (the mean return of the training episodes
    that ended since the last row, and a small fresh evaluation of the current policy)."""

    def __init__(self, task, every, eval_episodes, t0, threads):
        self.task, self.every, self.eval_episodes, self.t0, self.threads = task, every, eval_episodes, t0, threads
        self.rows, self.next = [], every
        self.pending_returns, self.pending_lengths = [], []  # training episodes ended since the last row

    def due(self, steps):
        return steps >= self.next

    def add(self, steps, policy):
        train_returns, train_lengths = self.pending_returns, self.pending_lengths
        self.pending_returns, self.pending_lengths = [], []
        self.next = (steps // self.every + 1) * self.every
        ret, success, extra = evaluate(self.task, policy, self.eval_episodes, seed=len(self.rows) + 1000,
                                       threads=self.threads)
        row = dict(steps=int(steps), seconds=round(time.perf_counter() - self.t0, 1),
                   train_return=float(np.mean(train_returns)) if len(train_returns) else float("nan"),
                   eval_return=ret, success=success)
        if len(train_lengths):
            row["train_length"] = float(np.mean(train_lengths))
        if extra is not None:
            row.update(planar_error=extra["planar_error_mean"], yaw_error=extra["yaw_error_mean"],
                       held=extra["held"])
        self.rows.append(row)
        print(json.dumps(row), flush=True)


def train_sb3(args, spec, lib, curve):
    from stable_baselines3 import PPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import VecMonitor

    from obliq.envs.sb3 import SB3VecEnv

    class Callback(BaseCallback):
        def _on_step(self):
            if curve.due(self.num_timesteps):
                curve.pending_returns = [e["r"] for e in self.model.ep_info_buffer]
                curve.add(self.num_timesteps, lambda o: self.model.predict(o, deterministic=True)[0])
            return time.perf_counter() < curve.deadline

    venv = VecMonitor(SB3VecEnv(spec["cls"](lib["envs"], max_episode_steps=spec.get("train_episode", spec["episode"]),
                                            threads=args.sim_threads)))
    venv.seed(args.seed)
    model = PPO("MlpPolicy", venv, n_steps=lib["n_steps"], batch_size=lib["batch"], n_epochs=lib["epochs"],
                learning_rate=lib["lr"], gamma=0.99, gae_lambda=0.95, clip_range=0.2, ent_coef=0.0,
                policy_kwargs=dict(net_arch=lib["net"], activation_fn=torch.nn.ELU), seed=args.seed,
                device="cpu", verbose=0)
    model.learn(total_timesteps=10**10, callback=Callback())
    model.save(args.out / "policy.zip")
    return int(model.num_timesteps), lambda o: model.predict(o, deterministic=True)[0]


def rsl_rl_config(lib):
    """rsl_rl's train_cfg (rsl-rl-lib 5.x layout) with legged_gym's / Isaac Lab's PPO settings."""
    net = dict(class_name="MLPModel", hidden_dims=lib["net"], activation="elu", obs_normalization=False)
    return dict(
        num_steps_per_env=lib["n_steps"], save_interval=10**9, check_for_nan=True,
        obs_groups={"actor": ["policy"], "critic": ["policy"]},
        actor=dict(net, distribution_cfg=dict(class_name="GaussianDistribution", init_std=lib["init_std"])),
        critic=dict(net),
        algorithm=dict(class_name="PPO", num_learning_epochs=5, num_mini_batches=4, clip_param=0.2, gamma=0.99,
                       lam=0.95, value_loss_coef=1.0, entropy_coef=0.01, learning_rate=1e-3, max_grad_norm=1.0,
                       use_clipped_value_loss=True, schedule="adaptive", desired_kl=0.01))


def train_rsl_rl(args, spec, lib, curve):
    from rsl_rl.runners import OnPolicyRunner
    from tensordict import TensorDict

    from obliq.envs.rsl_rl import RslRlVecEnv

    torch.manual_seed(args.seed)
    venv = RslRlVecEnv(spec["cls"](lib["envs"], max_episode_steps=spec.get("train_episode", spec["episode"]),
                                   threads=args.sim_threads), seed=args.seed)
    runner = OnPolicyRunner(venv, rsl_rl_config(lib), log_dir=None, device="cpu")
    per_iteration = lib["envs"] * lib["n_steps"]

    def policy_fn():
        actor = runner.get_inference_policy()

        def act(o):
            with torch.inference_mode():
                return actor(TensorDict({"policy": torch.from_numpy(o)}, batch_size=[len(o)])).numpy()
        return act

    steps, first = 0, True
    while first or time.perf_counter() < curve.deadline:  # at least one iteration
        runner.learn(1, init_at_random_ep_len=first)  # one rollout of n_steps per copy and one PPO update
        first = False
        steps += per_iteration
        returns, lengths = venv.pop_completed()
        curve.pending_returns += returns
        curve.pending_lengths += lengths
        if curve.due(steps):
            curve.add(steps, policy_fn())
    torch.save(runner.alg.get_policy().state_dict(), args.out / "policy.pt")
    return steps, policy_fn()


def plot(rows, baseline, task, library, path):
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
    name = {"sb3": "stable-baselines3", "rsl_rl": "rsl_rl"}[library]
    fig.suptitle(f"obliq {task}: PPO ({name}) from scratch, wall {rows[-1]['seconds'] / 60:.1f} min")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--task", choices=sorted(TASKS), default="stand")
    ap.add_argument("--library", choices=["rsl_rl", "sb3"], default=None,
                    help="PPO implementation (default: the task's, rsl_rl for velocity, sb3 for stand)")
    ap.add_argument("--envs", type=int, default=0, help="training copies (0: the task's default)")
    ap.add_argument("--init-std", type=float, default=0.0, help="rsl_rl: initial action noise std (0: the "
                    "task's default)")
    ap.add_argument("--minutes", type=float, default=10.0, help="wall-clock training budget")
    ap.add_argument("--every", type=int, default=0, help="env steps between curve points (0: about 20 "
                    "points in the budget)")
    ap.add_argument("--eval-episodes", type=int, default=1000, help="fresh episodes of the final evaluation")
    ap.add_argument("--curve-episodes", type=int, default=64, help="fresh episodes of each curve point")
    ap.add_argument("--threads", type=int, default=1, help="torch threads")
    ap.add_argument("--sim-threads", type=int, default=1, help="obliq Simulator threads (0: all)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=Path("runs/ppo"))
    args = ap.parse_args()
    spec = TASKS[args.task]
    library = args.library or spec["library"]
    lib = dict(spec[library])
    if args.envs:
        lib["envs"] = args.envs
    if args.init_std:
        lib["init_std"] = args.init_std
    torch.set_num_threads(args.threads)
    args.out.mkdir(parents=True, exist_ok=True)

    baseline = evaluate(args.task, None, args.eval_episodes, seed=args.seed + 1, threads=args.sim_threads)
    print(f"random policy: mean return {baseline[0]:.2f}, success {baseline[1]:.3f}", flush=True)
    # curve points: about 20 in the budget, at the throughput of the last runs (2,500 env steps/s
    # for SB3's 64-256 copies, 8,000 for rsl_rl's thousands), in whole rollouts
    per_rollout = lib["envs"] * lib["n_steps"]
    rate = 8000 if library == "rsl_rl" else 2500
    every = args.every or max(per_rollout, int(args.minutes * 60 * rate / 20) // per_rollout * per_rollout)
    t0 = time.perf_counter()
    curve = CurveLog(args.task, every, args.curve_episodes, t0, args.sim_threads)
    curve.deadline = t0 + 60 * args.minutes
    steps, policy = (train_rsl_rl if library == "rsl_rl" else train_sb3)(args, spec, lib, curve)
    wall = time.perf_counter() - t0
    if not curve.rows or curve.rows[-1]["steps"] < steps:  # the curve ends where training ended
        curve.add(steps, policy)
    trained = evaluate(args.task, policy, args.eval_episodes, seed=args.seed + 2, threads=args.sim_threads)
    with open(args.out / "curve.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(curve.rows[0]))
        w.writeheader()
        w.writerows(curve.rows)
    result = dict(task=args.task, library=library, env_steps=int(steps), wall_seconds=round(wall, 1),
                  eval_episodes=args.eval_episodes, trained_return=trained[0], trained_success=trained[1],
                  random_return=baseline[0], random_success=baseline[1], torch_threads=args.threads,
                  sim_threads=args.sim_threads, envs=lib["envs"], seed=args.seed)
    if trained[2]:
        result.update({k: v for k, v in trained[2].items() if k not in ("commands", "errors", "held_mask")})
    (args.out / "eval.json").write_text(json.dumps(result, indent=1) + "\n")
    if trained[2]:
        np.savez_compressed(args.out / "eval_episodes.npz", commands=np.array(trained[2]["commands"]),
                            errors=np.array(trained[2]["errors"]), held=np.array(trained[2]["held_mask"]))
    plot(curve.rows, baseline, args.task, library, args.out / "curve.png")
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()

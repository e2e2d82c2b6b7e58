#!/usr/bin/env python3
"""Vector-environment throughput: obliq.envs.QuadrupedStandEnv against the same task on MuJoCo's
Python bindings (mujoco.rollout), side by side in one run, one thread and all threads.

Both sides do the same work per env step: the obliq built-in quadruped (MJCF from
bench/sim_vs_peers.py: same bodies, masses, inertias, joints; feet as 1 mm spheres), 4 physics
steps of 5 ms holding joint position targets nominal + 0.8 a (a: uniform random actions) under a
PD law (the environment's: kp 80, kd 1, |tau| <= 30 N m), then observations (35 float32), rewards, termination and
next-step autoreset from a pool of dropped initial states, all in numpy over the batch.
Differences: obliq evaluates the PD law in C++ before each physics step (Simulator.step_pd: one
call per env step) and its contacts are hard (the complementarity impact law of Moreau-Jean every
step); MuJoCo evaluates it inside mj_step (position actuators with kv), its contacts are soft,
solved by its own convex solver, and it runs the physics of a batch with mujoco.rollout (a C++
thread pool over copies). --numpy-pd-loop adds a third column: the same obliq environment
stepped as before step_pd (frame_skip Simulator.step calls with the PD law in numpy between
them; the same trajectory), for a before/after in one run. Friction:
Coulomb mu 0.8 on both sides by default (obliq: the environment's exact cone, hard contact;
MuJoCo: condim 3, its default pyramidal cone, soft contact); --mu 0 runs both
frictionless (MuJoCo condim 1).

Usage: rl_vs_mujoco.py [--envs 4096] [--steps 30] [--warmup 30] [--rounds 3] [--threads-all N]
                       [--mu 0.8] [--numpy-pd-loop] [--clock wall|cpu] [--markdown]

--clock cpu times each round by the process's CPU time instead of the elapsed time, one thread
only: env steps per CPU-second, the cost of a step whatever else runs on the machine.
"""
import argparse
import os
import pathlib
import platform
import sys
import time

import mujoco
import numpy as np
from mujoco import rollout

from obliq.envs import QuadrupedStandEnv

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from sim_vs_peers import quadruped_mjcf  # noqa: E402

E = QuadrupedStandEnv  # its PD gains and torque limit, as MuJoCo position actuators
ACTUATOR = (f'<position joint="{{joint}}" kp="{E.kp}" kv="{E.kd}" forcelimited="true" '
            f'forcerange="{-E.max_torque} {E.max_torque}"/>')


class MujocoQuadrupeds:
    """The same task on MuJoCo: a batch of states stepped by mujoco.rollout, the rest in numpy."""

    def __init__(self, n, threads, condim, mu, frame_skip=4, dt=0.005, max_episode_steps=500):
        self.model = mujoco.MjModel.from_xml_string(
            quadruped_mjcf(timestep=dt, condim=condim, friction=mu, actuator=ACTUATOR))
        self.models = [self.model] * n  # rollout's own form of its inputs (so that it can skip its checks)
        self.datas = [mujoco.MjData(self.model) for _ in range(threads)]
        self.spec = mujoco.mjtState.mjSTATE_FULLPHYSICS
        nq, nv = self.model.nq, self.model.nv
        assert mujoco.mj_stateSize(self.model, self.spec) == 1 + nq + nv, "state = (time, qpos, qvel)"
        self.n, self.frame_skip, self.max_episode_steps = n, frame_skip, max_episode_steps
        self.runner = rollout.Rollout(nthread=threads) if threads > 1 else None
        self.state = np.zeros((n, 1 + nq + nv))
        self.out = np.zeros((n, frame_skip, 1 + nq + nv))
        self.elapsed = np.zeros(n, np.int64)
        self.autoreset = np.zeros(n, bool)
        self.nominal = np.tile([0.0, 0.6, -1.2], 4)

    def set_states(self, q, mask):
        """obliq's configuration layout (position, quaternion x, y, z, w, joints) into MuJoCo's
        (position, quaternion w, x, y, z, joints); zero velocities and time."""
        s = np.zeros((len(q), self.state.shape[1]))
        s[:, 1:4] = q[:, 0:3]
        s[:, 4] = q[:, 6]
        s[:, 5:8] = q[:, 3:6]
        s[:, 8:20] = q[:, 7:19]
        self.state[mask] = s
        self.elapsed[mask] = 0

    def step(self, actions, initial):
        restart = self.autoreset
        target = self.nominal + 0.8 * np.clip(actions, -1, 1)
        ctrl = np.repeat(target[:, None, :].astype(np.float64), self.frame_skip, axis=1)
        run = rollout.rollout if self.runner is None else self.runner.rollout
        run(self.models, self.datas, self.state, ctrl, nstep=self.frame_skip, state=self.out, skip_checks=True)
        self.state[:] = self.out[:, -1]
        self.elapsed += 1
        if restart.any():
            self.set_states(initial[restart], restart)
        z, qx, qy = self.state[:, 3], self.state[:, 5], self.state[:, 6]
        up = 1 - 2 * (qx * qx + qy * qy)
        reward = np.where(restart, 0.0, 0.5 * up + 0.5 * np.exp(-(((z - 0.38) / 0.1) ** 2))
                          - 0.01 * np.mean(actions * actions, axis=1))
        terminated = ((z < 0.1) | (up < 0) | ~np.isfinite(self.state).all(axis=1)) & ~restart
        truncated = (self.elapsed >= self.max_episode_steps) & ~terminated & ~restart
        self.autoreset = terminated | truncated
        obs = np.empty((self.n, 35), np.float32)
        obs[:, :17] = self.state[:, 3:20]
        obs[:, 17:] = self.state[:, 20:]
        return obs, reward, terminated, truncated

    def close(self):
        if self.runner is not None:
            self.runner.close()


def numpy_pd_loop_step(env, actions):
    """SimVectorEnv.step as it was before Simulator.step_pd (2026-12-07): frame_skip Simulator.step
    calls with the PD law and |tau|^2 in numpy between them, the rest as SimVectorEnv.step."""
    a = np.clip(np.asarray(actions), -1.0, 1.0)
    restart = env._autoreset
    target = env.nominal + env.action_scale * a
    torques = env.__dict__.setdefault("_numpy_torques", np.zeros((env.num_envs, env.sim.nv)))
    env._torque_sq[:] = 0.0
    for _ in range(env.frame_skip):
        tau = env.kp * (target - env.sim.q[:, env.actuated_q]) - env.kd * env.sim.v[:, env.actuated]
        torques[:, env.actuated] = np.clip(tau, -env.max_torque, env.max_torque)
        torques[restart] = 0.0
        env._torque_sq += np.einsum("ij,ij->i", torques, torques)
        env.sim.step(env.sim_dt, 1, u=torques)
    env._torque_sq /= env.frame_skip
    return env._finish_step(a, restart)  # the rest of the env step, as SimVectorEnv.step


def interleaved(steps, actions, warmup, rounds, clock=time.perf_counter):
    """Runs the first `warmup` actions untimed on every stepper (the drops land, thread pools
    start), then `rounds` rounds in which each stepper in turn runs an equal share of the rest,
    timed by `clock`, so that a change in the machine's load falls on all of them alike. Returns
    per stepper (best round's env steps per second per copy, mean reward per timed env step,
    episodes ended)."""
    for step in steps:
        for k in range(warmup):
            step(actions[k])
    chunks = np.array_split(np.arange(warmup, len(actions)), rounds)
    best = [0.0] * len(steps)
    reward = [0.0] * len(steps)
    ended = [0] * len(steps)
    for chunk in chunks:
        for i, step in enumerate(steps):
            t0 = clock()
            for k in chunk:
                out = step(actions[k])
                reward[i] += out[1].mean()
                ended[i] += np.count_nonzero(out[2] | out[3])
            best[i] = max(best[i], len(chunk) / (clock() - t0))
    timed = len(actions) - warmup
    return [(best[i], reward[i] / timed, ended[i]) for i in range(len(steps))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--envs", type=int, default=4096)
    ap.add_argument("--steps", type=int, default=30, help="timed env steps per configuration")
    ap.add_argument("--rounds", type=int, default=3, help="alternating timed rounds (the best is reported)")
    ap.add_argument("--warmup", type=int, default=30, help="untimed env steps first (0.6 s: the drops land)")
    ap.add_argument("--threads-all", type=int, default=os.cpu_count())
    ap.add_argument("--mu", type=float, default=0.8, help="Coulomb friction on both sides (0: frictionless)")
    ap.add_argument("--numpy-pd-loop", action="store_true",
                    help="also time the obliq env stepped as before step_pd (the PD law in numpy)")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="wall: elapsed time; cpu: this process's CPU time (one thread only: on a shared "
                         "machine it leaves out the time other processes take the core)")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    n = args.envs
    rng = np.random.default_rng(0)
    actions = rng.uniform(-1, 1, (args.warmup + args.steps, n, 12)).astype(np.float32)
    load0 = os.getloadavg()
    rows = []
    clock = time.perf_counter if args.clock == "wall" else time.process_time
    for threads in (1, args.threads_all) if args.clock == "wall" else (1,):
        env = QuadrupedStandEnv(n, threads=threads, mu=args.mu)
        env.reset(seed=0)
        initial = env.sim.q.copy()  # the same dropped states for MuJoCo (and its autoreset pool)
        mj = MujocoQuadrupeds(n, threads, 3 if args.mu > 0 else 1, args.mu)
        mj.set_states(initial, np.ones(n, bool))
        steppers = [env.step, lambda x: mj.step(x, initial)]
        if args.numpy_pd_loop:
            old = QuadrupedStandEnv(n, threads=threads, mu=args.mu)
            old.reset(seed=0)
            steppers.append(lambda x: numpy_pd_loop_step(old, x))
        results = interleaved(steppers, actions, args.warmup, args.rounds, clock)
        (a, r_obliq, e_obliq), (b, r_mj, e_mj) = results[:2]
        mj.close()
        c = n * results[2][0] if args.numpy_pd_loop else None
        rows.append((threads, n * a, n * b, c))
        print(f"threads {threads}: mean reward per step obliq {r_obliq:.3f}, MuJoCo {r_mj:.3f}; episodes ended "
              f"obliq {e_obliq:.0f}, MuJoCo {e_mj:.0f} (a check that both run the same task)")
        if args.numpy_pd_loop:
            print(f"threads {threads}: obliq with the numpy PD loop: mean reward per step {results[2][1]:.3f}, "
                  f"episodes ended {results[2][2]:.0f} (the same trajectory as step_pd: the same numbers)")
    load1 = os.getloadavg()
    cpu = platform.processor() or platform.machine()
    try:
        cpu = next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {cpu}, {os.cpu_count()} hardware threads, "
          f"load average {load0[0]:.1f} before / {load1[0]:.1f} after; {n} envs, {args.steps} timed env steps "
          f"after {args.warmup} (x 4 physics steps of 5 ms), best of {args.rounds} alternating rounds "
          f"({'elapsed' if args.clock == 'wall' else 'CPU'} time); "
          f"MuJoCo {mujoco.__version__}; " + (f"mu {args.mu} (MuJoCo condim 3)" if args.mu > 0 else "frictionless"))
    if args.markdown:
        if args.numpy_pd_loop:
            print("\n| threads | obliq env-steps/s | MuJoCo env-steps/s | obliq / MuJoCo | obliq, numpy PD loop "
                  "env-steps/s | step_pd / numpy PD loop |\n|---|---|---|---|---|---|")
        else:
            print("\n| threads | obliq env-steps/s | MuJoCo env-steps/s | obliq / MuJoCo |\n|---|---|---|---|")
    for threads, a, b, c in rows:
        if args.markdown:
            extra = f" {c:,.0f} | {a / c:.2f}x |" if c is not None else ""
            print(f"| {threads} | {a:,.0f} | {b:,.0f} | {a / b:.2f}x |{extra}")
        else:
            extra = f"; numpy PD loop {c:,.0f} env-steps/s, step_pd / loop {a / c:.2f}" if c is not None else ""
            print(f"threads {threads}: obliq {a:,.0f} env-steps/s, MuJoCo {b:,.0f} env-steps/s, ratio {a / b:.2f}"
                  + extra)


if __name__ == "__main__":
    main()

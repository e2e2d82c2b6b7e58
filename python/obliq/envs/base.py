"""SimVectorEnv: the vector-environment machinery shared by obliq's environments (spaces,
actions into torques, stepping, next-step autoreset, seeding); SingleEnv: a one-copy view."""
import gymnasium as gym
import numpy as np
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .._obliq import Model
from ..sim import Simulator
from ._xp import namespace


class SimVectorEnv(VectorEnv):
    """num_envs copies of one model in an obliq.Simulator.

    Actions: (num_envs, len(actuated)) in [-1, 1], joint position targets
    nominal + action_scale * a, tracked by a PD law on each actuated joint,
    tau = clip(kp (target - q) - kd qdot, -max_torque, max_torque), evaluated before each of the
    `frame_skip` Simulator steps of `sim_dt` (the step's forces are explicit, so the gains are
    chosen with kp sim_dt^2 / I and kd sim_dt / I well below 1 for the lightest link). The other
    velocity coordinates (a floating base) get no torque. One env step is one C++ call,
    Simulator.step_pd (the law and the frame_skip steps for every copy, OpenMP over copies).
    Autoreset (Gymnasium's default, next-step): when an environment terminates or is truncated in
    step k, step k + 1 ignores its action (zero torques), resets it and returns its first
    observation with reward 0 and terminated = truncated = False. A copy whose Simulator status
    is not ok (a failed contact solve, a non-finite state) is terminated, its status in
    info["status"]. Randomness (initial and autoreset states) comes from one generator seeded by
    reset(seed=...); the Simulator is deterministic, so a seed and an action sequence give one
    trajectory, for any thread count.

    Contacts: plastic (restitution 0) with Coulomb friction mu = 0.8 per contact by default, the
    exact cone (friction='pyramid': faceted, `facets` facets); mu=0 is frictionless.

    arrays: 'numpy' or 'torch' (passed to the Simulator, whose state and controls are then torch
    tensors; None: numpy, or torch with backend='cuda', where the tensors are CUDA tensors of the
    device's memory and the whole step stays on the GPU): step() takes the actions as a tensor (or a numpy array, moved to the
    Simulator's device once) and returns obs, reward, terminated, truncated as tensors on that
    device; the env's own buffers (_elapsed, _autoreset, _torque_sq, a task's commands...) are
    tensors there too. The task code is written once against `self.xp` (numpy, or _xp's
    TorchNamespace): a step with tensors converts nothing to numpy; it reads two flags (any copy to
    reset, any copy failed) on the host. Initial and autoreset states are drawn on the host from
    the same generator as with numpy (a seed gives the same trajectory for either kind) and only the
    reset rows go to the device.

    Subclasses give: `model_name` (a built-in model; or override `_make_model()`), `actuated` (velocity indices), `actuated_q` (their
    configuration indices), `nominal`, `action_scale`, `kp`, `kd`, `max_torque`, `sim_dt`,
    `frame_skip`, `max_episode_steps`, and `_initial_states(rng, k)`, `_observe()`,
    `_reward(actions)`, `_terminated()`; optionally `_on_reset(mask, k)` (per-episode draws).
    During `_reward`, `_torque_sq` holds each copy's |tau|^2 averaged over the env step."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}
    obs_dim = 0

    def __init__(self, num_envs, *, sim_dt=5e-3, frame_skip=4, max_episode_steps=500, threads=0, restitution=0.0,
                 mu=0.8, friction="cone", arrays=None, **sim_options):
        self.model = self._make_model()
        self.sim_dt, self.frame_skip, self.max_episode_steps = sim_dt, int(frame_skip), int(max_episode_steps)
        self.num_envs = int(num_envs)
        if self.num_envs < 1:
            raise ValueError(f"num_envs must be >= 1, not {num_envs}")
        self.sim = Simulator(self.model, self.num_envs, threads=threads, friction=friction, arrays=arrays,
                             **sim_options)
        self.arrays, self.xp = self.sim.arrays, namespace(self.sim)
        xp = self.xp
        self.sim.e[:] = restitution
        self.sim.mu[:] = mu
        self.actuated, self.actuated_q = np.asarray(self.actuated), np.asarray(self.actuated_q)
        self.nu = len(self.actuated)
        self.single_action_space = gym.spaces.Box(-1.0, 1.0, (self.nu,), np.float32)
        self.single_observation_space = gym.spaces.Box(-np.inf, np.inf, (self.obs_dim,), np.float32)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self._v_index, self._q_index = [int(i) for i in self.actuated], [int(i) for i in self.actuated_q]
        self._nominal = xp.asarray(self.nominal, np.float64)  # numpy: self.nominal itself
        self._torque_sq = xp.zeros(self.num_envs, self.sim.dtype)  # mean |tau|^2 per copy over the last env step
        self._elapsed = xp.zeros(self.num_envs, np.int64)
        self._autoreset = xp.zeros(self.num_envs, bool)
        self._np_random, self._np_random_seed = seeding.np_random(None)

    # --- Gymnasium API ---------------------------------------------------------------------------
    def reset(self, *, seed=None, options=None):
        """Resets every copy (or those of options["reset_mask"], a (num_envs,) bool array: numpy,
        or with arrays='torch' a tensor too)."""
        xp = self.xp
        if seed is not None:
            self._np_random, self._np_random_seed = seeding.np_random(seed)
        mask = xp.ones(self.num_envs, bool)
        if options is not None and "reset_mask" in options:
            mask = xp.asarray(options["reset_mask"])
            if mask.dtype != xp.bool_ or mask.shape != (self.num_envs,):
                raise ValueError(f"reset_mask: expected a ({self.num_envs},) bool array, got {mask.dtype} "
                                 f"{tuple(mask.shape)}")
        self._reset_envs(mask)
        return self._observe(), {}

    def step(self, actions):
        xp = self.xp
        a = xp.asarray(actions)
        if a.shape != (self.num_envs, self.nu):
            raise ValueError(f"actions: shape {tuple(a.shape)} does not fit, expected {(self.num_envs, self.nu)}")
        if not (a.is_floating_point() if self.arrays == "torch" else np.issubdtype(a.dtype, np.floating)):
            raise TypeError(f"actions: expected a float array, got {a.dtype}")
        restart = self._autoreset
        a = xp.clip(a, -1.0, 1.0)
        target = xp.asarray(self._nominal + self.action_scale * a, self.sim.dtype)
        # frame_skip physics steps with the PD law before each, one C++ call (copies about to be
        # reset held with zero torque); _torque_sq receives the mean |tau|^2 in place.
        self.sim.step_pd(self.sim_dt, self.frame_skip, target, v_index=self._v_index, q_index=self._q_index,
                         kp=self.kp, kd=self.kd, max_torque=self.max_torque, hold=restart, effort=self._torque_sq)
        return self._finish_step(a, restart)

    def _finish_step(self, a, restart):
        """What an env step does after its physics: the autoreset of the copies in `restart`,
        reward (of the clipped actions `a`), termination, truncation, observation and info."""
        xp = self.xp
        self._elapsed += 1
        if restart.any():
            self._reset_envs(restart)
        failed = self.sim.status != 0
        reward = xp.where(failed | restart, 0.0, self._reward(a))
        terminated = (self._terminated() | failed) & ~restart
        truncated = (self._elapsed >= self.max_episode_steps) & ~terminated & ~restart
        self._autoreset = terminated | truncated
        obs = self._observe()
        info = {}
        if failed.any():
            info["status"] = xp.copy(self.sim.status)
            info["_status"] = failed
        return obs, reward, terminated, truncated, info

    def close(self, **kwargs):
        self.closed = True

    # --- helpers ---------------------------------------------------------------------------------
    def _reset_envs(self, mask):
        k = int(self.xp.count_nonzero(mask))
        if k == 0:
            return
        q, v = self._initial_states(self.np_random, k)
        self.sim.reset(mask, q=q, v=v)
        self._elapsed[mask] = 0
        self._autoreset = self._autoreset & ~mask
        self._on_reset(mask, k)

    def _make_model(self):
        """The environment's obliq.Model: the built-in `model_name` (a subclass may load a URDF)."""
        return Model.builtin(self.model_name)

    def _on_reset(self, mask, k):
        """Per-episode draws of a task (commands, domain randomisation) for the k copies of `mask`,
        after their states were drawn; none by default."""


class SingleEnv(gym.Env):
    """A `gymnasium.Env` over a one-copy vector environment (`make(num_envs=1, **kwargs)`), for
    gymnasium.utils.env_checker and single-episode use. It does not autoreset: call reset()."""

    metadata = {"render_modes": []}

    def __init__(self, make, **kwargs):
        self.vec = make(1, **kwargs)
        self.observation_space = self.vec.single_observation_space
        self.action_space = self.vec.single_action_space

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        obs, info = self.vec.reset(seed=seed, options=options)
        return obs[0], {}

    def step(self, action):
        obs, r, term, trunc, info = self.vec.step(np.asarray(action, np.float32)[None])
        return obs[0], float(r[0]), bool(term[0]), bool(trunc[0]), {}



def lift_to_clearance(model, q, z_index, clearance, threads=0):
    """Moves the base height q[:, z_index] of the states q (k, nq) so that each state's lowest
    contact has the gap `clearance` (k,) (a base translation along world z moves every contact
    point by the same amount). The gaps come from one batched Model.evaluate on `threads`
    threads (0: all; the environments pass their Simulator's: on a loaded machine an OpenMP
    team larger than the environment's cost milliseconds per autoreset, measured 2026-12-07)."""
    gaps = model.evaluate(q, np.zeros((len(q), model.nv)), threads=threads).batch.phi_u
    q[:, z_index] += clearance - gaps.min(axis=1)
    return q

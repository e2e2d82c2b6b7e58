"""QuadrupedVelocityEnv: the built-in quadruped on flat ground tracks a commanded planar velocity
(forward, lateral, yaw rate), the locomotion task of legged_gym / Isaac Lab's "flat" velocity
tasks and MuJoCo Playground's Go1 joystick, with per-episode domain randomisation of friction and
restitution."""
import numpy as np

from .base import lift_to_clearance
from .quadruped import QuadrupedEnv, quaternion_from_rpy


class QuadrupedVelocityEnv(QuadrupedEnv):
    """The quadruped of QuadrupedStandEnv (q = trunk position, quaternion x, y, z, w, 12 joints;
    v = trunk linear and angular velocity in the trunk frame, 12 joint rates), started standing.

    Command per episode, drawn uniformly at each reset: forward speed vx in `vx_range`, lateral
    vy in `vy_range` (m/s, trunk frame) and yaw rate wz in `yaw_range` (rad/s).

    Observation (49, float32), as legged_gym's: trunk linear velocity (trunk frame) x 2, angular
    velocity x 0.25, gravity in the trunk frame (3), the command (vx x 2, vy x 2, wz x 0.25),
    joint angles minus nominal (12), joint rates x 0.05 (12), the previous action (12), trunk
    height (1).

    Action (12,) in [-1, 1]: joint position targets nominal + 0.5 a, PD as QuadrupedStandEnv.

    Reward per env step (legged_gym's terms and weights, scaled by the env step dt = frame_skip
    sim_dt as there):
        1.0 exp(-|v_xy - c_xy|^2 / 0.25) + 0.5 exp(-(w_z - c_wz)^2 / 0.25)    tracking
        - 2 v_z^2 - 0.05 |w_xy|^2                                            trunk motion
        - 1 |g_xy|^2 - 10 (z - 0.38)^2                                       orientation, height
        - 1e-5 |tau|^2 - 0.01 |a - a_prev|^2                                 torque, action rate
        + 1.0 sum_feet (air time - 0.5) at touchdown (while |c_xy| > 0.1)    feet air time
    clipped below at 0 (`only_positive_rewards`, legged_gym's default: without it, the penalties
    of an unsteady early policy outweigh the tracking terms, so the return is highest for an early
    fall; the 2026-12-04 run learned exactly that), then times dt.
    Terminated: trunk below 0.2 m, trunk tilted more than 60 degrees (up < 0.5), or a Simulator
    status other than ok. Truncated after max_episode_steps (default 1000 steps of 20 ms: 20 s).

    Domain randomisation (per episode, per copy): Coulomb mu uniform in `mu_range` (all four
    feet), restitution per foot uniform in `restitution_range` (default (0, 0): plastic feet).

    info of step() carries nothing task-specific; `commands` ((num_envs, 3), the current command of
    each copy) and `tracking_error()` are there for evaluation."""

    obs_dim = 49
    action_scale = 0.5
    torque_weight = 1e-5
    min_height = 0.2  # terminated below this trunk height (m)

    def __init__(self, num_envs, *, vx_range=(-0.5, 0.5), vy_range=(-0.25, 0.25), yaw_range=(-0.5, 0.5),
                 mu_range=(0.5, 1.0), restitution_range=(0.0, 0.0), max_episode_steps=1000, only_positive_rewards=True,
                 **kwargs):
        for name, r in (("vx_range", vx_range), ("vy_range", vy_range), ("yaw_range", yaw_range),
                        ("mu_range", mu_range), ("restitution_range", restitution_range)):
            if len(r) != 2 or not r[0] <= r[1]:
                raise ValueError(f"{name}: expected (low, high) with low <= high, got {r!r}")
        if mu_range[0] < 0:
            raise ValueError(f"mu_range: friction coefficients must be >= 0, got {mu_range!r}")
        if restitution_range[0] < 0 or restitution_range[1] > 1:
            raise ValueError(f"restitution_range: must lie in [0, 1], got {restitution_range!r}")
        super().__init__(num_envs, max_episode_steps=max_episode_steps, **kwargs)
        self.ranges = np.array([vx_range, vy_range, yaw_range], float)
        self.mu_range, self.restitution_range = tuple(mu_range), tuple(restitution_range)
        self.only_positive_rewards = bool(only_positive_rewards)
        xp = self.xp
        self.commands = xp.zeros((self.num_envs, 3))
        self._command_scale = xp.asarray([2.0, 2.0, 0.25])  # the observation's scales of vx, vy, wz
        self._last_action = xp.zeros((self.num_envs, self.nu))
        self._air_time = xp.zeros((self.num_envs, self.sim.m_u))
        self.dt = self.sim_dt * self.frame_skip

    # --- task ----------------------------------------------------------------------------------
    def _initial_states(self, rng, k):
        q = np.zeros((k, 19))
        q[:, 3:7] = quaternion_from_rpy(rng.uniform(-0.1, 0.1, k), rng.uniform(-0.1, 0.1, k),
                                        rng.uniform(-np.pi, np.pi, k))
        q[:, 7:] = self.nominal + rng.uniform(-0.1, 0.1, (k, 12))
        clearance = rng.uniform(0.0, 0.02, k)
        return lift_to_clearance(self.model, q, 2, clearance, threads=self.sim.threads), np.zeros((k, 18))

    def _on_reset(self, mask, k):
        rng, xp = self.np_random, self.xp  # drawn on the host; the k rows go to the arrays' device
        self.commands[mask] = xp.asarray(rng.uniform(self.ranges[:, 0], self.ranges[:, 1], (k, 3)))
        self.sim.mu[mask] = xp.asarray(rng.uniform(*self.mu_range, (k, 1)), self.sim.dtype)
        self.sim.e[mask] = xp.asarray(rng.uniform(*self.restitution_range, (k, self.sim.m_u)), self.sim.dtype)
        self._last_action[mask] = 0.0
        self._air_time[mask] = 0.0

    def _gravity(self):
        """The unit vector of gravity in the trunk frame, -R^T e_z, for quaternions (x, y, z, w)."""
        x, y, z, w = (self.sim.q[:, 3 + i] for i in range(4))
        return -self.xp.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], axis=1)

    def _observe(self):
        v = self.sim.v
        obs = self.xp.empty((self.num_envs, self.obs_dim), np.float32)
        obs[:, 0:3] = 2.0 * v[:, 0:3]
        obs[:, 3:6] = 0.25 * v[:, 3:6]
        obs[:, 6:9] = self._gravity()
        obs[:, 9:12] = self.commands * self._command_scale
        obs[:, 12:24] = self.sim.q[:, 7:] - self._nominal
        obs[:, 24:36] = 0.05 * v[:, 6:]
        obs[:, 36:48] = self._last_action
        obs[:, 48] = self.sim.q[:, 2]
        return obs

    def tracking_error(self):
        """(num_envs, 2): |v_xy - c_xy| (m/s) and |w_z - c_wz| (rad/s) at the current state."""
        v, xp = self.sim.v, self.xp
        return xp.stack([xp.hypot(v[:, 0] - self.commands[:, 0], v[:, 1] - self.commands[:, 1]),
                         xp.abs(v[:, 5] - self.commands[:, 2])], axis=1)

    def _reward(self, a):
        xp, v, z, g = self.xp, self.sim.v, self.sim.q[:, 2], self._gravity()
        err = self.tracking_error()
        contact = self.sim.active != 0
        touchdown = contact & (self._air_time > 0)
        moving = xp.hypot(self.commands[:, 0], self.commands[:, 1]) > 0.1
        air = xp.sum((self._air_time - 0.5) * touchdown, axis=1) * moving
        fresh = (self._elapsed == 0)[:, None]  # copies reset in this step (their action was ignored)
        self._air_time = xp.where(contact | fresh, 0.0, self._air_time + self.dt)
        r = (1.0 * xp.exp(-err[:, 0] ** 2 / 0.25) + 0.5 * xp.exp(-err[:, 1] ** 2 / 0.25)
             - 2.0 * v[:, 2] ** 2 - 0.05 * (v[:, 3] ** 2 + v[:, 4] ** 2)
             - 1.0 * (g[:, 0] ** 2 + g[:, 1] ** 2) - 10.0 * (z - self.target_height) ** 2
             - self.torque_weight * self._torque_sq - 0.01 * xp.sum((a - self._last_action) ** 2, axis=1)
             + 1.0 * air)
        self._last_action = xp.where(fresh, 0.0, a)
        if self.only_positive_rewards:
            r = xp.maximum(r, 0.0)
        return r * self.dt

    def _terminated(self):
        return (self.sim.q[:, 2] < self.min_height) | (-self._gravity()[:, 2] < 0.5)

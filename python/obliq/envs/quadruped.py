"""QuadrupedStandEnv: the built-in floating-base quadruped dropped with a random attitude and
random joints; it must land, stand up and hold its trunk level at standing height."""
import numpy as np

from .base import SimVectorEnv, lift_to_clearance


def quaternion_from_rpy(roll, pitch, yaw):
    """(k, 4) unit quaternions (x, y, z, w) of R = Rz(yaw) Ry(pitch) Rx(roll)."""
    cr, sr, cp, sp, cy, sy = (f(a / 2) for a in (roll, pitch, yaw) for f in (np.cos, np.sin))
    return np.stack([sr * cp * cy - cr * sp * sy, cr * sp * cy + sr * cp * sy, cr * cp * sy - sr * sp * cy,
                     cr * cp * cy + sr * sp * sy], axis=1)


class QuadrupedEnv(SimVectorEnv):
    """What the built-in quadruped's tasks share: its actuated joints (12, velocity indices 6-17,
    configuration indices 7-18), the nominal stance (0, 0.6, -1.2) per leg and the PD gains."""

    model_name = "quadruped"
    actuated = list(range(6, 18))
    actuated_q = list(range(7, 19))
    nominal = np.tile([0.0, 0.6, -1.2], 4)
    kp, kd, max_torque = 80.0, 1.0, 30.0
    target_height = 0.38


class QuadrupedStandEnv(QuadrupedEnv):
    """q = (trunk position, trunk quaternion x, y, z, w, 12 joints: FL, FR, HL, HR legs, each hip
    abduction, hip flexion, knee), v = (trunk linear and angular velocity in the trunk frame,
    12 joint rates).

    Observation (35, float32): trunk height, quaternion, joint angles, the 18 velocities.
    Action (12,) in [-1, 1]: joint position targets nominal + 0.8 a, nominal = (0, 0.6, -1.2)
    per leg (about 0.41 m high), tracked by PD (kp 80 N m/rad, kd 1 N m s/rad,
    |tau| <= 30 N m: it holds the stance, trunk at 0.39-0.40 m). Reward per step:
    0.5 up + 0.5 exp(-((z - 0.38) / 0.1)^2) - 0.01 mean(a^2), with up = the world-z component of
    the trunk's z axis (1 level, -1 upside down). Terminated: trunk height below 0.1 m (its
    underside on the floor: the trunk has no contact of its own), up < 0 (on its back), or a
    Simulator status other than ok. Truncated after max_episode_steps (default 500 steps of
    20 ms: 10 s). Initial state: roll and pitch in [-0.5, 0.5] rad, yaw in [-pi, pi], joints in
    [-0.6, 0.6] rad, velocities zero, the lowest foot 0.05 to 0.4 m above the floor.
    Contacts: plastic, Coulomb friction mu = 0.8 (SimVectorEnv)."""

    obs_dim = 35
    action_scale = 0.8

    def _initial_states(self, rng, k):
        q = np.zeros((k, 19))
        q[:, 3:7] = quaternion_from_rpy(rng.uniform(-0.5, 0.5, k), rng.uniform(-0.5, 0.5, k),
                                        rng.uniform(-np.pi, np.pi, k))
        q[:, 7:] = rng.uniform(-0.6, 0.6, (k, 12))
        clearance = rng.uniform(0.05, 0.4, k)
        return lift_to_clearance(self.model, q, 2, clearance, threads=self.sim.threads), np.zeros((k, 18))

    def _up(self):
        x, y = self.sim.q[:, 3], self.sim.q[:, 4]
        return 1.0 - 2.0 * (x * x + y * y)

    def _observe(self):
        obs = self.xp.empty((self.num_envs, self.obs_dim), np.float32)
        obs[:, :17] = self.sim.q[:, 2:]
        obs[:, 17:] = self.sim.v
        return obs

    def _reward(self, a):
        xp, z = self.xp, self.sim.q[:, 2]
        return (0.5 * self._up() + 0.5 * xp.exp(-(((z - self.target_height) / 0.1) ** 2))
                - 0.01 * xp.mean(a * a, axis=1))

    def _terminated(self):
        return (self.sim.q[:, 2] < 0.1) | (self._up() < 0.0)

"""Biped5BalanceEnv: the planar five-link biped (built-in `biped5`) dropped onto the floor with
random joints; it must land and keep its torso upright at standing height."""
import numpy as np

from .base import SimVectorEnv, lift_to_clearance


class Biped5BalanceEnv(SimVectorEnv):
    """q = (x, z, pitch, left hip, left knee, right hip, right knee), v likewise (7 each).

    Observation (13, float32): z, pitch, the four joint angles, the seven velocities (x left out:
    the task does not depend on it). Action (4,) in [-1, 1]: hip and knee position targets
    a * 0.8 rad, tracked by PD (kp 300 N m/rad, kd 10 N m s/rad, |tau| <= 150 N m).
    Reward per step: 1 - pitch^2 - 4 (z - 0.75)^2 - 0.01 |a|^2 (alive, upright, at height, small
    torques). Terminated: |pitch| > 1 rad, torso height z < 0.4 m (the hips at 0.8 m with straight
    legs; the torso has no contact of its own), or a Simulator status other than ok. Truncated
    after max_episode_steps (default 500 steps of 20 ms: 10 s). Initial state: pitch in
    [-0.1, 0.1], joints in [-0.3, 0.3] rad, velocities zero, the lowest foot 0 to 0.1 m above
    the floor. Contacts: plastic, Coulomb friction mu = 0.8 (SimVectorEnv)."""

    model_name = "biped5"
    obs_dim = 13
    actuated = actuated_q = [3, 4, 5, 6]
    nominal = np.zeros(4)
    action_scale, kp, kd, max_torque = 0.8, 300.0, 10.0, 150.0
    target_height = 0.75

    def _initial_states(self, rng, k):
        q = np.zeros((k, 7))
        q[:, 2] = rng.uniform(-0.1, 0.1, k)
        q[:, 3:] = rng.uniform(-0.3, 0.3, (k, 4))
        clearance = rng.uniform(0.0, 0.1, k)
        return lift_to_clearance(self.model, q, 1, clearance, threads=self.sim.threads), np.zeros((k, 7))

    def _observe(self):
        obs = self.xp.empty((self.num_envs, self.obs_dim), np.float32)
        obs[:, :6] = self.sim.q[:, 1:]
        obs[:, 6:] = self.sim.v
        return obs

    def _reward(self, a):
        z, pitch = self.sim.q[:, 1], self.sim.q[:, 2]
        return 1.0 - pitch ** 2 - 4.0 * (z - self.target_height) ** 2 - 0.01 * self.xp.sum(a * a, axis=1)

    def _terminated(self):
        return (self.xp.abs(self.sim.q[:, 2]) > 1.0) | (self.sim.q[:, 1] < 0.4)

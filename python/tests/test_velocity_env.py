"""QuadrupedVelocityEnv's task: per-episode commands and domain randomisation, the observation's
terms against the state, the tracking reward's optimum, and its Gymnasium ids."""
import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

import obliq.envs  # noqa: E402,F401  (registers the ids)
from obliq.envs import QuadrupedStandEnv, QuadrupedVelocityEnv, SingleEnv, Solo12VelocityEnv  # noqa: E402


def test_commands_and_randomisation_drawn_per_episode_within_ranges():
    env = QuadrupedVelocityEnv(64, vx_range=(0.1, 0.5), vy_range=(-0.2, 0.0), yaw_range=(0.3, 0.4),
                               mu_range=(0.3, 0.9), restitution_range=(0.0, 0.5))
    env.reset(seed=1)
    c = env.commands
    assert ((c[:, 0] >= 0.1) & (c[:, 0] <= 0.5)).all() and ((c[:, 1] >= -0.2) & (c[:, 1] <= 0)).all()
    assert ((c[:, 2] >= 0.3) & (c[:, 2] <= 0.4)).all() and np.unique(c[:, 0]).size == 64
    mu, e = env.sim.mu, env.sim.e
    assert ((mu >= 0.3) & (mu <= 0.9)).all() and (mu == mu[:, :1]).all()  # one mu per copy, every foot
    assert np.unique(mu[:, 0]).size == 64
    assert ((e >= 0) & (e <= 0.5)).all() and np.unique(e).size == e.size  # per foot
    before = c.copy()
    mask = np.zeros(64, bool)
    mask[[3, 9]] = True
    env.reset(options={"reset_mask": mask})
    assert (env.commands[~mask] == before[~mask]).all() and (env.commands[mask] != before[mask]).all()


def test_bad_ranges_are_refused_naming_the_argument():
    with pytest.raises(ValueError, match="vx_range"):
        QuadrupedVelocityEnv(2, vx_range=(1.0, 0.0))
    with pytest.raises(ValueError, match="mu_range"):
        QuadrupedVelocityEnv(2, mu_range=(-0.1, 0.5))
    with pytest.raises(ValueError, match="restitution_range"):
        QuadrupedVelocityEnv(2, restitution_range=(0.0, 1.5))


def test_observation_terms_against_the_state():
    env = QuadrupedVelocityEnv(3)
    obs, _ = env.reset(seed=7)
    q, v = env.sim.q, env.sim.v
    # gravity in the trunk frame from the rotation matrix of the quaternion (x, y, z, w), written here
    for s in range(3):
        x, y, z, w = q[s, 3:7]
        R = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                      [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                      [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])
        np.testing.assert_allclose(obs[s, 6:9], R.T @ [0, 0, -1], atol=1e-6)
    np.testing.assert_allclose(obs[:, 9:12], env.commands * [2, 2, 0.25], rtol=1e-6)
    np.testing.assert_allclose(obs[:, 12:24], q[:, 7:] - env.nominal, atol=1e-6)
    np.testing.assert_array_equal(obs[:, 36:48], 0)  # no previous action after a reset
    np.testing.assert_allclose(obs[:, 48], q[:, 2], rtol=1e-6)
    a = np.full((3, 12), 0.25, np.float32)
    obs, *_ = env.step(a)
    np.testing.assert_allclose(obs[:, 0:6], np.c_[2 * env.sim.v[:, :3], 0.25 * env.sim.v[:, 3:6]], rtol=1e-6)
    np.testing.assert_allclose(obs[:, 36:48], a, rtol=1e-6)


def test_tracking_reward_is_highest_at_the_commanded_velocity():
    env = QuadrupedVelocityEnv(3, vx_range=(0.4, 0.4), vy_range=(0.0, 0.0), yaw_range=(0.2, 0.2))
    env.reset(seed=3)
    a = np.zeros((3, 12))
    env.sim.q[:] = env.sim.q[0]  # one state for all three: only the velocities differ
    env.sim.v[:] = 0
    env.sim.v[0, 0], env.sim.v[0, 5] = 0.4, 0.2  # tracks the command exactly
    env.sim.v[1, 0], env.sim.v[1, 5] = 0.0, 0.2  # does not move forward
    env.sim.v[2, 0], env.sim.v[2, 5] = 0.4, -0.3  # turns the wrong way
    np.testing.assert_allclose(env.tracking_error(), [[0, 0], [0.4, 0], [0, 0.5]], atol=1e-12)
    r = env._reward(a)
    assert r[0] > r[1] and r[0] > r[2]
    # the difference is the tracking terms alone: 1.0 (1 - e^{-0.16/0.25}) dt and 0.5 (1 - e^{-1})dt
    np.testing.assert_allclose(r[0] - r[1], (1 - np.exp(-0.16 / 0.25)) * env.dt, rtol=1e-9)
    np.testing.assert_allclose(r[0] - r[2], 0.5 * (1 - np.exp(-0.25 / 0.25)) * env.dt, rtol=1e-9)


def test_gymnasium_ids():
    for env_id, cls in (("obliq/QuadrupedVelocity-v0", QuadrupedVelocityEnv),
                        ("obliq/QuadrupedStand-v0", QuadrupedStandEnv),
                        ("obliq/Solo12Velocity-v0", Solo12VelocityEnv)):
        venv = gym.make_vec(env_id, num_envs=5, max_episode_steps=7)
        assert type(venv) is cls and venv.num_envs == 5 and venv.max_episode_steps == 7
        obs, _ = venv.reset(seed=0)
        assert obs.shape == (5, cls.obs_dim)
        single = gym.make(env_id)
        assert isinstance(single.unwrapped, SingleEnv)
        assert single.observation_space.shape == (cls.obs_dim,)
    assert "obliq/Biped5Balance-v0" in gym.registry


@pytest.mark.parametrize("env_id", ["obliq/QuadrupedVelocity-v0", "obliq/Solo12Velocity-v0"])
def test_env_checker_on_a_registered_single_env(env_id):
    check_env(gym.make(env_id).unwrapped, skip_render_check=True)


def test_only_positive_rewards_clips_the_total_at_zero():
    """legged_gym's only_positive_rewards: the same trajectory with and without the clip; the
    clipped reward is max(raw, 0) exactly, and the run has rewards of both signs (random actions
    on a standing robot: penalties above the tracking terms in some steps, not in others)."""
    clipped, raw = QuadrupedVelocityEnv(16), QuadrupedVelocityEnv(16, only_positive_rewards=False)
    clipped.reset(seed=4)
    raw.reset(seed=4)
    rng = np.random.default_rng(4)
    r_clip, r_raw = [], []
    for _ in range(10):
        a = rng.uniform(-1, 1, (16, 12)).astype(np.float32)
        r_clip.append(clipped.step(a)[1])
        r_raw.append(raw.step(a)[1])
        np.testing.assert_array_equal(clipped.sim.q, raw.sim.q)
    r_clip, r_raw = np.array(r_clip), np.array(r_raw)
    assert (r_raw < 0).any() and (r_raw > 0).any()
    np.testing.assert_array_equal(r_clip, np.maximum(r_raw, 0.0))

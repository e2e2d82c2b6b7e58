"""The stable-baselines3 adapter: SB3's info keys over SameStepAutoreset, and a short PPO run.
Skipped when stable-baselines3 (which brings torch) is not installed: it is not a requirement of
the package; test_autoreset.py tests the autoreset it relies on without it."""
import numpy as np
import pytest

pytest.importorskip("stable_baselines3", reason="stable-baselines3 not installed (pip install stable-baselines3)")
from obliq.envs import QuadrupedStandEnv, QuadrupedVelocityEnv  # noqa: E402
from obliq.envs.sb3 import SB3VecEnv  # noqa: E402


def test_infos_mark_terminal_observation_and_time_limit():
    venv, ref = SB3VecEnv(QuadrupedStandEnv(4, max_episode_steps=3)), QuadrupedStandEnv(4, max_episode_steps=3)
    venv.seed(5)
    np.testing.assert_array_equal(venv.reset(), ref.reset(seed=5)[0])
    act = np.zeros((4, 12), np.float32)
    for _ in range(3):
        venv.step_async(act)
        obs, r, done, infos = venv.step_wait()
        ref_obs, *_ = ref.step(act)
    assert done.all() and r.dtype == np.float32
    for i in range(4):
        np.testing.assert_array_equal(infos[i]["terminal_observation"], ref_obs[i])
        assert infos[i]["TimeLimit.truncated"] is True
    venv = SB3VecEnv(QuadrupedVelocityEnv(3))
    venv.reset()
    venv.env.sim.q[1, 2] = 0.01
    venv.step_async(np.zeros((3, 12), np.float32))
    _, _, done, infos = venv.step_wait()
    assert done.tolist() == [False, True, False] and infos[1]["TimeLimit.truncated"] is False
    assert infos[0] == {} and infos[2] == {}


def test_ppo_learns_a_few_steps():
    sb3 = pytest.importorskip("stable_baselines3")
    venv = SB3VecEnv(QuadrupedStandEnv(8))
    model = sb3.PPO("MlpPolicy", venv, n_steps=16, batch_size=64, n_epochs=1, seed=0, device="cpu")
    model.learn(total_timesteps=256)
    action, _ = model.predict(venv.reset(), deterministic=True)
    assert action.shape == (8, 12) and np.isfinite(action).all()

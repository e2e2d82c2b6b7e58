"""The rsl_rl adapter (obliq.envs.rsl_rl.RslRlVecEnv): rsl_rl's VecEnv contract (TensorDict
observations, shapes and dtypes, dones with time_outs marking truncation only, same-step autoreset)
against the next-step environment's own terminated/truncated, step for step; episode_length_buf as
the environment's step counter; determinism for a seed; and a few PPO updates through rsl_rl's
OnPolicyRunner. Skipped when rsl-rl-lib (which brings torch) is not installed: it is not a
requirement of the package; test_autoreset.py tests the autoreset it relies on without it."""
import numpy as np
import pytest

pytest.importorskip("rsl_rl", reason="rsl-rl-lib not installed (pip install rsl-rl-lib): the rsl_rl adapter "
                    "is optional")
import torch  # noqa: E402
from rsl_rl.env import VecEnv  # noqa: E402
from rsl_rl.runners import OnPolicyRunner  # noqa: E402
from tensordict import TensorDict  # noqa: E402

from obliq.envs import QuadrupedStandEnv, QuadrupedVelocityEnv  # noqa: E402
from obliq.envs.rsl_rl import RslRlVecEnv  # noqa: E402


def train_cfg(n_steps=8):
    net = dict(class_name="MLPModel", hidden_dims=[32, 32], activation="elu", obs_normalization=False)
    return dict(num_steps_per_env=n_steps, save_interval=10**9, obs_groups={"actor": ["policy"], "critic": ["policy"]},
                actor=dict(net, distribution_cfg=dict(class_name="GaussianDistribution", init_std=0.5)),
                critic=dict(net),
                algorithm=dict(class_name="PPO", num_learning_epochs=2, num_mini_batches=2, learning_rate=1e-3,
                               schedule="adaptive", desired_kl=0.01))


def test_shapes_dtypes_and_the_vecenv_attributes():
    venv = RslRlVecEnv(QuadrupedVelocityEnv(6, max_episode_steps=50), seed=0)
    assert isinstance(venv, VecEnv)
    assert venv.num_envs == 6 and venv.num_actions == 12 and venv.max_episode_length == 50
    assert str(venv.device) == "cpu" and isinstance(venv.cfg, dict)
    obs = venv.get_observations()
    assert isinstance(obs, TensorDict) and list(obs.keys()) == ["policy"] and obs.batch_size == torch.Size([6])
    assert obs["policy"].shape == (6, QuadrupedVelocityEnv.obs_dim) and obs["policy"].dtype == torch.float32
    obs, rew, dones, extras = venv.step(torch.zeros(6, 12))
    assert obs["policy"].shape == (6, 49) and obs["policy"].dtype == torch.float32
    assert rew.shape == (6,) and rew.dtype == torch.float32
    assert dones.shape == (6,) and dones.dtype == torch.int64
    assert extras["time_outs"].shape == (6,) and extras["time_outs"].dtype == torch.bool
    assert venv.episode_length_buf.dtype == torch.int64 and venv.episode_length_buf.tolist() == [1] * 6


def test_dones_and_time_outs_against_the_environment_step_for_step():
    """The adapter against the next-step environment it wraps, stepped with the same actions
    from the same seed: rewards and observations equal until an episode ends; dones =
    terminated | truncated and time_outs = truncated of the environment; the observation returned
    with done = 1 is the first observation of the next episode, the one the next-step environment
    returns one step later (the same draws from the same generator)."""
    n, t_max = 5, 4
    venv = RslRlVecEnv(QuadrupedStandEnv(n, max_episode_steps=t_max), seed=11)
    ref = QuadrupedStandEnv(n, max_episode_steps=t_max)
    ref_obs, _ = ref.reset(seed=11)
    np.testing.assert_array_equal(venv.get_observations()["policy"].numpy(), ref_obs)
    rng = np.random.default_rng(0)
    for k in range(t_max):
        a = rng.uniform(-1, 1, (n, 12)).astype(np.float32)
        obs, rew, dones, extras = venv.step(torch.from_numpy(a))
        ref_obs, ref_rew, term, trunc, _ = ref.step(a)
        np.testing.assert_array_equal(rew.numpy(), ref_rew.astype(np.float32))
        np.testing.assert_array_equal(dones.numpy(), (term | trunc).astype(np.int64))
        np.testing.assert_array_equal(extras["time_outs"].numpy(), trunc)
        assert not term.any(), "dropped from 0.05-0.4 m, no copy is on the floor within 4 steps (80 ms)"
        if k < t_max - 1:
            assert not trunc.any()
            np.testing.assert_array_equal(obs["policy"].numpy(), ref_obs)
    assert trunc.all() and dones.tolist() == [1] * n and extras["time_outs"].all()
    reset_obs, *_ = ref.step(np.zeros((n, 12), np.float32))  # the next-step env resets here
    np.testing.assert_array_equal(obs["policy"].numpy(), reset_obs)
    assert venv.episode_length_buf.tolist() == [0] * n

    # a terminated copy: done, not a time-out
    venv = RslRlVecEnv(QuadrupedVelocityEnv(3), seed=2)
    venv.env.sim.q[1, 2] = 0.01  # trunk on the floor
    _, _, dones, extras = venv.step(torch.zeros(3, 12))
    assert dones.tolist() == [0, 1, 0] and extras["time_outs"].tolist() == [False, False, False]
    assert venv.completed_returns and len(venv.pop_completed()[0]) == 1 and venv.completed_returns == []


def test_episode_length_buf_is_the_environment_step_counter():
    venv = RslRlVecEnv(QuadrupedStandEnv(4, max_episode_steps=10), seed=0)
    venv.episode_length_buf = torch.tensor([0, 5, 8, 9])  # as init_at_random_ep_len does
    assert venv.env._elapsed.tolist() == [0, 5, 8, 9]
    _, _, dones, extras = venv.step(torch.zeros(4, 12))
    assert extras["time_outs"].tolist() == [False, False, False, True] and dones[3] == 1
    assert venv.episode_length_buf.tolist() == [1, 6, 9, 0]


def run_ppo(seed, iterations=2):
    torch.manual_seed(seed)
    venv = RslRlVecEnv(QuadrupedVelocityEnv(8, max_episode_steps=20, threads=1), seed=seed)
    runner = OnPolicyRunner(venv, train_cfg(), log_dir=None, device="cpu")
    before = {k: v.clone() for k, v in runner.alg.get_policy().state_dict().items()}
    runner.learn(iterations, init_at_random_ep_len=True)
    return before, runner.alg.get_policy().state_dict(), venv


def test_a_few_ppo_updates_run_and_are_deterministic_for_a_seed():
    torch.set_num_threads(1)
    before, after, venv = run_ppo(seed=3)
    changed = [k for k in after if not torch.equal(before[k], after[k])]
    assert changed, "PPO updated no parameter"
    assert all(torch.isfinite(v).all() for v in after.values())
    assert venv.completed_returns, "episodes of 20 steps end within 2 x 8 steps after random initial lengths"
    _, again, _ = run_ppo(seed=3)
    for k in after:
        assert torch.equal(after[k], again[k]), f"{k}: the same seed gave other parameters"
    _, other, _ = run_ppo(seed=4)
    assert any(not torch.equal(after[k], other[k]) for k in after)

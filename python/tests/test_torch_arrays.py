"""arrays="torch": the Simulator's buffers as torch tensors (no copy) and the environments on them.

The Simulator's tensors against its numpy views (the same memory) and its methods given tensors
against the numpy Simulator; the environments (stand, velocity on the built-in quadruped, Solo-12
velocity, the biped's balance) with arrays="torch" against the numpy environments from one seed and one action
sequence, with autoresets (truncation, a forced termination and a forced failed copy): states,
observations, terminated and truncated bitwise, rewards to 1e-12 relative; a step with tensors
that calls no numpy function in the environments' modules and converts no tensor to numpy; the
rsl_rl adapter on a torch environment (its tensors passed through, the same PPO parameters as
with numpy); SB3's refusal. Skipped without torch (it is not a requirement of the package)."""
import sys

import numpy as np
import pytest

pytest.importorskip("gymnasium")
torch = pytest.importorskip("torch")
from conftest import REPO  # noqa: E402

from obliq import Simulator  # noqa: E402
from obliq.envs import Biped5BalanceEnv, QuadrupedStandEnv, QuadrupedVelocityEnv, Solo12VelocityEnv  # noqa: E402
from obliq.envs.autoreset import SameStepAutoreset  # noqa: E402
from obliq.sim import CONTROLS, STATE  # noqa: E402

URDF = REPO / "models" / "solo12.urdf"


def as_np(x):
    return x.numpy() if isinstance(x, torch.Tensor) else np.asarray(x)


# --- Simulator --------------------------------------------------------------------------------------
def test_the_simulators_tensors_are_its_buffers():
    sim = Simulator("quadruped", 3, arrays="torch", threads=1)
    assert sim.arrays == "torch"
    for name in STATE + CONTROLS:
        t, view = getattr(sim, name), getattr(sim._sim, name)  # the C++ buffer's numpy view
        assert isinstance(t, torch.Tensor) and t.device.type == "cpu", name
        assert t.data_ptr() == view.ctypes.data and tuple(t.shape) == view.shape, name
        assert str(t.dtype).removeprefix("torch.") == str(view.dtype), name
    sim.q[1, 2] = 7.5
    assert sim._sim.q[1, 2] == 7.5
    assert isinstance(sim.q0, torch.Tensor) and sim.q0.data_ptr() != sim.q.data_ptr()
    assert torch.equal(sim.q0, torch.from_numpy(Simulator("quadruped", 3).q))


def test_step_step_pd_and_reset_with_tensors_equal_numpy(rng):
    n = 5
    a, b = Simulator("quadruped", n, threads=1), Simulator("quadruped", n, arrays="torch", threads=1)
    for s in (a, b):
        s.mu[:] = 0.8
    u = rng.normal(0, 5, (n, a.nv))
    a.step(2e-3, 3, u=u)
    b.step(2e-3, 3, u=torch.from_numpy(u.copy()))
    b.u[:] = torch.from_numpy(u)  # the Simulator's own u, written through the tensor
    a.u[:] = u
    a.step(2e-3, 2)
    b.step(2e-3, 2)
    target = rng.uniform(-1, 1, (n, 12))
    hold = np.array([False, True, False, False, True])
    ea, eb = np.zeros(n), torch.zeros(n, dtype=torch.float64)
    kw = dict(v_index=list(range(6, 18)), q_index=list(range(7, 19)), kp=80.0, kd=1.0, max_torque=30.0)
    a.step_pd(5e-3, 4, target, hold=hold, effort=ea, **kw)
    b.step_pd(5e-3, 4, torch.from_numpy(target), hold=torch.from_numpy(hold), effort=eb, **kw)
    assert (ea[~hold] > 0).all() and (ea[hold] == 0).all()
    np.testing.assert_array_equal(eb.numpy(), ea)
    for name in STATE:
        np.testing.assert_array_equal(getattr(b, name).numpy(), getattr(a, name), err_msg=name)

    # masked resets: a torch mask with tensor rows, a numpy mask with numpy rows, one (nq,) row for all
    mask = np.array([True, False, True, False, False])
    q_rows = a.q0[mask] + rng.normal(0, 0.01, (2, a.nq))
    a.reset(mask, q=q_rows)
    b.reset(torch.from_numpy(mask), q=torch.from_numpy(q_rows.copy()))
    mask2 = np.array([False, True, False, False, True])
    v_rows = rng.normal(0, 1, (2, a.nv))
    a.reset(mask2, q=a.q0[0], v=v_rows)
    b.reset(mask2, q=a.q0[0], v=v_rows)
    assert np.isnan(b.last_impact_time.numpy()[mask | mask2]).all()
    for name in STATE + CONTROLS:
        np.testing.assert_array_equal(getattr(b, name).numpy(), getattr(a, name), err_msg=name)
    np.testing.assert_array_equal(b.q.numpy()[mask], q_rows)
    np.testing.assert_array_equal(b.v.numpy()[mask2], v_rows)
    b.step(2e-3, 1)
    b.reset()
    np.testing.assert_array_equal(b.q.numpy(), a.q0)
    assert (b.t == 0).all() and (b.status == 0).all()


def test_torch_arrays_errors(monkeypatch):
    with pytest.raises(ValueError, match="arrays"):
        Simulator("quadruped", 2, arrays="jax")
    sim = Simulator("quadruped", 2, arrays="torch")
    with pytest.raises(TypeError, match="mask"):
        sim.reset(torch.tensor([1, 0]))
    with pytest.raises(ValueError, match="mask"):
        sim.reset(torch.tensor([True, False, True]))
    with pytest.raises(ValueError, match="shape"):
        sim.reset(q=torch.zeros(5))
    with pytest.raises(TypeError, match="dtype"):
        sim.reset(q=torch.zeros(sim.nq, dtype=torch.int64))
    monkeypatch.setitem(sys.modules, "torch", None)  # import torch raises ImportError
    with pytest.raises(ImportError, match="torch"):
        Simulator("quadruped", 2, arrays="torch")
    Simulator("quadruped", 2)  # numpy needs no torch


# --- environments -----------------------------------------------------------------------------------
ENVS = [(QuadrupedStandEnv, {}), (QuadrupedVelocityEnv, {"restitution_range": (0.0, 0.3)}),
        (Solo12VelocityEnv, {"urdf": URDF}), (Biped5BalanceEnv, {})]


@pytest.mark.parametrize("cls,kwargs", ENVS, ids=lambda x: getattr(x, "__name__", ""))
def test_a_torch_rollout_equals_the_numpy_one(cls, kwargs):
    n, steps, seed = 12, 40, 5
    ref = cls(n, max_episode_steps=9, threads=1, **kwargs)
    env = cls(n, max_episode_steps=9, threads=1, arrays="torch", **kwargs)
    o_ref, _ = ref.reset(seed=seed)
    obs, _ = env.reset(seed=seed)
    assert isinstance(obs, torch.Tensor) and obs.dtype == torch.float32
    np.testing.assert_array_equal(obs.numpy(), o_ref)
    for name in ("_elapsed", "_autoreset", "_torque_sq") + (("commands", "_last_action", "_air_time")
                                                           if hasattr(ref, "commands") else ()):
        assert isinstance(getattr(env, name), torch.Tensor), name
        assert getattr(env, name).dtype == torch.from_numpy(np.asarray(getattr(ref, name))).dtype, name
    rng = np.random.default_rng(seed)
    ended = terminated = failed = 0
    for k in range(steps):
        a = rng.uniform(-1.2, 1.2, (n, ref.nu)).astype(np.float32)  # some outside [-1, 1]: clipped
        if k == 5:  # a trunk on the floor (its height: q[1] of the planar biped, q[2] otherwise): terminated
            z = 1 if cls is Biped5BalanceEnv else 2
            ref.sim.q[1, z] = env.sim.q[1, z] = 0.01
        if k == 13:  # a non-finite state: the Simulator fails the copy, the env terminates it
            ref.sim.v[2, 0] = env.sim.v[2, 0] = np.nan
        out_ref = ref.step(a)
        out = env.step(torch.from_numpy(a) if k % 2 else a)  # tensors, or numpy moved once
        for name, x, y in zip(("obs", "reward", "terminated", "truncated"), out[:4], out_ref[:4]):
            assert isinstance(x, torch.Tensor) and x.dtype == torch.from_numpy(y).dtype, name
            if name == "reward":
                np.testing.assert_allclose(x.numpy(), y, rtol=1e-12, atol=1e-15, err_msg=f"step {k}: reward")
            else:
                np.testing.assert_array_equal(x.numpy(), y, err_msg=f"step {k}: {name}")
        assert out[4].keys() == out_ref[4].keys()
        if "status" in out_ref[4]:
            failed += 1
            np.testing.assert_array_equal(out[4]["status"].numpy(), out_ref[4]["status"])
            np.testing.assert_array_equal(out[4]["_status"].numpy(), out_ref[4]["_status"])
        for name in ("q", "v", "t", "status", "mu", "e", "active"):
            np.testing.assert_array_equal(getattr(env.sim, name).numpy(), getattr(ref.sim, name),
                                          err_msg=f"step {k}: {name}")
        if hasattr(ref, "commands"):
            np.testing.assert_array_equal(env.commands.numpy(), ref.commands)
            np.testing.assert_array_equal(env._air_time.numpy(), ref._air_time)
        ended += int(np.count_nonzero(out_ref[2] | out_ref[3]))
        terminated += int(np.count_nonzero(out_ref[2]))
    assert ended > n and terminated >= 2 and failed >= 1, (ended, terminated, failed)


def test_masked_reset_with_a_tensor_mask_equals_numpy():
    ref, env = QuadrupedVelocityEnv(6, threads=1), QuadrupedVelocityEnv(6, threads=1, arrays="torch")
    ref.reset(seed=1)
    env.reset(seed=1)
    mask = np.array([False, True, True, False, False, True])
    o_ref, _ = ref.reset(options={"reset_mask": mask})
    obs, _ = env.reset(options={"reset_mask": torch.from_numpy(mask)})
    np.testing.assert_array_equal(obs.numpy(), o_ref)
    np.testing.assert_array_equal(env.commands.numpy(), ref.commands)
    np.testing.assert_array_equal(env.sim.mu.numpy(), ref.sim.mu)
    with pytest.raises(ValueError, match="reset_mask"):
        env.reset(options={"reset_mask": torch.ones(6, dtype=torch.int64)})


def test_same_step_autoreset_on_tensors_equals_numpy():
    n = 4
    ref = SameStepAutoreset(QuadrupedStandEnv(n, max_episode_steps=3, threads=1))
    wrapped = SameStepAutoreset(QuadrupedStandEnv(n, max_episode_steps=3, threads=1, arrays="torch"))
    ref.reset(seed=2)
    wrapped.reset(seed=2)
    rng = np.random.default_rng(0)
    for k in range(7):
        a = rng.uniform(-1, 1, (n, 12)).astype(np.float32)
        out_ref, out = ref.step(a), wrapped.step(torch.from_numpy(a))
        for i in (0, 2, 3, 4):  # obs, terminated, truncated, final_obs
            assert isinstance(out[i], torch.Tensor)
            np.testing.assert_array_equal(out[i].numpy(), out_ref[i], err_msg=f"step {k}: output {i}")
        if out_ref[3].any():
            assert not np.array_equal(out_ref[0], out_ref[4])  # a first observation beside the last one


class NoNumpyHere:
    """Stands for numpy in an environment module: its scalar types (dtype arguments) pass; any
    function raises."""

    def __getattr__(self, name):
        value = getattr(np, name)
        if isinstance(value, type) and issubclass(value, np.generic):
            return value
        raise AssertionError(f"np.{name} in a step with tensors")


def no_numpy(monkeypatch):
    from obliq.envs import base, quadruped, velocity
    for module in (base, quadruped, velocity):
        monkeypatch.setattr(module, "np", NoNumpyHere())

    def refuse(*args, **kwargs):
        raise AssertionError("a tensor converted to or from numpy in a step with tensors")
    for name in ("numpy", "__array__", "tolist", "cpu"):
        monkeypatch.setattr(torch.Tensor, name, refuse)
    monkeypatch.setattr(torch, "from_numpy", refuse)


@pytest.mark.parametrize("cls", [QuadrupedStandEnv, QuadrupedVelocityEnv])
def test_a_step_with_tensors_uses_no_numpy(cls, monkeypatch):
    """Steps without resets (the draws of a reset are numpy's, on the host, by design)."""
    env = cls(4, threads=1, arrays="torch")
    env.reset(seed=0)
    ref = cls(4, threads=1)
    ref.reset(seed=0)
    a = torch.zeros(4, 12)
    with monkeypatch.context() as m:
        no_numpy(m)
        for _ in range(3):
            obs, reward, term, trunc, _ = env.step(a)
        assert isinstance(obs, torch.Tensor) and isinstance(reward, torch.Tensor)
        assert not (term | trunc).any()
        with pytest.raises(AssertionError, match="in a step with tensors"):  # the guard catches the numpy environment
            ref.step(np.zeros((4, 12), np.float32))
    with pytest.raises(AssertionError, match="in a step with tensors"):  # and a conversion of a tensor
        with monkeypatch.context() as m:
            no_numpy(m)
            np.asarray(obs)


# --- adapters ---------------------------------------------------------------------------------------
def test_rsl_rl_adapter_passes_the_tensors_through():
    pytest.importorskip("rsl_rl")
    from obliq.envs.rsl_rl import RslRlVecEnv
    n = 5
    ref = RslRlVecEnv(QuadrupedStandEnv(n, max_episode_steps=4, threads=1), seed=3)
    venv = RslRlVecEnv(QuadrupedStandEnv(n, max_episode_steps=4, threads=1, arrays="torch"), seed=3, device=None)
    assert venv.device == torch.device("cpu")
    assert venv.episode_length_buf is venv.env._elapsed
    assert venv.get_observations()["policy"].data_ptr() == venv._obs.data_ptr()  # no copy
    rng = np.random.default_rng(1)
    for k in range(9):
        a = torch.from_numpy(rng.uniform(-1, 1, (n, 12)).astype(np.float32))
        out_ref, out = ref.step(a), venv.step(a)
        assert torch.equal(out[0]["policy"], out_ref[0]["policy"]), k
        for i in (1, 2):
            assert out[i].dtype == out_ref[i].dtype and torch.equal(out[i], out_ref[i]), (k, i)
        assert torch.equal(out[3]["time_outs"], out_ref[3]["time_outs"])
    assert ref.completed_returns == venv.completed_returns and len(ref.completed_returns) >= n
    venv.episode_length_buf = torch.tensor([0, 1, 2, 3, 3])
    assert venv.env._elapsed.tolist() == [0, 1, 2, 3, 3]
    with pytest.raises(ValueError, match="device"):
        RslRlVecEnv(QuadrupedStandEnv(2, arrays="torch"), device="meta")


def test_rsl_rl_ppo_on_a_torch_environment_learns_what_numpy_does():
    pytest.importorskip("rsl_rl")
    from obliq.envs.rsl_rl import RslRlVecEnv
    from rsl_rl.runners import OnPolicyRunner
    from test_rsl_rl_adapter import train_cfg
    torch.set_num_threads(1)

    def run(arrays):
        torch.manual_seed(3)
        venv = RslRlVecEnv(QuadrupedVelocityEnv(8, max_episode_steps=20, threads=1, arrays=arrays), seed=3)
        runner = OnPolicyRunner(venv, train_cfg(), log_dir=None, device="cpu")
        runner.learn(2, init_at_random_ep_len=True)
        return runner.alg.get_policy().state_dict(), venv

    ref, venv_ref = run("numpy")
    got, venv = run("torch")
    assert venv_ref.completed_returns and venv.completed_returns == venv_ref.completed_returns
    for k in ref:
        assert torch.equal(got[k], ref[k]), k


def test_sb3_adapter_refuses_a_torch_environment():
    pytest.importorskip("stable_baselines3")
    from obliq.envs.sb3 import SB3VecEnv
    with pytest.raises(ValueError, match="arrays='numpy'"):
        SB3VecEnv(QuadrupedStandEnv(2, arrays="torch"))

"""Gymnasium vector environments: spaces, next-step autoreset, termination on a failed status,
masked reset, determinism for a seed (any thread count), env_checker on a one-copy view."""
import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402

from obliq.envs import (Biped5BalanceEnv, QuadrupedStandEnv, QuadrupedVelocityEnv, SingleEnv,  # noqa: E402
                        Solo12VelocityEnv)

# Solo12VelocityEnv with its default urdf: the Solo-12 URDF the installed package ships
ENVS = [Biped5BalanceEnv, QuadrupedStandEnv, QuadrupedVelocityEnv, Solo12VelocityEnv]
HEIGHT = {Biped5BalanceEnv: 1, QuadrupedStandEnv: 2, QuadrupedVelocityEnv: 2,
          Solo12VelocityEnv: 2}  # index of the base height in q


def host(x):
    """A numpy array of an environment's output (a torch tensor on any device, or numpy)."""
    return x.cpu().numpy() if hasattr(x, "cpu") else np.asarray(x)


def rollout(env, seed, steps, action_seed=5):
    rng = np.random.default_rng(action_seed)
    obs, _ = env.reset(seed=seed)
    out = [host(obs)]
    for _ in range(steps):
        o, r, term, trunc, _ = env.step(rng.uniform(-1, 1, env.action_space.shape).astype(np.float32))
        out += [host(o), host(r), host(term), host(trunc)]
    return out


@pytest.mark.parametrize("cls", ENVS)
def test_spaces_and_step(cls):
    env = cls(7)
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert env.observation_space.shape == (7,) + env.single_observation_space.shape
    assert env.action_space.shape == (7, env.nu)
    obs, info = env.reset(seed=3)
    assert obs in env.observation_space and obs.dtype == np.float32
    env.action_space.seed(1)
    obs, r, term, trunc, info = env.step(env.action_space.sample())
    assert obs in env.observation_space
    assert r.shape == term.shape == trunc.shape == (7,) and r.dtype == np.float64 and term.dtype == bool
    assert np.isfinite(r).all() and (env.sim.t > 0).all()
    with pytest.raises(ValueError, match="actions: shape"):
        env.step(np.zeros((6, env.nu)))
    with pytest.raises(TypeError, match="float"):
        env.step(np.zeros((7, env.nu), np.int64))


@pytest.mark.parametrize("cls", ENVS)
def test_deterministic_for_a_seed_and_any_thread_count(cls):
    a = rollout(cls(6, threads=1), 11, 30)
    b = rollout(cls(6, threads=2), 11, 30)
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    c = rollout(cls(6, threads=1), 12, 30)
    assert not np.array_equal(a[0], c[0]), "another seed, other initial states"


@pytest.mark.parametrize("cls", ENVS)
def test_truncation_then_next_step_autoreset(cls):
    env, twin = cls(4, max_episode_steps=3), cls(4)
    obs0, _ = env.reset(seed=21)
    twin.reset(seed=21)
    second, _ = twin.reset()  # the generator's next draw: what the autoreset must give
    actions = np.zeros((4, env.nu), np.float32)
    for k in range(3):
        obs, r, term, trunc, _ = env.step(actions)
        assert not term.any() or k == 2
    assert (trunc | term).all()
    obs, r, term, trunc, _ = env.step(actions + 0.5)  # ignored: every copy is being reset
    assert not term.any() and not trunc.any() and (r == 0).all()
    np.testing.assert_array_equal(obs, second)
    assert (env.sim.t == 0).all()
    obs, r, term, trunc, _ = env.step(actions)  # and the new episodes run on
    assert (env.sim.t > 0).all() and not trunc.any()


@pytest.mark.parametrize("cls", ENVS)
def test_termination_resets_only_that_copy(cls):
    env, ref = cls(5), cls(5)
    env.reset(seed=4)
    ref.reset(seed=4)
    z = HEIGHT[cls]
    env.sim.q[2, z] = ref.sim.q[2, z] = 0.01  # trunk/torso below the floor: fallen
    act = np.zeros((5, env.nu), np.float32)
    _, _, term, _, _ = env.step(act)
    ref.step(act)
    assert term[2] and term.sum() == 1
    obs, r, term, trunc, _ = env.step(act)
    _, _, _, _, _ = ref.step(act)
    assert r[2] == 0 and not term[2] and env.sim.t[2] == 0 and env.sim.q[2, z] > 0.01
    keep = np.arange(5) != 2
    np.testing.assert_array_equal(env.sim.q[keep], ref.sim.q[keep])  # the others went on untouched


def test_failed_status_terminates_with_info():
    env = QuadrupedStandEnv(3)
    env.reset(seed=0)
    env.sim.q[1, 10] = np.nan  # a non-finite joint angle: the Simulator stops that copy with a status
    obs, r, term, trunc, info = env.step(np.zeros((3, 12), np.float32))
    assert term.tolist() == [False, True, False] and r[1] == 0
    assert info["_status"].tolist() == [False, True, False] and info["status"][1] == 2  # non_finite
    obs, r, term, trunc, info = env.step(np.zeros((3, 12), np.float32))
    assert (env.sim.status == 0).all() and "status" not in info and np.isfinite(obs).all()


def test_masked_reset():
    env = Biped5BalanceEnv(4)
    env.reset(seed=2)
    for _ in range(3):
        env.step(np.zeros((4, 4), np.float32))
    t = env.sim.t.copy()
    mask = np.array([True, False, False, True])
    env.reset(options={"reset_mask": mask})
    assert (env.sim.t[mask] == 0).all() and (env.sim.t[~mask] == t[~mask]).all()
    with pytest.raises(ValueError, match="reset_mask"):
        env.reset(options={"reset_mask": np.array([1, 0, 0, 1])})


@pytest.mark.parametrize("cls", ENVS)
def test_env_checker_on_a_single_env_view(cls):
    check_env(SingleEnv(cls), skip_render_check=True)


def test_many_copies_in_one_call():
    env = QuadrupedStandEnv(512, threads=2)
    env.reset(seed=0)
    obs, r, term, trunc, info = env.step(np.zeros((512, 12), np.float32))
    assert obs.shape == (512, 35) and (env.sim.t > 0).all() and (env.sim.status == 0).all()


def test_friction_holds_the_feet():
    """The quadruped standing in its nominal stance, pushed forward at 0.5 m/s: frictionless, the
    whole body slides on (horizontal momentum is conserved); with mu = 0.8 the feet hold it."""
    from obliq.envs.base import lift_to_clearance
    x = {}
    for mu in (0.0, 0.8):
        env = QuadrupedStandEnv(2, mu=mu)
        env.reset(seed=0)
        q = np.zeros((2, 19))
        q[:, 6] = 1.0
        q[:, 7:] = env.nominal
        q = lift_to_clearance(env.model, q, 2, np.zeros(2))
        v = np.zeros((2, 18))
        v[:, 0] = 0.5
        env.sim.reset(q=q, v=v)
        for _ in range(50):  # 1 s
            _, _, term, _, _ = env.step(np.zeros((2, 12), np.float32))
            assert not term.any()
        assert (env.sim.status == 0).all() and (env.sim.q[:, 2] > 0.38).all(), "it stands"
        x[mu] = env.sim.q[0, 0]
    assert x[0.0] > 0.45 and abs(x[0.8]) < 0.05, x


def test_simulator_friction_controls():
    import obliq
    sim = obliq.Simulator("quadruped", 3, friction="pyramid", facets=4, friction_lcp_solver="lemke")
    assert sim.mu.shape == (3, 4) and not sim.mu.any()
    with pytest.raises(ValueError, match="friction must be 'cone' or 'pyramid'"):
        obliq.Simulator("quadruped", 3, friction="coulomb")
    with pytest.raises(ValueError, match="facets"):
        obliq.Simulator("quadruped", 3, facets=2)
    with pytest.raises(ValueError, match="lcp solver"):
        obliq.Simulator("quadruped", 3, friction_lcp_solver="simplex")


@pytest.mark.parametrize("cls", ENVS)
def test_backend_cuda_steps_on_the_device_or_is_refused_clearly(cls):
    """backend="cuda" reaches the environment's Simulator (the state resident on the device, the
    step there: docs/cuda.md "The state on the device"): without a CUDA backend or a device the
    constructor raises RuntimeError("backend cuda: <why>"); with one, a seeded rollout follows
    the cpu environment's: the same terminations and truncations, observations and rewards to
    1e-5 of their scale over 20 steps (the device's sin/cos differ from glibc's in the last bits)."""
    try:
        gpu = cls(16, backend="cuda")
    except RuntimeError as e:
        assert str(e).startswith("backend cuda: "), str(e)
        return
    assert gpu.sim.backend == "cuda"
    a, b = rollout(cls(16), 4, 20), rollout(gpu, 4, 20)
    for k, (x, y) in enumerate(zip(a, b)):
        if x.dtype == bool:
            np.testing.assert_array_equal(x, y, err_msg=f"entry {k}")
        else:
            np.testing.assert_allclose(y, x, rtol=0, atol=1e-5 * (1 + np.abs(x).max()), err_msg=f"entry {k}")

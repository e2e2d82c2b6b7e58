"""Solo12VelocityEnv: the velocity task on the bundled Solo-12 URDF (models/solo12.urdf, meshes
stripped from example-robot-data's): the model it loads, the copy the wheel ships (its default),
the stance it holds under its PD law, the task's terms as on the built-in quadruped, and its
Gymnasium id obliq/Solo12Velocity-v0 (test_envs.py and test_velocity_env.py run the checks every
environment gets on it)."""
import numpy as np
import pytest

pytest.importorskip("gymnasium")
from conftest import REPO  # noqa: E402

from obliq import Model  # noqa: E402
from obliq.envs import solo12  # noqa: E402
from obliq.envs.solo12 import Solo12VelocityEnv  # noqa: E402

URDF = REPO / "models" / "solo12.urdf"


def test_the_bundled_urdf_is_solo12_without_meshes():
    text = URDF.read_text()
    assert "<mesh" not in text and "BSD 3-Clause" in text
    m = Model.from_urdf(str(URDF), free_base=True)
    assert (m.nq, m.nv) == (19, 18) and m.warnings == []
    assert m.joint_names[1:4] == ["FL_HAA", "FL_HFE", "FL_KFE"] and m.joint_names[-1] == "HR_KFE"


def test_zero_actions_hold_the_stance_and_noise_does_not_fell_it():
    env = Solo12VelocityEnv(8, urdf=URDF, threads=1)
    obs, _ = env.reset(seed=0)
    assert obs.shape == (8, 49) and obs.dtype == np.float32 and env.model.n_unilateral == 4
    for _ in range(300):  # 6 s: the landing's joint oscillation decays (|v| 0.9 at 1 s, 0.004 at 6 s)
        obs, r, term, trunc, _ = env.step(np.zeros((8, 12), np.float32))
        assert not term.any() and (env.sim.status == 0).all()
    z = env.sim.q[:, 2]
    assert (np.abs(z - env.target_height) < 0.1 * env.target_height).all(), z  # within 10 % of the stance
    assert (-env._gravity()[:, 2] > 0.99).all() and np.abs(env.sim.v).max() < 0.01
    assert (r > 0).all()
    rng = np.random.default_rng(1)
    for _ in range(150):
        env.step(np.clip(rng.normal(0, 0.3, (8, 12)), -1, 1).astype(np.float32))
    assert np.isfinite(env.sim.q).all() and (env.sim.status == 0).all()


def test_the_task_terms_as_on_the_builtin_quadruped():
    env = Solo12VelocityEnv(3, urdf=URDF, vx_range=(0.3, 0.3), vy_range=(0, 0), yaw_range=(0, 0))
    obs, _ = env.reset(seed=2)
    np.testing.assert_allclose(obs[:, 9:12], [[0.6, 0, 0]] * 3, rtol=1e-6)
    np.testing.assert_allclose(obs[:, 12:24], env.sim.q[:, 7:] - env.nominal, atol=1e-6)
    env.sim.q[1, 2] = 0.05  # below min_height
    _, _, term, _, _ = env.step(np.zeros((3, 12), np.float32))
    assert term.tolist() == [False, True, False]


def test_the_default_urdf_is_the_packaged_copy_of_the_repositorys():
    assert solo12.URDF.name == "solo12.urdf" and solo12.URDF.parent.name == "models"
    assert solo12.URDF.read_bytes() == URDF.read_bytes()  # installed from models/solo12.urdf, not a second copy
    env = Solo12VelocityEnv(2)
    assert env.urdf == str(solo12.URDF)
    assert env.model.joint_names == Model.from_urdf(str(URDF), free_base=True).joint_names
    with pytest.raises(FileNotFoundError, match="urdf: no file"):
        Solo12VelocityEnv(2, urdf=REPO / "models" / "no-such.urdf")


def test_make_vec_gives_the_batched_env_deterministic_for_a_seed():
    gym = pytest.importorskip("gymnasium")
    import obliq.envs  # noqa: F401  (registers the ids)
    runs = []
    for _ in range(2):
        venv = gym.make_vec("obliq/Solo12Velocity-v0", num_envs=4, max_episode_steps=20, threads=1)
        assert type(venv) is Solo12VelocityEnv and venv.num_envs == 4
        obs, _ = venv.reset(seed=9)
        rng, out = np.random.default_rng(3), [obs]
        for _ in range(25):  # through episode ends (a fall or the truncation at step 20) and their autoresets
            out += list(venv.step(rng.uniform(-1, 1, (4, 12)).astype(np.float32))[:4])
        runs.append(out)
    for x, y in zip(*runs):
        np.testing.assert_array_equal(x, y)
    ended = [term | trunc for term, trunc in zip(runs[0][3::4], runs[0][4::4])]
    assert np.any(ended), "the run went through an autoreset"

"""Solo12VelocityEnv: the velocity task on the bundled Solo-12 URDF (models/solo12.urdf, meshes
stripped from example-robot-data's): the model it loads, the stance it holds under its PD law, and
the task's terms as on the built-in quadruped."""
import numpy as np
import pytest

pytest.importorskip("gymnasium")
from conftest import REPO  # noqa: E402

from obliq import Model  # noqa: E402
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

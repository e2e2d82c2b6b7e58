"""Model.evaluate gives what `obliq model` prints (M, h, rows, gaps, Adot qdot, com, momentum,
energies), in double; float32 agrees to single precision; bad states are statuses."""
import numpy as np
import pytest

import obliq
from conftest import REPO, jsonl


def random_states(model, rng, count):
    Q = np.tile(model.neutral(), (count, 1)) + 0.3 * rng.standard_normal((count, model.nq))
    if model.name in ("quadruped", "foot"):  # free base: a unit quaternion at q[3:7]
        Q[:, 3:7] /= np.linalg.norm(Q[:, 3:7], axis=1, keepdims=True)
    return Q, rng.standard_normal((count, model.nv))


@pytest.mark.parametrize("name", ["quadruped", "biped5", "cradle", "foot"])
def test_builtin_equals_cli(cli, rng, name):
    model = obliq.Model.builtin(name)
    Q, V = random_states(model, rng, 25)
    out = cli(["model", name, "--state", "-"], jsonl([{"id": k, "q": Q[k].tolist(), "qdot": V[k].tolist()}
                                                      for k in range(len(Q))]))
    ev = model.evaluate(Q, V)
    b = ev.batch
    assert (ev.status == 0).all() and len(out) == len(Q)
    for k, line in enumerate(out):
        assert line["status"] == "ok"
        for key in ("M", "h", "qdot", "A_u", "phi_u", "Adot_qdot"):
            np.testing.assert_array_equal(getattr(b, key)[k], np.asarray(line[key]).reshape(getattr(b, key)[k].shape),
                                          err_msg=f"{name} state {k} {key}")
        if b.m_b:
            np.testing.assert_array_equal(b.A_b[k], line["A_b"])
        np.testing.assert_array_equal(ev.com[k], line["com"])
        np.testing.assert_array_equal(ev.momentum[k], line["momentum"])
        assert ev.kinetic_energy[k] == line["kinetic_energy"]
        assert ev.potential_energy[k] == line["potential_energy"]


def test_urdf_and_ground_contact(cli, rng):
    path = REPO / "models" / "double_pendulum.urdf"
    model = obliq.Model.from_urdf(str(path))
    assert model.nq == 2 and model.nv == 2
    link = model.links[-1]
    model.add_ground_contact(link, [0.0, 0.0, 0.0], ground=-1.5)
    assert model.n_unilateral == 1
    Q, V = rng.standard_normal((10, 2)), rng.standard_normal((10, 2))
    out = cli(["model", str(path), "--contact", link, "--ground", "-1.5", "--state", "-"],
              jsonl([{"id": k, "q": Q[k].tolist(), "qdot": V[k].tolist()} for k in range(10)]))
    ev = model.evaluate(Q, V)
    for k, line in enumerate(out):
        np.testing.assert_array_equal(ev.batch.M[k], line["M"])
        np.testing.assert_array_equal(ev.batch.A_u[k], line["A_u"])
        np.testing.assert_array_equal(ev.batch.phi_u[k], line["phi_u"])


def test_float32_and_the_impact_on_evaluated_states(rng):
    model = obliq.Model.builtin("quadruped")
    Q, V = random_states(model, rng, 16)
    ev64 = model.evaluate(Q, V)
    ev32 = model.evaluate(Q.astype(np.float32), V.astype(np.float32))
    assert ev32.batch.M.dtype == np.float32
    np.testing.assert_allclose(ev32.batch.M, ev64.batch.M, rtol=1e-4, atol=1e-4 * np.abs(ev64.batch.M).max())
    r = obliq.solve_impact(ev64.batch)  # the evaluated batch goes straight into a solve
    assert r.qdot_plus.shape == (16, model.nv)


def test_bad_states_are_statuses():
    model = obliq.Model.builtin("quadruped")
    Q = np.tile(model.neutral(), (3, 1))
    Q[1, 0] = np.nan
    ev = model.evaluate(Q, np.zeros((3, model.nv)))
    assert ev.status.tolist() == [0, int(obliq.Status.non_finite), 0]
    np.testing.assert_array_equal(ev.batch.M[0], ev.batch.M[2])


def test_model_errors():
    with pytest.raises(ValueError, match="unknown"):
        obliq.Model.builtin("hexapod")
    with pytest.raises(RuntimeError):
        obliq.Model.from_urdf_string("<robot name='x'><link name='a'/", False)
    with pytest.raises(ValueError, match="unknown link"):
        obliq.Model.builtin("biped5").add_ground_contact("no_such_link")
    names = [n for n, _ in obliq.Model.builtins()]
    assert {"quadruped", "biped5", "ball"} <= set(names)


def test_inertia_checks_as_the_cli():
    """inertia_check as `obliq model --inertia-check`: standard loads a link that breaks the
    triangle inequality (principal moments 1, 1, 3) with a UserWarning naming it, strict refuses
    it, and the CLI prints the same message."""
    xml = ("<robot name='r'><link name='base'/><link name='arm'><inertial><mass value='1'/>"
           "<inertia ixx='1' ixy='0' ixz='0' iyy='1' iyz='0' izz='3'/></inertial></link>"
           "<joint name='j0' type='revolute'><parent link='base'/><child link='arm'/><axis xyz='0 0 1'/>"
           "<limit effort='1' velocity='1' lower='-1' upper='1'/></joint></robot>")
    message = "link 'arm': inertia violates the triangle inequality (principal moments 1, 1, 3)"
    with pytest.warns(UserWarning, match=message.replace("(", r"\(").replace(")", r"\)")):
        model = obliq.Model.from_urdf_string(xml, False, "r")
    assert len(model.warnings) == 1 and message in model.warnings[0]
    with pytest.raises(RuntimeError, match="link 'arm': inertia violates the triangle inequality"):
        obliq.Model.from_urdf_string(xml, False, "r", inertia_check="strict")
    with pytest.raises(ValueError, match="inertia_check must be 'standard' or 'strict'"):
        obliq.Model.from_urdf_string(xml, False, "r", inertia_check="loose")
    ok = "<robot name='r'><link name='base'/><link name='arm'><inertial><mass value='1'/>" \
         "<inertia ixx='1' ixy='0' ixz='0' iyy='1' iyz='0' izz='1'/></inertial></link>" \
         "<joint name='j0' type='revolute'><parent link='base'/><child link='arm'/><axis xyz='0 0 1'/>" \
         "<limit effort='1' velocity='1' lower='-1' upper='1'/></joint></robot>"
    assert obliq.Model.from_urdf_string(ok, False, "r", inertia_check="strict").warnings == []

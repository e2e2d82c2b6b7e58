"""obliq.Simulator: the same trajectories as `obliq simulate` (bitwise, double; with and without
friction), zero-copy state,
controls and caller torques, masked reset, per-scenario statuses, float32, and the exceptions."""
import numpy as np
import pytest

import obliq
from conftest import REPO, DLPackOnly, jsonl


def drop_states(model, rng, count):
    """Quadrupeds (or any model) above the floor with random joints, velocities and e."""
    Q = np.tile(model.neutral(), (count, 1))
    if model.name == "quadruped":
        Q[:, 2] = 0.55 + 0.4 * rng.random(count)
        Q[:, 7:] = 0.3 * rng.standard_normal((count, model.nq - 7))
    else:
        Q += 0.2 * rng.standard_normal(Q.shape)
    V = 0.5 * rng.standard_normal((count, model.nv))
    return Q, V


@pytest.mark.parametrize("integrator,mu,friction", [("moreau", 0.0, "cone"), ("event", 0.0, "cone"),
                                                    ("moreau", 0.6, "cone"), ("moreau", 0.6, "pyramid")])
def test_quadruped_equals_cli(cli, rng, integrator, mu, friction):
    model = obliq.Model.builtin("quadruped")
    count, dt, steps = 6, 2e-3, 150
    Q, V = drop_states(model, rng, count)
    U = np.zeros((count, model.nv))
    U[:, 6:] = 3.0 * rng.standard_normal((count, model.nv - 6))
    lines = [{"id": k, "q": Q[k].tolist(), "qdot": V[k].tolist(), "u": U[k].tolist(), "e": 0.3} for k in range(count)]
    out = cli(["simulate", "quadruped", "--state", "-", "--dt", str(dt), "--steps", str(steps), "--record",
               str(steps), "--integrator", integrator, "--mu", str(mu), "--friction", friction, "--quiet"],
              jsonl(lines))
    final = {line["id"]: line for line in out if line["t"] > 0}
    sim = obliq.Simulator(model, count, integrator=integrator, friction=friction)
    sim.reset(q=Q, v=V)
    sim.e[:] = 0.3
    sim.mu[:] = mu
    sim.step(dt, steps, u=U)
    assert len(final) == count
    for k in range(count):
        assert final[k]["status"] == "ok" and sim.status[k] == obliq.Status.ok
        np.testing.assert_array_equal(sim.q[k], final[k]["q"], err_msg=f"scenario {k}")
        np.testing.assert_array_equal(sim.v[k], final[k]["qdot"], err_msg=f"scenario {k}")
        assert sim.t[k] == final[k]["t"]
        assert sim.impacts[k] == final[k]["impacts"] and sim.lcp_solves[k] == final[k]["lcp_solves"]
        np.testing.assert_array_equal(sim.active[k].astype(bool), final[k]["active"])
    assert sim.impacts.sum() > 0, "the drops should land"
    kin, pot = sim.energies()
    np.testing.assert_array_equal(kin, [final[k]["kinetic_energy"] for k in range(count)])
    np.testing.assert_array_equal(pot, [final[k]["potential_energy"] for k in range(count)])


def test_urdf_model(cli, rng):
    path = REPO / "models" / "double_pendulum.urdf"
    model = obliq.Model.from_urdf(str(path))
    link = model.links[-1]
    model.add_ground_contact(link, [0.0, 0.0, 0.0], ground=-1.5)
    Q, V = rng.standard_normal((4, 2)), rng.standard_normal((4, 2))
    out = cli(["simulate", str(path), "--contact", link, "--ground", "-1.5", "--state", "-", "--dt", "1e-3",
               "--steps", "300", "--record", "300", "--quiet"],
              jsonl([{"id": k, "q": Q[k].tolist(), "qdot": V[k].tolist()} for k in range(4)]))
    sim = obliq.Simulator(model, 4)
    sim.reset(q=Q, v=V)
    sim.step(1e-3, 300)
    for line in out:
        if line["t"] > 0:
            np.testing.assert_array_equal(sim.q[line["id"]], line["q"])


def data_pointer(a):
    return a.__array_interface__["data"][0]


def test_views_are_the_simulators_buffers(rng):
    sim = obliq.Simulator("quadruped", 5)
    for name in obliq.sim.STATE + obliq.sim.CONTROLS:
        a, b = getattr(sim, name), getattr(sim._sim, name)
        assert data_pointer(a) == data_pointer(b), name  # one buffer, handed out again
        assert a.shape[0] == 5
    assert sim.q.shape == (5, 19) and sim.v.shape == (5, 18) and sim.u.shape == (5, 18)
    assert sim.active.shape == (5, 4) and sim.active.dtype == np.uint8 and sim.status.dtype == np.int32
    assert sim.impacts.dtype == np.int64 and sim.e.shape == (5, 4) and sim.gravity.shape == (5, 3)
    q = sim.q
    sim.step(1e-3, 3)
    assert data_pointer(sim.q) == data_pointer(q) and (q[:, 2] < 0).all()  # falls: seen through the old view
    assert sim.t[0] == pytest.approx(3e-3)
    # Writes through the views reach the stepper: gravity off and no torques keep a state still.
    sim.reset()
    sim.gravity[1] = 0
    sim.q[1, 2] = 2.0
    sim.step(1e-3, 10)
    assert sim.q[1, 2] == 2.0 and sim.q[0, 2] < 0
    # DLPack hands the same memory on.
    assert data_pointer(np.from_dlpack(sim.q)) == data_pointer(sim.q)


def test_caller_torques_are_read_in_place(rng):
    model = obliq.Model.builtin("quadruped")
    Q, V = drop_states(model, rng, 8)
    U = np.zeros((8, model.nv))
    U[:, 6:] = 5 * rng.standard_normal((8, model.nv - 6))
    own, ext, dl = (obliq.Simulator(model, 8, threads=2) for _ in range(3))
    for s in (own, ext, dl):
        s.reset(q=Q, v=V)
    own.u[:] = U
    strided = np.asfortranarray(U)  # other strides than the Simulator's own layout: still no copy
    assert not strided.flags.c_contiguous
    for _ in range(40):
        own.step(1e-3)
        ext.step(1e-3, u=strided)
        dl.step(1e-3, u=DLPackOnly(U))
    np.testing.assert_array_equal(own.q, ext.q)
    np.testing.assert_array_equal(own.v, ext.v)
    np.testing.assert_array_equal(own.q, dl.q)
    assert not ext.u.any(), "step(u=...) leaves the Simulator's own torques alone"
    # A strided column slice of a wider action buffer (actuated joints only) is read in place too.
    wide = np.zeros((8, 30))
    wide[:, 3:21] = U
    ext.reset(q=Q, v=V)
    own.reset(q=Q, v=V)
    own.step(1e-3, 5)
    ext.step(1e-3, 5, u=wide[:, 3:21])
    np.testing.assert_array_equal(own.q, ext.q)


def test_masked_reset_and_steps(rng):
    model = obliq.Model.builtin("quadruped")
    Q, V = drop_states(model, rng, 6)
    sim = obliq.Simulator(model, 6)
    sim.reset(q=Q, v=V)
    sim.step(2e-3, 200)
    before = {name: getattr(sim, name).copy() for name in obliq.sim.STATE}
    mask = np.array([True, False, True, False, False, True])
    sim.reset(mask)
    for name in obliq.sim.STATE:  # the others untouched, bit for bit
        np.testing.assert_array_equal(getattr(sim, name)[~mask], before[name][~mask], err_msg=name)
    np.testing.assert_array_equal(sim.q[mask], np.tile(model.neutral(), (3, 1)))
    assert not sim.v[mask].any() and not sim.t[mask].any() and not sim.impacts[mask].any()
    assert np.isnan(sim.last_impact_time[mask]).all() and not sim.active[mask].any()
    sim.reset(mask, q=Q[mask], v=V[0])
    np.testing.assert_array_equal(sim.q[mask], Q[mask])
    np.testing.assert_array_equal(sim.v[mask], np.tile(V[0], (3, 1)))
    # Reset scenarios replay the same trajectory as a fresh Simulator from that state.
    fresh = obliq.Simulator(model, 3)
    fresh.reset(q=Q[mask], v=np.tile(V[0], (3, 1)))
    sim.step(2e-3, 50)
    fresh.step(2e-3, 50)
    np.testing.assert_array_equal(sim.q[mask], fresh.q)


def test_per_scenario_status():
    sim = obliq.Simulator("quadruped", 4)
    sim.q[:, 2] = 0.6
    sim.q[1, 3] = np.nan  # a broken quaternion
    sim.q[2, 6] = 2.0  # not a unit quaternion
    q3 = sim.q[3].copy()
    sim.step(1e-3, 10)
    assert list(sim.status) == [obliq.Status.ok, obliq.Status.bad_quaternion, obliq.Status.bad_quaternion, obliq.Status.ok]
    assert sim.t[1] == 0 and sim.t[3] == pytest.approx(1e-2) and (sim.q[3] != q3).any()
    sim.reset(np.array([False, True, True, False]))
    assert (sim.status == 0).all()


def test_float32_follows_float64(rng):
    model = obliq.Model.builtin("quadruped")
    Q, V = drop_states(model, rng, 4)
    d = obliq.Simulator(model, 4)
    f = obliq.Simulator(model, 4, dtype=np.float32)
    assert f.q.dtype == np.float32 and f.u.dtype == np.float32
    d.reset(q=Q, v=V)
    f.reset(q=Q.astype(np.float32), v=V.astype(np.float32))
    for _ in range(100):
        d.step(1e-3)
        f.step(np.float32(1e-3))
    assert (d.status == 0).all() and (f.status == 0).all()
    np.testing.assert_allclose(f.q, d.q, atol=2e-3)


def test_raw_systems_from_a_batch():
    b = obliq.Batch(1, 0, 1, 3)  # a unit mass over a floor: gap phi_u + q, weight through h
    b.A_u[:] = 1.0
    b.phi_u[:, 0] = [0.5, 1.0, 2.0]
    b.h[:] = 9.81
    sim = obliq.Simulator(b)
    assert not sim._sim.is_model
    sim.step(1e-3, 100)
    np.testing.assert_allclose(sim.q[:, 0], -0.5 * 9.81 * 0.1 ** 2, rtol=1e-12)  # free fall, exact at theta 1/2
    with pytest.raises(ValueError, match="count"):
        obliq.Simulator(b, 3)


def test_exceptions():
    sim = obliq.Simulator("quadruped", 3)
    with pytest.raises(ValueError, match=r"u: shape \(3, 12\) does not fit, expected \(count, nv\) = \(3, 18\)"):
        sim.step(1e-3, u=np.zeros((3, 12)))
    with pytest.raises(TypeError, match="u: dtype float32 must be the Simulator's dtype float64"):
        sim.step(1e-3, u=np.zeros((3, 18), np.float32))
    with pytest.raises(TypeError, match="u: dtype int64"):
        sim.step(1e-3, u=np.zeros((3, 18), np.int64))
    with pytest.raises(ValueError, match="steps"):
        sim.step(1e-3, -1)
    with pytest.raises(TypeError, match="mask"):
        sim.reset(np.array([0, 1, 0]))
    with pytest.raises(ValueError, match="mask"):
        sim.reset(np.array([True, False]))
    with pytest.raises(ValueError, match=r"q: shape \(2, 19\)"):
        sim.reset(np.array([True, False, False]), q=np.zeros((2, 19)))
    with pytest.raises(ValueError, match="integrator must be 'moreau' or 'event'"):
        obliq.Simulator("quadruped", 2, integrator="rk4")
    with pytest.raises(ValueError, match="law must be"):
        obliq.Simulator("quadruped", 2, law="newton")
    with pytest.raises(ValueError, match="threads"):
        obliq.Simulator("quadruped", 2, threads=-1)
    with pytest.raises(ValueError, match="unknown model"):
        obliq.Simulator("hexapod", 2)
    with pytest.raises(TypeError, match="dtype"):
        obliq.Simulator("quadruped", 2, dtype=np.int32)
    with pytest.raises(TypeError, match="model"):
        obliq.Simulator(3.0, 2)
    assert (sim.t == 0).all(), "nothing stepped by a refused call"


def test_backend_cuda_is_passed_through_or_refused_clearly(rng):
    """backend='cuda' reaches SimOptions::backend: without a CUDA backend or a device the
    constructor raises RuntimeError('backend cuda: <why>'); with one, the device's steps follow
    the cpu's (docs/cuda.md: the same status and impact count, q and v to 1e-6 of the scale)."""
    assert obliq.Simulator("ball", 2).backend == "cpu"
    for bad in ("reference", "gpu"):
        with pytest.raises(ValueError, match="backend"):
            obliq.Simulator("ball", 2, backend=bad)
    model = obliq.Model.builtin("quadruped")
    Q, V = drop_states(model, rng, 8)
    try:
        gpu = obliq.Simulator(model, 8, backend="cuda")
    except RuntimeError as e:
        assert str(e).startswith("backend cuda: "), str(e)
        return
    assert gpu.backend == "cuda"
    cpu = obliq.Simulator(model, 8)
    for sim in (cpu, gpu):
        sim.reset(q=Q, v=V)
        sim.mu[:] = 0.6
        sim.step(1e-3, 200)
    gpu.energies()  # copies the device's state to the host Simulator, read below
    np.testing.assert_array_equal(gpu._sim.status, cpu.status)
    np.testing.assert_array_equal(gpu._sim.impacts, cpu.impacts)
    scale = 1.0 + np.abs(cpu.q).max()
    np.testing.assert_allclose(gpu._sim.q, cpu.q, rtol=0, atol=1e-6 * scale)


def test_the_packages_cuda_backend_is_found_beside_the_module():
    """A wheel built with the CUDA backend (-Ccmake.define.OBLIQ_ENABLE_CUDA=ON, nvcc found; CI's
    python step sets OBLIQ_EXPECT_CUDA_BACKEND=1 then) carries libobliq_cuda.so beside the
    module, and backend="cuda" loads it: the constructor either runs or says that no device was
    found, never that the library cannot be loaded. A wheel without it says so by name."""
    import os
    from pathlib import Path

    library = Path(obliq._obliq.__file__).parent / "libobliq_cuda.so"
    if os.environ.get("OBLIQ_EXPECT_CUDA_BACKEND") == "1":
        assert library.is_file(), f"this wheel was to carry the CUDA backend: {library} is missing"
    try:
        obliq.Simulator("quadruped", 2, backend="cuda")
    except RuntimeError as e:
        message = str(e)
        if library.is_file():
            assert message.startswith("backend cuda: no CUDA device found"), message
        else:
            assert message.startswith("backend cuda: this build of obliq has no CUDA backend"), message

"""obliq.impact / obliq.dynamics read their arrays in place (host views): the solve sees the
caller's own data pointers (contiguous, batch-sliced, column blocks, DLPack-only), shared
per-scenario arrays are read once for all, and every layout gives bitwise the results of the
same data copied into a Batch."""
import numpy as np
import pytest

import obliq
from conftest import DLPackOnly


def ptr(a):
    return a.__array_interface__["data"][0]


def random_problem(rng, B, n, m_b, m_u, dtype=np.float64):
    L = rng.standard_normal((B, n, n))
    M = (L @ L.transpose(0, 2, 1) + n * np.eye(n)).astype(dtype)
    return dict(M=M, qdot=rng.standard_normal((B, n)).astype(dtype),
                A_b=rng.standard_normal((B, m_b, n)).astype(dtype), A_u=rng.standard_normal((B, m_u, n)).astype(dtype),
                phi_u=(0.01 * rng.standard_normal((B, m_u))).astype(dtype),
                e=rng.uniform(0, 1, (B, m_u)).astype(dtype), h=rng.standard_normal((B, n)).astype(dtype),
                Adot_qdot=rng.standard_normal((B, m_b + m_u)).astype(dtype),
                law=rng.integers(0, 2, B))


def assert_same(r, ref, kind):
    keys = ["qdot_plus", "impulse", "kinetic_energy_pre", "kinetic_energy_post", "energy_consistent"] \
        if kind == "impact" else ["qddot"]
    for k in keys + ["lambda_", "active", "status"]:
        np.testing.assert_array_equal(getattr(r, k), getattr(ref, k), err_msg=k)


@pytest.mark.parametrize("kind", ["impact", "dynamics"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_views_equal_the_batch_path_bitwise(rng, kind, dtype):
    p = random_problem(rng, 60, 7, 1, 3, dtype)
    if kind == "dynamics":
        del p["e"]
        p["phi_u"][:] = 0  # closed rows at rest: an acceleration-level LCP each
        p["qdot"][:] = 0
    solve = obliq.solve_impact if kind == "impact" else obliq.solve_dynamics
    ref = solve(obliq.batch(**p))
    r = getattr(obliq, kind)(**p)
    assert r.status.dtype == np.int32 and (r.status == 0).sum() > 30
    assert_same(r, ref, kind)
    for name in ("M", "qdot", "A_u", "A_b", "phi_u"):
        assert r._input_pointers[name] == ptr(p[name]), name  # read where it lies


def test_strided_layouts_are_read_in_place(rng):
    p = random_problem(rng, 40, 5, 0, 2)
    del p["A_b"], p["Adot_qdot"]
    ref = obliq.impact(**p)
    wideM = np.zeros((80, 5, 5))
    wideM[::2] = p["M"]
    M = wideM[::2]  # every other scenario of a larger buffer: scenario stride 50
    wideq = np.zeros((40, 9))
    wideq[:, 2:7] = p["qdot"]
    qdot = wideq[:, 2:7]  # a column block of a wider buffer
    e_cols = np.asfortranarray(p["e"])  # column-major: element stride 40, scenario stride 1
    r = obliq.impact(M=M, qdot=qdot, A_u=p["A_u"], phi_u=p["phi_u"], e=e_cols, h=p["h"], law=p["law"])
    assert_same(r, ref, "impact")
    assert r._input_pointers["M"] == ptr(M) and r._input_pointers["qdot"] == ptr(qdot)
    assert r._input_pointers["e"] == ptr(e_cols)
    # A layout one stride cannot describe (a transposed matrix per scenario) is copied once, same answer.
    Mt = np.ascontiguousarray(p["M"].transpose(0, 2, 1)).transpose(0, 2, 1)  # M symmetric: same values
    assert not Mt.flags.c_contiguous
    r2 = obliq.impact(M=Mt, qdot=p["qdot"], A_u=p["A_u"], phi_u=p["phi_u"], e=p["e"], h=p["h"], law=p["law"])
    assert_same(r2, ref, "impact")
    assert r2._input_pointers["M"] != ptr(Mt)


def test_shared_arrays_are_read_once_for_all(rng):
    M = np.diag([2.0, 2.0, 2.0])
    A_u = np.array([[0.0, 0.0, 1.0]])
    qdot = np.column_stack([np.zeros(1000), np.zeros(1000), -np.linspace(1, 3, 1000)])
    r = obliq.impact(M, qdot, A_u=A_u, e=0.5)
    assert r._input_pointers["M"] == ptr(M) and r._input_pointers["A_u"] == ptr(A_u)
    np.testing.assert_allclose(r.qdot_plus[:, 2], 0.5 * np.linspace(1, 3, 1000), rtol=1e-14)
    # e one per scenario as (B, 1), every scenario's rows share it
    r = obliq.impact(M, qdot[:3], A_u=np.array([[0, 0, 1.0], [0, 0, 1.0]]), e=np.array([[0.0], [0.5], [1.0]]))
    np.testing.assert_allclose(r.qdot_plus[:, 2], [0.0, 0.5, 1.0] * np.linspace(1, 3, 1000)[:3], atol=1e-12)
    assert len(r) == r.count == 3


def test_dlpack_only_arrays_are_read_in_place(rng):
    p = random_problem(rng, 10, 4, 0, 2)
    ref = obliq.impact(p["M"], p["qdot"], A_u=p["A_u"], e=p["e"])
    r = obliq.impact(DLPackOnly(p["M"]), DLPackOnly(p["qdot"]), A_u=DLPackOnly(p["A_u"]), e=p["e"])
    assert_same(r, ref, "impact")
    assert r._input_pointers["M"] == ptr(p["M"]) and r._input_pointers["A_u"] == ptr(p["A_u"])

"""Arrays in and out: zero-copy views, DLPack, dtypes, shapes, and the exceptions for bad input."""
import numpy as np
import pytest

import obliq
from conftest import DLPackOnly


def ptr(a):
    return a.__array_interface__["data"][0]


def ball_batch(count, dtype=np.float64):
    b = obliq.Batch(3, 0, 1, count, dtype)
    b.M[:] = 2 * np.eye(3, dtype=dtype)
    b.qdot[:] = np.array([1.0, 0.0, -3.0], dtype=dtype)
    b.A_u[:, 0, 2] = 1
    b.e[:, 0] = np.linspace(0, 1, count, dtype=dtype)
    return b


def test_batch_fields_are_views_of_one_buffer():
    b = ball_batch(5)
    assert ptr(b.M) == ptr(b.M) and not b.M.flags.owndata and b.M.flags.writeable
    assert b.M.shape == (5, 3, 3) and b.A_u.shape == (5, 1, 3) and b.A_b.shape == (5, 0, 3)
    r = obliq.solve_impact(b)
    np.testing.assert_allclose(r.qdot_plus[:, 2], 3 * np.linspace(0, 1, 5), rtol=0, atol=1e-15)
    b.qdot[2, 2] = -5.0  # written through the view: the next solve reads it
    obliq.solve_impact(b, r)
    assert r.qdot_plus[2, 2] == pytest.approx(2.5)


def test_results_are_reused_in_place():
    b = ball_batch(4)
    r = obliq.solve_impact(b)
    before = {k: ptr(getattr(r, k)) for k in ("qdot_plus", "impulse", "lambda_", "status")}
    view = r.qdot_plus
    b.e[:, 0] = 1.0
    assert obliq.solve_impact(b, r) is r
    assert {k: ptr(getattr(r, k)) for k in before} == before
    np.testing.assert_array_equal(view[:, 2], 3.0)  # an old view sees the new results
    with pytest.raises(ValueError, match="same shape"):
        obliq.solve_impact(ball_batch(5), r)


def test_views_outlive_their_python_owner():
    r = obliq.solve_impact(ball_batch(3))
    q = r.qdot_plus
    del r
    import gc
    gc.collect()
    np.testing.assert_array_equal(q[:, 0], 1.0)


def test_dlpack_hands_out_the_same_memory():
    b = ball_batch(3)
    r = obliq.solve_impact(b)
    for a in (b.M, b.qdot, r.qdot_plus, r.status):
        assert ptr(np.from_dlpack(a)) == ptr(a)


def test_dlpack_input_is_read_in_place():
    from obliq._arrays import as_float_array
    a = np.arange(6.0).reshape(2, 3)
    assert ptr(as_float_array(DLPackOnly(a), "q")) == ptr(a)
    q = np.tile(obliq.Model.builtin("dimer").neutral(), (2, 1))
    ev = obliq.Model.builtin("dimer").evaluate(DLPackOnly(q), DLPackOnly(np.zeros((2, 3))))
    assert ev.status.tolist() == [0, 0]


def test_torch_zero_copy():
    torch = pytest.importorskip("torch")
    b = ball_batch(3)
    t = torch.from_dlpack(b.M)
    assert t.data_ptr() == ptr(b.M)
    r = obliq.impact(torch.from_numpy(np.asarray(b.M)), torch.tensor([1.0, 0.0, -3.0], dtype=torch.float64),
                     A_u=torch.tensor([[0.0, 0.0, 1.0]], dtype=torch.float64), e=0.5)
    assert r.status.tolist() == [0, 0, 0]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_float_and_double(dtype):
    b = ball_batch(4, dtype)
    r = obliq.solve_impact(b)
    assert r.qdot_plus.dtype == dtype and r.status.dtype == np.int32
    np.testing.assert_allclose(r.qdot_plus[:, 2], 3 * np.linspace(0, 1, 4), atol=1e-6)
    d = obliq.dynamics(np.eye(3, dtype=dtype), np.zeros(3, dtype=dtype), h=np.array([0, 0, 9.81], dtype=dtype),
                       A_u=np.array([[0, 0, 1]], dtype=dtype), phi_u=np.zeros(1, dtype=dtype))
    assert d.qddot.dtype == dtype
    np.testing.assert_allclose(d.qddot[0], 0, atol=1e-6)
    np.testing.assert_allclose(d.lambda_[0], [9.81], rtol=1e-6)


def test_broadcast_and_batch_dimension():
    r = obliq.impact(2 * np.eye(3), np.array([[1.0, 0, -3], [0, 0, -1]]), A_u=[[0, 0, 1.0]], e=[[0.5], [1.0]])
    np.testing.assert_allclose(r.qdot_plus, [[1, 0, 1.5], [0, 0, 1]], atol=1e-15)


def test_bad_dtypes_raise_type_error():
    with pytest.raises(TypeError, match="float64 or float32"):
        obliq.impact(np.eye(3, dtype=np.int64), np.zeros(3))
    with pytest.raises(TypeError, match="differs"):
        obliq.impact(np.eye(3), np.zeros(3, dtype=np.float32))
    with pytest.raises(TypeError, match="dtype"):
        obliq.Batch(3, 0, 1, 2, dtype=np.int32)
    with pytest.raises(TypeError):
        obliq.solve_impact(np.zeros(3))
    with pytest.raises(TypeError, match="float64 or float32"):
        obliq.lcp(np.eye(2, dtype=np.complex128), np.zeros(2, dtype=np.complex128))
    with pytest.raises(TypeError):
        obliq.Model.builtin("dimer").evaluate(np.zeros((2, 3), dtype=np.int64), np.zeros((2, 3)))


def test_bad_shapes_raise_value_error():
    with pytest.raises(ValueError, match="M: shape"):
        obliq.impact(np.zeros((2, 3, 4)), np.zeros(3))
    with pytest.raises(ValueError, match="qdot: shape"):
        obliq.impact(np.eye(3), np.zeros(4))
    with pytest.raises(ValueError, match="A_u: shape"):
        obliq.impact(np.eye(3), np.zeros(3), A_u=np.zeros((1, 4)))
    with pytest.raises(ValueError, match="e: shape"):
        obliq.impact(np.eye(3), np.zeros(3), A_u=np.zeros((2, 3)), e=np.zeros(3))
    with pytest.raises(ValueError, match="batch dimension differs"):
        obliq.impact(np.tile(np.eye(3), (2, 1, 1)), np.zeros((3, 3)))
    with pytest.raises(ValueError, match="law"):
        obliq.impact(np.eye(3), np.zeros(3), law="elastic")
    with pytest.raises(ValueError, match="n >= 1"):
        obliq.Batch(0, 0, 1, 2)
    with pytest.raises(ValueError, match="backend"):
        obliq.solve_impact(ball_batch(2), backend="gpu")
    with pytest.raises(ValueError, match="threads"):
        obliq.solve_impact(ball_batch(2), threads=-1)
    with pytest.raises(ValueError, match="lcp solver"):
        obliq.solve_impact(ball_batch(2), lcp_solver="simplex")
    b = ball_batch(2)
    b.law[0] = 7
    with pytest.raises(ValueError, match="law"):
        obliq.solve_impact(b)
    with pytest.raises(ValueError, match="q: shape"):
        obliq.lcp(np.eye(2), np.zeros(3))
    with pytest.raises(ValueError, match=r"needs q of shape \(batch, 3\)"):
        obliq.Model.builtin("dimer").evaluate(np.zeros((2, 4)), np.zeros((2, 3)))


def test_status_mapping_is_the_documented_one():
    expected = ["ok", "bad_shape", "non_finite", "not_spd", "bad_restitution", "bad_tolerance", "unresolved_impact",
                "infeasible", "no_convergence", "lcp_ray", "lcp_budget"]
    assert [obliq.Status(i).name for i in range(len(expected))] == expected
    assert obliq.status_reason(int(obliq.Status.not_spd)) == "M is not symmetric positive definite"
    # Every code the C++ core gives a reason for has a name here (a status added in
    # include/obliq/core/status.hpp must be added to python/src/module.cpp and docs/python.md).
    names = {int(s) for s in obliq.Status}
    for code in range(256):
        reason = obliq.status_reason(code)
        assert (reason != "unknown status") == (code in names), (
            f"status code {code} ({reason!r}) and obliq.Status disagree: a status added to "
            "include/obliq/core/status.hpp needs its line in python/src/module.cpp and docs/python.md")


def test_per_scenario_statuses():
    M = np.tile(2 * np.eye(3), (4, 1, 1))
    M[1, 2, 2] = np.nan
    e = np.array([[0.5], [0.5], [1.5], [0.5]])
    r = obliq.impact(M, [1.0, 0.0, -3.0], A_u=[[0.0, 0.0, 1.0]], e=e)
    assert r.status.tolist() == [obliq.Status.ok, obliq.Status.non_finite, obliq.Status.bad_restitution,
                                 obliq.Status.ok]
    np.testing.assert_array_equal(r.qdot_plus[[0, 3]], [[1, 0, 1.5], [1, 0, 1.5]])

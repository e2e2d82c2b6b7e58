"""obliq.lcp gives what `obliq lcp` prints for the same problems."""
import numpy as np
import pytest

import obliq
from conftest import jsonl


def problems(rng, count, m):
    """PSD (some singular) and P-matrix problems with random q."""
    Ms, qs = [], []
    for k in range(count):
        G = rng.standard_normal((m, m if k % 3 else max(1, m - 2)))
        M = G @ G.T + (0.1 * np.eye(m) if k % 2 else 0)
        Ms.append(M)
        qs.append(rng.standard_normal(m))
    return np.array(Ms), np.array(qs)


@pytest.mark.parametrize("solver", ["lemke", "pivot", "auto", "pgs"])
def test_lcp_equals_cli(cli, rng, solver):
    M, q = problems(rng, 60, 6)
    lines = [{"id": k, "M": M[k].tolist(), "q": q[k].tolist(), "solver": solver} for k in range(len(q))]
    out = cli(["lcp", "-"], jsonl(lines))
    r = obliq.lcp(M, q, solver=solver)
    names = r.solver_names()
    for k, line in enumerate(out):
        assert line["id"] == k
        assert line["status"] == ("ok" if r.status[k] == 0 else "error: " + obliq.status_reason(int(r.status[k])))
        assert line["iterations"] == r.iterations[k] and line["solver"] == names[k]
        if r.status[k] == 0:
            np.testing.assert_array_equal(r.z[k], line["z"])
            np.testing.assert_array_equal(r.w[k], line["w"])
            assert line["residual"] == r.residual[k]
    assert int((r.status == 0).sum()) >= len(q) // 2


def test_lcp_certificate_and_float32(rng):
    M, q = problems(rng, 20, 5)
    r = obliq.lcp(M, q, solver="lemke")
    ok = r.status == 0
    assert ok.sum() > 0
    w = np.einsum("kij,kj->ki", M, r.z) + q
    np.testing.assert_allclose(r.w[ok], w[ok], atol=1e-10)
    assert (r.z[ok] >= 0).all() and (np.abs(np.minimum(r.z, r.w))[ok] <= 1e-9 * (1 + np.abs(q[ok]).max())).all()
    r32 = obliq.lcp(M.astype(np.float32), q.astype(np.float32), solver="lemke")
    assert r32.z.dtype == np.float32 and r32.status.dtype == np.int32
    one = obliq.lcp(np.array([[2.0, 1.0], [1.0, 2.0]]), np.array([-1.0, 1.0]))
    np.testing.assert_allclose(one.z[0], [0.5, 0.0])
    np.testing.assert_allclose(one.w[0], [0.0, 1.5])

"""Batched solves on numpy arrays: impact, dynamics (through a Batch) and LCPs."""
from dataclasses import dataclass

import numpy as np

from . import _obliq
from ._arrays import as_array, as_float_array, check_shape, contiguous

LAWS = {"projection": 0, "complementarity": 1}

_BATCH = {np.dtype(np.float64): _obliq.Batch64, np.dtype(np.float32): _obliq.Batch32}
_IMPACT = {_obliq.Batch64: _obliq.ImpactResults64, _obliq.Batch32: _obliq.ImpactResults32}
_DYNAMICS = {_obliq.Batch64: _obliq.DynamicsResults64, _obliq.Batch32: _obliq.DynamicsResults32}


def Batch(n, m_b, m_u, count, dtype=np.float64):
    """An empty batch (M = I, everything else zero, complementarity law, tolerances 1e-9).

    Its fields (M, qdot, h, u, i_u, A_b, A_u, phi_u, Adot_qdot, e, law, gap_tol, vel_tol) are
    writable numpy views of the batch's own buffers: fill them in place."""
    dt = np.dtype(dtype)
    if dt not in _BATCH:
        raise TypeError(f"dtype must be float64 or float32, not {dt}")
    return _BATCH[dt](int(n), int(m_b), int(m_u), int(count))


def batch(M, qdot, *, A_b=None, A_u=None, phi_u=None, e=None, h=None, u=None, i_u=None, Adot_qdot=None,
          law="complementarity", gap_tol=1e-9, vel_tol=1e-9, count=None):
    """A Batch filled from arrays (one copy in). Each argument is shaped per scenario (then
    broadcast to all) or with a leading batch dimension; shapes per scenario: M (n, n),
    qdot/h/u/i_u (n,), A_b (m_b, n), A_u (m_u, n), phi_u and e (m_u,), Adot_qdot (m_b + m_u,),
    gap_tol and vel_tol scalars, law 'projection'/'complementarity' or 0/1. e may also be one
    scalar for every row. The dtype (float64 or float32) is M's; the others must match it."""
    M = as_float_array(M, "M")
    dt = M.dtype
    if M.ndim not in (2, 3) or M.shape[-1] != M.shape[-2]:
        raise ValueError(f"M: shape {M.shape} does not fit, expected (n, n) or (batch, n, n)")
    n = M.shape[-1]
    if n < 1:
        raise ValueError("M: n must be at least 1")
    mats = {"A_b": A_b, "A_u": A_u}
    m = {}
    for name, A in mats.items():
        if A is None:
            m[name] = 0
            continue
        A = mats[name] = as_float_array(A, name, dt)
        if A.ndim not in (2, 3) or A.shape[-1] != n:
            raise ValueError(f"{name}: shape {A.shape} does not fit, expected (rows, {n}) or (batch, rows, {n})")
        m[name] = A.shape[-2]
    m_b, m_u = m["A_b"], m["A_u"]
    per_item = {"M": (n, n), "qdot": (n,), "h": (n,), "u": (n,), "i_u": (n,), "A_b": (m_b, n), "A_u": (m_u, n),
                "phi_u": (m_u,), "Adot_qdot": (m_b + m_u,), "e": (m_u,)}
    given = {"M": M, "qdot": qdot, "h": h, "u": u, "i_u": i_u, "A_b": mats["A_b"], "A_u": mats["A_u"],
             "phi_u": phi_u, "Adot_qdot": Adot_qdot, "e": e}
    arrays, counts = {}, {}
    for name, x in given.items():
        if x is None:
            continue
        a = as_float_array(x, name, dt if isinstance(x, np.ndarray) or hasattr(x, "__dlpack__") else None)
        if name == "e" and a.ndim == 0:
            arrays[name] = a
            continue
        if name == "e" and a.ndim == 2 and a.shape[1] == 1 and m_u != 1:
            counts[name] = a.shape[0]  # one coefficient per scenario for all its rows
            arrays[name] = a
            continue
        c = check_shape(a, name, per_item[name], count)
        if c is not None:
            counts[name] = c
        arrays[name] = a
    scalars = {}
    for name, x in {"gap_tol": gap_tol, "vel_tol": vel_tol, "law": law}.items():
        if name == "law" and isinstance(x, str):
            if x not in LAWS:
                raise ValueError(f"law must be 'projection' or 'complementarity', not {x!r}")
            x = LAWS[x]
        a = np.asarray(x)
        if a.ndim == 1:
            counts[name] = a.shape[0]
        elif a.ndim != 0:
            raise ValueError(f"{name}: expected a scalar or shape (batch,), got {a.shape}")
        scalars[name] = a
    sizes = set(counts.values()) | ({count} if count is not None else set())
    if len(sizes) > 1:
        raise ValueError("the batch dimension differs between arguments: "
                         + ", ".join(f"{k}: {v}" for k, v in counts.items()))
    B = sizes.pop() if sizes else 1
    if np.any((scalars["law"] != 0) & (scalars["law"] != 1)):
        raise ValueError("law codes must be 0 (projection) or 1 (complementarity)")
    out = Batch(n, m_b, m_u, B, dt)
    for name, a in arrays.items():
        dst = getattr(out, name)
        if dst.size:
            dst[...] = a
    out.law[...] = scalars["law"]
    out.gap_tol[...] = scalars["gap_tol"]
    out.vel_tol[...] = scalars["vel_tol"]
    return out


def _check_laws(b):
    if b.count and b.law.max() > 1:
        raise ValueError("batch.law holds codes other than 0 (projection) and 1 (complementarity)")


def _solve(solve, results, b, out, backend, threads, lcp_solver):
    if type(b) not in results:
        raise TypeError(f"expected an obliq Batch, got {type(b).__name__}")
    _check_laws(b)
    out = results[type(b)]() if out is None else out
    solve(b, out, backend=backend, threads=threads, lcp_solver=lcp_solver)
    return out


def solve_impact(b, out=None, *, backend="cpu", threads=0, lcp_solver="lemke"):
    """Post-impact velocities for every scenario of the Batch b. Returns ImpactResults whose
    fields are numpy views of its buffers; pass `out` (results of the same shape) to reuse them."""
    return _solve(_obliq.solve_impact, _IMPACT, b, out, backend, threads, lcp_solver)


def solve_dynamics(b, out=None, *, backend="cpu", threads=0, lcp_solver="lemke"):
    """Constrained accelerations and contact forces for every scenario of the Batch b."""
    return _solve(_obliq.solve_dynamics, _DYNAMICS, b, out, backend, threads, lcp_solver)


def impact(M, qdot, *, backend="cpu", threads=0, lcp_solver="lemke", **arrays):
    """solve_impact(batch(M, qdot, **arrays)): post-impact velocities from plain arrays."""
    return solve_impact(batch(M, qdot, **arrays), backend=backend, threads=threads, lcp_solver=lcp_solver)


def dynamics(M, qdot, *, backend="cpu", threads=0, lcp_solver="lemke", **arrays):
    """solve_dynamics(batch(M, qdot, **arrays)): accelerations and forces from plain arrays."""
    return solve_dynamics(batch(M, qdot, **arrays), backend=backend, threads=threads, lcp_solver=lcp_solver)


@dataclass
class LcpResults:
    """z, w (batch, m); residual max_i |min(z_i, w_i)|; status, iterations, solver codes (batch,)."""
    z: np.ndarray
    w: np.ndarray
    residual: np.ndarray
    status: np.ndarray
    iterations: np.ndarray
    solver: np.ndarray

    def solver_names(self):
        return [_obliq.lcp_solver_name(int(c)) for c in self.solver]


def lcp(M, q, *, solver="auto", max_iterations=0, omega=1.0, threads=0):
    """LCP(M, q) for a batch: z >= 0, w = M z + q >= 0, z.w = 0. M (batch, m, m) or (m, m),
    q (batch, m) or (m,). Solved in double (float32 input is widened exactly); z and w come back
    in the input's dtype."""
    M = as_float_array(M, "M")
    q = as_float_array(q, "q", M.dtype)
    dt = M.dtype
    if M.ndim == 2 and q.ndim == 1:
        M, q = M[None], q[None]
    if M.ndim != 3 or M.shape[1] != M.shape[2]:
        raise ValueError(f"M: shape {M.shape} does not fit, expected (batch, m, m) or (m, m)")
    if q.shape != M.shape[:2]:
        raise ValueError(f"q: shape {q.shape} does not fit, expected {M.shape[:2]}")
    r = _obliq._solve_lcp(contiguous(M.astype(np.float64, copy=False)), contiguous(q.astype(np.float64, copy=False)),
                          solver=solver, max_iterations=max_iterations, omega=omega, threads=threads)
    z, w = r["z"], r["w"]
    if dt != np.float64:
        z, w = z.astype(dt), w.astype(dt)
    return LcpResults(z, w, r["residual"], r["status"], r["iterations"], r["solver"])

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


# Coefficients per unilateral row: one number for every row, (m_u,), (batch, m_u) or (batch, 1).
_PER_ROW = ("e", "mu", "e_t")


def _normalize(M, qdot, *, A_b=None, A_u=None, phi_u=None, e=None, h=None, u=None, i_u=None, Adot_qdot=None,
               law="complementarity", gap_tol=1e-9, vel_tol=1e-9, count=None, friction=None):
    """The checks shared by batch() and the view solves: (dtype, n, m_b, m_u, count, arrays,
    per-scenario flags, scalars) with every array checked against its shape (see batch()).
    friction: None, or the dict {mu, A_t, dim, e_t, Adot_qdot_t} of the view solves, whose
    arrays join the others (A_t (m_t, n), mu and e_t per row, Adot_qdot_t (m_t,)) and whose dim
    (None: 2 when A_t has m_u rows, else 3) and m_t are written back into it."""
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
    if friction is not None:
        given.update(_friction_arrays(friction, dt, n, m_u, per_item))
    arrays, counts = {}, {}
    for name, x in given.items():
        if x is None:
            continue
        a = as_float_array(x, name, dt if isinstance(x, np.ndarray) or hasattr(x, "__dlpack__") else None)
        if name in _PER_ROW and a.ndim == 0:
            arrays[name] = a
            continue
        if name in _PER_ROW and a.ndim == 2 and a.shape[1] == 1 and m_u != 1:
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
    return dt, n, m_b, m_u, B, arrays, counts, scalars


def _friction_arrays(friction, dt, n, m_u, per_item):
    """The friction inputs of a view solve as arrays to check (see _normalize): A_t (zero rows
    when only mu = 0 is given), mu (0 when only A_t is given); per_item gets their shapes and
    `friction` its dim and m_t."""
    A_t, mu, dim = friction["A_t"], friction["mu"], friction["dim"]
    if A_t is None:
        if mu is not None and np.any(np.asarray(as_array(mu, "mu")) > 0):
            raise ValueError("A_t: the tangent rows are required when some mu > 0 (docs/friction.md)")
        A_t = np.zeros((((3 if dim is None else dim) - 1) * m_u, n), dtype=dt)
    else:
        A_t = as_float_array(A_t, "A_t", dt)
        if A_t.ndim not in (2, 3) or A_t.shape[-1] != n:
            raise ValueError(f"A_t: shape {A_t.shape} does not fit, expected (rows, {n}) or (batch, rows, {n}), "
                             f"rows = (dim - 1) m_u")
    m_t = A_t.shape[-2]
    if dim is None:
        dim = 2 if m_u > 0 and m_t == m_u else 3
    if isinstance(dim, (bool, np.bool_)) or not isinstance(dim, (int, np.integer)) or dim not in (2, 3):
        raise ValueError(f"dim must be 2 (plane) or 3 (space), not {dim!r}")
    friction["dim"], friction["m_t"] = int(dim), m_t
    per_item.update({"A_t": (m_t, n), "mu": (m_u,), "e_t": (m_u,), "Adot_qdot_t": (m_t,)})
    return {"A_t": A_t, "mu": np.zeros((), dtype=dt) if mu is None else mu, "e_t": friction.get("e_t"),
            "Adot_qdot_t": friction.get("Adot_qdot_t")}


def batch(M, qdot, *, A_b=None, A_u=None, phi_u=None, e=None, h=None, u=None, i_u=None, Adot_qdot=None,
          law="complementarity", gap_tol=1e-9, vel_tol=1e-9, count=None):
    """A Batch filled from arrays (one copy in). Each argument is shaped per scenario (then
    broadcast to all) or with a leading batch dimension; shapes per scenario: M (n, n),
    qdot/h/u/i_u (n,), A_b (m_b, n), A_u (m_u, n), phi_u and e (m_u,), Adot_qdot (m_b + m_u,),
    gap_tol and vel_tol scalars, law 'projection'/'complementarity' or 0/1. e may also be one
    scalar for every row. The dtype (float64 or float32) is M's; the others must match it."""
    dt, n, m_b, m_u, B, arrays, _, scalars = _normalize(
        M, qdot, A_b=A_b, A_u=A_u, phi_u=phi_u, e=e, h=h, u=u, i_u=i_u, Adot_qdot=Adot_qdot, law=law,
        gap_tol=gap_tol, vel_tol=vel_tol, count=count)
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


@dataclass
class FrictionReport:
    """What the frictional solve of each scenario reports (the command line's "friction" key):
    method (batch,) str ("newton", "nsgs", "extragradient", "lemke"; "" where the frictionless
    core answered: every candidate contact has mu = 0, or the scenario failed before solving),
    iterations (batch,) int32, residual (batch,) float64 (the certificate's largest relative
    residual, docs/friction.md (F5))."""
    method: np.ndarray
    iterations: np.ndarray
    residual: np.ndarray


@dataclass
class SolveArrays:
    """Results of obliq.impact / obliq.dynamics: new numpy arrays (row s = scenario s).
    impact: qdot_plus, impulse (batch, n), kinetic_energy_pre/post (batch,), energy_consistent
    (batch,) uint8; dynamics: qddot (batch, n); both: lambda_ (batch, m_b + m_u), active
    (batch, m_u) uint8, status (batch,) int32. With friction inputs also lambda_t
    (batch, (dim - 1) m_u), sliding (dynamics: (batch, m_u) uint8) and friction (FrictionReport)."""
    lambda_: np.ndarray
    active: np.ndarray
    status: np.ndarray
    qdot_plus: np.ndarray = None
    impulse: np.ndarray = None
    kinetic_energy_pre: np.ndarray = None
    kinetic_energy_post: np.ndarray = None
    energy_consistent: np.ndarray = None
    qddot: np.ndarray = None
    lambda_t: np.ndarray = None
    sliding: np.ndarray = None
    friction: FrictionReport = None

    @property
    def count(self):
        return len(self.status)

    def __len__(self):
        return len(self.status)


def _strided(a, per_scenario):
    """(array, scenario_stride, element_stride) in elements for a HostArray: the array itself when
    the entries of one scenario, in row-major order, are one element stride apart (a C-contiguous
    array, a batch sliced along its first axis, a column block of a wider buffer), else a
    C-contiguous copy."""
    item = a.itemsize
    shape, strides = (a.shape, a.strides) if per_scenario else (a.shape[1:], a.strides[1:])
    es, ok = None, all(st % item == 0 for st in a.strides)
    for d, (dim, st) in enumerate(zip(shape, strides)):
        if dim == 1 or not ok:
            continue
        span = int(np.prod(shape[d + 1:], dtype=np.int64)) * item
        ok = st % span == 0 and es in (None, st // span)
        es = st // span
    if not ok:
        return _strided(np.ascontiguousarray(a), per_scenario)
    return a, 0 if per_scenario else a.strides[0] // item, 1 if es is None else es


def _solve_view(kind, M, qdot, backend, threads, lcp_solver, arrays, friction=None):
    if backend == "cuda" and friction is None:  # device data goes through a Batch (host views: host memory)
        b = batch(M, qdot, **arrays)
        return solve_impact(b, backend=backend, threads=threads, lcp_solver=lcp_solver) if kind == "impact" else \
            solve_dynamics(b, backend=backend, threads=threads, lcp_solver=lcp_solver)
    options = None
    if friction is not None:
        options = {"formulation": friction.pop("formulation"), "facets": friction.pop("facets")}
    dt, n, m_b, m_u, B, given, counts, scalars = _normalize(M, qdot, friction=friction, **arrays)
    inputs = {}
    for name, a in given.items():
        if a.size == 0:
            continue
        a = a.astype(dt, copy=False)  # nested lists arrive as float64
        if name in _PER_ROW and a.ndim == 0:  # one coefficient for every row of every scenario
            inputs[name] = (a.reshape(1), 0, 0)
        elif name in _PER_ROW and name in counts and a.ndim == 2 and a.shape[1] == 1 and m_u != 1:
            inputs[name] = (a, a.strides[0] // a.itemsize, 0)  # one per scenario for all its rows
        else:
            inputs[name] = _strided(a, name not in counts)
    for name, x in scalars.items():
        a = np.asarray(x, dtype=np.uint8 if name == "law" else dt)
        inputs[name] = (a.reshape(1), 0, 1) if a.ndim == 0 else _strided(a, False)
    if friction is not None:
        options.update(dim=friction["dim"], m_t=friction["m_t"])
    fn = _obliq._solve_view64 if dt == np.float64 else _obliq._solve_view32
    r, pointers = fn(kind, n, m_b, m_u, B, inputs, backend, threads, lcp_solver, options)
    if friction is not None:
        names = np.array(_obliq.friction_method_names())
        r["friction"] = FrictionReport(names[r.pop("method").astype(np.intp) + 1], r.pop("iterations"),
                                       r.pop("residual"))
    out = SolveArrays(**r)
    out._input_pointers = pointers  # where the solve read each input (tests: no copy)
    return out


def _friction(mu, A_t, dim, friction, facets, **arrays):
    """The friction inputs of impact()/dynamics(), or None when neither mu nor A_t is given."""
    if mu is None and A_t is None:
        return None
    return {"mu": mu, "A_t": A_t, "dim": dim, "formulation": friction, "facets": facets, **arrays}


def impact(M, qdot, *, backend="cpu", threads=0, lcp_solver="lemke", mu=None, A_t=None, dim=None, e_t=None,
           friction="cone", facets=8, **arrays):
    """Post-impact velocities from plain arrays (shapes as in batch()). The cpu and reference
    backends read the arrays in place through the host views (obliq/host_views.hpp: no copy for
    numpy arrays and DLPack CPU tensors whose entries within a scenario have one stride, shared
    per-scenario arrays read once for all); results are new arrays (SolveArrays). backend 'cuda'
    copies into a Batch.

    Friction (docs/friction.md): mu (a number, (m_u,), (batch, m_u) or (batch, 1)), A_t
    ((dim - 1) m_u, n) tangent rows, dim 2 or 3 (default: 2 when A_t has m_u rows, else 3),
    e_t tangential restitution (as e), friction 'cone' | 'pyramid', facets (pyramid facets in
    space). Given mu or A_t, every scenario is solved by the core's frictional impact through the
    host API (obliq::impact with a Friction: mu = 0 is the frictionless answer bit for bit; cpu:
    OpenMP over scenarios, each copied into the host API's Scenario; 'reference' has no
    frictional solver: ValueError), and the results add lambda_t and friction."""
    return _solve_view("impact", M, qdot, backend, threads, lcp_solver, arrays,
                       _friction(mu, A_t, dim, friction, facets, e_t=e_t))


def dynamics(M, qdot, *, backend="cpu", threads=0, lcp_solver="lemke", mu=None, A_t=None, dim=None,
             Adot_qdot_t=None, friction="cone", facets=8, **arrays):
    """Accelerations and contact forces from plain arrays; read in place as impact(). Friction
    as impact()'s, with Adot_qdot_t ((dim - 1) m_u,) the tangent rows' drift instead of e_t;
    the results add lambda_t, sliding and friction."""
    return _solve_view("dynamics", M, qdot, backend, threads, lcp_solver, arrays,
                       _friction(mu, A_t, dim, friction, facets, Adot_qdot_t=Adot_qdot_t))


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

"""The batched Simulator (docs/simulator.md) on numpy arrays, torch tensors, or (backend="cuda")
the device's memory.

State and controls are numpy views of the Simulator's own buffers, taken once at construction
(the buffers never move): reading `sim.q` or writing `sim.u[:] = ...` copies nothing beyond what
the expression itself does. `step(dt, u=torques)` reads a caller's (count, nv) array in place,
whatever its strides; `step_pd(dt, frame_skip, target, ...)` (an environment's step under PD
position tracking) reads its targets and hold flags and writes its effort in place likewise.
With arrays="torch" the same buffers are torch tensors instead (_TorchArrays below). With
backend="cuda" the state and controls live on the device between calls (a DeviceSimulator):
the arrays are views of the device's memory (torch CUDA tensors), and no step copies anything
between host and device."""
import numpy as np

from . import _obliq
from ._arrays import FLOATS, as_array

_SIM = {np.dtype(np.float64): _obliq.Simulator64, np.dtype(np.float32): _obliq.Simulator32}
_DEVICE = {np.dtype(np.float64): _obliq.DeviceSimulator64, np.dtype(np.float32): _obliq.DeviceSimulator32}
_DLPACK_CPU, _DLPACK_CUDA = 1, 2
_RAW = {_obliq.Batch64: np.dtype(np.float64), _obliq.Batch32: np.dtype(np.float32)}

# Views of the C++ buffers (row s = scenario s).
STATE = ("q", "v", "t", "active", "impacts", "lcp_solves", "status", "last_impact_time", "last_impact_v")
CONTROLS = ("u", "e", "mu", "gravity")


class Simulator:
    """`count` copies of a model (an obliq.Model, or a built-in's name) stepped together, or the
    raw linear systems of an obliq Batch (then no count).

    Options as `obliq simulate`: integrator 'moreau' (Moreau-Jean, fixed step) or 'event'
    (event-driven), law 'complementarity' or 'projection', lcp_solver, theta, gamma, gap_tol and
    vel_tol (< 0: the scalar's default), max_step, zeno_velocity, max_impacts, friction 'cone'
    (exact Coulomb cone) or 'pyramid' (faceted, `facets` facets, its LCP by friction_lcp_solver),
    threads (0: all; the cpu backend's), backend 'cpu' (OpenMP) or 'cuda' (on the GPU, one thread
    per copy, docs/cuda.md "The state on the device": the systems, state and controls are copied
    to the device once, here, and stay there; step() and step_pd() run on them with nothing copied
    between host and device, and the arrays below are views of the device's memory; energies()
    copies the state to the host first). backend='cuda' where this build of obliq has no CUDA
    backend, its library does not load or no device is found raises RuntimeError("backend cuda:
    <why>") here, in the constructor.
    dtype float64 or float32 (raw systems: the batch's). arrays 'numpy' or 'torch' (None: numpy
    on the cpu backend, torch with backend='cuda'): the state and controls below (and q0, v0) as
    torch tensors sharing the buffers (on the cpu backend torch.from_numpy of the numpy views; with
    backend='cuda' torch.from_dlpack of the device's memory, CUDA tensors: no copy either way);
    step, step_pd and reset take torch tensors or numpy arrays. arrays='torch' without torch
    installed raises ImportError; arrays='numpy' with backend='cuda' ValueError (numpy cannot view
    GPU memory; the CPU emulation of the backend that the tests load is host memory, which it can).

    Arrays (numpy views, writable; row s = scenario s): q (count, nq), v (count, nv), t (count,),
    active (count, m_u) uint8 (rows in contact after the last step), impacts and lcp_solves
    (count,) int64, status (count,) int32 (obliq.Status codes), last_impact_time (count,) (NaN
    before the first impact), last_impact_v (count, nv); controls u (count, nv) (generalized
    forces: joint torques; a free flyer's six base entries are forces on the base), e
    (count, m_u) restitution per contact, mu (count, m_u) Coulomb friction per contact (0:
    frictionless, Moreau-Jean only; a model's tangent rows come from each contact frame),
    gravity (count, 3) (model systems only)."""

    def __init__(self, model, count=None, *, dtype=np.float64, integrator="moreau", law="complementarity",
                 lcp_solver="lemke", theta=0.5, gamma=0.5, gap_tol=-1.0, vel_tol=-1.0, max_step=0.0,
                 zeno_velocity=0.0, max_impacts=100, friction="cone", facets=8, friction_lcp_solver="auto",
                 threads=0, backend="cpu", arrays=None):
        if arrays not in (None, "numpy", "torch"):
            raise ValueError(f"arrays must be 'numpy' or 'torch', not {arrays!r}")
        self._torch = _TorchArrays() if arrays == "torch" else None  # before the C++ Simulator
        opts = dict(integrator=integrator, law=law, lcp_solver=lcp_solver, theta=float(theta), gamma=float(gamma),
                    gap_tol=float(gap_tol), vel_tol=float(vel_tol), max_step=float(max_step),
                    zeno_velocity=float(zeno_velocity), max_impacts=int(max_impacts), friction=friction,
                    facets=int(facets), friction_lcp_solver=friction_lcp_solver, threads=int(threads),
                    backend=backend)
        if type(model) in _RAW:
            if count is not None:
                raise ValueError("count: raw systems (a Batch) carry their own count; pass none")
            self.dtype = _RAW[type(model)]
            self._sim = _SIM[self.dtype](model, **opts)
        else:
            if isinstance(model, str):
                model = _obliq.Model.builtin(model)
            if not isinstance(model, _obliq.Model):
                raise TypeError(f"model: expected an obliq.Model, a built-in's name or a Batch, not "
                                f"{type(model).__name__}")
            if count is None or int(count) != count:
                raise ValueError(f"count: an integer number of copies is needed, not {count!r}")
            self.dtype = np.dtype(dtype)
            if self.dtype not in _SIM:
                raise TypeError(f"dtype must be float64 or float32, not {self.dtype}")
            self._sim = _SIM[self.dtype](model, int(count), **opts)
        source, self._device = self._sim, None
        if self._sim.backend == "cuda":
            source = self._device = _DEVICE[self.dtype](self._sim)  # the state now lives there
            device_type = self._device.dlpack_device[0]
            if arrays is None:
                arrays = "numpy" if device_type == _DLPACK_CPU else "torch"
            if arrays == "numpy" and device_type != _DLPACK_CPU:
                raise ValueError("arrays='numpy': backend='cuda' keeps the state in GPU memory, which numpy cannot "
                                 "view; use arrays='torch' (the default there)")
            if arrays == "torch" and self._torch is None:
                self._torch = _TorchArrays()
        self.arrays = arrays or "numpy"
        # Raw systems carry gravity in h: the device copy has no gravity array (None there).
        names = STATE + CONTROLS if self._device is None or self._sim.is_model else STATE + CONTROLS[:-1]
        views = {name: getattr(source, name) for name in names}
        if self._torch is not None:
            views = self._torch.views(views)
        elif self._device is not None:
            views = {name: np.from_dlpack(a) for name, a in views.items()}
        views.setdefault("gravity", None)
        for name, a in views.items():
            setattr(self, name, a)
        self.count, self.nq, self.nv = self._sim.count, self._sim.nq, self._sim.nv
        self.m_b, self.m_u = self._sim.m_b, self._sim.m_u
        # The state reset() returns to by default: the initial one.
        self.q0 = self.q.copy() if self._torch is None else self.q.clone()
        self.v0 = self.v.copy() if self._torch is None else self.v.clone()

    def __len__(self):
        return self.count

    @property
    def backend(self):
        """'cpu' or 'cuda' (read only: chosen at construction)."""
        return self._sim.backend

    @property
    def threads(self):
        return self._sim.threads

    @threads.setter
    def threads(self, n):
        self._sim.threads = int(n)

    def step(self, dt, steps=1, u=None):
        """Advance every scenario `steps` times by dt (a Moreau-Jean step, or an event-driven
        advance to t + dt). u: None (the Simulator's own `u`), or a (count, nv) array of the
        Simulator's dtype, read in place (no copy; any strides, a torch/jax CPU tensor through
        DLPack). A scenario whose status is not ok stays where it is. The GIL is released."""
        steps = int(steps)
        if steps < 0:
            raise ValueError(f"steps must be >= 0, not {steps}")
        if self._device is not None:  # the torques go into the device's u (a copy on the device)
            if u is not None:
                self._check_device_array(u, "u", (self.count, self.nv))
                self.u[...] = u
            self._device._step(dt, steps)
            return
        if u is None:
            self._sim._step(dt, steps)
            return
        a = as_array(u, "u")
        if a.dtype != self.dtype:
            kind = "must be" if a.dtype in FLOATS else "must be a float array of"
            raise TypeError(f"u: dtype {a.dtype} {kind} the Simulator's dtype {self.dtype}")
        if a.shape != (self.count, self.nv):
            raise ValueError(f"u: shape {a.shape} does not fit, expected (count, nv) = {(self.count, self.nv)}")
        self._sim._step_with(dt, steps, a)

    def step_pd(self, dt, frame_skip, target, *, v_index, q_index, kp, kd, max_torque=np.inf, hold=None,
                effort=None):
        """An environment's step in one call: every scenario advances `frame_skip` times by dt
        under PD actuators tracking joint position targets (docs/simulator.md "PD-tracked step").
        Before each step, on the actuated coordinates j (velocity index v_index[j], configuration
        index q_index[j]),
            tau_j = clip(kp (target[s, j] - q[s, q_index[j]]) - kd v[s, v_index[j]], -max_torque, max_torque)
        and zero torque on every other coordinate (a floating base) and on every coordinate of a
        held scenario. The same as `frame_skip` calls step(dt, 1, u=torques) with those torques
        computed in numpy, bit for bit, in one C++ call (OpenMP over scenarios, the GIL released;
        with backend='cuda' on the device's copy: target, hold and effort are then arrays in the
        device's memory, torch CUDA tensors, read and written in place, and nothing is copied
        between host and device).

        target: (count, len(v_index)) array of the Simulator's dtype, read in place (any strides;
        DLPack CPU tensors too). hold: None or a (count,) bool array, scenarios held with zero
        torque where True. effort: None or a writable (count,) array of the Simulator's dtype that
        receives each scenario's mean |tau|^2 over the steps (the sum over j in index order).
        v_index, q_index: the actuated coordinates (distinct velocity indices, their configuration
        indices); kp, kd finite, max_torque >= 0. Bad indices, gains or shapes raise ValueError;
        wrong dtypes TypeError. The Simulator's own `u` is left as it is."""
        frame_skip = int(frame_skip)
        if self._device is not None:
            self._check_device_array(target, "target", (self.count, len(v_index)))
            if hold is not None and _dtype_name(hold) != "bool":
                raise TypeError(f"hold: expected a bool array of shape ({self.count},), got dtype {hold.dtype}")
            if effort is not None:
                self._check_device_array(effort, "effort", (self.count,))
            self._device._step_pd(dt, frame_skip, target, hold, effort, [int(i) for i in v_index],
                                  [int(i) for i in q_index], float(kp), float(kd), float(max_torque))
            return
        t = as_array(target, "target")
        if t.dtype != self.dtype:
            kind = "must be" if t.dtype in FLOATS else "must be a float array of"
            raise TypeError(f"target: dtype {t.dtype} {kind} the Simulator's dtype {self.dtype}")
        if t.ndim != 2:
            raise ValueError(f"target: shape {t.shape} does not fit, expected (count, len(v_index)) = "
                             f"{(self.count, len(v_index))}")
        if hold is not None:
            hold = np.asarray(hold) if self._torch is None else self._torch.host_bool(hold)
            if hold.dtype != np.bool_:
                raise TypeError(f"hold: expected a bool array of shape ({self.count},), got dtype {hold.dtype}")
        if effort is not None:
            if not isinstance(effort, np.ndarray):
                effort = as_array(effort, "effort")
            if effort.dtype != self.dtype:
                raise TypeError(f"effort: dtype {effort.dtype} must be the Simulator's dtype {self.dtype}")
            if not effort.flags.writeable:
                raise ValueError("effort: the array is read-only; it receives the effort")
        self._sim._step_pd(dt, frame_skip, t, hold, effort, [int(i) for i in v_index], [int(i) for i in q_index],
                           float(kp), float(kd), float(max_torque))

    def _rows(self, mask):
        if mask is None:
            return slice(None)
        if self._torch is not None:
            return self._torch.mask(mask, self.count, self.q.device)
        m = np.asarray(mask)
        if m.dtype != np.bool_:
            raise TypeError(f"mask: expected a bool array of shape ({self.count},), got dtype {m.dtype}")
        if m.shape != (self.count,):
            raise ValueError(f"mask: shape {m.shape} does not fit, expected ({self.count},)")
        return m

    def reset(self, mask=None, q=None, v=None):
        """Start the scenarios selected by `mask` ((count,) bool; None: all) again: q and v from the
        arguments ((nq,) / (nv,) for all of them, or one row per selected scenario) or the initial
        state q0, v0; t = 0, no rows active, counters 0, status ok, no last impact. Controls are
        left as they are. Vectorized: no Python loop over scenarios."""
        rows = self._rows(mask)
        k = self.count if mask is None else int(rows.sum()) if self._torch is not None else int(np.count_nonzero(rows))
        for name, given, init, width in (("q", q, self.q0, self.nq), ("v", v, self.v0, self.nv)):
            target = getattr(self, name)
            if given is None:
                target[rows] = init[rows]
                continue
            a = as_array(given, name) if self._torch is None else self._torch.value(given, name, target)
            if a.dtype not in (FLOATS if self._torch is None else self._torch.floats):
                raise TypeError(f"{name}: dtype must be float64 or float32, not {a.dtype}")
            if tuple(a.shape) not in ((width,), (k, width)):
                raise ValueError(f"{name}: shape {tuple(a.shape)} does not fit, expected ({width},) or ({k}, {width})")
            target[rows] = a if self._torch is None else a.to(target.dtype)
        self.t[rows] = 0
        self.active[rows] = 0
        self.impacts[rows] = 0
        self.lcp_solves[rows] = 0
        self.status[rows] = int(_obliq.Status.ok)
        self.last_impact_time[rows] = float("nan")
        self.last_impact_v[rows] = 0

    def energies(self):
        """(kinetic, potential) energy of every scenario at its state, as new (count,) numpy arrays
        (backend='cuda': evaluated on the host, the state copied there first)."""
        if self._device is not None:
            self._device.download()
        return self._sim.energies()

    def _check_device_array(self, a, name, shape):
        """backend='cuda': a caller's array for the device, of the Simulator's dtype and `shape`
        (its device is checked where it is read: the state's, or ValueError)."""
        if not hasattr(a, "__dlpack__"):
            raise TypeError(f"{name}: backend='cuda' reads arrays in the device's memory (a torch tensor there), "
                            f"not {type(a).__name__}")
        if _dtype_name(a) != self.dtype.name:
            raise TypeError(f"{name}: dtype {a.dtype} must be the Simulator's dtype {self.dtype}")
        if tuple(a.shape) != shape:
            raise ValueError(f"{name}: shape {tuple(a.shape)} does not fit, expected {shape}")


def _dtype_name(a):
    """'float64', 'bool', ... of a numpy array or a torch tensor."""
    return str(a.dtype).removeprefix("torch.")


class _TorchArrays:
    """arrays="torch": the Simulator's buffers as torch tensors, and what its methods need to take
    torch tensors (masks and values of reset, hold of step_pd). The cpu backend's tensors are
    torch.from_numpy of its numpy views (the same memory); tensors reach the C++ calls as numpy
    views through DLPack (_arrays.as_array), no copy."""

    def __init__(self):
        try:
            import torch
        except ImportError as err:
            raise ImportError("arrays='torch' needs torch, which is not installed (pip install torch)") from err
        self.torch = torch
        self.floats = (torch.float64, torch.float32)

    def views(self, arrays):
        """{name: tensor} of {name: numpy view, or a DLPack array of the device's memory}, sharing
        memory."""
        return {name: self.torch.from_numpy(a) if isinstance(a, np.ndarray) else self.torch.from_dlpack(a)
                for name, a in arrays.items()}

    def mask(self, mask, count, device):
        """A (count,) bool tensor on `device` of a torch or numpy mask."""
        m = mask if isinstance(mask, self.torch.Tensor) else self.torch.as_tensor(np.asarray(mask))
        if m.dtype != self.torch.bool:
            raise TypeError(f"mask: expected a bool array of shape ({count},), got dtype {m.dtype}")
        if tuple(m.shape) != (count,):
            raise ValueError(f"mask: shape {tuple(m.shape)} does not fit, expected ({count},)")
        return m.to(device)

    def value(self, x, name, like):
        """A tensor on like's device of a tensor, a numpy array or nested lists (reset's q, v)."""
        if not isinstance(x, self.torch.Tensor):
            x = self.torch.from_numpy(np.ascontiguousarray(as_array(x, name)))
        return x.to(like.device)

    def host_bool(self, hold):
        """hold of step_pd as a numpy bool view (DLPack for a CPU tensor: no copy)."""
        if isinstance(hold, self.torch.Tensor):
            return np.from_dlpack(hold)
        return np.asarray(hold)

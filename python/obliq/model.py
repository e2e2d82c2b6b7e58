"""Model evaluation for a batch of states: M, h, contact rows, gaps, momenta."""
from dataclasses import dataclass

import numpy as np

from . import _obliq
from ._arrays import as_float_array, contiguous


@dataclass
class ModelEvaluation:
    """batch: the scenarios (M, h, qdot, A_b, A_u, phi_u, Adot_qdot; e, law and tolerances left
    at their defaults) as an obliq Batch; status (batch,) int32; com (batch, 3); momentum
    (batch, 6) centroidal (linear, angular about the centre of mass); kinetic_energy and
    potential_energy (batch,)."""
    batch: object
    status: np.ndarray
    com: np.ndarray
    momentum: np.ndarray
    kinetic_energy: np.ndarray
    potential_energy: np.ndarray


def evaluate(model, q, qdot, *, threads=0):
    """Evaluate `model` at states q (batch, nq) and qdot (batch, nv), float64 or float32 (one
    state may be given as (nq,), (nv,)). C-contiguous arrays are read in place."""
    q = as_float_array(q, "q")
    qdot = as_float_array(qdot, "qdot", q.dtype)
    if q.ndim == 1 and qdot.ndim == 1:
        q, qdot = q[None], qdot[None]
    if q.ndim != 2 or qdot.ndim != 2:
        raise ValueError(f"q and qdot must be (batch, nq) and (batch, nv); got {q.shape} and {qdot.shape}")
    fn = model._evaluate64 if q.dtype == np.float64 else model._evaluate32
    b, extras = fn(contiguous(q), contiguous(qdot), threads=threads)
    return ModelEvaluation(b, extras["status"], extras["com"], extras["momentum"], extras["kinetic_energy"],
                           extras["potential_energy"])


_obliq.Model.evaluate = evaluate

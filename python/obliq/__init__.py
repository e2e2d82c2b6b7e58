"""obliq: batched multi-contact impact, dynamics and LCP solves and time stepping on numpy arrays.

See docs/python.md. Statuses are int32 arrays with the codes of `Status` (0 = ok)."""
from . import _obliq
from ._obliq import Model, Status, status_reason
from .model import ModelEvaluation, evaluate
from .sim import Simulator
from .solve import (LAWS, Batch, FrictionReport, LcpResults, SolveArrays, batch, dynamics, impact, lcp, solve_dynamics,
                    solve_impact)
from .sweep import SweepResult, sweep

__all__ = ["Batch", "FrictionReport", "LAWS", "LcpResults", "Model", "ModelEvaluation", "Simulator", "SolveArrays",
           "Status", "SweepResult", "batch", "dynamics", "evaluate", "impact", "lcp", "solve_dynamics", "solve_impact",
           "status_reason", "sweep"]
__version__ = "0.1.0"

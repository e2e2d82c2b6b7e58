"""Gymnasium 1.x vector environments over obliq.Simulator (docs/python.md, "Environments").

Each environment is a `gymnasium.vector.VectorEnv` that steps all its copies in one C++ call
(no Python loop over environments), with next-step autoreset
(`metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP`). `SingleEnv` views a
one-copy vector environment as a `gymnasium.Env` (for `gymnasium.utils.env_checker`).

    Biped5BalanceEnv   planar five-link biped dropped onto the floor: land and stay upright at height
    QuadrupedStandEnv  quadruped dropped with a random attitude and joints: land, stand up, hold
"""
from .base import SimVectorEnv, SingleEnv
from .biped5 import Biped5BalanceEnv
from .quadruped import QuadrupedStandEnv

__all__ = ["Biped5BalanceEnv", "QuadrupedStandEnv", "SimVectorEnv", "SingleEnv"]

"""Gymnasium 1.x vector environments over obliq.Simulator (docs/python.md, "Environments").

Each environment is a `gymnasium.vector.VectorEnv` that steps all its copies in one C++ call
(no Python loop over environments), with next-step autoreset
(`metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP`). `SingleEnv` views a
one-copy vector environment as a `gymnasium.Env` (for `gymnasium.utils.env_checker`).

    Biped5BalanceEnv   planar five-link biped dropped onto the floor: land and stay upright at height
    QuadrupedStandEnv  quadruped dropped with a random attitude and joints: land, stand up, hold
    QuadrupedVelocityEnv quadruped on flat ground tracking a commanded forward, lateral and yaw
                       velocity, friction and restitution randomised per episode
    Solo12VelocityEnv  the same task on Solo-12 from its URDF (the package's obliq/models/solo12.urdf)

Importing obliq.envs registers them with Gymnasium (registration.py): gymnasium.make_vec(
"obliq/QuadrupedVelocity-v0", num_envs=N) and gymnasium.make("obliq/QuadrupedStand-v0").
Adapters for training libraries: obliq.envs.sb3 (stable-baselines3's VecEnv), obliq.envs.rsl_rl
(rsl_rl's VecEnv); each imports its library only when imported itself.
"""
from .base import SimVectorEnv, SingleEnv
from .biped5 import Biped5BalanceEnv
from .quadruped import QuadrupedStandEnv
from .registration import register_all
from .solo12 import Solo12VelocityEnv
from .velocity import QuadrupedVelocityEnv

register_all()

__all__ = ["Biped5BalanceEnv", "QuadrupedStandEnv", "QuadrupedVelocityEnv", "SimVectorEnv", "SingleEnv",
           "Solo12VelocityEnv"]

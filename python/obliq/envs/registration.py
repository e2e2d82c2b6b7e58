"""Gymnasium ids of obliq's environments, registered when obliq.envs is imported:

    gymnasium.make_vec("obliq/QuadrupedVelocity-v0", num_envs=4096)   # the vector env itself
    gymnasium.make("obliq/QuadrupedStand-v0")                         # a one-copy SingleEnv view

make_vec uses each environment's own batched implementation (its vector entry point: one C++ call
steps every copy); keyword arguments go to the environment's constructor."""
from functools import partial

import gymnasium as gym

from .base import SingleEnv

ENVIRONMENTS = {
    "obliq/QuadrupedStand-v0": "obliq.envs.quadruped:QuadrupedStandEnv",
    "obliq/QuadrupedVelocity-v0": "obliq.envs.velocity:QuadrupedVelocityEnv",
    "obliq/Solo12Velocity-v0": "obliq.envs.solo12:Solo12VelocityEnv",  # the wheel's models/solo12.urdf
    "obliq/Biped5Balance-v0": "obliq.envs.biped5:Biped5BalanceEnv",
}


def _load(entry):
    module, name = entry.split(":")
    return getattr(__import__(module, fromlist=[name]), name)


def _single(entry, **kwargs):
    return SingleEnv(_load(entry), **kwargs)


def register_all():
    """Registers every id of ENVIRONMENTS (again: a no-op for ids already there)."""
    for env_id, entry in ENVIRONMENTS.items():
        if env_id in gym.registry:
            continue
        gym.register(id=env_id, entry_point=partial(_single, entry), vector_entry_point=entry,
                     disable_env_checker=True)

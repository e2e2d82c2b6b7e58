"""stable-baselines3 adapter: an obliq vector environment as an SB3 `VecEnv`.

    from obliq.envs import QuadrupedStandEnv
    from obliq.envs.sb3 import SB3VecEnv
    venv = SB3VecEnv(QuadrupedStandEnv(64))
    stable_baselines3.PPO("MlpPolicy", venv).learn(1_000_000)

SB3 expects same-step autoreset: the step that ends an episode returns the first observation of
the next one, the last one in infos[i]["terminal_observation"], and infos[i]["TimeLimit.truncated"]
for a time limit. obliq's environments autoreset on the next step (Gymnasium's default); the
adapter resets the copies that ended at once (SameStepAutoreset: the environment's masked reset,
the same draws from the same generator, so a seed still gives one trajectory). All copies still step in one
call; nothing loops over environments except the construction of the infos list SB3 asks for.

SB3 works on numpy arrays: the adapter takes numpy environments only (arrays="numpy", the
default) and refuses an arrays="torch" one (ValueError), whose tensors it would copy to the host
and back on every step."""
import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from .autoreset import SameStepAutoreset


class SB3VecEnv(VecEnv):
    """Wraps an obliq SimVectorEnv (e.g. QuadrupedStandEnv(64)) for stable-baselines3."""

    def __init__(self, env):
        if getattr(env, "arrays", "numpy") != "numpy":
            raise ValueError(f"SB3VecEnv: stable-baselines3 steps on numpy arrays; this environment's arrays are "
                             f"{env.arrays!r} tensors: construct it with arrays='numpy' (the default)")
        self.env = env
        self._same_step = SameStepAutoreset(env)
        super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)
        self._actions = None
        self._seed = None

    def reset(self):
        obs, _ = self.env.reset(seed=self._seed)
        self._seed = None
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return obs

    def step_async(self, actions):
        self._actions = np.asarray(actions, np.float32).reshape(self.num_envs, -1)

    def step_wait(self):
        obs, reward, terminated, truncated, final_obs, info = self._same_step.step(self._actions)
        done = terminated | truncated
        infos = [{} for _ in range(self.num_envs)]
        if "status" in info:
            for i in np.flatnonzero(info["_status"]):
                infos[i]["status"] = int(info["status"][i])
        for i in np.flatnonzero(done):
            infos[i]["terminal_observation"] = final_obs[i]
            infos[i]["TimeLimit.truncated"] = bool(truncated[i])
        return obs, reward.astype(np.float32), done, infos

    def close(self):
        self.env.close()

    def seed(self, seed=None):
        self._seed = seed
        return [seed] * self.num_envs

    def get_attr(self, attr_name, indices=None):
        return [getattr(self.env, attr_name)] * len(self._get_indices(indices))

    def set_attr(self, attr_name, value, indices=None):
        setattr(self.env, attr_name, value)

    def env_method(self, method_name, *method_args, indices=None, **method_kwargs):
        result = getattr(self.env, method_name)(*method_args, **method_kwargs)
        return [result] * len(self._get_indices(indices))

    def env_is_wrapped(self, wrapper_class, indices=None):
        return [False] * len(self._get_indices(indices))

    def _get_indices(self, indices):
        if indices is None:
            return range(self.num_envs)
        return [indices] if isinstance(indices, int) else list(indices)

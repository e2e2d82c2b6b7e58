"""Same-step autoreset over obliq's next-step environments, for training libraries that expect it
(stable-baselines3, rsl_rl, skrl): the step that ends an episode returns the first observation of
the next one, and the last observation of the one that ended beside it."""
import numpy as np


class SameStepAutoreset:
    """Wraps an obliq SimVectorEnv. step(actions) -> (obs, reward, terminated, truncated,
    final_obs, info): for each copy that ended in this step (terminated | truncated), obs holds
    the first observation of its next episode and final_obs (num_envs, obs_dim) the last one of
    the episode that ended (rows of the other copies: their obs). The copies that ended are reset
    at once through the environment's masked reset, so the draws are the ones the next-step
    environment makes one step later, from the same generator. With an arrays="torch" environment
    everything stays a tensor on its device."""

    def __init__(self, env):
        self.env = env
        self.num_envs = env.num_envs

    def reset(self, seed=None):
        obs, info = self.env.reset(seed=seed)
        return obs, info

    def step(self, actions):
        obs, reward, terminated, truncated, info = self.env.step(actions)
        xp = getattr(self.env, "xp", np)  # numpy, or the env's torch namespace (arrays="torch")
        done = terminated | truncated
        final_obs = obs
        if done.any():
            first, _ = self.env.reset(options={"reset_mask": done})
            final_obs = xp.copy(obs)
            obs = xp.where(done[:, None], first, obs)
        return obs, reward, terminated, truncated, final_obs, info

"""rsl_rl adapter: an obliq vector environment as an rsl_rl `VecEnv` (written and tested against
rsl-rl-lib 5.5.1, whose observations are a TensorDict of groups), the PPO that legged_gym and
Isaac Lab train locomotion with.

    from obliq.envs import QuadrupedVelocityEnv
    from obliq.envs.rsl_rl import RslRlVecEnv
    from rsl_rl.runners import OnPolicyRunner
    venv = RslRlVecEnv(QuadrupedVelocityEnv(4096), seed=0)
    OnPolicyRunner(venv, train_cfg, log_dir=None, device="cpu").learn(300, init_at_random_ep_len=True)

rsl_rl expects same-step autoreset: the step that ends an episode returns dones = 1 and, as its
observation, the first observation of the next episode; extras["time_outs"] marks the episodes
that ended by the time limit (truncated, not terminated: PPO bootstraps their value). obliq's
environments autoreset on the next step; the adapter resets the copies that ended at once
(SameStepAutoreset: the environment's masked reset, the same draws from the same generator, so a
seed still gives one trajectory). The observation group is "policy" (rsl_rl's default for actor
and critic). With a numpy environment (arrays="numpy", the default) the observations are wrapped
with torch.from_numpy (no copy), the rewards and dones cast to float32 and int64 as whole arrays
(no per-copy Python loop); all move only for another `device`; the actions come back through
numpy. With a torch environment (arrays="torch") its tensors pass through as they are (rewards
and dones cast on their device), the actions go to the environment as tensors, and `device` must
be the device of the environment's tensors (ValueError otherwise).

episode_length_buf is a torch view of the environment's own step counter (the one its truncation
reads), so rsl_rl's init_at_random_ep_len (random initial episode lengths, which spreads the
time-outs of thousands of copies over an episode) acts on the environment itself.

extras["episode"] (rsl_rl logs it when it logs): the mean return and length of the episodes that
ended in the step; `completed_returns` keeps the returns of every episode ended since the last
call of `pop_completed()` (a training script's learning curve, as SB3's VecMonitor)."""
import numpy as np
import torch
from rsl_rl.env import VecEnv
from tensordict import TensorDict

from .autoreset import SameStepAutoreset


class RslRlVecEnv(VecEnv):
    """Wraps an obliq SimVectorEnv (e.g. QuadrupedVelocityEnv(4096)) for rsl_rl.

    seed: the seed of the first reset (None: unseeded). device: where rsl_rl wants the tensors
    (a numpy environment steps on the CPU, and a CUDA device gets copies; a torch environment's
    device, None: that device)."""

    def __init__(self, env, seed=None, device="cpu"):
        self.env = env
        self._same_step = SameStepAutoreset(env)
        self.num_envs = env.num_envs
        self.num_actions = int(env.single_action_space.shape[0])
        self.max_episode_length = int(env.max_episode_steps)
        self._tensors = getattr(env, "arrays", "numpy") == "torch"
        if self._tensors:
            env_device = env.sim.q.device
            if device is not None and not _same_device(torch.device(device), env_device):
                raise ValueError(f"device: {device!r} is not the device of the environment's tensors ({env_device}); "
                                 f"pass device={str(env_device)!r} or None")
            self.device = env_device
        else:
            self.device = torch.device("cpu" if device is None else device)
        self.cfg = {"env": type(env).__name__, "num_envs": self.num_envs,
                    "max_episode_length": self.max_episode_length}
        xp = env.xp if self._tensors else np
        self._episode_return = xp.zeros(self.num_envs)
        self._episode_length = xp.zeros(self.num_envs, np.int64)
        self.completed_returns, self.completed_lengths = [], []
        self.reset(seed=seed)

    # --- rsl_rl's VecEnv -------------------------------------------------------------------------
    @property
    def episode_length_buf(self):
        """(num_envs,) int64: the environment's step counter of each copy, as a torch view."""
        if self._tensors:
            return self.env._elapsed
        return torch.from_numpy(self.env._elapsed)

    @episode_length_buf.setter
    def episode_length_buf(self, value):
        if self._tensors:
            self.env._elapsed[:] = torch.as_tensor(value).to(self.device, torch.int64)
            return
        self.env._elapsed[:] = np.asarray(torch.as_tensor(value).cpu(), np.int64)

    def get_observations(self):
        return self._wrap(self._obs)

    def step(self, actions):
        if self._tensors:
            return self._step_tensors(actions)
        a = actions.detach().to("cpu", torch.float32).numpy()
        obs, reward, terminated, truncated, _, info = self._same_step.step(a)
        self._obs = obs
        dones = terminated | truncated
        self._episode_return += reward
        self._episode_length += 1
        extras = {"time_outs": torch.from_numpy(truncated.copy()).to(self.device)}
        if dones.any():
            ended = np.flatnonzero(dones)
            self.completed_returns.extend(self._episode_return[ended].tolist())
            self.completed_lengths.extend(self._episode_length[ended].tolist())
            extras["episode"] = {"/episode_return": float(self._episode_return[ended].mean()),
                                 "/episode_length": float(self._episode_length[ended].mean())}
            self._episode_return[ended] = 0.0
            self._episode_length[ended] = 0
        if "status" in info:
            extras["status"] = torch.from_numpy(info["status"].copy())
        return (self._wrap(obs), torch.from_numpy(reward.astype(np.float32)).to(self.device),
                torch.from_numpy(dones.astype(np.int64)).to(self.device), extras)

    def _step_tensors(self, actions):
        """step() of a torch environment: its tensors as they are, on its device."""
        a = actions.detach().to(self.device, torch.float32)
        obs, reward, terminated, truncated, _, info = self._same_step.step(a)
        self._obs = obs
        dones = terminated | truncated
        self._episode_return += reward
        self._episode_length += 1
        extras = {"time_outs": truncated.clone()}
        if dones.any():
            ended = dones.nonzero().squeeze(1)
            self.completed_returns.extend(self._episode_return[ended].tolist())
            self.completed_lengths.extend(self._episode_length[ended].tolist())
            extras["episode"] = {"/episode_return": float(self._episode_return[ended].mean()),
                                 "/episode_length": float(self._episode_length[ended].to(torch.float64).mean())}
            self._episode_return[ended] = 0.0
            self._episode_length[ended] = 0
        if "status" in info:
            extras["status"] = info["status"].clone()
        return self._wrap(obs), reward.to(torch.float32), dones.to(torch.int64), extras

    # --- helpers ---------------------------------------------------------------------------------
    def reset(self, seed=None):
        """Resets every copy (seeded when `seed` is given) and returns the observations."""
        self._obs, _ = self._same_step.reset(seed=seed)
        self._episode_return[:] = 0.0
        self._episode_length[:] = 0
        return self.get_observations()

    def pop_completed(self):
        """The returns and lengths of the episodes ended since the last call (lists), cleared."""
        out = (self.completed_returns, self.completed_lengths)
        self.completed_returns, self.completed_lengths = [], []
        return out

    def close(self):
        self.env.close()

    def _wrap(self, obs):
        if self._tensors:
            t = obs.to(torch.float32)  # the environment's own float32 tensor (no copy)
        else:
            t = torch.from_numpy(np.ascontiguousarray(obs, np.float32)).to(self.device)
        return TensorDict({"policy": t}, batch_size=[self.num_envs], device=self.device)


def _same_device(a, b):
    """Whether the torch devices a and b are one ("cuda" is the current CUDA device)."""
    if a.type != b.type:
        return False
    if a.type != "cuda":
        return True
    current = torch.cuda.current_device
    return (current() if a.index is None else a.index) == (current() if b.index is None else b.index)

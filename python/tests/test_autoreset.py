"""SameStepAutoreset (the training libraries' autoreset) against the next-step environment it
wraps: the same rewards, the ended episode's last observation, the next episode's first one."""
import numpy as np
import pytest

pytest.importorskip("gymnasium")
from obliq.envs import QuadrupedStandEnv, QuadrupedVelocityEnv  # noqa: E402
from obliq.envs.autoreset import SameStepAutoreset  # noqa: E402


@pytest.mark.parametrize("cls", [QuadrupedStandEnv, QuadrupedVelocityEnv])
def test_same_step_autoreset_against_the_next_step_env(cls):
    env, ref = SameStepAutoreset(cls(4, max_episode_steps=3)), cls(4, max_episode_steps=3)
    obs, _ = env.reset(seed=5)
    ref_obs, _ = ref.reset(seed=5)
    np.testing.assert_array_equal(obs, ref_obs)
    act = np.full((4, 12), 0.1, np.float32)
    for k in range(3):
        obs, r, term, trunc, final, _ = env.step(act)
        ref_obs, ref_r, ref_term, ref_trunc, _ = ref.step(act)
        np.testing.assert_array_equal(r, ref_r)
        np.testing.assert_array_equal(term, ref_term)
        np.testing.assert_array_equal(trunc, ref_trunc)
        np.testing.assert_array_equal(final, ref_obs)
        if k < 2:
            np.testing.assert_array_equal(obs, ref_obs)
    assert trunc.all()
    # the first observation of the next episode: what the next-step env returns one step later
    ref_next, ref_r, *_ = ref.step(act)
    np.testing.assert_array_equal(obs, ref_next)
    assert (ref_r == 0).all()
    # and both run on in step
    obs, r, *_ = env.step(act)
    ref_obs, ref_r, *_ = ref.step(act)
    np.testing.assert_array_equal(obs, ref_obs)
    np.testing.assert_array_equal(r, ref_r)


def test_only_the_ended_copy_restarts():
    env = SameStepAutoreset(QuadrupedVelocityEnv(3))
    env.reset(seed=2)
    env.env.sim.q[1, 2] = 0.01  # the trunk on the floor: terminated
    obs, r, term, trunc, final, _ = env.step(np.zeros((3, 12), np.float32))
    assert term.tolist() == [False, True, False] and not trunc.any()
    assert env.env.sim.t[1] == 0 and env.env.sim.q[1, 2] > 0.2  # already restarted
    assert (env.env.sim.t[[0, 2]] > 0).all()
    assert final[1, 48] < 0.2 and obs[1, 48] > 0.2  # height: the fallen state, then the fresh one
    np.testing.assert_array_equal(final[[0, 2]], obs[[0, 2]])

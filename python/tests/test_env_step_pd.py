"""The environments' step through Simulator.step_pd (one C++ call per env step) against the numpy
PD loop it replaced (the oracle below: frame_skip Simulator.step calls with the law evaluated in
numpy between them): the same trajectories bit for bit, with episodes ending and autoresetting
(held copies) along the way. Then Simulator.step_pd's own arguments: strided and DLPack inputs
read in place, and the errors."""
import numpy as np
import pytest

pytest.importorskip("gymnasium")

from obliq import Simulator  # noqa: E402
from obliq.envs import Biped5BalanceEnv, QuadrupedStandEnv, QuadrupedVelocityEnv  # noqa: E402


def oracle_step(env, actions, einsum=False):
    """SimVectorEnv.step as it was before step_pd: the PD law in numpy before each of the
    frame_skip Simulator steps. The squared torque norm: summed over the actuated coordinates
    in index order, the order of step_pd's effort (PD2), or (einsum=True) as the old code did,
    np.einsum over the whole row, whose summation order is numpy's (SIMD partial sums) and may
    differ from the index order in the last bit."""
    a = np.asarray(actions)
    restart = env._autoreset
    a = np.clip(a, -1.0, 1.0)
    target = env.nominal + env.action_scale * a
    torques = np.zeros((env.num_envs, env.sim.nv))
    env._torque_sq[:] = 0.0
    for _ in range(env.frame_skip):
        tau = env.kp * (target - env.sim.q[:, env.actuated_q]) - env.kd * env.sim.v[:, env.actuated]
        torques[:, env.actuated] = np.clip(tau, -env.max_torque, env.max_torque)
        torques[restart] = 0.0
        if einsum:
            env._torque_sq += np.einsum("ij,ij->i", torques, torques)
        else:
            norm2 = np.zeros(env.num_envs)
            for j in env.actuated:
                norm2 += torques[:, j] * torques[:, j]
            env._torque_sq += norm2
        env.sim.step(env.sim_dt, 1, u=torques)
    env._torque_sq /= env.frame_skip
    return env._finish_step(a, restart)  # the rest of the env step, as SimVectorEnv.step


def run_both(cls, n, steps, seed, einsum=False, **kwargs):
    new, old = cls(n, threads=2, **kwargs), cls(n, threads=1, **kwargs)
    o1, _ = new.reset(seed=seed)
    o2, _ = old.reset(seed=seed)
    np.testing.assert_array_equal(o1, o2)
    rng = np.random.default_rng(seed + 1)
    ended = held = 0
    rewards = []
    for k in range(steps):
        a = rng.uniform(-1.2, 1.2, (n, new.nu)).astype(np.float32)  # some outside [-1, 1]: clipped
        held += np.count_nonzero(new._autoreset)
        out_new = new.step(a)
        out_old = oracle_step(old, a, einsum)
        for name, x, y in zip(("obs", "reward", "terminated", "truncated"), out_new[:4], out_old[:4]):
            if name == "reward" and einsum:
                np.testing.assert_allclose(x, y, rtol=1e-14, atol=1e-15, err_msg=f"step {k}: {name}")
            else:
                np.testing.assert_array_equal(x, y, err_msg=f"step {k}: {name}")
        assert out_new[4].keys() == out_old[4].keys()
        np.testing.assert_array_equal(new.sim.q, old.sim.q, err_msg=f"step {k}: q")
        np.testing.assert_array_equal(new.sim.v, old.sim.v, err_msg=f"step {k}: v")
        if not einsum:
            np.testing.assert_array_equal(new._torque_sq, old._torque_sq, err_msg=f"step {k}: |tau|^2")
        ended += np.count_nonzero(out_new[2] | out_new[3])
        rewards.append(out_new[1])
    return ended, held, np.array(rewards)


@pytest.mark.parametrize("cls", [QuadrupedStandEnv, QuadrupedVelocityEnv, Biped5BalanceEnv])
def test_step_pd_gives_the_numpy_loop_trajectory_bit_for_bit(cls):
    ended, held, rewards = run_both(cls, 12, 40, seed=3, max_episode_steps=15)
    assert ended >= 12 and held >= 12, "episodes end and autoreset (held copies) within the run"
    assert np.isfinite(rewards).all()


def test_velocity_env_reward_within_rounding_of_the_old_einsum():
    """The old code's |tau|^2 (np.einsum's summation order) against step_pd's (index order):
    the same trajectory, rewards equal to rounding (the torque term is 1e-5 |tau|^2 dt). The
    rewards unclipped (only_positive_rewards=False): the random actions' penalties would clip
    most of them to 0, where the torque term's rounding is not seen."""
    run_both(QuadrupedVelocityEnv, 8, 20, seed=5, einsum=True, max_episode_steps=12, only_positive_rewards=False)


QUAD = dict(v_index=list(range(6, 18)), q_index=list(range(7, 19)), kp=80.0, kd=1.0, max_torque=30.0)


def dropped(n, seed=0):
    sim = Simulator("quadruped", n, threads=1)
    rng = np.random.default_rng(seed)
    sim.q[:, 2] += 0.05
    sim.q[:, 7:] += rng.uniform(-0.3, 0.3, (n, 12))
    sim.mu[:] = 0.8
    return sim, np.tile([0.0, 0.6, -1.2], (n, 4)) + rng.uniform(-0.5, 0.5, (n, 12))


def test_strided_targets_and_outputs_are_read_and_written_in_place():
    a, target = dropped(5)
    b, _ = dropped(5)
    wide = np.zeros((5, 30))
    wide[:, ::2][:, 3:15] = target
    strided = wide[:, 6:30:2]  # a (5, 12) view with element stride 2
    assert np.array_equal(strided, target) and not strided.flags.c_contiguous
    hold = np.array([False, True, False, False, True])
    effort_a = np.full(5, -1.0)
    effort_b = np.full((5, 3), -1.0)
    a.step_pd(5e-3, 4, target, hold=hold, effort=effort_a, **QUAD)
    b.step_pd(5e-3, 4, strided, hold=hold, effort=effort_b[:, 1], **QUAD)
    np.testing.assert_array_equal(a.q, b.q)
    np.testing.assert_array_equal(effort_a, effort_b[:, 1])
    assert (effort_b[:, [0, 2]] == -1).all(), "only the viewed column is written"
    assert (effort_a[hold] == 0).all() and (effort_a[~hold] > 0).all()
    assert not a.u.any(), "the Simulator's own torques are left alone"
    np.testing.assert_allclose(a.t, 4 * 5e-3)


def test_dlpack_targets():
    """A DLPack CPU tensor (numpy's own __dlpack__ here; torch goes the same way) as targets."""
    a, target = dropped(3)
    b, _ = dropped(3)

    class Tensor:  # only the DLPack protocol
        def __init__(self, x):
            self.x = x

        def __dlpack__(self, **kw):
            return self.x.__dlpack__(**kw)

        def __dlpack_device__(self):
            return self.x.__dlpack_device__()

    a.step_pd(5e-3, 2, target, **QUAD)
    b.step_pd(5e-3, 2, Tensor(target), **QUAD)
    np.testing.assert_array_equal(a.q, b.q)


def test_step_pd_errors_name_the_argument():
    sim, target = dropped(3)
    q0 = sim.q.copy()
    bad = [
        (dict(target=target.astype(np.float32)), TypeError, "target: dtype float32"),
        (dict(target=target[:2]), ValueError, r"target: shape \(2, 12\) does not fit"),
        (dict(target=target[:, :11]), ValueError, r"target: shape \(3, 11\) does not fit"),
        (dict(target=target[0]), ValueError, r"target: shape \(12,\) does not fit"),
        (dict(hold=np.zeros(3, np.int8)), TypeError, "hold: expected a bool array"),
        (dict(hold=np.zeros(4, bool)), ValueError, r"hold: shape \(4,\) does not fit"),
        (dict(effort=np.zeros(3, np.float32)), TypeError, "effort: dtype float32"),
        (dict(effort=np.zeros(2)), ValueError, r"effort: shape \(2,\) does not fit"),
        (dict(effort=np.broadcast_to(np.zeros(1), (3,))), ValueError, "effort: the array is read-only"),
        (dict(frame_skip=0), ValueError, "frame_skip must be >= 1"),
        (dict(v_index=[6] * 12), ValueError, r"v_index\[1\] = 6 is repeated"),
        (dict(v_index=list(range(7, 19))), ValueError, r"v_index\[11\] = 18 is outside \[0, nv\) = \[0, 18\)"),
        (dict(q_index=list(range(7, 18)) + [-1]), ValueError, r"q_index\[11\] = -1 is outside"),
        (dict(q_index=list(range(7, 18))), ValueError, "same length"),
        (dict(kp=np.nan), ValueError, "kp and kd must be finite"),
        (dict(max_torque=-1.0), ValueError, "max_torque must be >= 0"),
    ]
    for change, err, words in bad:
        args = dict(QUAD, dt=5e-3, frame_skip=4, target=target)
        args.update(change)
        with pytest.raises(err, match=words):
            sim.step_pd(**args)
    np.testing.assert_array_equal(sim.q, q0)
    assert (sim.t == 0).all(), "nothing stepped"


def test_float32_environment_steps():
    """dtype=np.float32 reaches the Simulator; step_pd's effort buffer follows it."""
    env = QuadrupedVelocityEnv(4, dtype=np.float32, max_episode_steps=5)
    env.reset(seed=2)
    assert env.sim.dtype == np.float32 and env._torque_sq.dtype == np.float32
    for _ in range(8):
        obs, r, term, trunc, _ = env.step(np.zeros((4, 12), np.float32))
        assert obs.dtype == np.float32 and np.isfinite(r).all()
    assert (env._torque_sq > 0).all()

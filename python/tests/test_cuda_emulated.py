"""The Python package's device path (backend="cuda": obliq.Simulator and the environments with the
state resident on the device, docs/cuda.md "The state on the device") on the CPU emulation of
the CUDA backend: scripts/ci/python.sh runs this file a second time with OBLIQ_CUDA_LIBRARY set
to the emulated backend library (tests/cuda_emulation, the same kernel bodies and resident
sequence as the device's, in host memory, which it reports as DLPack CPU memory) and
OBLIQ_CUDA_EMULATED=1; without those it skips. Against the cpu backend, bit for bit: the
Simulator's step and step_pd over several calls with the controls written in the device's
arrays between them, and seeded environment rollouts with autoresets; that no call copies the
state to the host; the errors."""
import os

import numpy as np
import pytest

if os.environ.get("OBLIQ_CUDA_EMULATED") != "1":
    pytest.skip("needs the emulated CUDA backend (scripts/ci/python.sh runs this file with it: "
                "OBLIQ_CUDA_LIBRARY=<build>/tests/cuda_emulation/libobliq_cuda_emulated.so OBLIQ_CUDA_EMULATED=1)",
                allow_module_level=True)

import obliq  # noqa: E402


def drop(sim, rng):
    """Quadrupeds above the floor with random joints and velocities, mu 0.7 on every contact."""
    q = np.tile(sim.q0 if isinstance(sim.q0, np.ndarray) else sim.q0.cpu().numpy(), (1, 1))
    q[:, 2] = 0.45 + 0.2 * rng.random(sim.count)
    q[:, 7:] = 0.3 * rng.standard_normal((sim.count, sim.nq - 7))
    v = 0.3 * rng.standard_normal((sim.count, sim.nv))
    sim.reset(q=q, v=v)
    sim.mu[:] = 0.7


def host(x):
    return x.cpu().numpy() if hasattr(x, "cpu") else np.asarray(x)


STATE = ("q", "v", "t", "active", "impacts", "lcp_solves", "status", "last_impact_time", "last_impact_v")


def assert_same_state(cpu, dev, what):
    for name in STATE:
        a, b = host(getattr(cpu, name)), host(getattr(dev, name))
        assert a.tobytes() == b.tobytes(), f"{what}: {name} differs"


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_the_resident_simulator_steps_as_the_cpu_with_no_copy_to_the_host(dtype):
    model = obliq.Model.builtin("quadruped")
    cpu = obliq.Simulator(model, 9, dtype=dtype, threads=1)
    dev = obliq.Simulator(model, 9, dtype=dtype, backend="cuda")
    assert dev.backend == "cuda" and dev.arrays == "numpy"  # the emulation's memory is the host's
    for sim in (cpu, dev):
        drop(sim, np.random.default_rng(4))
    host_q = dev._sim.q.copy()  # the host Simulator behind the device copy: staging only
    pointer = dev.q.__array_interface__["data"][0]
    assert pointer != dev._sim.q.__array_interface__["data"][0], "the state is not the host Simulator's"
    actuated, actuated_q = list(range(6, 18)), list(range(7, 19))
    rng = np.random.default_rng(8)
    for call in range(4):
        target = np.asarray(cpu.q[:, 7:] + 0.4 * rng.uniform(-1, 1, (9, 12)), dtype)
        hold = np.arange(9) % 4 == 1
        e_cpu, e_dev = np.full(9, -1, dtype), np.full(9, -1, dtype)
        for sim, effort in ((cpu, e_cpu), (dev, e_dev)):
            sim.step_pd(2e-3, 4, target, v_index=actuated, q_index=actuated_q, kp=60, kd=1, max_torque=25,
                        hold=hold, effort=effort)
        assert e_cpu.tobytes() == e_dev.tobytes(), f"effort, call {call}"
        assert_same_state(cpu, dev, f"step_pd call {call}")
        for sim in (cpu, dev):  # written in place on the device between calls (domain randomisation)
            sim.mu[call % 9] = 0.3
            sim.e[(call + 2) % 9] = 0.5
    for sim in (cpu, dev):
        sim.u[:] = 0.2
        sim.step(2e-3, 5)
    assert_same_state(cpu, dev, "step")
    assert int(host(cpu.impacts).sum()) > 0, "nothing landed: the comparison shows little"
    assert dev.q.__array_interface__["data"][0] == pointer, "the device arrays moved"
    np.testing.assert_array_equal(dev._sim.q, host_q)  # no step copied the state back to the host
    k_cpu, p_cpu = cpu.energies()
    k_dev, p_dev = dev.energies()  # the one copy to the host, asked for
    assert k_cpu.tobytes() == k_dev.tobytes() and p_cpu.tobytes() == p_dev.tobytes()


def test_torch_tensors_view_the_device_memory():
    torch = pytest.importorskip("torch")
    model = obliq.Model.builtin("quadruped")
    cpu = obliq.Simulator(model, 5, threads=1)
    dev = obliq.Simulator(model, 5, backend="cuda", arrays="torch")
    assert isinstance(dev.q, torch.Tensor) and dev.q.device.type == "cpu"  # the emulation's memory
    same = obliq.Simulator(model, 5, backend="cuda")
    assert same._device.q.__dlpack_device__()[0] == 1
    for sim in (cpu, dev):
        drop(sim, np.random.default_rng(5))
    for call in range(3):
        target = cpu.q[:, 7:] + 0.1 * call
        for sim in (cpu, dev):
            t = target if sim is cpu else torch.from_numpy(target.copy())
            sim.step_pd(2e-3, 4, t, v_index=list(range(6, 18)), q_index=list(range(7, 19)), kp=60, kd=1,
                        max_torque=25)
    assert_same_state(cpu, dev, "torch arrays")


def test_bad_device_arrays_are_refused_naming_them():
    dev = obliq.Simulator("quadruped", 3, backend="cuda")
    v_index, q_index = list(range(6, 18)), list(range(7, 19))
    with pytest.raises(TypeError, match="target: dtype float32 must be the Simulator's dtype float64"):
        dev.step_pd(1e-3, 2, np.zeros((3, 12), np.float32), v_index=v_index, q_index=q_index, kp=1, kd=0)
    with pytest.raises(ValueError, match=r"target: shape \(3, 11\) does not fit"):
        dev.step_pd(1e-3, 2, np.zeros((3, 11)), v_index=v_index, q_index=q_index, kp=1, kd=0)
    with pytest.raises(TypeError, match="hold: expected a bool array"):
        dev.step_pd(1e-3, 2, np.zeros((3, 12)), v_index=v_index, q_index=q_index, kp=1, kd=0, hold=np.zeros(3))
    with pytest.raises(TypeError, match="backend='cuda' reads arrays in the device's memory"):
        dev.step_pd(1e-3, 2, [[0.0] * 12] * 3, v_index=v_index, q_index=q_index, kp=1, kd=0)
    with pytest.raises(ValueError, match="v_index"):
        dev.step_pd(1e-3, 2, np.zeros((3, 12)), v_index=[99] + v_index[1:], q_index=q_index, kp=1, kd=0)
    assert (dev.t == 0).all(), "a refused call stepped"


@pytest.mark.parametrize("name", ["QuadrupedStandEnv", "QuadrupedVelocityEnv", "Solo12VelocityEnv"])
@pytest.mark.parametrize("arrays", ["numpy", "torch"])
def test_environments_on_the_device_follow_the_cpu(name, arrays):
    """A seeded rollout with random actions and short episodes (autoresets on the device's state)
    gives the cpu environment's observations and flags bit for bit, and its rewards bit for bit
    with numpy arrays, to 1e-12 relative with torch tensors (torch's hypot may differ from
    numpy's in the last bit: python/obliq/envs/_xp.py)."""
    pytest.importorskip("gymnasium")
    if arrays == "torch":
        pytest.importorskip("torch")
    from obliq import envs

    cls = getattr(envs, name)
    cpu = cls(12, max_episode_steps=7, threads=1)
    dev = cls(12, max_episode_steps=7, backend="cuda", arrays=arrays)
    assert dev.sim.backend == "cuda" and dev.arrays == arrays
    rng = np.random.default_rng(2)
    outs = [[host(cpu.reset(seed=11)[0])], [host(dev.reset(seed=11)[0])]]
    resets = 0
    for _ in range(20):
        a = rng.uniform(-1, 1, (12, cpu.nu)).astype(np.float32)
        for env, out in ((cpu, outs[0]), (dev, outs[1])):
            o, r, term, trunc, _ = env.step(a)
            out += [host(o), host(r), host(term), host(trunc)]
        resets += int(outs[0][-1].sum() + outs[0][-2].sum())
    assert resets > 0, "no episode ended: the autoreset was not exercised"
    for k, (x, y) in enumerate(zip(*outs)):
        assert x.dtype == y.dtype, f"entry {k}: dtype {y.dtype}, the cpu's {x.dtype}"
        if arrays == "torch" and k % 4 == 2:  # a reward
            np.testing.assert_allclose(y, x, rtol=1e-12, atol=1e-15, err_msg=f"entry {k}")
        else:
            assert x.tobytes() == y.tobytes(), f"entry {k} differs"

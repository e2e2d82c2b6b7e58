#!/usr/bin/env python3
"""The Simulator against its peers, side by side in one run (one core each).

- Siconos (Debian's python3-siconos; run under --siconos-python, Debian's interpreter): its
  bouncing-ball example (a ball (z, x, theta), radius 0.1, e = 0.9) through TimeStepping +
  MoreauJeanOSI(1/2) + LCP, h = 1e-3, stepped by Simulation.run() in C++; and the same ball
  through EventDriven + LsodarOSI (tolerances 1e-10) with output step 1e-3 over 5 s (its
  bounces accumulate at 8.6 s, where Siconos's event-driven run stops with an error).
- MuJoCo (pip mujoco): obliq's built-in quadruped written as MJCF (same bodies, masses,
  inertias, joints; point feet as spheres of radius 1 mm against a plane), timestep 1e-3,
  frictionless contacts (condim 1), mj_step with nstep. What differs: MuJoCo's contacts are soft
  (solref/solimp) and solved by its own convex solver; obliq's are hard (complementarity impact
  law every step). Both start 2 cm above the ground with e = 0.5 on obliq's side.
- obliq: bench_sim_throughput on the ball and the quadruped, batches of 1 and 1000, one thread.

Usage: sim_vs_peers.py BENCH_SIM_THROUGHPUT [--siconos-python PY] [--markdown]
"""
import argparse
import json
import subprocess
import sys
import time

SICONOS_BALL = r"""
import time, numpy as np, siconos.kernel as sk, json, sys
steps = int(sys.argv[1])
def system(steps):
    ds = sk.LagrangianLinearTIDS(np.array([1.0, 0, 0]), np.zeros(3), np.diag([1.0, 1.0, 0.4 * 0.01]))
    ds.setFExtPtr(np.array([-9.81, 0, 0]))
    nsds = sk.NonSmoothDynamicalSystem(0, steps * 1e-3)
    nsds.insertDynamicalSystem(ds)
    nsds.link(sk.Interaction(sk.NewtonImpactNSL(0.9), sk.LagrangianLinearTIR(np.array([[1.0, 0, 0]]), np.array([-0.1]))), ds)
    return nsds
out = {}
s = sk.TimeStepping(system(steps), sk.TimeDiscretisation(0, 1e-3))
s.insertIntegrator(sk.MoreauJeanOSI(0.5)); s.insertNonSmoothProblem(sk.LCP())
s.computeOneStep(); s.nextStep()
t0 = time.perf_counter(); s.run(); t = time.perf_counter() - t0
out["moreau"] = (steps - 1) / t
ed_steps = min(steps, 5000)  # the ball's bounces accumulate at t = 8.6 s (Zeno): stop before
s = sk.EventDriven(system(ed_steps), sk.TimeDiscretisation(0, 1e-3))
osi = sk.LsodarOSI(); osi.setTol(1, 1e-10, 1e-10); s.insertIntegrator(osi)
s.insertNonSmoothProblem(sk.LCP(), sk.SICONOS_OSNSP_ED_IMPACT)
s.insertNonSmoothProblem(sk.LCP(), sk.SICONOS_OSNSP_ED_SMOOTH_ACC)
t0 = time.perf_counter(); s.run(); t = time.perf_counter() - t0
out["event"] = ed_steps / t
print("RESULT " + json.dumps(out))
"""


def quadruped_mjcf(timestep=0.001, condim=1, friction=1.0, actuator=""):
    """obliq's built-in quadruped as MJCF (trunk at 0.521 m). condim 1: frictionless contacts;
    condim 3: Coulomb friction `friction` (MuJoCo's pyramidal/elliptic soft cone). `actuator`:
    an MJCF element per joint, formatted with {joint} (none by default)."""
    legs, acts = "", ""
    for name, x, y in (("FL", 0.3, 0.15), ("FR", 0.3, -0.15), ("HL", -0.3, 0.15), ("HR", -0.3, -0.15)):
        side = 0.05 if y > 0 else -0.05
        legs += f"""
      <body name="{name}_hip" pos="{x} {y} 0">
        <joint name="{name}_abd" type="hinge" axis="1 0 0"/>
        <inertial pos="0 0 0" mass="0.5" diaginertia="0.001 0.001 0.001"/>
        <body name="{name}_thigh" pos="0 {side} 0">
          <joint name="{name}_hip" type="hinge" axis="0 1 0"/>
          <inertial pos="0 0 -0.125" mass="1.0" diaginertia="{1.0 * 0.0625 / 12 + 0.001} {1.0 * 0.0625 / 12 + 0.001} 0.001"/>
          <body name="{name}_shank" pos="0 0 -0.25">
            <joint name="{name}_knee" type="hinge" axis="0 1 0"/>
            <inertial pos="0 0 -0.125" mass="0.3" diaginertia="{0.3 * 0.0625 / 12 + 0.0005} {0.3 * 0.0625 / 12 + 0.0005} 0.0005"/>
            <geom name="{name}_foot" type="sphere" size="0.001" pos="0 0 -0.25" condim="{condim}" friction="{friction}"/>
          </body>
        </body>
      </body>"""
        if actuator:
            acts += "".join(actuator.format(joint=f"{name}_{j}") for j in ("abd", "hip", "knee"))
    return f"""<mujoco model="quadruped">
  <option timestep="{timestep}"/>
  <worldbody>
    <geom name="floor" type="plane" size="5 5 0.1" condim="{condim}" friction="{friction}"/>
    <body name="trunk" pos="0 0 0.521">
      <freejoint/>
      <inertial pos="0 0 0" mass="10" diaginertia="{10 * (0.09 + 0.01) / 12} {10 * (0.36 + 0.01) / 12} {10 * (0.36 + 0.09) / 12}"/>{legs}
    </body>
  </worldbody>{f"<actuator>{acts}</actuator>" if acts else ""}
</mujoco>"""


def mujoco_quadruped(steps):
    import mujoco
    m = mujoco.MjModel.from_xml_string(quadruped_mjcf())
    d = mujoco.MjData(m)
    mujoco.mj_step(m, d, nstep=10)
    t0 = time.perf_counter()
    mujoco.mj_step(m, d, nstep=steps)
    return steps / (time.perf_counter() - t0), mujoco.__version__


def obliq_rates(bench):
    out = subprocess.run([bench, "--models", "ball,quadruped", "--batches", "1,1000", "--threads", "1", "--json",
                          "--min-time", "1.0"], capture_output=True, text=True, check=True)
    rates = {}
    for line in out.stdout.splitlines():
        r = json.loads(line)
        rates[(r["model"], r["integrator"], r["batch"])] = r["steps_per_s"]
    return rates


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bench")
    ap.add_argument("--siconos-python", default=sys.executable)
    ap.add_argument("--steps", type=int, default=20000)
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    sic_out = subprocess.run([a.siconos_python, "-c", SICONOS_BALL, str(a.steps)], capture_output=True, text=True,
                             check=True).stdout
    sic = json.loads([x for x in sic_out.splitlines() if x.startswith("RESULT ")][-1][len("RESULT "):])
    mj, mj_version = mujoco_quadruped(a.steps)
    ob = obliq_rates(a.bench)
    rows = [
        ("ball", "Moreau-Jean", "Siconos 4.4 TimeStepping", sic["moreau"], ob[("ball", "moreau", 1)], ob[("ball", "moreau", 1000)]),
        ("ball", "event-driven", "Siconos 4.4 EventDriven (Lsodar)", sic["event"], ob[("ball", "event", 1)], ob[("ball", "event", 1000)]),
        ("quadruped", "Moreau-Jean", f"MuJoCo {mj_version} mj_step", mj, ob[("quadruped", "moreau", 1)], ob[("quadruped", "moreau", 1000)]),
        ("quadruped", "event-driven", f"MuJoCo {mj_version} mj_step", mj, ob[("quadruped", "event", 1)], ob[("quadruped", "event", 1000)]),
    ]
    if a.markdown:
        print("| scene | obliq integrator | peer | peer steps/s | obliq steps/s (1 copy) | obliq steps/s (1000 copies) | obliq / peer (1 copy) | obliq / peer (1000 copies) |")
        print("|---|---|---|---|---|---|---|---|")
        for scene, integ, peer, p, o1, ok in rows:
            print(f"| {scene} | {integ} | {peer} | {p:.3g} | {o1:.3g} | {ok:.3g} | {o1 / p:.2f}x | {ok / p:.2f}x |")
    else:
        for r in rows:
            print(json.dumps(dict(zip(["scene", "integrator", "peer", "peer_steps_per_s", "obliq_1", "obliq_1000"], r))))


if __name__ == "__main__":
    sys.exit(main())

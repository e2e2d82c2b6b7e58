#!/usr/bin/env python3
"""obliq's integrators against Siconos's own (Debian's python3-siconos), on the same scenes.

Usage: siconos_compare.py OBLIQ_BINARY   (exit 0 pass, 1 fail, 77 siconos not importable)

Scenes (linear systems: constant M, constant force f, gaps y = H q + b; the multi-contact body
is a planar bar whose end gaps are linearised in the angle, the same equations on both sides):
  ball   one ball (z, x, theta) over the floor
  chain  three balls stacked on a vertical line: floor and two ball-ball gaps
  bar    a bar (x, z, theta) with two end contacts

Moreau-Jean: Siconos's TimeStepping + MoreauJeanOSI(theta) + LCP (Lemke), whose activation rule
is y_k + h/2 ydot_k <= 0 (MoreauJeanOSI::addInteractionInIndexSet, gamma = 1/2), against
`obliq simulate scenario --integrator moreau --theta theta` (same rule: docs/simulator.md).
Positions and velocities must agree to 1e-6 relative (to the run's largest |q|, |v|) at every
step. With Coulomb friction (docs/simulator.md "Friction"), Moreau-Jean only: Siconos's
MoreauJeanOSI + NewtonImpactFrictionNSL(e, e_t = 0, mu) + FrictionContact (fc2d / fc3d NSGS,
tolerance 1e-14) against `obliq simulate scenario` with the lines' "mu", "A_t", "dim":
  slide     a point mass (x, z) dropped on the floor: bounces, slides, stops (plane)
  spin      a ball (x, y, z, w_x, w_y) with spin about x landing while moving along x: the slip
            turns, it ends rolling on a curve (space, two tangent rows)
  rocking   a block (x, z, theta) on its two bottom corners, gaps linearised in theta: it lands
            tilted, rocks, slides and sticks (plane, two contacts) Event-driven: Siconos's EventDriven + LsodarOSI (tolerances 1e-12) + impact and
acceleration LCPs against `obliq simulate scenario --integrator event`: every impact time and
post-impact velocity of the first events must agree to 1e-6 relative.
"""
import json
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
    import siconos.kernel as sk
except ImportError as exc:  # the peer is missing: skip (ctest SKIP_RETURN_CODE 77)
    print(f"siconos_compare: skipped ({exc})")
    sys.exit(77)

G = 9.81
SCENES = {
    "ball": dict(M=np.diag([1.0, 1.0, 0.004]), f=np.array([-G, 0.0, 0.0]), H=np.array([[1.0, 0.0, 0.0]]),
                 b=np.array([-0.1]), q0=np.array([1.1, 0.0, 0.0]), v0=np.array([0.5, 0.3, 0.0]), e=[0.8]),
    "chain": dict(M=np.diag([1.0, 1.0, 1.0]), f=np.array([-G, -G, -G]),
                  H=np.array([[1.0, 0.0, 0.0], [-1.0, 1.0, 0.0], [0.0, -1.0, 1.0]]), b=np.array([-0.1, -0.2, -0.2]),
                  q0=np.array([0.4, 0.9, 1.55]), v0=np.array([0.0, 0.7, -1.0]), e=[0.9, 0.8, 0.7]),
    "bar": dict(M=np.diag([2.0, 2.0, 2.0 / 12.0]), f=np.array([0.0, -2 * G, 0.0]),
                H=np.array([[0.0, 1.0, -0.5], [0.0, 1.0, 0.5]]), b=np.array([0.0, 0.0]),
                q0=np.array([0.0, 0.5, 0.2]), v0=np.array([0.1, 0.0, 1.0]), e=[0.7, 0.7]),
}


# Friction scenes: normal rows H (with offsets b: gaps H q + b), per contact dim - 1 tangent rows
# Ht (rows (dim - 1) r ..), and mu per contact.
R_BALL, I_BALL = 0.1, 0.4 * 0.01
W_BLOCK, H_BLOCK = 0.2, 0.4
I_BLOCK = (W_BLOCK ** 2 + H_BLOCK ** 2) / 12.0
FRICTION_SCENES = {
    "slide": dict(M=np.eye(2), f=np.array([0.0, -G]), H=np.array([[0.0, 1.0]]), b=np.array([0.0]),
                  Ht=np.array([[1.0, 0.0]]), dim=2, mu=[0.3], q0=np.array([0.0, 0.05]),
                  v0=np.array([1.5, 0.0]), e=[0.5]),
    "spin": dict(M=np.diag([1.0, 1.0, 1.0, I_BALL, I_BALL]), f=np.array([0.0, 0.0, -G, 0.0, 0.0]),
                 H=np.array([[0.0, 0.0, 1.0, 0.0, 0.0]]), b=np.array([0.0]),
                 # contact point velocity v + w x (0, 0, -R) = (v_x - R w_y, v_y + R w_x)
                 Ht=np.array([[1.0, 0.0, 0.0, 0.0, -R_BALL], [0.0, 1.0, 0.0, R_BALL, 0.0]]), dim=3, mu=[0.2],
                 q0=np.array([0.0, 0.0, 0.02, 0.0, 0.0]), v0=np.array([1.0, 0.0, 0.0, 25.0, 0.0]), e=[0.4]),
    # corners at (+-W/2, -H/2) from the centre; pitch about +y: point velocity (x' - H/2 th', z' -+ W/2 th')
    "rocking": dict(M=np.diag([1.0, 1.0, I_BLOCK]), f=np.array([0.0, -G, 0.0]),
                    H=np.array([[0.0, 1.0, -W_BLOCK / 2], [0.0, 1.0, W_BLOCK / 2]]),
                    b=np.array([-H_BLOCK / 2, -H_BLOCK / 2]),
                    Ht=np.array([[1.0, 0.0, -H_BLOCK / 2], [1.0, 0.0, -H_BLOCK / 2]]), dim=2, mu=[0.5, 0.5],
                    q0=np.array([0.0, 0.3, 0.25]), v0=np.array([0.8, 0.0, 0.0]), e=[0.3, 0.3]),
}


def siconos_system(sc, t_end):
    ds = sk.LagrangianLinearTIDS(sc["q0"].copy(), sc["v0"].copy(), sc["M"])
    ds.setFExtPtr(sc["f"].copy())
    nsds = sk.NonSmoothDynamicalSystem(0.0, t_end)
    nsds.insertDynamicalSystem(ds)
    for r in range(sc["H"].shape[0]):
        if "mu" in sc:  # normal row then the contact's tangent rows, Siconos's local frame order
            t = sc["dim"] - 1
            H = np.vstack([sc["H"][r:r + 1, :], sc["Ht"][t * r:t * (r + 1), :]])
            b = np.concatenate([sc["b"][r:r + 1], np.zeros(t)])
            nsl = sk.NewtonImpactFrictionNSL(sc["e"][r], 0.0, sc["mu"][r], sc["dim"])
        else:
            H, b, nsl = sc["H"][r:r + 1, :], sc["b"][r:r + 1], sk.NewtonImpactNSL(sc["e"][r])
        nsds.link(sk.Interaction(nsl, sk.LagrangianLinearTIR(H.copy(), b.copy())), ds)
    return ds, nsds


def siconos_moreau(sc, h, steps, theta):
    ds, nsds = siconos_system(sc, h * steps)
    s = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, h))
    s.insertIntegrator(sk.MoreauJeanOSI(theta))
    if "mu" in sc:
        osnsp = sk.FrictionContact(sc["dim"])
        osnsp.numericsSolverOptions().dparam[0] = 1e-14
        osnsp.numericsSolverOptions().iparam[0] = 100000
        s.insertNonSmoothProblem(osnsp)
    else:
        s.insertNonSmoothProblem(sk.LCP())
    q, v = [], []
    for _ in range(steps):
        s.computeOneStep()
        q.append(np.array(ds.q()))
        v.append(np.array(ds.velocity()))
        s.nextStep()
    return np.array(q), np.array(v)


def siconos_events(sc, t_end, count):
    ds, nsds = siconos_system(sc, t_end)
    s = sk.EventDriven(nsds, sk.TimeDiscretisation(0.0, 1e-2))
    osi = sk.LsodarOSI()
    osi.setTol(1, 1e-12, 1e-12)
    s.insertIntegrator(osi)
    s.insertNonSmoothProblem(sk.LCP(), sk.SICONOS_OSNSP_ED_IMPACT)
    s.insertNonSmoothProblem(sk.LCP(), sk.SICONOS_OSNSP_ED_SMOOTH_ACC)
    s.setToleranceED(1e-12)
    em = s.eventsManager()
    events = []
    while s.hasNextEvent() and len(events) < count:
        s.advanceToEvent()
        impact = em.nextEvent().getType() == 2
        s.processEvents()
        if impact:
            events.append((s.startingTime(), np.array(ds.velocity())))
    return events


def obliq_run(binary, sc, args):
    line = {"id": "scene", "M": sc["M"].tolist(), "h": (-sc["f"]).tolist(), "A_u": sc["H"].tolist(),
            "phi_u": (sc["H"] @ sc["q0"] + sc["b"]).tolist(), "q": sc["q0"].tolist(), "qdot": sc["v0"].tolist(),
            "e": list(sc["e"])}
    if "mu" in sc:
        line.update({"mu": list(sc["mu"]), "A_t": sc["Ht"].tolist(), "dim": sc["dim"]})
    with tempfile.TemporaryDirectory(prefix=f"obliq_sim_{os.getpid()}_") as tmp:
        path = os.path.join(tmp, "scene.jsonl")
        with open(path, "w") as f:
            f.write(json.dumps(line) + "\n")
        out = subprocess.run([binary, "simulate", "scenario", "--state", path, "--quiet", *args],
                             capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"obliq simulate failed ({out.returncode}): {out.stderr}")
    rows = [json.loads(x) for x in out.stdout.splitlines()]
    for r in rows:
        if r["status"] != "ok":
            raise RuntimeError(f"obliq simulate: {r}")
    return rows


def compare_moreau(binary, name, sc, h, steps, theta):
    """Moreau-Jean trajectories of obliq and Siconos on one scene; returns True when they agree."""
    qs, vs = siconos_moreau(sc, h, steps, theta)
    rows = obliq_run(binary, sc, ["--dt", str(h), "--steps", str(steps), "--integrator", "moreau",
                                  "--theta", str(theta)])[1:]
    qo = np.array([r["q"] for r in rows])
    vo = np.array([r["qdot"] for r in rows])
    eq = np.max(np.abs(qo - qs)) / np.max(np.abs(qs))
    ev = np.max(np.abs(vo - vs)) / np.max(np.abs(vs))
    impacts = rows[-1]["impacts"]
    ok = eq <= 1e-6 and ev <= 1e-6 and impacts > 0
    label = f"{name} mu {sc['mu']}" if "mu" in sc else name
    print(f"moreau-jean {label:5s} theta {theta}: {steps} steps, {impacts} impacts, "
          f"max |dq| / max|q| = {eq:.2e}, max |dv| / max|v| = {ev:.2e}  {'ok' if ok else 'FAIL'}")
    return ok


def main():
    binary = sys.argv[1]
    failures = 0
    h, steps = 1e-3, 2500
    for name, sc in FRICTION_SCENES.items():
        for theta in (0.5, 1.0):
            failures += not compare_moreau(binary, name, sc, h, steps, theta)
    for name, sc in SCENES.items():
        for theta in (0.5, 1.0):
            failures += not compare_moreau(binary, name, sc, h, steps, theta)
        # Event-driven: the first events (well separated in time for these scenes).
        n_events = 6
        sic = siconos_events(sc, 3.0, n_events)
        dt = 1e-3
        rows = obliq_run(binary, sc, ["--dt", str(dt), "--steps", "3000", "--integrator", "event"])
        mine, seen = [], 0
        for r in rows:
            if r["impacts"] > seen:
                mine.append((r["last_impact_t"], np.array(r["last_impact_qdot"]), r["impacts"] - seen))
                seen = r["impacts"]
        vscale = max(np.max(np.abs(v)) for _, v in sic)
        worst_t = worst_v = 0.0
        ok = len(sic) == n_events and len(mine) >= n_events
        for k in range(min(len(sic), len(mine), n_events)):
            (ts, vsic), (to, vo, _) = sic[k], mine[k]
            worst_t = max(worst_t, abs(to - ts) / ts)
            worst_v = max(worst_v, np.max(np.abs(vo - vsic)) / vscale)
        ok = ok and worst_t <= 1e-6 and worst_v <= 1e-6
        failures += not ok
        print(f"event-driven {name:5s}: {len(sic)} Siconos events, {len(mine)} obliq events, "
              f"max |dt|/t = {worst_t:.2e}, max |dv| / max|v| = {worst_v:.2e}  {'ok' if ok else 'FAIL'}")
    print("siconos_compare:", "FAIL" if failures else "all ok")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

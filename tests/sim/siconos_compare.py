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
step. Event-driven: Siconos's EventDriven + LsodarOSI (tolerances 1e-12) + impact and
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


def siconos_system(sc, t_end):
    ds = sk.LagrangianLinearTIDS(sc["q0"].copy(), sc["v0"].copy(), sc["M"])
    ds.setFExtPtr(sc["f"].copy())
    nsds = sk.NonSmoothDynamicalSystem(0.0, t_end)
    nsds.insertDynamicalSystem(ds)
    for r in range(sc["H"].shape[0]):
        rel = sk.LagrangianLinearTIR(sc["H"][r:r + 1, :].copy(), sc["b"][r:r + 1].copy())
        nsds.link(sk.Interaction(sk.NewtonImpactNSL(sc["e"][r]), rel), ds)
    return ds, nsds


def siconos_moreau(sc, h, steps, theta):
    ds, nsds = siconos_system(sc, h * steps)
    s = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, h))
    s.insertIntegrator(sk.MoreauJeanOSI(theta))
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


def main():
    binary = sys.argv[1]
    failures = 0
    h, steps = 1e-3, 2500
    for name, sc in SCENES.items():
        for theta in (0.5, 1.0):
            qs, vs = siconos_moreau(sc, h, steps, theta)
            rows = obliq_run(binary, sc, ["--dt", str(h), "--steps", str(steps), "--integrator", "moreau",
                                          "--theta", str(theta)])[1:]
            qo = np.array([r["q"] for r in rows])
            vo = np.array([r["qdot"] for r in rows])
            eq = np.max(np.abs(qo - qs)) / np.max(np.abs(qs))
            ev = np.max(np.abs(vo - vs)) / np.max(np.abs(vs))
            impacts = rows[-1]["impacts"]
            ok = eq <= 1e-6 and ev <= 1e-6 and impacts > 0
            failures += not ok
            print(f"moreau-jean {name:5s} theta {theta}: {steps} steps, {impacts} impacts, "
                  f"max |dq| / max|q| = {eq:.2e}, max |dv| / max|v| = {ev:.2e}  {'ok' if ok else 'FAIL'}")
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

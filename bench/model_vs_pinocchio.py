#!/usr/bin/env python3
"""Model evaluation + impact solve per state per second: obliq vs Pinocchio's impulseDynamics.

For the quadruped (Solo-12) and the humanoid (TALOS), draws random states whose contact points
(the feet; TALOS: four sole corners) all approach the ground, writes them, runs
bench_model_impact (obliq: mass matrix, bias forces, contact rows, gaps, drift terms for the
whole batch, then the impact solve on an obliq::Batch with the cpu backend) and times, on the
same states, Pinocchio's Python API doing the same work per state: frame Jacobians (the contact
rows) and impulseDynamics (CRBA + the contact impulse solve with restitution e).

Usage: model_vs_pinocchio.py BENCH_MODEL_IMPACT [--states N] [--markdown]
"""
import argparse
import importlib.metadata
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import pinocchio as pin

ROBOTS = [
    ("Solo-12 (quadruped)", "solo_description/robots/solo12.urdf",
     [("FL_FOOT", (0, 0, 0)), ("FR_FOOT", (0, 0, 0)), ("HL_FOOT", (0, 0, 0)), ("HR_FOOT", (0, 0, 0))]),
    ("TALOS (humanoid)", "talos_data/robots/talos_reduced.urdf",
     [("left_sole_link", (0.1, 0.05, 0)), ("left_sole_link", (-0.1, -0.05, 0)),
      ("right_sole_link", (0.1, -0.05, 0)), ("right_sole_link", (-0.1, 0.05, 0))]),
]
E = 0.5


def robots_dir():
    return str(importlib.metadata.distribution("example-robot-data").locate_file(
        "cmeel.prefix/share/example-robot-data/robots"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bench")
    ap.add_argument("--states", type=int, default=2000)
    args = ap.parse_args()
    rng = np.random.default_rng(3)
    rows = []
    for label, rel, contacts in ROBOTS:
        path = os.path.join(robots_dir(), rel)
        model = pin.buildModelFromUrdf(path, pin.JointModelFreeFlyer())
        data = model.createData()
        fids = []
        for k, (link, p) in enumerate(contacts):
            parent = model.getFrameId(link)
            f = model.frames[parent]
            fids.append(model.addFrame(pin.Frame(f"c{k}", f.parentJoint, parent,
                                                 f.placement * pin.SE3(np.eye(3), np.array(p, float)),
                                                 pin.FrameType.OP_FRAME)))
        data = model.createData()
        assert all(j.nq == j.nv or j.shortname() == "JointModelFreeFlyer" for j in model.joints[1:])
        qs, vs = [], []
        for _ in range(args.states):
            q = pin.randomConfiguration(model, -np.ones(model.nq), np.ones(model.nq))
            q[:3] = rng.normal(0, 0.3, 3)
            quat = rng.normal(0, 1, 4)
            q[3:7] = quat / np.linalg.norm(quat)
            v = rng.normal(0, 1, model.nv)
            pin.computeJointJacobians(model, data, q)
            pin.updateFramePlacements(model, data)
            J = np.array([pin.getFrameJacobian(model, data, f, pin.LOCAL_WORLD_ALIGNED)[2] for f in fids])
            v = v - np.linalg.pinv(J) @ (J @ v + rng.uniform(0.2, 1.0, len(fids)))
            qs.append(q)
            vs.append(v)

        # Pinocchio, per state: contact rows + impulseDynamics.
        best = float("inf")
        for _ in range(3):
            t0 = time.perf_counter()
            for q, v in zip(qs, vs):
                pin.computeJointJacobians(model, data, q)
                pin.updateFramePlacements(model, data)
                J = np.array([pin.getFrameJacobian(model, data, f, pin.LOCAL_WORLD_ALIGNED)[2] for f in fids])
                pin.impulseDynamics(model, data, q, v, J, E, 0.0)
            best = min(best, time.perf_counter() - t0)
        pin_rate = args.states / best
        # impulseDynamics alone (Jacobians precomputed): the floor of the Python-side cost.
        Js = []
        for q in qs:
            pin.computeJointJacobians(model, data, q)
            pin.updateFramePlacements(model, data)
            Js.append(np.array([pin.getFrameJacobian(model, data, f, pin.LOCAL_WORLD_ALIGNED)[2] for f in fids]))
        best = float("inf")
        for _ in range(3):
            t0 = time.perf_counter()
            for q, v, J in zip(qs, vs, Js):
                pin.impulseDynamics(model, data, q, v, J, E, 0.0)
            best = min(best, time.perf_counter() - t0)
        pin_id_rate = args.states / best

        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
            for q, v in zip(qs, vs):
                f.write(json.dumps({"q": q.tolist(), "qdot": v.tolist()}) + "\n")
            states = f.name
        cmd = [args.bench, "--urdf", path, "--free", "--states", states, "--e", str(E),
               "--benchmark_format=json", "--benchmark_min_time=0.5s"]
        for link, p in contacts:
            cmd += ["--contact", f"{link}:{p[0]},{p[1]},{p[2]}"]
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        os.unlink(states)
        res = {b["name"].replace("/real_time", ""): b for b in json.loads(out)["benchmarks"]}
        rate = lambda name: res[name]["items_per_second"]
        failed = res["model_eval+impact_projection/threads:1"].get("failed_states", 0)
        rows.append((label, model.nv, len(fids), rate("model_eval/threads:1"),
                     rate("model_eval+impact_projection/threads:1"),
                     rate("model_eval+impact_complementarity/threads:1"),
                     rate("model_eval+impact_projection/threads:all"), pin_rate, pin_id_rate, failed))

    print(f"pinocchio {pin.__version__} (Python API), {args.states} states per robot, e = {E}, "
          f"{os.cpu_count()} hardware threads\n")
    print("| robot | n | contacts | obliq eval | obliq eval + impact (projection) | obliq eval + impact "
          "(complementarity) | obliq eval + impact, all threads | Pinocchio Jacobians + impulseDynamics | "
          "Pinocchio impulseDynamics alone | speed-up (1 thread) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for label, n, m, ev, proj, comp, proj_all, pr, pir, failed in rows:
        print(f"| {label} | {n} | {m} | {ev:,.0f}/s | {proj:,.0f}/s | {comp:,.0f}/s | {proj_all:,.0f}/s | "
              f"{pr:,.0f}/s | {pir:,.0f}/s | {proj / pr:.1f}x |")
        if failed:
            print(f"WARNING: {label}: {failed:.0f} states failed in the obliq impact solve", file=sys.stderr)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Model evaluation + impact solve per state: obliq against Pinocchio in C++ (one thread).

For Solo-12, Go1, TALOS and G1 (example-robot-data), draws random states whose four contact points
all approach the ground, writes them and Pinocchio's model of the robot (built by Pinocchio's own
URDF parser, the contact frames c0..c3 added on the same links and points, saved as a text
archive), then runs bench_model_vs_pinocchio (bench/pinocchio/model_vs_pinocchio.cpp), which
times both libraries on the same states side by side in one process and checks that they give
the same post-impact velocities. Prints the README table (markdown) and, with --json, the raw
results.

Usage: model_vs_pinocchio.py BENCH_MODEL_VS_PINOCCHIO [--states N] [--rounds R] [--robots a,b]
                             [--inputs DIR] [--json]
--inputs DIR keeps the models and states there and prints each bench command (for
`perf record ... --profile obliq`).
"""
import argparse
import importlib.metadata
import json
import os
import platform
import subprocess
import sys
import tempfile

import numpy as np
import pinocchio as pin

# label, key, URDF (relative to example-robot-data's robots folder), contacts (link, point)
ROBOTS = [
    ("Solo-12 (quadruped)", "solo12", "solo_description/robots/solo12.urdf",
     [("FL_FOOT", (0, 0, 0)), ("FR_FOOT", (0, 0, 0)), ("HL_FOOT", (0, 0, 0)), ("HR_FOOT", (0, 0, 0))]),
    ("Go1 (quadruped)", "go1", "go1_description/urdf/go1.urdf",
     [("FL_foot", (0, 0, 0)), ("FR_foot", (0, 0, 0)), ("RL_foot", (0, 0, 0)), ("RR_foot", (0, 0, 0))]),
    ("TALOS (humanoid)", "talos", "talos_data/robots/talos_reduced.urdf",
     [("left_sole_link", (0.1, 0.05, 0)), ("left_sole_link", (-0.1, -0.05, 0)),
      ("right_sole_link", (0.1, -0.05, 0)), ("right_sole_link", (-0.1, 0.05, 0))]),
    ("G1 29-dof (humanoid)", "g1", "g1_description/urdf/g1_29dof_rev_1_0.urdf",
     [("left_ankle_roll_link", (0.12, 0.025, -0.03)), ("left_ankle_roll_link", (-0.05, -0.025, -0.03)),
      ("right_ankle_roll_link", (0.12, -0.025, -0.03)), ("right_ankle_roll_link", (-0.05, 0.025, -0.03))]),
]
E = 0.5


def robots_dir():
    return str(importlib.metadata.distribution("example-robot-data").locate_file(
        "cmeel.prefix/share/example-robot-data/robots"))


def write_inputs(path, contacts, count, rng, tmp, key):
    """Pinocchio's model with contact frames (text archive) and `count` approaching states."""
    model = pin.buildModelFromUrdf(path, pin.JointModelFreeFlyer())
    fids = []
    for k, (link, p) in enumerate(contacts):
        parent = model.getFrameId(link)
        f = model.frames[parent]
        fids.append(model.addFrame(pin.Frame(f"c{k}", f.parentJoint, parent,
                                             f.placement * pin.SE3(np.eye(3), np.array(p, float)),
                                             pin.FrameType.OP_FRAME)))
    data = model.createData()
    model_file = os.path.join(tmp, f"{key}.pinocchio.txt")
    model.saveToText(model_file)
    states_file = os.path.join(tmp, f"{key}.states.jsonl")
    with open(states_file, "w") as out:
        for _ in range(count):
            q = pin.randomConfiguration(model, -np.ones(model.nq), np.ones(model.nq))
            q[:3] = rng.normal(0, 0.3, 3)
            quat = rng.normal(0, 1, 4)
            q[3:7] = quat / np.linalg.norm(quat)
            v = rng.normal(0, 1, model.nv)
            pin.computeJointJacobians(model, data, q)
            pin.updateFramePlacements(model, data)
            J = np.array([pin.getFrameJacobian(model, data, f, pin.LOCAL_WORLD_ALIGNED)[2] for f in fids])
            # every contact point approaching the ground at 0.2..1 m/s
            v = v - np.linalg.pinv(J) @ (J @ v + rng.uniform(0.2, 1.0, len(fids)))
            out.write(json.dumps({"q": q.tolist(), "qdot": v.tolist()}) + "\n")
    return model_file, states_file


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bench")
    ap.add_argument("--states", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--robots", default=",".join(r[1] for r in ROBOTS))
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--inputs", help="keep the inputs in this folder and print the commands")
    args = ap.parse_args()
    wanted = args.robots.split(",")
    rng = np.random.default_rng(3)
    rows, failed = [], False
    with tempfile.TemporaryDirectory() as scratch:
        tmp = args.inputs or scratch
        os.makedirs(tmp, exist_ok=True)
        for label, key, rel, contacts in ROBOTS:
            if key not in wanted:
                continue
            path = os.path.join(robots_dir(), rel)
            model_file, states_file = write_inputs(path, contacts, args.states, rng, tmp, key)
            cmd = [args.bench, "--urdf", path, "--pinocchio-model", model_file, "--states", states_file,
                   "--e", str(E), "--rounds", str(args.rounds)]
            for link, p in contacts:
                cmd += ["--contact", f"{link}:{p[0]},{p[1]},{p[2]}"]
            if args.inputs:
                print(" ".join(cmd), file=sys.stderr)
            run = subprocess.run(cmd, capture_output=True, text=True)
            sys.stderr.write(run.stderr)
            if run.returncode not in (0, 1) or not run.stdout.strip():
                raise SystemExit(f"{key}: bench_model_vs_pinocchio failed ({run.returncode})")
            failed |= run.returncode != 0
            rows.append((label, json.loads(run.stdout.strip().splitlines()[-1])))

    print(f"Pinocchio {pin.__version__} (C++, header-only, same compiler and flags), {args.states} states "
          f"per robot, e = {E}, one thread, {platform.machine()} with {os.cpu_count()} hardware threads; "
          f"microseconds per state, best of {args.rounds} x 5 passes\n")
    print("| robot | n | contacts | obliq eval | obliq eval + impact | obliq eval + impact, dense M | "
          "Pinocchio eval | Pinocchio fk+crba+nle "
          "+ impulseDynamics | Pinocchio computeAllTerms + impulseDynamics | speed-up (obliq vs faster "
          "Pinocchio) | target 2x | same qdot_plus (worst rel. diff) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for label, r in rows:
        same = "yes" if r["velocity_mismatches"] == 0 and r["obliq_failed_states"] == 0 else "**NO**"
        print(f"| {label} | {r['nv']} | {r['contacts']} | {r['obliq_eval_us']:.2f} | "
              f"{r['obliq_eval_impact_us']:.2f} | {r['obliq_eval_impact_dense_us']:.2f} | {r['pinocchio_eval_us']:.2f} | "
              f"{r['pinocchio_fk_crba_nle_impulse_us']:.2f} | {r['pinocchio_allterms_impulse_us']:.2f} | "
              f"{r['speedup']:.2f}x | {'met' if r['speedup'] >= 2 else '**not met**'} | "
              f"{same} ({r['worst_velocity_rel_diff']:.1e}) |")
    if args.json:
        print(json.dumps({label: r for label, r in rows}))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

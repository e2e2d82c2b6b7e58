#!/usr/bin/env python3
"""Compare `obliq model` with Pinocchio on example-robot-data robots at random states.

Every URDF of the package that Pinocchio's parser loads (pinocchio.buildModelFromUrdf, with a
free flyer unless the robot is one of FIXED_BASE's arms, hands and pendulums) must load in obliq
with its default inertial checks (docs/model.md "Inertial checks"; warnings allowed, naming their
link), and at a few random states its M, h, contact rows, gaps, centre of mass and centroidal
momentum must match Pinocchio's (below). The curated robots below are checked in full.

For a quadruped (ANYmal C, Solo-12), a humanoid (TALOS) and two arms (UR5, Panda), at random
states, the scenario lines that `obliq model URDF --state FILE` writes must match Pinocchio to
1e-9 relative: M (crba), h (rnea at qdd = 0), the +z rows of the contact points' world velocity
Jacobians (getFrameJacobian, LOCAL_WORLD_ALIGNED), Adot qdot (getFrameClassicalAcceleration at
qdd = 0), the gaps, the centre of mass and the centroidal momentum (computeCentroidalMomentum).
Impacts: with all contact rows closed and approaching, `obliq impact` (projection law, global e)
on those lines must give Pinocchio's impulseDynamics (restitution e) post-impact velocity and
contact impulses; and `obliq model --impact`'s joint_impulses must match the spatial forces of
Pinocchio's RNEA over the velocity jump with the contact impulse as an external force.

Usage: pinocchio_compare.py OBLIQ_CLI [--states N] [--walk-states N]. Exit 77 (ctest SKIP) only when pinocchio
cannot be imported; a missing example-robot-data is a failure (CI installs both from PyPI).
"""
import argparse
import importlib.metadata
import json
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
    import pinocchio as pin
except ImportError as exc:  # the one reason to skip
    print(f"SKIP: pinocchio is not importable ({exc}); `pip install pin example-robot-data`")
    sys.exit(77)

TOL = 1e-9


def robots_dir():
    dist = importlib.metadata.distribution("example-robot-data")
    path = dist.locate_file("cmeel.prefix/share/example-robot-data/robots")
    if not os.path.isdir(path):
        raise SystemExit(f"FAIL: example-robot-data has no robots folder at {path}")
    return str(path)


# name, URDF path (relative), floating base, contacts (link, point in the link frame)
ROBOTS = [
    ("anymal", "anymal_c_simple_description/urdf/anymal.urdf", True,
     [("LF_FOOT", (0, 0, 0)), ("RF_FOOT", (0, 0, 0)), ("LH_FOOT", (0, 0, 0)), ("RH_FOOT", (0.01, -0.02, 0.03))]),
    ("solo12", "solo_description/robots/solo12.urdf", True,
     [("FL_FOOT", (0, 0, 0)), ("FR_FOOT", (0, 0, 0)), ("HL_FOOT", (0, 0, 0)), ("HR_FOOT", (0, 0, 0))]),
    ("talos", "talos_data/robots/talos_reduced.urdf", True,
     [("left_sole_link", (0.1, 0.05, 0)), ("left_sole_link", (-0.1, -0.05, 0)),
      ("right_sole_link", (0.1, -0.05, 0)), ("right_sole_link", (-0.1, 0.05, 0)),
      ("gripper_left_base_link", (0, 0, -0.05))]),
    ("ur5", "ur_description/urdf/ur5_robot.urdf", False,
     [("tool0", (0, 0, 0.02)), ("wrist_2_link", (0, 0, 0))]),
    ("panda", "panda_description/urdf/panda.urdf", False,
     [("panda_hand_tcp", (0, 0, 0)), ("panda_link5", (0, 0.05, 0))]),
]


# example-robot-data's fixed-base robots (folder or file, relative to its robots folder): arms,
# hands, pendulums, a finger. Every other robot of the package floats (legged robots, humanoids,
# aerial robots, mobile bases).
FIXED_BASE = ("allegro_hand_description/", "asr_twodof_description/", "baxter_description/",
              "double_pendulum_description/", "finger_edu_description/", "kinova_description/",
              "panda_description/", "so_arm_description/", "talos_data/robots/talos_left_arm.urdf",
              "ur_description/", "xarm_description/", "z1_description/")


def build(path, free):
    return pin.buildModelFromUrdf(path, pin.JointModelFreeFlyer()) if free else pin.buildModelFromUrdf(path)


def add_contact_frames(model, contacts):
    ids = []
    for k, (link, point) in enumerate(contacts):
        parent = model.getFrameId(link, pin.FrameType.BODY)
        if parent >= model.nframes:
            raise SystemExit(f"FAIL: no frame {link}")
        f = model.frames[parent]
        placement = f.placement * pin.SE3(np.eye(3), np.array(point, dtype=float))
        ids.append(model.addFrame(pin.Frame(f"contact_{k}", f.parentJoint, parent, placement, pin.FrameType.OP_FRAME)))
    return ids


def random_state(model, rng):
    """obliq's q (one angle per revolute joint) and Pinocchio's q (cos, sin for unbounded ones)."""
    q_obliq, q_pin = [], []
    for j in model.joints[1:]:
        name = j.shortname()
        if name == "JointModelFreeFlyer":
            x = rng.normal(0, 0.5, 3)
            quat = rng.normal(0, 1, 4)
            quat /= np.linalg.norm(quat)
            q_obliq += list(x) + list(quat)
            q_pin += list(x) + list(quat)
        elif j.nq == 2 and j.nv == 1:  # unbounded revolute (JointModelRUBX, ...): (cos, sin)
            a = rng.uniform(-np.pi, np.pi)
            q_obliq.append(a)
            q_pin += [np.cos(a), np.sin(a)]
        elif j.nq == 1:
            a = rng.uniform(-1.5, 1.5)
            q_obliq.append(a)
            q_pin.append(a)
        else:
            raise SystemExit(f"FAIL: joint type {name} not handled by this script")
    v = rng.normal(0, 1, model.nv)
    return np.array(q_obliq), np.array(q_pin), v


def run(cmd, stdin=None):
    p = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    if p.returncode not in (0, 3):
        raise SystemExit(f"FAIL: {' '.join(cmd)} exited {p.returncode}: {p.stderr}")
    return [json.loads(line) for line in p.stdout.splitlines() if line.strip()]


class Report:
    def __init__(self):
        self.failures = 0
        self.checks = 0
        self.worst = {}

    def compare(self, what, got, want):
        got, want = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
        self.checks += 1
        if got.shape != want.shape:
            print(f"  FAIL {what}: shape {got.shape} vs {want.shape}")
            self.failures += 1
            return
        err = np.linalg.norm(got - want) / max(np.linalg.norm(want), 1e-12)
        key = what.split(" ")[0]
        self.worst[key] = max(self.worst.get(key, 0.0), err)
        if not err <= TOL:
            print(f"  FAIL {what}: relative error {err:.3e} > {TOL}")
            self.failures += 1


def contact_args(contacts):
    out = []
    for link, p in contacts:
        out += ["--contact", f"{link}:{float(p[0])!r},{float(p[1])!r},{float(p[2])!r}"]
    return out


def state_file_of(name, states):
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        for k, (qo, _, v) in enumerate(states):
            f.write(json.dumps({"id": f"{name}-{k}", "q": qo.tolist(), "qdot": v.tolist()}) + "\n")
        return f.name


def compare_lines(name, model, data, frame_ids, states, lines, rep):
    """The scenario lines of `obliq model` against Pinocchio, state by state. Returns the
    contact rows per state (None where the line failed), or None when the joint order differs."""
    names = list(model.names)[1:]
    if lines[0]["joint_names"] != names:
        print(f"  FAIL {name}: joint order differs from Pinocchio's\n    obliq {lines[0]['joint_names']}\n    pin   {names}")
        rep.failures += 1
        return None
    rows = []
    for k, ((qo, qp, v), line) in enumerate(zip(states, lines)):
        if line["status"] != "ok":
            print(f"  FAIL {name}-{k}: {line['status']}")
            rep.failures += 1
            rows.append(None)
            continue
        M = pin.crba(model, data, qp)
        M = np.triu(M) + np.triu(M, 1).T
        rep.compare(f"M {name}-{k}", line["M"], M)
        rep.compare(f"h {name}-{k}", line["h"], pin.rnea(model, data, qp, v, np.zeros(model.nv)))
        pin.forwardKinematics(model, data, qp, v, np.zeros(model.nv))
        pin.updateFramePlacements(model, data)
        pin.computeJointJacobians(model, data, qp)
        J = np.array([pin.getFrameJacobian(model, data, fid, pin.LOCAL_WORLD_ALIGNED)[2] for fid in frame_ids])
        acc = [pin.getFrameClassicalAcceleration(model, data, fid, pin.LOCAL_WORLD_ALIGNED).linear[2] for fid in frame_ids]
        phi = [data.oMf[fid].translation[2] for fid in frame_ids]
        rep.compare(f"A_u {name}-{k}", line["A_u"], J)
        rep.compare(f"Adot_qdot {name}-{k}", line["Adot_qdot"], acc)
        rep.compare(f"phi_u {name}-{k}", line["phi_u"], phi)
        rep.compare(f"com {name}-{k}", line["com"], pin.centerOfMass(model, data, qp))
        pin.computeCentroidalMomentum(model, data, qp, v)
        rep.compare(f"momentum {name}-{k}", line["momentum"], data.hg.vector)
        rows.append(J)
    return rows


def check_robot(cli, root, name, rel, free, contacts, nstates, rng, rep):
    path = os.path.join(root, rel)
    model = build(path, free)
    frame_ids = add_contact_frames(model, contacts)
    data = model.createData()
    states = [random_state(model, rng) for _ in range(nstates)]
    state_file = state_file_of(name, states)
    base = ["--base", "free"] if free else []
    lines = run([cli, "model", path, "--state", state_file] + base + contact_args(contacts))
    os.unlink(state_file)
    assert len(lines) == nstates, lines[:1]
    rows = compare_lines(name, model, data, frame_ids, states, lines, rep)
    if rows is None:
        return
    impact_lines = []
    for (qo, qp, v), line, J in zip(states, lines, rows):
        if J is None:
            continue
        # Impact: every row closed and approaching; v shifted along J's row space so J v = -c.
        c = rng.uniform(0.2, 1.0, len(frame_ids))
        v_imp = v - np.linalg.pinv(J) @ (J @ v + c)
        e = float(rng.choice([0.0, 0.3, 1.0]))
        scen = dict(line)
        scen.update(qdot=v_imp.tolist(), phi_u=[0.0] * len(frame_ids), law="projection", e=[e] * len(frame_ids))
        dq_after = pin.impulseDynamics(model, data, qp, v_imp, J, e, 0.0)
        impact_lines.append((scen, dq_after.copy(), data.impulse_c.copy()))
    if impact_lines:
        text = "".join(json.dumps(s) + "\n" for s, _, _ in impact_lines)
        results = run([cli, "impact", "-"], stdin=text)
        for (s, dq, imp), r in zip(impact_lines, results):
            if r["status"] != "ok":
                print(f"  FAIL impact {s['id']}: {r['status']}")
                rep.failures += 1
                continue
            rep.compare(f"impact_qdot_plus {s['id']}", r["qdot_plus"], dq)
            rep.compare(f"impact_lambda {s['id']}", r["lambda"], imp)

    # Joint impulses: one contact, the ground moved to its height so that it is closed.
    qo, qp, v = states[0]
    link, point = contacts[0]
    fid = frame_ids[0]
    pin.forwardKinematics(model, data, qp)
    pin.updateFramePlacements(model, data)
    pin.computeJointJacobians(model, data, qp)
    Jc = pin.getFrameJacobian(model, data, fid, pin.LOCAL_WORLD_ALIGNED)[2:3]
    v_imp = v - np.linalg.pinv(Jc) @ (Jc @ v + 0.5)
    ground = data.oMf[fid].translation[2]
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        f.write(json.dumps({"id": "ji", "q": qo.tolist(), "qdot": v_imp.tolist()}) + "\n")
        state_file = f.name
    out = run([cli, "model", path, "--state", state_file, "--ground", repr(float(ground)), "--impact", "--law", "projection",
               "--e", "0.5"] + base + contact_args([(link, point)]))[0]
    os.unlink(state_file)
    if out["status"] != "ok":
        print(f"  FAIL joint impulses {name}: {out['status']}")
        rep.failures += 1
        return
    dq = pin.impulseDynamics(model, data, qp, v_imp, Jc, 0.5, 0.0) - v_imp
    lam = data.impulse_c[0]
    rep.compare(f"impact_lambda {name}-ji", out["lambda"], [lam])
    # RNEA over the jump: zero velocity, no gravity, acceleration = jump, contact impulse external.
    g = model.gravity.linear.copy()
    model.gravity.linear[:] = 0
    fext = [pin.Force.Zero() for _ in range(model.njoints)]
    jf = model.frames[fid].parentJoint
    oMj = data.oMi[jf]
    p_world = data.oMf[fid].translation
    F_world = np.array([0, 0, lam])
    # the impulse as a force at the joint origin, in the joint's local frame
    fext[jf] = pin.Force(oMj.rotation.T @ F_world, oMj.rotation.T @ np.cross(p_world - oMj.translation, F_world))
    pin.rnea(model, data, qp, np.zeros(model.nv), dq, fext)
    model.gravity.linear[:] = g
    want = []
    for i in range(1, model.njoints):
        R = data.oMi[i].rotation
        want.append(np.concatenate([R @ data.f[i].linear, R @ data.f[i].angular]))
    rep.compare(f"joint_impulses {name}", out["joint_impulses"], want)


def walk_contacts(model):
    """Two contact points for the walk: on the last two links moved by a joint (leaves, in
    depth-first order), one off the link origin."""
    links = [f.name for f in model.frames if f.type == pin.FrameType.BODY and f.parentJoint > 0]
    links = list(dict.fromkeys(reversed(links)))[:2]
    return [(link, (0.01, -0.02, 0.03) if k == 0 else (0, 0, 0)) for k, link in enumerate(links)]


def walk_package(cli, root, nstates, rng, rep):
    """Every URDF Pinocchio loads must load in obliq by default and match Pinocchio."""
    paths = sorted(os.path.relpath(os.path.join(d, f), root) for d, _, fs in os.walk(root) for f in fs
                   if f.endswith(".urdf"))
    pin_loads = obliq_loads = warned = 0
    for rel in paths:
        path = os.path.join(root, rel)
        free = not rel.startswith(FIXED_BASE)
        try:
            model = build(path, free)
        except Exception as exc:  # Pinocchio's parser refuses it: not a file obliq must load
            print(f"  {rel}: Pinocchio does not load it ({str(exc).splitlines()[0][:80]})")
            continue
        pin_loads += 1
        contacts = walk_contacts(model)
        frame_ids = add_contact_frames(model, contacts)
        data = model.createData()
        states = [random_state(model, rng) for _ in range(nstates)]
        state_file = state_file_of(rel, states)
        base = ["--base", "free"] if free else []
        p = subprocess.run([cli, "model", path, "--state", state_file] + base + contact_args(contacts),
                           capture_output=True, text=True)
        os.unlink(state_file)
        err = [line for line in p.stderr.splitlines() if line.strip()]
        if p.returncode not in (0, 3):
            print(f"  FAIL {rel}: obliq refuses what Pinocchio loads (exit {p.returncode}): {p.stderr.strip()}")
            rep.failures += 1
            continue
        obliq_loads += 1
        noise = [line for line in err if not (line.startswith("obliq model: warning: URDF '") and "link '" in line)]
        if noise:
            print(f"  FAIL {rel}: standard error holds more than warnings naming a link: {noise[:2]}")
            rep.failures += 1
        if err:
            warned += 1
        lines = [json.loads(line) for line in p.stdout.splitlines() if line.strip()]
        if len(lines) != nstates:
            print(f"  FAIL {rel}: {len(lines)} lines for {nstates} states")
            rep.failures += 1
            continue
        before = rep.failures
        compare_lines(rel, model, data, frame_ids, states, lines, rep)
        print(f"  {rel}: {'free' if free else 'fixed'} base, nv {model.nv}, {len(err)} warnings,"
              f" {'ok' if rep.failures == before else 'FAILED'}")
    print(f"example-robot-data: {len(paths)} URDFs, Pinocchio loads {pin_loads}, obliq loads {obliq_loads}"
          f" by default ({warned} with warnings)")
    return pin_loads


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cli")
    ap.add_argument("--states", type=int, default=6)
    ap.add_argument("--walk-states", type=int, default=4, help="states per robot in the package walk")
    args = ap.parse_args()
    root = robots_dir()
    rng = np.random.default_rng(20240517)
    rep = Report()
    print(f"pinocchio {pin.__version__}, example-robot-data {importlib.metadata.version('example-robot-data')}")
    for name, rel, free, contacts in ROBOTS:
        before = rep.failures
        check_robot(args.cli, root, name, rel, free, contacts, args.states, rng, rep)
        print(f"{name}: {'ok' if rep.failures == before else 'FAILED'}")
    print("every URDF of example-robot-data that Pinocchio loads:")
    if walk_package(args.cli, root, args.walk_states, rng, rep) == 0:
        print("  FAIL: Pinocchio loads none of the package's URDFs")
        rep.failures += 1
    print("worst relative errors: " + ", ".join(f"{k} {v:.1e}" for k, v in sorted(rep.worst.items())))
    print(f"{rep.checks - rep.failures} passed, {rep.failures} failed")
    return 1 if rep.failures else 0


if __name__ == "__main__":
    sys.exit(main())

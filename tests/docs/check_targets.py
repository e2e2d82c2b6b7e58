#!/usr/bin/env python3
"""Checks bench/run_all_targets.py, the reader of a run_all.sh log's performance targets:
  1. on the newest kept run (bench/results/run_all-*.md with a Targets section), it prints
     exactly the Targets section that run ended with;
  2. on a synthetic log whose every figure is at a target's threshold, every target reads met,
     and moving any one figure past its threshold turns that target, and only it, to not met."""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
READER = os.path.join(ROOT, "bench", "run_all_targets.py")
RESULTS = os.path.join(ROOT, "bench", "results")


def newest_kept_run():
    runs = sorted(f for f in os.listdir(RESULTS) if re.fullmatch(r"run_all-\d{4}-\d\d-\d\d.*\.md", f))
    runs = [f for f in runs if "\n## Targets" in open(os.path.join(RESULTS, f)).read()]
    return os.path.join(RESULTS, runs[-1])


def read(text):
    with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as f:
        f.write(text)
    try:
        return subprocess.run([sys.executable, READER, f.name], capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(f.name)


def verdicts(out):
    return [line.strip().strip("|").split("|")[-1].strip() for line in out.splitlines()
            if line.startswith("| ") and not line.startswith("| target")]


# Every figure exactly at its target (ratios 2x, 3x, 5x, sweep 1.1x, certificate 10 %).
SYNTHETIC = """\
## Core vs reference

| kind | law | n | m | reference | core 1 thread | core all threads | core float 1 thread | core 1t / reference | all / 1t |
|---|---|---|---|---|---|---|---|---|---|
| impact | projection | 12 | 4 | 1 | 5 | 10 | 5 | {core_t}x | 2.00x |
| dynamics | projection | 12 | 4 | 1 | 5 | 10 | 5 | 5.0x | 2.00x |

| kind | law | n | m | reference instr/scenario | core instr/scenario (1 thread) | reference / core | certificate share of the core |
|---|---|---|---|---|---|---|---|
| impact | projection | 12 | 4 | 500 | 100 | 5.0x | {cert} % |
| dynamics | projection | 12 | 4 | 500 | 100 | 5.0x | 10.0 % |

## LCP vs Siconos

| W | m | Siconos Lemke us | obliq Lemke us | obliq / Siconos speed | success (Siconos, obliq) |
|---|---|---|---|---|---|
| full rank | 4 | 3.0 | 1.0 | 3.00x | 10/200, {lcp_ok}/200 |
| rank-deficient | 24 | 3.0 | 1.0 | 3.00x | 200/200, 200/200 |

| m | Siconos lemke instr/problem | obliq lemke instr/problem | Siconos / obliq |
|---|---|---|---|
| 4 | 300 | 100 | 3.00x |

## Friction vs Siconos fc3d

| contacts | obliq cone (us) | obliq pyramid k=8 (us) | Siconos fc3d_nsgs (us) | Siconos NSN_AC (us) | nsgs / cone | certified | worst |
|---|---|---|---|---|---|---|---|
| 1 | 1.0 | 2.0 | 3.0 | 4.0 | {fric_t}x | all | 0 |

| contacts | Siconos fc3d_nsgs instr/problem | obliq cone instr/problem | Siconos / obliq |
|---|---|---|---|
| 1 | 300 | 100 | 3.00x |

## Model evaluation + impact vs Pinocchio

| robot | n | contacts | obliq eval | obliq eval + impact | obliq eval + impact, dense M | Pinocchio eval | Pinocchio fk+crba+nle + impulseDynamics | Pinocchio computeAllTerms + impulseDynamics | speed-up (obliq vs faster Pinocchio) | target 2x | same |
|---|---|---|---|---|---|---|---|---|---|---|---|
| Solo-12 (quadruped) | 18 | 4 | 1 | 1 | 1 | 2 | 2 | 2 | 2.00x | met | yes |

| robot | nv | Pinocchio instr/state | obliq instr/state | obliq, dense M, instr/state | Pinocchio / obliq |
|---|---|---|---|---|---|
| solo12 | 18 | 200 | 100 | 100 | {pin_i}x |

## Sweep throughput

BM_Bare/study:0/threads:1/min_time:1.000/real_time 110.000k/s samples/s (real time); main-thread CPU 9.09 us/sample
== foot_landing (20000 samples)
obliq sweep --threads 1: {sweep} samples/s

| study | bare core instr/sample | sweep instr/sample | sweep / bare |
|---|---|---|---|
| foot_landing | 100 | 110 | 1.10x |
"""
AT = dict(core_t="5.0", cert="10.0", lcp_ok="200", fric_t="3.00", pin_i="2.00", sweep="100000")
PAST = {"core_t": ("4.9", 2), "cert": ("10.1", 5), "lcp_ok": ("199", 1), "fric_t": ("2.99", 3),
        "pin_i": ("1.99", 0), "sweep": ("99000", 4)}


def main():
    kept_path = newest_kept_run()
    kept = open(kept_path).read()
    section = kept[kept.index("## Targets"):].split("\nProvenance:")[0].strip()
    log = kept[:kept.index("## Targets")]
    got = read(log).strip()
    if got != section:
        print(f"run_all_targets.py on {kept_path} does not print the Targets section kept there:\n{got}")
        return 1
    base = verdicts(read(SYNTHETIC.format(**AT)))
    if base != ["met"] * 6:
        print(f"every figure at its threshold should read met: {base}")
        return 1
    for key, (value, row) in PAST.items():
        v = verdicts(read(SYNTHETIC.format(**{**AT, key: value})))
        want = ["met"] * 6
        want[row] = "**not met**"
        if v != want:
            print(f"{key} = {value} should fail target {row} alone: {v}")
            return 1
    print("run_all_targets.py: the kept run's section reproduced; thresholds checked")
    return 0


if __name__ == "__main__":
    sys.exit(main())

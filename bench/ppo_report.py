#!/usr/bin/env python3
"""Prints the markdown of PPO training runs (examples/python/train_ppo.py) from their eval.json
and curve.csv: one table of the final evaluations, one of the velocity tasks' tracking, one of each
run's learning curve.

    python3 bench/ppo_report.py RUN_DIR [RUN_DIR ...] > bench/results/ppo-DATE.md

Runs written before train_ppo.py had --library (2026-12-04) were stable-baselines3's."""
import csv
import json
import sys
from pathlib import Path

LIBRARIES = {"sb3": "stable-baselines3", "rsl_rl": "rsl_rl"}


def fmt(x, spec):
    return "-" if x is None else format(x, spec)


def pct(x):
    return "-" if x is None else f"{100 * x:.1f} %"


def main(dirs):
    runs = [(Path(d), json.loads((Path(d) / "eval.json").read_text())) for d in dirs]
    print("# PPO from scratch on obliq's environments\n")
    print("Command: `python3 examples/python/train_ppo.py --task TASK --library LIBRARY --minutes M --out DIR`; "
          "this file: `python3 bench/ppo_report.py DIR...`.\n")
    print("## Final evaluation\n")
    print("| run | task | library | env steps | wall (min) | copies | fresh episodes | trained: mean return "
          "| trained: success | random: mean return | random: success | planar error (m/s) | yaw error (rad/s) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for d, r in runs:
        print(f"| {d.name} | {r['task']} | {LIBRARIES[r.get('library', 'sb3')]} | {r['env_steps']:,} "
              f"| {r['wall_seconds'] / 60:.1f} | {r['envs']} | {r['eval_episodes']} "
              f"| {r['trained_return']:.1f} | {100 * r['trained_success']:.1f} % | {r['random_return']:.1f} "
              f"| {100 * r['random_success']:.1f} % | {fmt(r.get('planar_error_mean'), '.3f')} "
              f"| {fmt(r.get('yaw_error_mean'), '.3f')} |")
    print("\nSuccess: stand, episodes held to truncation; velocity, episodes held whose mean tracking error "
          "over the second half is within 0.1 m/s (planar) and 0.2 rad/s (yaw). The errors: means over the "
          "episodes held to truncation.")
    tracked = [(d, r) for d, r in runs if "held" in r]
    if tracked:
        print("\n## Velocity tracking\n")
        print("Per episode: the mean over its second half of |v_xy - c_xy| (planar) and |w_z - c_wz| (yaw), "
              "trunk frame; commands uniform in vx [-0.5, 0.5] m/s, vy [-0.25, 0.25] m/s, yaw [-0.5, 0.5] rad/s.\n")
        print("| run | held to truncation | planar: mean | planar: median | planar within 0.1 m/s "
              "| yaw: mean | yaw: median | yaw within 0.2 rad/s |")
        print("|---|---|---|---|---|---|---|---|")
        for d, r in tracked:
            print(f"| {d.name} | {100 * r['held']:.1f} % | {fmt(r.get('planar_error_mean'), '.3f')} "
                  f"| {fmt(r.get('planar_error_median'), '.3f')} "
                  f"| {pct(r.get('planar_within_0_1'))} "
                  f"| {fmt(r.get('yaw_error_mean'), '.3f')} | {fmt(r.get('yaw_error_median'), '.3f')} "
                  f"| {pct(r.get('yaw_within_0_2'))} |")
    for d, r in runs:
        print(f"\n## Learning curve: {r['task']} ({d.name})\n")
        print("| env steps | wall (s) | evaluation return | success |")
        print("|---|---|---|---|")
        with open(d / "curve.csv") as f:
            for row in csv.DictReader(f):
                print(f"| {int(row['steps']):,} | {float(row['seconds']):.0f} | {float(row['eval_return']):.1f} "
                      f"| {100 * float(row['success']):.1f} % |")


if __name__ == "__main__":
    main(sys.argv[1:])

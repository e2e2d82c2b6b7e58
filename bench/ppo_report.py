#!/usr/bin/env python3
"""Prints the markdown of PPO training runs (examples/python/train_ppo.py) from their eval.json
and curve.csv: one table of the final evaluations, one of each run's learning curve.

    python3 bench/ppo_report.py RUN_DIR [RUN_DIR ...] > bench/results/ppo-DATE.md"""
import csv
import json
import sys
from pathlib import Path


def main(dirs):
    runs = [(Path(d), json.loads((Path(d) / "eval.json").read_text())) for d in dirs]
    print("# PPO (stable-baselines3) from scratch on obliq's environments\n")
    print("Command: `python3 examples/python/train_ppo.py --task TASK --minutes M --out DIR`; "
          "this file: `python3 bench/ppo_report.py DIR...`.\n")
    print("## Final evaluation\n")
    print("| task | env steps | wall (min) | copies | fresh episodes | trained: mean return | trained: success "
          "| random: mean return | random: success | planar error (m/s) | yaw error (rad/s) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for _, r in runs:
        pe, ye = r.get("planar_error_mean"), r.get("yaw_error_mean")
        print(f"| {r['task']} | {r['env_steps']:,} | {r['wall_seconds'] / 60:.1f} | {r['envs']} | {r['eval_episodes']} "
              f"| {r['trained_return']:.1f} | {100 * r['trained_success']:.1f} % | {r['random_return']:.1f} "
              f"| {100 * r['random_success']:.1f} % | {'-' if pe is None else f'{pe:.3f}'} "
              f"| {'-' if ye is None else f'{ye:.3f}'} |")
    print("\nSuccess: stand, episodes held to truncation; velocity, episodes held whose mean tracking error "
          "over the second half is within 0.1 m/s (planar) and 0.2 rad/s (yaw).")
    for d, r in runs:
        print(f"\n## Learning curve: {r['task']}\n")
        print("| env steps | wall (s) | evaluation return | success |")
        print("|---|---|---|---|")
        with open(d / "curve.csv") as f:
            for row in csv.DictReader(f):
                print(f"| {int(row['steps']):,} | {float(row['seconds']):.0f} | {float(row['eval_return']):.1f} "
                      f"| {100 * float(row['success']):.1f} % |")


if __name__ == "__main__":
    main(sys.argv[1:])

"""The Python examples the README shows (examples/python/) run with the installed package and
exit 0; quadruped_random.py on a few copies and steps so that it takes a second."""
import os
import subprocess
import sys

import pytest

from conftest import REPO

EXAMPLES = REPO / "examples" / "python"


@pytest.mark.parametrize("script, args", [
    ("restitution_sweep.py", []),
    ("quadruped_random.py", ["--envs", "8", "--steps", "5", "--threads", "1"]),
])
def test_example_runs(script, args):
    r = subprocess.run([sys.executable, str(EXAMPLES / script), *args], capture_output=True, text=True,
                       timeout=120, env=dict(os.environ))
    assert r.returncode == 0, f"{script} exited {r.returncode}:\n{r.stdout}\n{r.stderr}"
    assert r.stdout.strip(), f"{script} printed nothing"


@pytest.mark.parametrize("library, task", [("rsl_rl", "velocity"), ("sb3", "stand"), ("rsl_rl", "solo12-velocity")])
def test_train_ppo_smoke(library, task, tmp_path):
    """train_ppo.py end to end on a few copies for a few seconds: curve.csv, eval.json (the
    fields bench/ppo_report.py reads) and curve.png written. Skipped without the library."""
    pytest.importorskip({"rsl_rl": "rsl_rl", "sb3": "stable_baselines3"}[library],
                        reason=f"{library} not installed: train_ppo.py's smoke needs it (and torch)")
    pytest.importorskip("matplotlib", reason="matplotlib not installed: train_ppo.py plots the curve")
    args = ["--task", task, "--library", library, "--minutes", "0.05", "--envs", "8", "--every", "192",
            "--eval-episodes", "4", "--curve-episodes", "2", "--out", str(tmp_path)]
    r = subprocess.run([sys.executable, str(EXAMPLES / "train_ppo.py"), *args], capture_output=True, text=True,
                       timeout=300, env=dict(os.environ))
    assert r.returncode == 0, f"train_ppo.py exited {r.returncode}:\n{r.stdout}\n{r.stderr}"
    import json
    result = json.loads((tmp_path / "eval.json").read_text())
    assert result["library"] == library and result["task"] == task and result["eval_episodes"] == 4
    assert result["env_steps"] > 0 and 0 <= result["trained_success"] <= 1
    rows = (tmp_path / "curve.csv").read_text().splitlines()
    assert rows[0].startswith("steps,seconds,train_return,eval_return,success") and len(rows) >= 2
    assert (tmp_path / "curve.png").stat().st_size > 0

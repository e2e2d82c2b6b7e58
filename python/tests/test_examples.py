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

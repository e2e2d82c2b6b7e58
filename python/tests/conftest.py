"""Shared fixtures: the C++ command line (for the cross-checks) and a random generator."""
import json
import os
import pathlib
import subprocess

import numpy as np
import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def cli_path():
    """The command line: $OBLIQ_CLI, else build/obliq. CI sets OBLIQ_CLI, and then a missing
    binary is a failure; without it the cross-checks skip when build/obliq does not exist."""
    path = os.environ.get("OBLIQ_CLI")
    if path is None:
        path = REPO / "build" / "obliq"
        if not path.exists():
            pytest.skip("no build/obliq (set OBLIQ_CLI to the command line's path)")
    path = pathlib.Path(path)
    assert path.exists(), f"OBLIQ_CLI={path} does not exist"
    return path


@pytest.fixture(scope="session")
def cli(cli_path):
    """Runs `obliq ARGS` on JSON Lines text and returns the parsed output lines."""
    path = cli_path

    def run(args, text):
        r = subprocess.run([str(path), *args], input=text, capture_output=True, text=True, timeout=120)
        assert r.returncode in (0, 3), f"obliq {' '.join(args)} exited {r.returncode}: {r.stderr}"
        return [json.loads(line) for line in r.stdout.splitlines() if line.strip()]

    return run


@pytest.fixture
def rng():
    return np.random.default_rng(20261203)


def jsonl(objs):
    return "".join(json.dumps(o) + "\n" for o in objs)


class DLPackOnly:
    """A foreign array that only speaks DLPack (as a torch or jax CPU tensor does)."""

    def __init__(self, a):
        self._a = a

    def __dlpack__(self, **kw):
        return self._a.__dlpack__(**kw)

    def __dlpack_device__(self):
        return self._a.__dlpack_device__()

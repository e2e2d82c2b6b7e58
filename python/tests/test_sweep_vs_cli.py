"""obliq.sweep gives what `obliq sweep` writes for the same study: the bundled example studies
(fewer samples), impact and trajectory samples, with and without friction: the summary (all but
`run`, which holds wall time) and every per-sample row equal, number for number, and out= writes
the same summary.json and rows.csv."""
import csv
import json
import math
import subprocess

import numpy as np
import pytest

import obliq
from conftest import REPO


def example(name, samples, rows, **changes):
    study = json.loads((REPO / "examples" / name).read_text())
    study["samples"] = samples
    study.setdefault("collect", {})["rows"] = rows
    study["collect"]["plots"] = False
    study.update(changes)
    return study


STUDIES = {
    "rocking_block": example("rocking_block.json", 1500, 400),  # impact samples, a planar model
    "bouncing_ball": example("bouncing_ball.json", 120, 120),  # trajectory samples (event-driven)
    "quadruped_friction": example("quadruped_touchdown.json", 300, 300,  # with friction: the frictional core
                                  friction={"dist": "uniform", "low": 0.0, "high": 1.0}),
}


def run_cli(cli_path, study, folder, *args):
    path = folder / "study.json"
    path.write_text(json.dumps(study))
    out = folder / "cli"
    r = subprocess.run([str(cli_path), "sweep", str(path), "-o", str(out), "--no-plots", "--quiet", *args],
                       capture_output=True, text=True, timeout=300)
    return r, out


def read_rows_csv(path):
    with open(path, newline="") as f:
        table = list(csv.reader(f))
    header, body = table[0], table[1:]
    cols = {name: [row[k] for row in body] for k, name in enumerate(header)}
    return header, cols


@pytest.mark.parametrize("name", sorted(STUDIES))
def test_sweep_equals_cli(cli_path, tmp_path, name):
    study = STUDIES[name]
    r, out = run_cli(cli_path, study, tmp_path, "--threads", "2", "--chunk", "256")
    assert r.returncode == 0, r.stderr
    expected = json.loads((out / "summary.json").read_text())
    got = obliq.sweep(study, threads=1)
    assert set(got.summary) == set(expected)
    assert got.summary["run"]["ranks"] == 1 and got.summary["run"]["threads"] == 1
    assert {k: v for k, v in got.summary.items() if k != "run"} == {k: v for k, v in expected.items() if k != "run"}
    assert got.summary["samples_done"] == study["samples"]

    header, cols = read_rows_csv(out / "rows.csv")
    assert list(got.rows) == ["sample", "status", "status_code"] + header[2:]
    rows = study["collect"]["rows"]
    np.testing.assert_array_equal(got.rows["sample"], np.arange(rows, dtype=np.uint64))
    np.testing.assert_array_equal(got.rows["sample"], np.array(cols["sample"], dtype=np.uint64))
    assert got.rows["status"].tolist() == cols["status"]
    for code, reason in zip(got.rows["status_code"], got.rows["status"]):
        assert reason == obliq.status_reason(int(code)) or reason.startswith("non-finite result")
    for c in header[2:]:
        want = np.array([float(x) if x else math.nan for x in cols[c]])
        np.testing.assert_array_equal(got.rows[c], want, err_msg=c)
        assert got.rows[c].dtype == np.float64 and got.units[c] is not None
    assert (got.rows["status_code"] == 0).sum() > rows // 2
    if name == "quadruped_friction":
        assert any(c.startswith("tangential_impulse.") for c in header)
        assert np.nanmax(got.rows["tangential_impulse.FL_foot"]) > 0


def test_sweep_of_a_file_writes_what_the_cli_writes(cli_path, tmp_path):
    """A study file, out= a folder, 2 threads and another chunk: the same summary.json (but run)
    and the same rows.csv, byte for byte; nothing but those files."""
    study = STUDIES["rocking_block"]
    r, out = run_cli(cli_path, study, tmp_path)
    assert r.returncode == 0, r.stderr
    mine = tmp_path / "py"
    got = obliq.sweep(tmp_path / "study.json", out=mine, threads=2, chunk=100)
    # rows.h5 too where the module was built with HDF5 (pyproject.toml builds it without)
    assert got.files[:2] == [str(mine / "summary.json"), str(mine / "rows.csv")]
    assert got.files[2:] in ([], [str(mine / "rows.h5")])
    assert sorted(str(p) for p in mine.iterdir()) == sorted(got.files)
    assert (mine / "rows.csv").read_bytes() == (out / "rows.csv").read_bytes()
    a, b = (json.loads((d / "summary.json").read_text()) for d in (mine, out))
    assert a.pop("run")["chunk"] == 100 and b.pop("run")["chunk"] == 8192
    assert a == b
    assert json.loads((mine / "summary.json").read_text()) == got.summary


def test_sweep_writes_nothing_unless_asked_and_takes_rows(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    study = example("cradle5.json", 300, 50)
    got = obliq.sweep(study, rows=7)
    assert list(tmp_path.iterdir()) == [] and got.files == []
    assert len(got.rows["sample"]) == 7 and all(len(v) == 7 for v in got.rows.values())
    assert got.summary["samples_done"] == 300
    none = obliq.sweep(study, rows=0)
    assert len(none.rows["e.ball_1_2"]) == 0
    assert {k: v for k, v in none.summary.items() if k != "run"} == \
        {k: v for k, v in got.summary.items() if k != "run"}


def test_sweep_errors_name_the_key_as_the_cli_does(cli_path, tmp_path):
    study = example("rocking_block.json", 100, 0)
    study["restitution"] = {"dist": "uniform", "low": 0.0, "hihg": 0.6}
    r, _ = run_cli(cli_path, study, tmp_path)
    assert r.returncode == 2
    with pytest.raises(ValueError) as err:
        obliq.sweep(study)
    assert r.stderr.strip() == "obliq sweep: " + str(err.value)
    with pytest.raises(ValueError, match="finite"):
        obliq.sweep(dict(study, seed=math.nan))
    with pytest.raises(ValueError, match="cannot read"):
        obliq.sweep(tmp_path / "missing.json")
    with pytest.raises(TypeError):
        obliq.sweep(["not", "a", "study"])
    with pytest.raises(ValueError, match="threads"):
        obliq.sweep(example("rocking_block.json", 10, 0), threads=-1)
    path = tmp_path / "rows.csv"
    path.write_text(json.dumps(example("rocking_block.json", 10, 5)))
    with pytest.raises(ValueError, match="would be overwritten"):
        obliq.sweep(path, out=tmp_path)

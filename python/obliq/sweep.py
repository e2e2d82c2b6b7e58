"""Monte Carlo sweeps in this process: obliq.sweep(study) runs the sweep library that `obliq sweep`
runs (docs/sweep.md) and returns its summary and per-sample rows as arrays."""
import json
import os
from dataclasses import dataclass, field

import numpy as np

from . import _obliq


@dataclass
class SweepResult:
    """summary: the dict summary.json holds (every statistic, the study, seed, version; "run":
    wall time, threads, chunk, ranks). rows: the per-sample rows of samples [0, rows) as rows.csv
    holds them, one array per column: "sample" (uint64), "status" (str, the summary's reason),
    "status_code" (int32, obliq.Status), then every output (float64, NaN where it does not exist).
    units: each output's unit. files: what was written (out given), summary.json first."""
    summary: dict
    rows: dict
    units: dict
    files: list = field(default_factory=list)


def sweep(study, *, out=None, threads=0, chunk=8192, rows=None, plots=True, base_dir=None):
    """Runs the study (a dict in the study-file format, or the path of a study file) and returns a
    SweepResult. Nothing is written unless out (a folder) is given: then summary.json, the row
    files the study asks for (rows.csv; this build writes no rows.h5) and the plots (when plots
    and the study's "plots"; needs gnuplot) go there, as `obliq sweep STUDY -o out` writes them.
    rows overrides the study's collect.rows (samples [0, rows) are returned). A study dict's
    relative model paths are taken from base_dir (default: the current folder). The statistics
    depend on the study only, not on threads or chunk. Errors: ValueError naming the study key
    that is wrong (as `obliq sweep` reports it), TypeError for a study of another type."""
    if isinstance(study, dict):
        try:
            text = json.dumps(study, allow_nan=False)
        except ValueError as err:
            raise ValueError(f"study: {err} (a study holds finite numbers only)") from err
        path = ""
    elif isinstance(study, (str, os.PathLike)):
        text, path = "", os.fspath(study)
    else:
        raise TypeError(f"study must be a dict or the path of a study file, not {type(study).__name__}")
    if rows is not None and (isinstance(rows, bool) or int(rows) != rows or rows < 0):
        raise ValueError(f"rows must be a count >= 0, not {rows!r}")
    r = _obliq._sweep(text, path, os.fspath(base_dir) if base_dir is not None else os.getcwd(), int(threads),
                      int(chunk), None if rows is None else int(rows), "" if out is None else os.fspath(out),
                      bool(plots))
    columns = r["columns"]
    table = {"sample": r["sample"], "status": np.array(r["status"], dtype=str), "status_code": r["status_code"]}
    for c, (name, _) in enumerate(columns):
        table[name] = r["values"][c]
    return SweepResult(json.loads(r["summary"]), table, dict(columns), r["files"])

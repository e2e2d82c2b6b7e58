#!/usr/bin/env python3
"""A ball of mass 2 falling on a floor at 3 m/s, solved for 1000 restitution coefficients at once;
checks Newton's law (post-impact vz = 3 e) and prints the result.

    python3 examples/python/restitution_sweep.py

Needs the obliq package (pip install .)."""
import sys

import numpy as np

import obliq

e = np.linspace(0, 1, 1000)[:, None]  # one restitution per scenario
r = obliq.impact(2 * np.eye(3), [1.0, 0.0, -3.0], A_u=[[0.0, 0.0, 1.0]], e=e)
ok = r.status == 0                     # int32 per scenario, 0 = ok
worst = np.abs(r.qdot_plus[:, 2] - 3 * e[:, 0]).max()
print(f"{ok.sum()} of {len(ok)} ok, worst |vz - 3 e| = {worst:.1e}")
sys.exit(0 if ok.all() and worst <= 1e-12 * 3 else 1)

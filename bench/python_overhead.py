"""What the Python layer costs: obliq.impact (arrays read in place through the host views, new
result arrays), obliq.impact through a Batch (obliq.batch: the arrays copied in) and
solve_impact on a Batch filled in place, and Model.evaluate, on the built-in quadruped's states (n = 18, 4 feet
closed and approaching), 1 thread and all threads. Best of `--repeat` runs, scenarios per second.

    python3 bench/python_overhead.py [--count 4096] [--repeat 5]
"""
import argparse
import time

import numpy as np

import obliq


def best(fn, repeat):
    t = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        t.append(time.perf_counter() - t0)
    return min(t)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=4096)
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    rng = np.random.default_rng(1)
    quad = obliq.Model.builtin("quadruped")
    Q = np.tile(quad.neutral(), (a.count, 1))
    Q[:, 2] = 0.5  # feet on the floor
    Q[:, 7:] += 0.05 * rng.standard_normal((a.count, 12))
    V = 0.1 * rng.standard_normal((a.count, quad.nv))
    V[:, 2] = -1.0  # falling: the feet approach
    ev = quad.evaluate(Q, V)
    b = ev.batch
    b.e[:] = 0.2
    arrays = {k: np.array(getattr(b, k)) for k in ("M", "qdot", "A_u", "phi_u", "e")}
    r = obliq.solve_impact(b)
    print(f"quadruped, {a.count} states; statuses ok: {(r.status == 0).sum()}")
    print("| threads | Model.evaluate | solve_impact (Batch in place) | obliq.impact (arrays in place) "
          "| obliq.batch + solve_impact (arrays copied in) |")
    print("|---|---|---|---|---|")
    for threads in (1, 0):
        t_eval = best(lambda: quad.evaluate(Q, V, threads=threads), a.repeat)
        t_solve = best(lambda: obliq.solve_impact(b, r, threads=threads), a.repeat)
        t_view = best(lambda: obliq.impact(arrays["M"], arrays["qdot"], A_u=arrays["A_u"], phi_u=arrays["phi_u"],
                                           e=arrays["e"], threads=threads), a.repeat)
        t_copy = best(lambda: obliq.solve_impact(obliq.batch(arrays["M"], arrays["qdot"], A_u=arrays["A_u"],
                                                             phi_u=arrays["phi_u"], e=arrays["e"]), threads=threads),
                      a.repeat)
        name = "1" if threads == 1 else "all"
        print(f"| {name} | {a.count / t_eval:.3g}/s | {a.count / t_solve:.3g}/s | {a.count / t_view:.3g}/s "
              f"| {a.count / t_copy:.3g}/s |")


if __name__ == "__main__":
    main()

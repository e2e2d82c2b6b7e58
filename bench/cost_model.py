#!/usr/bin/env python3
"""The cost model of one answer (docs/design.md "Cost model of one answer"), checked against
callgrind: instructions per scenario of each part of the core's impact / dynamics solve, as
predicted by its leading-term operation count, against the count measured.

    bench/cost_model.py [BUILD_DIR] [--calibrate 12x4,40x24] [--shapes 6x3,12x4,18x8,30x12,40x24]

For each kind (impact, dynamics) x law (projection, complementarity) and each shape (n, m) of
bench_solver_throughput (random scenarios, m unilateral rows all closed and approaching or
resting, so m_a = k = m), callgrind counts only solve_impact / solve_dynamics; each part is the
inclusive count of its function (bench/callgrind_per_call.py) per scenario. The model: part p
costs c_p + kappa_p f_p(n, m) instructions, f_p its leading-term operation count (multiply-adds,
comparisons) from the table in docs/design.md, kappa_p its instructions per operation and c_p
its fixed cost per call (set-up, loop overheads, lower-order terms at these sizes), both fitted
at TWO shapes (default (12, 4) and (40, 24)) and then used unchanged to predict the others. The
rest (the targets, candidates, scatter, the batch loop) is modelled as c + kappa m n. The
output: c and kappa per part, measured / predicted instructions per scenario, and the
certificate's share, measured / predicted. A part the compiler inlined into its caller reads
"-" (it is then counted in the rest)."""
import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from callgrind_per_call import counts  # noqa: E402

BATCH = 1024  # scenarios per solve_* call of the core (bench/solver_throughput.cpp)


def parts(kind, law):
    """(label, function pattern, f(n, m)) of each part, in the order the solve runs them."""
    delassus = lambda n, m: m * n * n / 2 + 2 * m * m * n + m ** 3 / 6  # F^-1 A^T, QR of it, H
    cert = "impact_certificate<double>(" if kind == "impact" else "dynamics_certificate<double>("
    if law == "projection" and kind == "impact":
        solve = lambda n, m: n * n + m * n + m * m  # free motion, the equality solve on the factor
    elif law == "projection":
        # the Delassus factor (called from within the law here) and the oblique projection of
        # the free acceleration, solved through the factors of M and of the Delassus matrix
        solve = lambda n, m: delassus(n, m) + m * n * n + m * m * n
    else:
        # Z = F^-1 A^T, W = Z^T Z, Lemke's pivots on an m x (m + 2) tableau, the minimum-norm
        # multipliers (an SVD of the binding rows): m n^2 / 2 + m^2 n / 2 + p m^2 + O(m_b^2 n)
        solve = lambda n, m: m * n * n + m * m * n
    out = [
        ("validate", "obliq::validate<double>(", lambda n, m: n * n / 2 + m * n),
        ("factor M + rows", "obliq::setup_contact_problem<double>(", lambda n, m: n ** 3 / 6 + m * n)]
    if kind == "impact":  # dynamics factors the Delassus matrix inside its contact law, when it does
        out += [("Delassus factor", "obliq::factor_delassus<double>(", delassus)]
    out += [
        ("contact law", "obliq::solve_contact_law<double>(", solve),
        ("certificate", cert, lambda n, m: 2 * n * n + 7 * m * n),
    ]
    if kind == "impact":
        out += [("kinetic energies", "obliq::kinetic_energy<double>(", lambda n, m: n * n),
                ("energy test", "obliq::energy_consistent<double>(", lambda n, m: m ** 3 / 6 + m * m)]
    return out


def measure(build, kind, law, n, m, tmp):
    fn = "solve_impact" if kind == "impact" else "solve_dynamics"
    k, l = (0 if kind == "impact" else 1), (0 if law == "projection" else 1)
    out = os.path.join(tmp, f"{kind}.{law}.{n}.{m}.out")
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", "--collect-atstart=no",
                    f"--toggle-collect=void obliq::{fn}<double>(*",
                    os.path.join(build, "bench", "bench_solver_throughput"),
                    f"--benchmark_filter=^BM_core_1thread<double>/n:{n}/m:{m}/kind:{k}/law:{l}/"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ps = parts(kind, law)
    got = counts(out, [f"void obliq::{fn}<double>("] + [p[1] for p in ps])
    total, calls = got[0]
    scenarios = calls * BATCH
    per = {p[0]: (c[0] / scenarios if c[0] is not None else None) for p, c in zip(ps, got[1:])}
    return total / scenarios, per


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build", nargs="?", default="build")
    ap.add_argument("--calibrate", default="12x4,40x24")
    ap.add_argument("--shapes", default="6x3,12x4,18x8,30x12,40x24")
    a = ap.parse_args()
    shape = lambda s: tuple(int(x) for x in s.split("x"))
    cal, shapes = [shape(s) for s in a.calibrate.split(",")], [shape(s) for s in a.shapes.split(",")]
    if len(cal) != 2:
        sys.exit("--calibrate: two shapes, e.g. 12x4,40x24")
    shapes += [s for s in cal if s not in shapes]
    shapes.sort()
    with tempfile.TemporaryDirectory() as tmp:
        for kind in ("impact", "dynamics"):
            for law in ("projection", "complementarity"):
                ps = parts(kind, law)
                data = {s: measure(a.build, kind, law, *s, tmp) for s in shapes}
                fit = {}  # label -> (c, kappa)
                for label, _, f in ps:
                    v = [data[s][1][label] for s in cal]
                    if None in v:
                        fit[label] = None
                        continue
                    kappa = (v[1] - v[0]) / (f(*cal[1]) - f(*cal[0]))
                    fit[label] = (v[0] - kappa * f(*cal[0]), kappa)
                # The rest (Newton's targets, candidates, scatter, the batch loop): c + kappa m n.
                rest_of = lambda s: data[s][0] - sum(x for x in data[s][1].values() if x is not None)
                f_rest = lambda n, m: m * n
                k_rest = (rest_of(cal[1]) - rest_of(cal[0])) / (f_rest(*cal[1]) - f_rest(*cal[0]))
                c_rest = rest_of(cal[0]) - k_rest * f_rest(*cal[0])

                def predict(label, f, s):
                    c, kappa = fit[label]
                    return c + kappa * f(*s)

                def predict_total(s):
                    return c_rest + k_rest * f_rest(*s) + sum(predict(l, f, s) for l, _, f in ps if fit[l] is not None)

                print(f"### {kind}, {law} law: instructions per scenario, measured / predicted "
                      f"(fitted at {cal[0]} and {cal[1]})")
                print()
                print("| part | c (instr) | kappa (instr/op) | " + " | ".join(f"({n}, {m})" for n, m in shapes) + " |")
                print("|---|---|---|" + "---|" * len(shapes))
                for label, _, f in ps:
                    if fit[label] is None:
                        print(f"| {label} | - | - | " + " | ".join("-" for _ in shapes) + " |")
                        continue
                    c, kappa = fit[label]
                    cells = [f"{data[s][1][label]:,.0f} / {predict(label, f, s):,.0f}" for s in shapes]
                    print(f"| {label} | {c:,.0f} | {kappa:.1f} | " + " | ".join(cells) + " |")
                cells = [f"{rest_of(s):,.0f} / {c_rest + k_rest * f_rest(*s):,.0f}" for s in shapes]
                print(f"| rest | {c_rest:,.0f} | {k_rest:.1f} | " + " | ".join(cells) + " |")
                cells = [f"{data[s][0]:,.0f} / {predict_total(s):,.0f} ({predict_total(s) / data[s][0]:.2f})" for s in shapes]
                print("| **total** (last: predicted / measured) | | | " + " | ".join(cells) + " |")
                fc = next(f for l, _, f in ps if l == "certificate")
                cells = [f"{100 * data[s][1]['certificate'] / data[s][0]:.1f} % / "
                         f"{100 * predict('certificate', fc, s) / predict_total(s):.1f} %" for s in shapes]
                print("| certificate share | | | " + " | ".join(cells) + " |")
                print()


if __name__ == "__main__":
    main()

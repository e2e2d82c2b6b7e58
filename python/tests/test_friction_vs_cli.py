"""obliq.impact / obliq.dynamics with friction give what `obliq impact` / `obliq dynamics` print
for the same lines (the same frictional core through the same host API, double precision: equal
to the last bit): random scenarios of several shapes, plane and space, cone and pyramid, lines
with mu = 0, Painleve's rod, bad shapes and bad coefficients as statuses."""
import math

import numpy as np
import pytest

import obliq
from conftest import jsonl

G = 9.81


def random_frictional(rng, count, n, m_b, m_u, dim, kind):
    """SPD M, random normal and tangent rows, closed unilateral rows, mu in [0, 1.2] per row (every
    fifth line mu = 0 everywhere, a few rows 0), restitution e and (half the impacts) e_t; for
    dynamics a velocity that does not approach the closed rows, in half the lines also without
    slip (the contacts may stick)."""
    out = []
    for k in range(count):
        G_ = rng.standard_normal((n, n))
        M = G_ @ G_.T + 0.05 * n * np.eye(n)
        A_u = rng.standard_normal((m_u, n))
        A_t = rng.standard_normal(((dim - 1) * m_u, n))
        mu = rng.uniform(0, 1.2, m_u) * (rng.uniform(size=m_u) > 0.2)
        if k % 5 == 0:
            mu[:] = 0.0
        sc = {"id": f"{kind}-{n}-{m_b}-{m_u}-{dim}-{k}", "M": M.tolist(), "A_u": A_u.tolist(), "A_t": A_t.tolist(),
              "dim": dim, "mu": mu.tolist(), "phi_u": [0.0] * m_u}
        if m_b:
            sc["A_b"] = rng.standard_normal((m_b, n)).tolist()
        qdot = rng.standard_normal(n)
        if kind == "impact":
            sc["e"] = rng.uniform(0, 1, m_u).tolist()
            sc["i_u"] = (0.1 * rng.standard_normal(n)).tolist()
            if k % 2:
                sc["e_t"] = rng.uniform(0, 1, m_u).tolist()
        else:
            rows = np.vstack([A_u, A_t]) if k % 2 else A_u
            qdot = qdot - np.linalg.pinv(rows) @ (rows @ qdot)
            sc["h"] = rng.standard_normal(n).tolist()
            sc["u"] = rng.standard_normal(n).tolist()
            sc["Adot_qdot"] = (0.1 * rng.standard_normal(m_b + m_u)).tolist()
            if k % 3:
                sc["Adot_qdot_t"] = (0.1 * rng.standard_normal((dim - 1) * m_u)).tolist()
        sc["qdot"] = qdot.tolist()
        out.append(sc)
    return out


def painleve_rod(mu, up_force, tag):
    """docs/friction.md (F7): the sliding rod, no solution (gravity alone, mu = 3), two solutions
    (pulled up, mu = 3), one (mu = 0.5)."""
    m, l, phi = 1.0, 0.5, math.pi / 6
    return {"id": f"painleve-{tag}", "M": [[m, 0, 0], [0, m, 0], [0, 0, m * l * l / 3]], "qdot": [-1.0, 0.0, 0.0],
            "A_u": [[0, 1, -l * math.cos(phi)]], "A_t": [[1, 0, l * math.sin(phi)]], "mu": mu, "dim": 2,
            "h": [0, m * G, 0], "u": [0, up_force, 0], "phi_u": [0.0], "Adot_qdot": [0.0]}


def special_lines(rng, kind):
    """Lines that fail with a status: a law without friction support, a negative mu, A_t of the
    wrong height for its dim (bad shape), tangential restitution outside [0, 1]."""
    base = random_frictional(rng, 4, 4, 0, 2, 3, kind)
    base[0]["id"], base[0]["law"], base[0]["mu"] = "projection-law", "projection", [0.5, 0.5]
    base[1]["id"], base[1]["mu"] = "negative-mu", [0.5, -0.1]
    base[2]["id"], base[2]["A_t"], base[2]["mu"] = "bad-shape", base[2]["A_t"][:3], [0.4, 0.4]  # 3 rows, dim 3
    base[2].pop("Adot_qdot_t", None)
    lines = base[:3]
    if kind == "impact":
        base[3]["id"], base[3]["mu"], base[3]["e_t"] = "bad-e_t", [0.4, 0.4], [0.5, 1.5]
        lines.append(base[3])
    return lines


def group_key(sc):
    n = len(sc["M"])
    return (n, len(sc.get("A_b", [])), len(sc["A_u"]), sc["dim"], len(sc["A_t"]), "e_t" in sc, "Adot_qdot_t" in sc)


def solve_lines(lines, kind, formulation, **options):
    """Group the lines by shape, solve each group as one batch of obliq.impact / obliq.dynamics
    with friction; results by id as (SolveArrays, row)."""
    groups = {}
    for sc in lines:
        groups.setdefault(group_key(sc), []).append(sc)
    results = {}
    for (n, m_b, m_u, dim, m_t, has_et, has_adt), scs in groups.items():
        def stack(key, shape):
            return np.array([np.broadcast_to(np.asarray(sc.get(key, np.zeros(shape)), dtype=float), shape)
                             for sc in scs], dtype=np.float64).reshape((len(scs),) + shape)
        arrays = dict(A_b=stack("A_b", (m_b, n)), A_u=stack("A_u", (m_u, n)), phi_u=stack("phi_u", (m_u,)),
                      law=np.array([obliq.LAWS[sc.get("law", "complementarity")] for sc in scs]),
                      mu=stack("mu", (m_u,)), A_t=stack("A_t", (m_t, n)), dim=dim, friction=formulation, **options)
        if kind == "impact":
            arrays.update(e=stack("e", (m_u,)), i_u=stack("i_u", (n,)))
            if has_et:
                arrays["e_t"] = stack("e_t", (m_u,))
            r = obliq.impact(stack("M", (n, n)), stack("qdot", (n,)), **arrays)
        else:
            arrays.update(h=stack("h", (n,)), u=stack("u", (n,)), Adot_qdot=stack("Adot_qdot", (m_b + m_u,)))
            if has_adt:
                arrays["Adot_qdot_t"] = stack("Adot_qdot_t", (m_t,))
            r = obliq.dynamics(stack("M", (n, n)), stack("qdot", (n,)), **arrays)
        for s, sc in enumerate(scs):
            results[sc["id"]] = (r, s)
    return results


def compare(cli_lines, results, kind):
    """Every status and number equal; returns (ok lines, ok lines with friction, statuses seen)."""
    keys = ["qdot_plus", "impulse", "lambda", "kinetic_energy_pre", "kinetic_energy_post"] if kind == "impact" \
        else ["qddot", "lambda"]
    ok = frictional = 0
    seen = set()
    for line in cli_lines:
        r, s = results[line["id"]]
        status = int(r.status[s])
        seen.add(status)
        if line["status"] != "ok":
            reason = "error: " + obliq.status_reason(status)
            # the command line adds the detail ("mu negative (mu[1] = -0.1)", "bad shape: A_t has ...")
            assert status != 0 and (line["status"] == reason or line["status"].startswith(reason + " (")
                                    or line["status"].startswith(reason + ": ")), (line, status)
            continue
        assert status == 0, (line["id"], obliq.status_reason(status))
        ok += 1
        for k in keys:
            got = getattr(r, "lambda_" if k == "lambda" else k)[s]
            np.testing.assert_array_equal(got, np.asarray(line[k]), err_msg=f"{line['id']} {k}")
        np.testing.assert_array_equal(r.active[s], np.asarray(line["active"], dtype=np.uint8))
        if kind == "impact":
            assert bool(r.energy_consistent[s]) == line["energy_consistent"]
        if "friction" in line:  # some mu > 0: the frictional core's report
            frictional += 1
            np.testing.assert_array_equal(r.lambda_t[s], np.asarray(line["lambda_t"]), err_msg=line["id"])
            assert r.friction.method[s] == line["friction"]["method"], line["id"]
            assert r.friction.iterations[s] == line["friction"]["iterations"], line["id"]
            assert r.friction.residual[s] == line["friction"]["residual"], line["id"]
            if kind == "dynamics":
                np.testing.assert_array_equal(r.sliding[s], np.asarray(line["sliding"], dtype=np.uint8))
        else:  # every mu = 0: the frictionless answer, no tangential reaction
            assert not r.lambda_t[s].any() and r.friction.method[s] == "", line["id"]
    return ok, frictional, seen


SHAPES = [(3, 0, 1, 2), (4, 0, 2, 2), (6, 0, 2, 3), (6, 1, 3, 3), (12, 0, 4, 3)]


@pytest.mark.parametrize("formulation", ["cone", "pyramid"])
@pytest.mark.parametrize("kind", ["impact", "dynamics"])
def test_random_frictional_scenarios_equal_cli(cli, rng, kind, formulation):
    lines = []
    for n, m_b, m_u, dim in SHAPES:
        lines += random_frictional(rng, 24, n, m_b, m_u, dim, kind)
    lines += special_lines(rng, kind)
    if kind == "dynamics":
        lines += [painleve_rod(3.0, 0.0, "none"), painleve_rod(3.0, 2.0 * G, "two"), painleve_rod(0.5, 0.0, "one")]
    out = cli([kind, "-", "--friction", formulation], jsonl(lines))
    assert [o["id"] for o in out] == [sc["id"] for sc in lines]
    ok, frictional, seen = compare(out, solve_lines(lines, kind, formulation), kind)
    assert ok >= len(lines) // 2 and frictional >= len(lines) // 3, (ok, frictional, len(lines))
    expected = {obliq.Status.friction_law, obliq.Status.bad_friction, obliq.Status.bad_shape}
    if kind == "dynamics":
        expected |= {obliq.Status.infeasible, obliq.Status.ambiguous}
    else:
        expected |= {obliq.Status.bad_restitution}
    assert expected <= seen, seen
    by_id = {o["id"]: o["status"] for o in out}
    if kind == "dynamics":
        assert by_id["painleve-none"] == "error: infeasible"
        assert by_id["painleve-two"] == "error: several solutions (Painleve)"
        assert by_id["painleve-one"] == "ok"
    assert by_id["bad-shape"].startswith("error: bad shape")


def test_facets_and_lcp_solver_reach_the_core(cli, rng):
    """--facets 5 and --lcp-solver pivot for the pyramid, as facets= and lcp_solver=."""
    lines = random_frictional(rng, 20, 6, 0, 2, 3, "impact")
    out = cli(["impact", "-", "--friction", "pyramid", "--facets", "5", "--lcp-solver", "pivot"], jsonl(lines))
    results = solve_lines(lines, "impact", "pyramid", facets=5, lcp_solver="pivot")
    assert compare(out, results, "impact")[1] >= 10
    default = solve_lines(lines, "impact", "pyramid")
    r5, r8 = results[lines[1]["id"]][0], default[lines[1]["id"]][0]
    assert not np.array_equal(r5.lambda_t, r8.lambda_t)  # 5 facets are not 8


def frictional_batch(rng, B=64, n=6, m_u=2, dim=3):
    lines = random_frictional(rng, B, n, 0, m_u, dim, "impact")
    M = np.array([sc["M"] for sc in lines])
    qdot = np.array([sc["qdot"] for sc in lines])
    A_u = np.array([sc["A_u"] for sc in lines])
    A_t = np.array([sc["A_t"] for sc in lines])
    e = np.array([sc["e"] for sc in lines])
    return M, qdot, A_u, A_t, e


def test_broadcasting_and_threads(rng):
    """One mu for all, one per scenario (B, 1), or per row: the same answers as the full (B, m_u)
    array; shared A_t (per scenario shape) as the same rows stacked; 1 thread as 2."""
    M, qdot, A_u, A_t, e = frictional_batch(rng)
    B, m_u = e.shape
    full = obliq.impact(M, qdot, A_u=A_u, A_t=A_t, e=e, mu=np.full((B, m_u), 0.6), threads=1)
    assert (full.status == 0).sum() > B // 2 and (full.friction.method != "").sum() > B // 2
    for mu in (0.6, [0.6] * m_u, np.full((B, 1), 0.6)):
        r = obliq.impact(M, qdot, A_u=A_u, A_t=A_t, e=e, mu=mu, threads=2)
        for k in ("status", "qdot_plus", "lambda_", "lambda_t"):
            np.testing.assert_array_equal(getattr(r, k), getattr(full, k), err_msg=f"mu {np.shape(mu)}: {k}")
        np.testing.assert_array_equal(r.friction.residual, full.friction.residual)
    shared = obliq.impact(M, qdot, A_u=A_u, A_t=A_t[0], e=e, mu=0.6)
    stacked = obliq.impact(M, qdot, A_u=A_u, A_t=np.broadcast_to(A_t[0], A_t.shape).copy(), e=e, mu=0.6)
    np.testing.assert_array_equal(shared.lambda_t, stacked.lambda_t)
    np.testing.assert_array_equal(shared.qdot_plus, stacked.qdot_plus)


def test_float32_is_solved_in_float32(rng):
    """float32 arrays run the float core: statuses per scenario, answers near the double ones."""
    M, qdot, A_u, A_t, e = frictional_batch(rng, B=32)
    r64 = obliq.impact(M, qdot, A_u=A_u, A_t=A_t, e=e, mu=0.5)
    r32 = obliq.impact(*(a.astype(np.float32) for a in (M, qdot)), A_u=A_u.astype(np.float32),
                       A_t=A_t.astype(np.float32), e=e.astype(np.float32), mu=np.float32(0.5))
    assert r32.qdot_plus.dtype == np.float32 and r32.lambda_t.dtype == np.float32
    both = (r32.status == 0) & (r64.status == 0)
    assert both.sum() > 16
    scale = np.abs(r64.qdot_plus[both]).max(axis=1, keepdims=True) + np.abs(qdot[both]).max(axis=1, keepdims=True)
    assert (np.abs(r32.qdot_plus[both] - r64.qdot_plus[both]) <= 1e-3 * scale).all()
    assert not np.array_equal(r32.qdot_plus[both].astype(np.float64), r64.qdot_plus[both])


def test_bad_inputs_raise_and_bad_data_is_a_status(rng):
    M, qdot, A_u, A_t, e = frictional_batch(rng, B=4)
    with pytest.raises(ValueError, match="A_t"):
        obliq.impact(M, qdot, A_u=A_u, e=e, mu=0.5)  # tangent rows missing
    with pytest.raises(ValueError, match="A_t"):
        obliq.impact(M, qdot, A_u=A_u, A_t=A_t[:, :, :3], e=e, mu=0.5)
    with pytest.raises(ValueError, match="mu"):
        obliq.impact(M, qdot, A_u=A_u, A_t=A_t, e=e, mu=[0.5, 0.5, 0.5])
    with pytest.raises(ValueError, match="batch dimension"):
        obliq.impact(M, qdot, A_u=A_u, A_t=A_t, e=e, mu=np.full((3, 2), 0.5))
    with pytest.raises(ValueError, match="dim"):
        obliq.impact(M, qdot, A_u=A_u, A_t=A_t, e=e, mu=0.5, dim=4)
    with pytest.raises(ValueError, match="friction must be 'cone' or 'pyramid'"):
        obliq.impact(M, qdot, A_u=A_u, A_t=A_t, e=e, mu=0.5, friction="prism")
    with pytest.raises(ValueError, match="facets"):
        obliq.impact(M, qdot, A_u=A_u, A_t=A_t, e=e, mu=0.5, friction="pyramid", facets=2)
    with pytest.raises(ValueError, match="reference"):
        obliq.impact(M, qdot, A_u=A_u, A_t=A_t, e=e, mu=0.5, backend="reference")
    with pytest.raises(TypeError):
        obliq.impact(M, qdot, A_u=A_u, A_t=A_t.astype(np.float32), e=e, mu=0.5)
    with pytest.raises(TypeError):
        obliq.dynamics(M, qdot, A_u=A_u, A_t=A_t, mu=0.5, e_t=0.1)  # e_t is an impact input
    # Per-scenario data: statuses, the neighbours untouched.
    mu = np.full((4, 2), 0.5)
    mu[1, 0] = -0.5
    mu[2, 1] = np.nan
    r = obliq.impact(M, qdot, A_u=A_u, A_t=A_t, e=e, mu=mu)
    alone = obliq.impact(M[[0, 3]], qdot[[0, 3]], A_u=A_u[[0, 3]], A_t=A_t[[0, 3]], e=e[[0, 3]], mu=0.5)
    assert r.status[1] == obliq.Status.bad_friction and r.status[2] == obliq.Status.non_finite
    np.testing.assert_array_equal(r.qdot_plus[[0, 3]], alone.qdot_plus)
    np.testing.assert_array_equal(r.status[[0, 3]], alone.status)
    # A_t of the wrong height for dim: every scenario bad_shape, as the command line's line.
    r = obliq.impact(M, qdot, A_u=A_u, A_t=A_t[:, :3], e=e, mu=0.5, dim=3)
    assert (r.status == obliq.Status.bad_shape).all() and r.lambda_t.shape == (4, 3)

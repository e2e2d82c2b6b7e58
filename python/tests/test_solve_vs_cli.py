"""obliq.impact / obliq.dynamics give what `obliq impact` / `obliq dynamics` print for the
same scenarios (same core, double precision: equal to the last bit)."""
import json

import numpy as np
import pytest

import obliq
from conftest import REPO, jsonl


def random_scenarios(rng, count, n, m_b, m_u, kind):
    """SPD M (cond up to ~1e3), random rows, closed unilateral rows, per-row e, mixed laws."""
    out = []
    for k in range(count):
        G = rng.standard_normal((n, n))
        M = G @ G.T + 0.05 * n * np.eye(n)
        A_u = rng.standard_normal((m_u, n))
        A_b = rng.standard_normal((m_b, n))
        qdot = rng.standard_normal(n)
        sc = {"id": f"{kind}-{n}-{m_b}-{m_u}-{k}", "M": M.tolist(), "qdot": qdot.tolist(), "A_u": A_u.tolist(),
              "phi_u": [0.0] * m_u, "e": rng.uniform(0, 1, m_u).tolist(),
              "law": "projection" if k % 2 else "complementarity"}
        if m_b:
            sc["A_b"] = A_b.tolist()
        if kind == "impact":
            sc["i_u"] = (0.1 * rng.standard_normal(n)).tolist()
        else:
            sc["h"] = rng.standard_normal(n).tolist()
            sc["u"] = rng.standard_normal(n).tolist()
            sc["Adot_qdot"] = (0.1 * rng.standard_normal(m_b + m_u)).tolist()
            sc["qdot"] = (qdot - A_u.T @ np.linalg.pinv(A_u.T) @ qdot).tolist() if m_u else qdot.tolist()
        out.append(sc)
    return out


def solve_lines(lines, kind):
    """Group scenario dicts by shape, solve each group as one batch, return results by id."""
    groups = {}
    for sc in lines:
        n = len(sc["M"])
        key = (n, len(sc.get("A_b", [])), len(sc.get("A_u", [])))
        groups.setdefault(key, []).append(sc)
    results = {}
    for (n, m_b, m_u), scs in groups.items():
        stack = lambda key, shape: np.array([sc.get(key, np.zeros(shape)) for sc in scs], dtype=np.float64).reshape(
            (len(scs),) + shape)
        e = np.array([np.broadcast_to(sc.get("e", 0.0), (m_u,)) for sc in scs], dtype=np.float64).reshape(len(scs), m_u)
        b = obliq.batch(stack("M", (n, n)), stack("qdot", (n,)), A_b=stack("A_b", (m_b, n)),
                        A_u=stack("A_u", (m_u, n)), phi_u=stack("phi_u", (m_u,)), e=e, h=stack("h", (n,)),
                        u=stack("u", (n,)), i_u=stack("i_u", (n,)), Adot_qdot=stack("Adot_qdot", (m_b + m_u,)),
                        law=np.array([obliq.LAWS[sc.get("law", "complementarity")] for sc in scs]))
        r = obliq.solve_impact(b) if kind == "impact" else obliq.solve_dynamics(b)
        for s, sc in enumerate(scs):
            results[sc["id"]] = (r, s)
    return results


def compare(cli_lines, results, kind):
    keys = ["qdot_plus", "impulse", "lambda", "kinetic_energy_pre", "kinetic_energy_post"] if kind == "impact" \
        else ["qddot", "lambda"]
    ok = 0
    for line in cli_lines:
        r, s = results[line["id"]]
        status = int(r.status[s])
        if line["status"] != "ok":
            assert status != 0 and line["status"] == "error: " + obliq.status_reason(status), (line, status)
            continue
        assert status == 0, (line["id"], obliq.status_reason(status))
        ok += 1
        for k in keys:
            got = getattr(r, "lambda_" if k == "lambda" else k)[s]
            np.testing.assert_array_equal(got, np.asarray(line[k]), err_msg=f"{line['id']} {k}")
        np.testing.assert_array_equal(r.active[s], np.asarray(line["active"], dtype=np.uint8))
        if kind == "impact":
            assert bool(r.energy_consistent[s]) == line["energy_consistent"]
    return ok


@pytest.mark.parametrize("kind", ["impact", "dynamics"])
def test_random_scenarios_equal_cli(cli, rng, kind):
    lines = []
    for n, m_b, m_u in [(3, 0, 1), (6, 1, 3), (12, 0, 4), (18, 2, 8)]:
        lines += random_scenarios(rng, 40, n, m_b, m_u, kind)
    out = cli([kind, "-"], jsonl(lines))
    assert [o["id"] for o in out] == [sc["id"] for sc in lines]
    ok = compare(out, solve_lines(lines, kind), kind)
    assert ok >= len(lines) // 2, f"only {ok} of {len(lines)} scenarios solved ok"


@pytest.mark.parametrize("kind", ["impact", "dynamics"])
def test_examples_equal_cli(cli, kind):
    text = (REPO / "examples" / f"{kind}.jsonl").read_text()
    lines = [json.loads(t) for t in text.splitlines() if t.strip()]
    assert compare(cli([kind, "-"], text), solve_lines(lines, kind), kind) == len(lines)


def test_bad_scenario_is_a_status_and_neighbours_are_untouched(cli):
    M = np.tile(2 * np.eye(3), (3, 1, 1))
    M[1, 0, 0] = -1.0  # not SPD
    r = obliq.impact(M, [1.0, 0.0, -3.0], A_u=[[0.0, 0.0, 1.0]], e=0.5)
    assert r.status.tolist() == [obliq.Status.ok, obliq.Status.not_spd, obliq.Status.ok]
    np.testing.assert_array_equal(r.qdot_plus[0], [1.0, 0.0, 1.5])
    np.testing.assert_array_equal(r.qdot_plus[2], [1.0, 0.0, 1.5])
    line = {"id": "bad", "M": M[1].tolist(), "qdot": [1, 0, -3], "A_u": [[0, 0, 1]], "e": 0.5}
    assert cli(["impact", "-"], jsonl([line]))[0]["status"] == "error: " + obliq.status_reason(int(r.status[1]))

// `obliq impact` end to end: the bundled examples against closed forms and the reference path,
// bad lines among good ones, blank lines, ids, order, mixed shapes, stdin, -o and exit codes.
#include <gtest/gtest.h>

#include <map>

#include "cli_helpers.hpp"
#include "obliq/io/scenario_json.hpp"
#include "obliq/reference.hpp"

namespace obliq {
namespace {

using namespace cli_test;

// Tolerance for the solver against closed forms and the reference (both double precision on
// O(1) data; the core and the reference share no numerics, so they agree to rounding only).
constexpr double kTol = 1e-10;

// Check one ok output line against reference::impact on the same scenario.
void expect_matches_reference(const json& out, const Scenario& s) {
  SCOPED_TRACE("id " + out.at("id").dump());
  const ImpactResult ref = reference::impact(s);
  ASSERT_EQ(ref.status, Status::ok);
  ASSERT_EQ(status_of(out), "ok");
  EXPECT_TRUE(near(vec(out.at("qdot_plus")), ref.qdot_plus, kTol));
  EXPECT_TRUE(near(vec(out.at("impulse")), ref.impulse, kTol));
  EXPECT_TRUE(near(vec(out.at("lambda")), ref.lambda, kTol));
  EXPECT_EQ(vec(out.at("active")), ref.active.cast<double>());
  EXPECT_TRUE(near(out.at("kinetic_energy_pre").get<double>(), ref.kinetic_energy_pre, kTol));
  EXPECT_TRUE(near(out.at("kinetic_energy_post").get<double>(), ref.kinetic_energy_post, kTol));
  EXPECT_EQ(out.at("energy_consistent").get<bool>(), ref.energy_consistent);
}

// The scenarios of a file, by output position (blank lines skipped), as the reader sees them.
std::vector<io::ScenarioLine> read_scenarios(const std::string& path) {
  std::vector<io::ScenarioLine> v;
  long k = 0;
  for (const auto& line : file_lines(path)) {
    auto p = io::parse_scenario_line(line, ++k, io::Use::impact);
    if (!p.blank) v.push_back(p);
  }
  return v;
}

TEST(ImpactCommand, BundledExampleMatchesClosedFormsAndReference) {
  const auto r = run_obliq("impact " + quote(example("impact.jsonl")));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto out = parse_lines(r.out);
  const auto in = read_scenarios(example("impact.jsonl"));
  ASSERT_EQ(out.size(), in.size());
  std::map<std::string, json> by_id;
  for (std::size_t k = 0; k < out.size(); ++k) {
    EXPECT_EQ(out[k].at("id"), in[k].id) << "order kept";
    expect_matches_reference(out[k], in[k].scenario);
    by_id[out[k].at("id").get<std::string>()] = out[k];
  }

  // Ball of mass 2 hitting the floor at v_z = -3 with v_x = 1: v_z+ = -e v_z, impulse 2 (1 + e) 3,
  // energy 1/2 2 (1 + 9 e^2) after, 10 before.
  for (double e : {0.0, 0.5, 1.0}) {
    const json& j = by_id.at(e == 0 ? "ball e=0" : e == 0.5 ? "ball e=0.5" : "ball e=1");
    SCOPED_TRACE(j.dump());
    EXPECT_TRUE(near(vec(j.at("qdot_plus")), Eigen::Vector3d(1, 0, 3 * e), kTol));
    EXPECT_TRUE(near(vec(j.at("impulse")), Eigen::Vector3d(0, 0, 6 * (1 + e)), kTol));
    EXPECT_TRUE(near(vec(j.at("lambda")), Eigen::VectorXd::Constant(1, 6 * (1 + e)), kTol));
    EXPECT_EQ(vec(j.at("active")), Eigen::VectorXd::Ones(1));
    EXPECT_TRUE(near(j.at("kinetic_energy_pre").get<double>(), 10.0, kTol));
    EXPECT_TRUE(near(j.at("kinetic_energy_post").get<double>(), 1 + 9 * e * e, kTol));
    EXPECT_TRUE(j.at("energy_consistent").get<bool>());
  }
  // Not a candidate: open gap, or closed and separating. Nothing changes.
  for (const char* id : {"ball above the floor", "ball leaving the floor"}) {
    const json& j = by_id.at(id);
    EXPECT_EQ(vec(j.at("active")), Eigen::VectorXd::Zero(1)) << id;
    EXPECT_EQ(vec(j.at("lambda")), Eigen::VectorXd::Zero(1)) << id;
  }
  EXPECT_TRUE(near(vec(by_id.at("ball above the floor").at("qdot_plus")), Eigen::Vector3d(1, 0, -3), kTol));
  EXPECT_TRUE(near(vec(by_id.at("ball leaving the floor").at("qdot_plus")), Eigen::Vector3d(1, 0, 3), kTol));

  // Bar (mass 1, inertia 1/3, ends at +-1) falling flat at 2, both ends plastic: it stops
  // vertically, keeps sliding, and each end takes half the impulse.
  {
    const json& j = by_id.at("bar flat, two contacts");
    EXPECT_TRUE(near(vec(j.at("qdot_plus")), Eigen::Vector3d(0.5, 0, 0), kTol));
    EXPECT_TRUE(near(vec(j.at("lambda")), Eigen::Vector2d(1, 1), kTol));
    EXPECT_TRUE(near(j.at("kinetic_energy_post").get<double>(), 0.125, kTol));
  }
  // Bar falling at 1 while spinning at 0.5, e = 0.5: ends approach at 1.5 and 0.5, leave at
  // 0.75 and 0.25, so v_z = 0.5, omega = -0.25; lambda from A^T lambda = M (v - q):
  // lambda_1 + lambda_2 = 1.5, lambda_2 - lambda_1 = -0.25. Both impulses push, so the
  // complementarity law agrees with the projection law.
  for (const char* id : {"bar spinning, projection law", "bar spinning, complementarity law"}) {
    const json& j = by_id.at(id);
    EXPECT_TRUE(near(vec(j.at("qdot_plus")), Eigen::Vector3d(0, 0.5, -0.25), kTol)) << id;
    EXPECT_TRUE(near(vec(j.at("lambda")), Eigen::Vector2d(0.875, 0.625), kTol)) << id;
  }
  // Box of mass 2 on four corners (rank 3 of 4): stops vertically, keeps v_x and spin about z;
  // the minimum-norm impulses share the total 2 equally.
  {
    const json& j = by_id.at("box on four corners (redundant)");
    Eigen::VectorXd v(6);
    v << 0.3, 0, 0, 0, 0, 0.2;
    EXPECT_TRUE(near(vec(j.at("qdot_plus")), v, kTol));
    EXPECT_TRUE(near(vec(j.at("lambda")), Eigen::Vector4d::Constant(0.5), kTol));
    EXPECT_EQ(vec(j.at("active")), Eigen::Vector4d::Ones());
  }
  // A point on a bilateral rail (y fixed, A_b = [0 1]) with y-velocity 0.5 and a wall in x
  // approached at 1 with e = 0.5: A_b v = 0 and v_x = 0.5, lambda = (-0.5, 1.5).
  {
    const json& j = by_id.at("point on a bilateral rail hitting a wall");
    EXPECT_TRUE(near(vec(j.at("qdot_plus")), Eigen::Vector2d(0.5, 0), kTol));
    EXPECT_TRUE(near(vec(j.at("lambda")), Eigen::Vector2d(-0.5, 1.5), kTol));
  }
}

TEST(ImpactCommand, ReferenceBackendNumbersReadBackExactly) {
  // With --backend reference the file path and reference::impact run the same code on the same
  // doubles: every printed number must read back to the same double.
  const auto r = run_obliq("impact --backend reference " + quote(example("impact.jsonl")));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto out = parse_lines(r.out);
  const auto in = read_scenarios(example("impact.jsonl"));
  ASSERT_EQ(out.size(), in.size());
  for (std::size_t k = 0; k < out.size(); ++k) {
    const ImpactResult ref = reference::impact(in[k].scenario);
    EXPECT_EQ(vec(out[k].at("qdot_plus")), ref.qdot_plus);
    EXPECT_EQ(vec(out[k].at("impulse")), ref.impulse);
    EXPECT_EQ(vec(out[k].at("lambda")), ref.lambda);
    EXPECT_EQ(out[k].at("kinetic_energy_pre").get<double>(), ref.kinetic_energy_pre);
    EXPECT_EQ(out[k].at("kinetic_energy_post").get<double>(), ref.kinetic_energy_post);
  }
}

TEST(ImpactCommand, BadLinesAreErrorLinesAndTheGoodOnesAroundThemAreRight) {
  const std::string ball = R"("M": [[2, 0, 0], [0, 2, 0], [0, 0, 2]], "qdot": [1, 0, -3], "A_u": [[0, 0, 1]])";
  const std::vector<std::pair<std::string, std::string>> lines = {
      {R"({"id": "good 0", )" + ball + R"(, "e": 0})", "ok"},
      {R"({"id": "nan", "M": [[2, 0, 0], [0, 2, 0], [0, 0, 2]], "qdot": [1, NaN, -3], "A_u": [[0, 0, 1]]})",
       "error: non-finite number in qdot[1]"},
      {R"({"id": "not spd", "M": [[1, 2], [2, 1]], "qdot": [1, -1], "A_u": [[0, 1]]})",
       std::string("error: ") + status_reason(Status::not_spd)},
      {R"({"id": "good 1", )" + ball + R"(, "e": 1})", "ok"},
      {R"({"id": "not symmetric", "M": [[1, 0.5], [0, 1]], "qdot": [1, -1], "A_u": [[0, 1]]})",
       std::string("error: ") + status_reason(Status::not_spd)},
      {R"({"id": "wrong shape", "M": [[1, 0], [0, 1]], "qdot": [1, -1], "A_u": [[0, 1, 0]]})",
       "error: bad shape: A_u[0] has 3 entries, expected 2 (n = 2 from M)"},
      {R"({"id": "e too big", )" + ball + R"(, "e": 1.5})", "error: e outside [0, 1] (e = 1.5)"},
      {R"({"id": "e negative", )" + ball + R"(, "e": [-0.5]})", "error: e outside [0, 1] (e[0] = -0.5)"},
      {R"({"id": "missing qdot", "M": [[1]]})", "error: missing required key \"qdot\""},
      {R"({"id": "missing M", "qdot": [1]})", "error: missing required key \"M\""},
      {R"({"id": "string entry", "M": [[1, 0], [0, "1"]], "qdot": [1, -1]})",
       "error: M[1][1]: not a number (got a string)"},
      {R"({"id": "null entry", "M": [[1]], "qdot": [null]})", "error: qdot[0]: not a number (got null)"},
      {R"({"id": "scalar qdot", "M": [[1]], "qdot": 1})", "error: qdot: expected an array of 1 numbers, got a number"},
      {R"([1, 2, 3])", "error: not a JSON object (got an array)"},
      {"", ""},  // blank: skipped, but counted
      {R"({"id": 99, )" + ball + R"(, "e": 0.5})", "ok"},
      {R"({"M": [[2, 0, 0], [0, 2, 0], [0, 0, 1e999]], "qdot": [1, 0, -3]})", "error: non-finite number in M[2][2]"},
      {R"({"id": "bad law", )" + ball + R"(, "law": "newton"})",
       R"(error: unknown law "newton" (expected "projection" or "complementarity"))"},
      {R"({"id": "negative tol", )" + ball + R"(, "vel_tol": -1})", "error: negative tolerance (vel_tol = -1)"},
      {R"({)" + ball + R"(, "e": 0.25})", "ok"},
  };
  std::string text;
  for (const auto& [line, status] : lines) text += line + "\n";
  const auto path = write_temp("bad_lines.jsonl", text);
  const auto r = run_obliq("impact " + quote(path.string()));
  EXPECT_EQ(r.exit_code, 3) << r.err;
  const auto out = parse_lines(r.out);

  std::size_t k = 0;
  for (std::size_t line = 0; line < lines.size(); ++line) {
    const auto& [in, status] = lines[line];
    if (in.empty()) continue;
    ASSERT_LT(k, out.size());
    const json& j = out[k++];
    SCOPED_TRACE("line " + std::to_string(line + 1) + ": " + in);
    EXPECT_EQ(status_of(j), status);
    // id: as given (even on a line with a NaN literal), else the 1-based physical line number
    // (blank lines count).
    std::string valid = in;
    if (auto p = valid.find("NaN"); p != std::string::npos) valid.replace(p, 3, "0");
    const auto parsed = json::parse(valid, nullptr, false);
    if (!parsed.is_discarded() && parsed.is_object() && parsed.contains("id")) EXPECT_EQ(j.at("id"), parsed.at("id"));
    else EXPECT_EQ(j.at("id"), long(line + 1));
    if (status != "ok") EXPECT_EQ(j.size(), 2u) << "error lines carry only id and status";
  }
  EXPECT_EQ(k, out.size());

  // The good lines: the ball closed form v_z+ = 3 e.
  const std::map<std::string, double> good = {{"\"good 0\"", 0.0}, {"\"good 1\"", 1.0}, {"99", 0.5}, {"20", 0.25}};
  int seen = 0;
  for (const json& j : out) {
    auto it = good.find(j.at("id").dump());
    if (it == good.end()) continue;
    ++seen;
    const double e = it->second;
    EXPECT_TRUE(near(vec(j.at("qdot_plus")), Eigen::Vector3d(1, 0, 3 * e), kTol)) << j.dump();
    EXPECT_TRUE(near(vec(j.at("lambda")), Eigen::VectorXd::Constant(1, 6 * (1 + e)), kTol)) << j.dump();
    EXPECT_TRUE(near(j.at("kinetic_energy_post").get<double>(), 1 + 9 * e * e, kTol)) << j.dump();
  }
  EXPECT_EQ(seen, 4);
}

TEST(ImpactCommand, BundledBadLinesExample) {
  const auto r = run_obliq("impact " + quote(example("bad_lines.jsonl")));
  EXPECT_EQ(r.exit_code, 3);
  const auto out = parse_lines(r.out);
  const auto in = read_scenarios(example("bad_lines.jsonl"));
  ASSERT_EQ(out.size(), in.size());
  int ok = 0, errors = 0;
  for (std::size_t k = 0; k < out.size(); ++k) {
    EXPECT_EQ(out[k].at("id"), in[k].id);
    if (status_of(out[k]) == "ok") {
      ++ok;
      ASSERT_EQ(in[k].error, "");
      expect_matches_reference(out[k], in[k].scenario);
    } else {
      ++errors;
      EXPECT_EQ(status_of(out[k]).rfind("error: ", 0), 0u);
    }
  }
  EXPECT_EQ(ok, 2);
  EXPECT_EQ(errors, int(out.size()) - 2);
}

TEST(ImpactCommand, AllGoodLinesExitZeroAndAllBadLinesExitThree) {
  const auto good = write_temp("good.jsonl", R"({"M": [[1]], "qdot": [-1], "A_u": [[1]], "e": 1})" "\n");
  const auto r = run_obliq("impact " + quote(good.string()));
  EXPECT_EQ(r.exit_code, 0);
  ASSERT_EQ(parse_lines(r.out).size(), 1u);
  EXPECT_TRUE(near(vec(parse_lines(r.out)[0].at("qdot_plus")), Eigen::VectorXd::Ones(1), kTol));

  const auto bad = write_temp("bad.jsonl", "{}\n");
  const auto b = run_obliq("impact " + quote(bad.string()));
  EXPECT_EQ(b.exit_code, 3);
  ASSERT_EQ(parse_lines(b.out).size(), 1u);
  EXPECT_EQ(status_of(parse_lines(b.out)[0]), "error: missing required key \"M\"");

  // An empty file: no lines, nothing wrong.
  const auto empty = write_temp("empty.jsonl", "\n\n");
  const auto e = run_obliq("impact " + quote(empty.string()));
  EXPECT_EQ(e.exit_code, 0);
  EXPECT_EQ(e.out, "");
}

TEST(ImpactCommand, MixedShapesAreGroupedButKeepTheirOrder) {
  // Lines of four shapes interleaved, with random data from several laws: each line matches the
  // reference on its own scenario.
  std::string text;
  const char* lines[] = {
      R"({"id": "a1", "M": [[2]], "qdot": [-1], "A_u": [[1]], "e": 0.5})",
      R"({"id": "b1", "M": [[2, 0.5], [0.5, 1]], "qdot": [1, -2], "A_u": [[0, 1], [1, 1]], "e": [0.2, 0.9]})",
      R"({"id": "c1", "M": [[3, 1, 0], [1, 2, 0], [0, 0, 1]], "qdot": [0, -1, -1], "A_b": [[1, 0, 0]], "A_u": [[0, 1, 1]], "e": 1, "law": "projection"})",
      R"({"id": "a2", "M": [[5]], "qdot": [-2], "A_u": [[2]], "e": 0})",
      R"({"id": "d1", "M": [[1, 0], [0, 1]], "qdot": [1, 1]})",
      R"({"id": "b2", "M": [[1, 0], [0, 1]], "qdot": [-1, -1], "A_u": [[1, 0], [1, 0]], "e": [0, 1], "law": "projection"})",
      R"({"id": "c2", "M": [[3, 1, 0], [1, 2, 0], [0, 0, 1]], "qdot": [1, -1, -2], "A_b": [[1, 0, 0]], "A_u": [[0, 1, 1]], "i_u": [0.5, 0, 1]})",
      R"({"id": "b3", "M": [[1, 0], [0, 1]], "qdot": [-1, -1], "A_u": [[1, 0], [1, 0]], "e": [0, 1]})",
      R"({"id": "d2", "M": [[2, 1], [1, 2]], "qdot": [3, 4], "i_u": [1, -1]})",
  };
  for (const char* l : lines) text += std::string(l) + "\n";
  const auto path = write_temp("mixed.jsonl", text);
  const auto r = run_obliq("impact " + quote(path.string()));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto out = parse_lines(r.out);
  ASSERT_EQ(out.size(), std::size(lines));
  for (std::size_t k = 0; k < out.size(); ++k) {
    auto p = io::parse_scenario_line(lines[k], long(k + 1), io::Use::impact);
    ASSERT_EQ(p.error, "");
    EXPECT_EQ(out[k].at("id"), p.id);
    expect_matches_reference(out[k], p.scenario);
  }
  // Two closed forms among them: a1, the 1-d ball (v+ = -e v), and d1 / d2 without rows
  // (v+ = qdot + M^-1 i_u).
  EXPECT_TRUE(near(vec(out[0].at("qdot_plus")), Eigen::VectorXd::Constant(1, 0.5), kTol));
  EXPECT_TRUE(near(vec(out[4].at("qdot_plus")), Eigen::Vector2d(1, 1), kTol));
  EXPECT_TRUE(near(vec(out[8].at("qdot_plus")), Eigen::Vector2d(4, 3), kTol));  // M^-1 (1, -1) = (1, -1)
}

TEST(ImpactCommand, GarbageLinesNeverStopTheRun) {
  // Lines cut short, doubled, binary bytes, deep nesting, huge numbers: one output line each
  // (ok or an error), in order, and the good line at the end still right.
  const std::string good = R"({"id": "last", "M": [[1]], "qdot": [-2], "A_u": [[1]], "e": 0.5})";
  std::vector<std::string> lines = {
      R"({"M": [[1]], "qdot": [-2], "A_u": [[1]], "e": 0.5)",
      R"({"M": [[1]], "qdot": [-2]}{"M": [[1]], "qdot": [-2]})",
      std::string("{\"id\": \"\xff\xfe\", \"M\": [[1]], \"qdot\": [1]}"),
      std::string(5000, '[') + std::string(5000, ']'),
      R"({"M": [[1e308]], "qdot": [1e308], "A_u": [[1e308]], "e": 1})",
      R"({"M": [[1]], "qdot": [18446744073709551616], "A_u": [[-9223372036854775809]]})",
      "\x01\x02\x03",
      R"({"M": [[1]], "qdot": [1], "A_u": [[1]], "e": [0.5], "e": 2})",
      good,
  };
  std::string text;
  for (const auto& l : lines) text += l + "\n";
  const auto path = write_temp("garbage.jsonl", text);
  const auto r = run_obliq("impact " + quote(path.string()));
  EXPECT_EQ(r.exit_code, 3) << r.err;
  std::vector<json> out;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    json j = json::parse(line, nullptr, false);  // invalid UTF-8 echoed back is replaced
    ASSERT_FALSE(j.is_discarded()) << line;
    out.push_back(j);
  }
  ASSERT_EQ(out.size(), lines.size());
  for (std::size_t k = 0; k + 1 < out.size(); ++k) {
    const std::string st = status_of(out[k]);
    EXPECT_TRUE(st == "ok" || st.rfind("error: ", 0) == 0) << st;
  }
  EXPECT_EQ(status_of(out[1]).rfind("error: not a JSON object", 0), 0u) << status_of(out[1]);
  // 5000 levels of [: past io::kMaxJsonDepth, refused before the parser sees it.
  EXPECT_EQ(status_of(out[3]), "error: too deeply nested (more than 64 levels of [ and {)") << status_of(out[3]);
  // Values near the limit of double: the energy overflows, which is an error, never a null.
  EXPECT_EQ(status_of(out[4]).rfind("error: non-finite result", 0), 0u) << out[4].dump();
  EXPECT_EQ(status_of(out[7]), "error: e outside [0, 1] (e = 2)");  // the last duplicate key wins
  EXPECT_EQ(out.back().at("id"), "last");
  EXPECT_TRUE(near(vec(out.back().at("qdot_plus")), Eigen::VectorXd::Constant(1, 1.0), kTol));
}

TEST(ImpactCommand, StdinAndOutputFile) {
  const auto expected = run_obliq("impact " + quote(example("impact.jsonl")));
  ASSERT_EQ(expected.exit_code, 0);
  ASSERT_FALSE(expected.out.empty());

  const auto from_stdin = run_obliq("impact - < " + quote(example("impact.jsonl")));
  EXPECT_EQ(from_stdin.exit_code, 0);
  EXPECT_EQ(from_stdin.out, expected.out);

  const auto out_path = temp_dir() / "impact_out.jsonl";
  const auto to_file = run_obliq("impact " + quote(example("impact.jsonl")) + " -o " + quote(out_path.string()));
  EXPECT_EQ(to_file.exit_code, 0);
  EXPECT_EQ(to_file.out, "");
  EXPECT_EQ(read_text(out_path), expected.out);

  // Bad lines from stdin still give exit 3 with every line written.
  const auto bad = run_obliq("impact - -o " + quote(out_path.string()) + " < " + quote(example("bad_lines.jsonl")));
  EXPECT_EQ(bad.exit_code, 3);
  EXPECT_EQ(parse_lines(read_text(out_path)).size(), read_scenarios(example("bad_lines.jsonl")).size());
}

TEST(ImpactCommand, BackendsAndThreadsAgree) {
  const auto cpu = run_obliq("impact --backend cpu --threads 1 " + quote(example("impact.jsonl")));
  const auto ref = run_obliq("impact --backend reference --threads 2 " + quote(example("impact.jsonl")));
  ASSERT_EQ(cpu.exit_code, 0) << cpu.err;
  ASSERT_EQ(ref.exit_code, 0) << ref.err;
  const auto a = parse_lines(cpu.out), b = parse_lines(ref.out);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    EXPECT_EQ(a[k].at("id"), b[k].at("id"));
    EXPECT_TRUE(near(vec(a[k].at("qdot_plus")), vec(b[k].at("qdot_plus")), kTol));
    EXPECT_TRUE(near(vec(a[k].at("lambda")), vec(b[k].at("lambda")), kTol));
  }
}

TEST(ImpactCommand, MisuseExitsTwo) {
  const auto missing = run_obliq("impact " + quote((temp_dir() / "does_not_exist.jsonl").string()));
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("cannot read"), std::string::npos) << missing.err;
  EXPECT_EQ(missing.out, "");

  EXPECT_EQ(run_obliq("impact " + quote(temp_dir().string())).exit_code, 2);  // a directory
  EXPECT_EQ(run_obliq("impact").exit_code, 2);                                // no FILE
  EXPECT_EQ(run_obliq("impact --frobnicate " + quote(example("impact.jsonl"))).exit_code, 2);
  EXPECT_EQ(run_obliq("impact --backend gpu " + quote(example("impact.jsonl"))).exit_code, 2);
  EXPECT_EQ(run_obliq("impact --threads -1 " + quote(example("impact.jsonl"))).exit_code, 2);
  EXPECT_EQ(run_obliq("impact --threads many " + quote(example("impact.jsonl"))).exit_code, 2);
  const auto unwritable = run_obliq("impact " + quote(example("impact.jsonl")) + " -o " +
                                    quote((temp_dir() / "no_such_dir" / "out.jsonl").string()));
  EXPECT_EQ(unwritable.exit_code, 2);
  EXPECT_NE(unwritable.err.find("cannot write"), std::string::npos) << unwritable.err;
  EXPECT_EQ(run_obliq("").exit_code, 2);  // no subcommand
}

TEST(ImpactCommand, HelpExitsZero) {
  const auto r = run_obliq("impact --help");
  EXPECT_EQ(r.exit_code, 0);
  const std::string all = r.out + r.err;
  for (const char* word : {"FILE", "--backend", "--threads", "-o"})
    EXPECT_NE(all.find(word), std::string::npos) << word << " in:\n" << all;
  EXPECT_EQ(run_obliq("--help").exit_code, 0);
}

}  // namespace
}  // namespace obliq

// The scenario line reader (io/scenario_json): docs/format.md's structural rules, one reason per
// defect, defaults and broadcasting, keys a command ignores, ids, and the writer's round trip.
#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <string>

#include "mutate.hpp"
#include "obliq/io/scenario_json.hpp"

namespace obliq {
namespace {

using io::parse_scenario_line;
using io::Use;

const std::string kBall = R"("M": [[2, 0], [0, 2]], "qdot": [1, -3], "A_u": [[0, 1]])";

std::string reason(const std::string& line, Use use = Use::impact) {
  return parse_scenario_line(line, 7, use).error;
}

#define EXPECT_REASON(line, text) EXPECT_EQ(reason(line), text) << "line: " << (line)
#define EXPECT_REASON_HAS(line, text) \
  EXPECT_NE(reason(line).find(text), std::string::npos) << "line: " << (line) << "\nreason: " << reason(line)

TEST(ParseLine, GoodLineWithDefaults) {
  auto p = parse_scenario_line("{" + kBall + "}", 3, Use::impact);
  ASSERT_EQ(p.error, "");
  EXPECT_FALSE(p.blank);
  EXPECT_EQ(p.id, 3);  // no id: the physical line number
  const Scenario& s = p.scenario;
  EXPECT_EQ(s.shape(), (Shape{2, 0, 1}));
  EXPECT_EQ(s.M, (Eigen::Matrix2d() << 2, 0, 0, 2).finished());
  EXPECT_EQ(s.qdot, Eigen::Vector2d(1, -3));
  EXPECT_EQ(s.A_b.rows(), 0);
  EXPECT_EQ(s.A_b.cols(), 2);
  EXPECT_EQ(s.A_u, (Eigen::MatrixXd(1, 2) << 0, 1).finished());
  EXPECT_EQ(s.phi_u, Eigen::VectorXd::Zero(1));
  EXPECT_EQ(s.h, Eigen::VectorXd::Zero(2));
  EXPECT_EQ(s.u, Eigen::VectorXd::Zero(2));
  EXPECT_EQ(s.i_u, Eigen::VectorXd::Zero(2));
  EXPECT_EQ(s.Adot_qdot, Eigen::VectorXd::Zero(1));
  EXPECT_EQ(s.e, Eigen::VectorXd::Zero(1));
  EXPECT_EQ(s.law, Law::complementarity);
  EXPECT_EQ(s.gap_tol, 1e-9);
  EXPECT_EQ(s.vel_tol, 1e-9);
}

TEST(ParseLine, EveryKeyRead) {
  const std::string line =
      R"({"id": "x", "M": [[4, 1], [1, 3]], "qdot": [1, 2], "h": [0.5, 0.25], "u": [1, -1], "i_u": [0.1, 0.2],)"
      R"( "A_b": [[1, 1]], "A_u": [[1, 0], [0, 1]], "phi_u": [0, 0.5], "Adot_qdot": [1, 2, 3], "e": [0.25, 1],)"
      R"( "law": "projection", "gap_tol": 0.001, "vel_tol": 0, "unknown key": {"ignored": [1]}})";
  auto p = parse_scenario_line(line, 1, Use::all);
  ASSERT_EQ(p.error, "");
  const Scenario& s = p.scenario;
  EXPECT_EQ(p.id, "x");
  EXPECT_EQ(s.id, "x");
  EXPECT_EQ(s.shape(), (Shape{2, 1, 2}));
  EXPECT_EQ(s.M(0, 1), 1);
  EXPECT_EQ(s.h, Eigen::Vector2d(0.5, 0.25));
  EXPECT_EQ(s.u, Eigen::Vector2d(1, -1));
  EXPECT_EQ(s.i_u, Eigen::Vector2d(0.1, 0.2));
  EXPECT_EQ(s.A_b, (Eigen::MatrixXd(1, 2) << 1, 1).finished());
  EXPECT_EQ(s.phi_u, Eigen::Vector2d(0, 0.5));
  EXPECT_EQ(s.Adot_qdot, Eigen::Vector3d(1, 2, 3));
  EXPECT_EQ(s.e, Eigen::Vector2d(0.25, 1));
  EXPECT_EQ(s.law, Law::projection);
  EXPECT_EQ(s.gap_tol, 0.001);
  EXPECT_EQ(s.vel_tol, 0);
}

TEST(ParseLine, GlobalRestitutionIsBroadcast) {
  auto p = parse_scenario_line(R"({"M": [[1]], "qdot": [1], "A_u": [[1], [2], [3]], "e": 0.5})", 1, Use::impact);
  ASSERT_EQ(p.error, "");
  EXPECT_EQ(p.scenario.e, Eigen::VectorXd::Constant(3, 0.5));
}

TEST(ParseLine, EmptyJacobiansMeanNoRows) {
  auto p = parse_scenario_line(R"({"M": [[1]], "qdot": [1], "A_b": [], "A_u": [], "e": 1})", 1, Use::impact);
  ASSERT_EQ(p.error, "");
  EXPECT_EQ(p.scenario.shape(), (Shape{1, 0, 0}));
}

TEST(ParseLine, BlankLines) {
  for (std::string line : {"", "   ", "\t", "\r", "  \r"}) {
    auto p = parse_scenario_line(line, 4, Use::impact);
    EXPECT_TRUE(p.blank) << "'" << line << "'";
    EXPECT_EQ(p.error, "");
  }
  // A trailing carriage return (CRLF files) does not spoil a good line.
  EXPECT_EQ(reason("{" + kBall + "}\r"), "");
}

TEST(ParseLine, IdsKeepTheirType) {
  EXPECT_EQ(parse_scenario_line(R"({"id": "a b", "M": [[1]], "qdot": [1]})", 9, Use::impact).id, "a b");
  EXPECT_EQ(parse_scenario_line(R"({"id": 42, "M": [[1]], "qdot": [1]})", 9, Use::impact).id, 42);
  EXPECT_EQ(parse_scenario_line(R"({"id": [1, "x"], "M": [[1]], "qdot": [1]})", 9, Use::impact).id,
            io::ojson::parse(R"([1, "x"])"));
  // The id of a line with an error is still echoed; a line that is not an object gets its number.
  EXPECT_EQ(parse_scenario_line(R"({"id": "bad", "M": [[1]]})", 9, Use::impact).id, "bad");
  EXPECT_EQ(parse_scenario_line(R"([1, 2])", 9, Use::impact).id, 9);
  EXPECT_EQ(parse_scenario_line(R"({"id": "nan line", "M": [[1]], "qdot": [NaN]})", 9, Use::impact).id, "nan line");
}

TEST(ParseLine, NotAnObject) {
  EXPECT_REASON("[1, 2]", "not a JSON object (got an array)");
  EXPECT_REASON("3", "not a JSON object (got a number)");
  EXPECT_REASON("\"text\"", "not a JSON object (got a string)");
  EXPECT_REASON("null", "not a JSON object (got null)");
  EXPECT_REASON_HAS("{\"M\": [[1]], \"qdot\": [1]", "not a JSON object (invalid JSON");
  EXPECT_REASON_HAS("garbage", "not a JSON object (invalid JSON");
  EXPECT_REASON_HAS("{\"M\": [[1]]} trailing", "not a JSON object (invalid JSON");
}

TEST(ParseLine, MissingRequiredKeys) {
  EXPECT_REASON(R"({"qdot": [1]})", "missing required key \"M\"");
  EXPECT_REASON(R"({"M": [[1]]})", "missing required key \"qdot\"");
}

TEST(ParseLine, NonFiniteNumbers) {
  EXPECT_REASON(R"({"M": [[1]], "qdot": [NaN]})", "non-finite number in qdot[0]");
  EXPECT_REASON(R"({"M": [[1]], "qdot": [nan]})", "non-finite number in qdot[0]");
  EXPECT_REASON(R"({"M": [[1]], "qdot": [Infinity]})", "non-finite number in qdot[0]");
  EXPECT_REASON(R"({"M": [[1]], "qdot": [-Infinity]})", "non-finite number in qdot[0]");
  EXPECT_REASON(R"({"M": [[1]], "qdot": [-inf]})", "non-finite number in qdot[0]");
  EXPECT_REASON(R"({"M": [[1e999]], "qdot": [1]})", "non-finite number in M[0][0]");
  EXPECT_REASON(R"({"M": [[1]], "qdot": [-1e400]})", "non-finite number in qdot[0]");
  EXPECT_REASON(R"({"M": [[1]], "qdot": [1], "A_u": [[1]], "e": NaN})", "non-finite number in e");
  EXPECT_REASON(R"({"M": [[1]], "qdot": [1], "A_u": [[1]], "phi_u": [Infinity]})", "non-finite number in phi_u[0]");
  EXPECT_REASON(R"({"M": [[1]], "qdot": [1], "gap_tol": NaN})", "non-finite number in gap_tol");
  EXPECT_REASON_HAS("NaN", "non-finite number");
  // In a key this command does not use, the line is still not valid JSON: an error.
  EXPECT_REASON_HAS(R"({"M": [[1]], "qdot": [1], "h": [NaN]})", "non-finite number");
  // A numeric underflow is not an error: it reads as 0.
  EXPECT_EQ(reason(R"({"M": [[1]], "qdot": [1e-999]})"), "");
}

TEST(ParseLine, NonNumericEntries) {
  EXPECT_REASON(R"({"M": [[1, "0"], [0, 1]], "qdot": [1, 1]})", "M[0][1]: not a number (got a string)");
  EXPECT_REASON(R"({"M": [[1]], "qdot": [true]})", "qdot[0]: not a number (got a boolean)");
  EXPECT_REASON(R"({"M": [[1]], "qdot": [null]})", "qdot[0]: not a number (got null)");
  EXPECT_REASON(R"({"M": [[1]], "qdot": [[1]]})", "qdot[0]: not a number (got an array)");
  EXPECT_REASON(R"({"M": [[1]], "qdot": [1], "A_u": [[{}]]})", "A_u[0][0]: not a number (got an object)");
  EXPECT_REASON(R"({"M": [[1]], "qdot": [1], "gap_tol": "small"})", "gap_tol: not a number (got a string)");
  EXPECT_REASON_HAS(R"({"M": [[1]], "qdot": [1], "A_u": [[1]], "e": "0.5"})", "e: not a number (got a string)");
}

TEST(ParseLine, ScalarWhereAnArrayBelongs) {
  EXPECT_REASON(R"({"M": 1, "qdot": [1]})", "M: expected an n x n array of rows, got a number");
  EXPECT_REASON(R"({"M": [[1]], "qdot": 1})", "qdot: expected an array of 1 numbers, got a number");
  EXPECT_REASON(R"({"M": [1], "qdot": [1]})", "M[0]: expected a row (an array of 1 numbers), got a number");
  EXPECT_REASON(R"({"M": [[1]], "qdot": [1], "A_u": [1]})", "A_u[0]: expected a row (an array of 1 numbers), got a number");
  EXPECT_REASON(R"({"M": [[1]], "qdot": [1], "A_b": 0})", "A_b: expected an array of rows (arrays of numbers), got a number");
  EXPECT_REASON(R"({"M": [[1]], "qdot": [1], "A_u": [[1]], "phi_u": 0})",
                "phi_u: expected an array of 1 numbers, got a number");
}

TEST(ParseLine, WrongShapes) {
  EXPECT_REASON(R"({"M": [], "qdot": []})", "bad shape: M is empty (n must be at least 1)");
  EXPECT_REASON(R"({"M": [[1, 0]], "qdot": [1]})", "bad shape: M[0] has 2 entries, expected 1 (n = 1 from M)");
  EXPECT_REASON(R"({"M": [[1, 0], [0]], "qdot": [1, 1]})", "bad shape: M[1] has 1 entries, expected 2 (n = 2 from M)");
  EXPECT_REASON(R"({"M": [[1]], "qdot": [1, 2]})", "bad shape: qdot has 2 entries, expected 1 (n = 1 from M)");
  EXPECT_REASON(R"({"M": [[1]], "qdot": [1], "A_b": [[1, 0]]})",
                "bad shape: A_b[0] has 2 entries, expected 1 (n = 1 from M)");
  EXPECT_REASON(R"({"M": [[1]], "qdot": [1], "A_u": [[1], []]})",
                "bad shape: A_u[1] has 0 entries, expected 1 (n = 1 from M)");
  EXPECT_REASON(R"({"M": [[1]], "qdot": [1], "A_u": [[1]], "phi_u": [0, 0]})",
                "bad shape: phi_u has 2 entries, expected 1 (m_u = 1 from A_u)");
  EXPECT_REASON(R"({"M": [[1]], "qdot": [1], "A_u": [[1]], "e": [0.5, 0.5]})",
                "bad shape: e has 2 entries, expected 1 (m_u = 1 from A_u)");
  EXPECT_REASON(R"({"M": [[1]], "qdot": [1], "i_u": [0, 0]})", "bad shape: i_u has 2 entries, expected 1 (n = 1 from M)");
  EXPECT_EQ(reason(R"({"M": [[1]], "qdot": [1], "h": [0, 0]})", Use::dynamics),
            "bad shape: h has 2 entries, expected 1 (n = 1 from M)");
  EXPECT_EQ(reason(R"({"M": [[1]], "qdot": [1], "A_b": [[1]], "A_u": [[1]], "Adot_qdot": [0]})", Use::dynamics),
            "bad shape: Adot_qdot has 1 entries, expected 2 (m_b + m_u = 2 from A_b and A_u)");
}

TEST(ParseLine, RestitutionOutsideUnitInterval) {
  EXPECT_REASON(R"({"M": [[1]], "qdot": [1], "A_u": [[1]], "e": 1.5})", "e outside [0, 1] (e = 1.5)");
  EXPECT_REASON(R"({"M": [[1]], "qdot": [1], "A_u": [[1]], "e": -0.1})", "e outside [0, 1] (e = -0.1)");
  EXPECT_REASON(R"({"M": [[1]], "qdot": [1], "A_u": [[1], [1]], "e": [1, 1.0000001]})",
                "e outside [0, 1] (e[1] = 1.0000001)");
  // The limits themselves are valid (docs/math.md 8, eq 21).
  EXPECT_EQ(reason(R"({"M": [[1]], "qdot": [1], "A_u": [[1], [1]], "e": [0, 1]})"), "");
}

TEST(ParseLine, LawAndTolerances) {
  EXPECT_REASON(R"({"M": [[1]], "qdot": [1], "law": "magic"})",
                "unknown law \"magic\" (expected \"projection\" or \"complementarity\")");
  EXPECT_REASON(R"({"M": [[1]], "qdot": [1], "law": 1})",
                "law: expected \"projection\" or \"complementarity\", got a number");
  EXPECT_REASON(R"({"M": [[1]], "qdot": [1], "gap_tol": -1e-3})", "negative tolerance (gap_tol = -0.001)");
  EXPECT_REASON(R"({"M": [[1]], "qdot": [1], "vel_tol": -1})", "negative tolerance (vel_tol = -1)");
}

TEST(ParseLine, KeysACommandDoesNotUseAreIgnored) {
  // dynamics ignores e and i_u; impact ignores h, u and Adot_qdot (docs/format.md fine print).
  const std::string dyn_only = R"({"M": [[1]], "qdot": [1], "A_u": [[1]], "h": "x", "u": [1, 2], "Adot_qdot": 3})";
  const std::string imp_only = R"({"M": [[1]], "qdot": [1], "A_u": [[1]], "e": 7, "i_u": [true]})";
  EXPECT_EQ(reason(dyn_only, Use::impact), "");
  EXPECT_EQ(reason(imp_only, Use::dynamics), "");
  EXPECT_NE(reason(dyn_only, Use::dynamics), "");
  EXPECT_NE(reason(imp_only, Use::impact), "");
  // Ignored keys are left at zero.
  auto p = parse_scenario_line(R"({"M": [[1]], "qdot": [1], "A_u": [[1]], "e": 0.5, "i_u": [2]})", 1, Use::dynamics);
  ASSERT_EQ(p.error, "");
  EXPECT_EQ(p.scenario.e, Eigen::VectorXd::Zero(1));
  EXPECT_EQ(p.scenario.i_u, Eigen::VectorXd::Zero(1));
}

TEST(ParseLine, ValueChecksAreLeftToTheSolver) {
  // Symmetry and positive definiteness need linear algebra: the backends report them as a
  // status; the reader accepts the line.
  EXPECT_EQ(reason(R"({"M": [[1, 2], [2, 1]], "qdot": [1, 1]})"), "");
  EXPECT_EQ(reason(R"({"M": [[1, 0.5], [0, 1]], "qdot": [1, 1]})"), "");
}

TEST(ParseLine, MutatedLinesNeverThrowAndOkMeansConsistentShapes) {
  // Random edits of good lines (characters that matter to JSON and to this schema): the reader
  // must never throw, and whenever it accepts a line the scenario's shapes must agree.
  const std::vector<std::string> seeds = {
      R"({"id": "a", "M": [[2, 0.5], [0.5, 1]], "qdot": [1, -2], "A_b": [[1, 0]], "A_u": [[0, 1], [1, 1]], "e": [0.2, 0.9], "phi_u": [0, 0]})",
      R"({"M": [[1]], "qdot": [-1], "h": [1], "u": [2], "Adot_qdot": [0.5], "A_u": [[1]], "law": "projection", "gap_tol": 1e-9})",
  };
  const std::string alphabet = "{}[],:\"-+.0123456789eENaIfinity nul";
  std::mt19937_64 rng(2024);
  int accepted = 0, rejected = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const std::string line = cli_test::mutate_line(seeds[trial % seeds.size()], rng, alphabet);
    for (Use use : {Use::impact, Use::dynamics, Use::all}) {
      io::ScenarioLine p;
      ASSERT_NO_THROW(p = parse_scenario_line(line, trial, use)) << line;
      if (p.blank) continue;
      if (!p.error.empty()) {
        ++rejected;
        continue;
      }
      ++accepted;
      const Scenario& s = p.scenario;
      const Shape sh = s.shape();
      ASSERT_GE(sh.n, 1) << line;
      EXPECT_EQ(s.M.cols(), sh.n) << line;
      EXPECT_EQ(s.qdot.size(), sh.n) << line;
      EXPECT_EQ(s.h.size(), sh.n) << line;
      EXPECT_EQ(s.u.size(), sh.n) << line;
      EXPECT_EQ(s.i_u.size(), sh.n) << line;
      EXPECT_EQ(s.A_b.cols(), sh.n) << line;
      EXPECT_EQ(s.A_u.cols(), sh.n) << line;
      EXPECT_EQ(s.phi_u.size(), sh.m_u) << line;
      EXPECT_EQ(s.e.size(), sh.m_u) << line;
      EXPECT_EQ(s.Adot_qdot.size(), sh.m_b + sh.m_u) << line;
      EXPECT_TRUE(s.M.allFinite() && s.qdot.allFinite() && s.A_u.allFinite() && s.e.allFinite()) << line;
      EXPECT_TRUE((s.e.array() >= 0).all() && (s.e.array() <= 1).all()) << line;
      EXPECT_GE(s.gap_tol, 0) << line;
      EXPECT_GE(s.vel_tol, 0) << line;
    }
  }
  // Both outcomes occur, so the loop tested something.
  EXPECT_GT(accepted, 100);
  EXPECT_GT(rejected, 100);
}

TEST(ScenarioToJson, RoundTripsEveryNumberExactly) {
  Scenario s = Scenario::zeros({3, 1, 2});
  s.id = "round trip";
  s.M << 2.0 / 3, 0.1, 0, 0.1, 1e-300, 0, 0, 0, 7e300;
  s.qdot << 1.0 / 3, -0.1, 5e-324;
  s.h << 0.3, 0.7, -1;
  s.u << 1, 2, 3;
  s.i_u << -4, 5, std::nextafter(1.0, 2.0);
  s.A_b << 1, 0, 0;
  s.A_u << 0, 1, 0, 0, 0, 1;
  s.phi_u << 0, 1e-12;
  s.Adot_qdot << 0.1, 0.2, 0.3;
  s.e << 0.25, 1;
  s.law = Law::projection;
  s.gap_tol = 3e-7;
  s.vel_tol = 0;
  const std::string line = io::dump_line(io::scenario_to_json(s));
  auto p = parse_scenario_line(line, 1, Use::all);
  ASSERT_EQ(p.error, "") << line;
  const Scenario& r = p.scenario;
  EXPECT_EQ(r.id, s.id);
  EXPECT_EQ(r.M, s.M);
  EXPECT_EQ(r.qdot, s.qdot);
  EXPECT_EQ(r.h, s.h);
  EXPECT_EQ(r.u, s.u);
  EXPECT_EQ(r.i_u, s.i_u);
  EXPECT_EQ(r.A_b, s.A_b);
  EXPECT_EQ(r.A_u, s.A_u);
  EXPECT_EQ(r.phi_u, s.phi_u);
  EXPECT_EQ(r.Adot_qdot, s.Adot_qdot);
  EXPECT_EQ(r.e, s.e);
  EXPECT_EQ(r.law, s.law);
  EXPECT_EQ(r.gap_tol, s.gap_tol);
  EXPECT_EQ(r.vel_tol, s.vel_tol);
}

TEST(ScenarioToJson, NoRowsWriteEmptyArrays) {
  const nlohmann::json j = io::scenario_to_json(Scenario::zeros({2, 0, 0}));
  EXPECT_EQ(j.at("A_b"), nlohmann::json::array());
  EXPECT_EQ(j.at("A_u"), nlohmann::json::array());
  EXPECT_FALSE(j.contains("id"));
  EXPECT_EQ(reason(io::dump_line(j)), "");
}

TEST(ResultJson, ErrorLinesCarryOnlyIdAndStatus) {
  ImpactResult r;
  r.status = Status::not_spd;
  const io::ojson j = io::impact_result_to_json("x", r);
  EXPECT_EQ(j.size(), 2u);
  EXPECT_EQ(j.at("id"), "x");
  EXPECT_EQ(j.at("status"), std::string("error: ") + status_reason(Status::not_spd));
  DynamicsResult d;
  d.status = Status::unresolved_impact;
  EXPECT_EQ(io::dynamics_result_to_json(5, d).size(), 2u);
}

TEST(ResultJson, NonFiniteResultsBecomeErrorLines) {
  // JSON has no Infinity: an overflowed result is reported, never written as null.
  ImpactResult r;
  r.qdot_plus = Eigen::Vector2d(1, 2);
  r.impulse = Eigen::Vector2d(0, 0);
  r.lambda = Eigen::VectorXd::Zero(1);
  r.active = Eigen::VectorXi::Ones(1);
  r.kinetic_energy_pre = std::numeric_limits<double>::infinity();
  const io::ojson j = io::impact_result_to_json("big", r);
  EXPECT_EQ(j.size(), 2u);
  EXPECT_EQ(j.at("status").get<std::string>().rfind("error: non-finite result", 0), 0u);
  DynamicsResult d;
  d.qddot = Eigen::Vector2d(std::nan(""), 0);
  d.lambda = Eigen::VectorXd::Zero(0);
  d.active = Eigen::VectorXi::Zero(0);
  EXPECT_EQ(io::dynamics_result_to_json(1, d).size(), 2u);
}

TEST(ResultJson, OkLinesHaveEveryKeyAndExactNumbers) {
  ImpactResult r;
  r.qdot_plus = Eigen::Vector2d(1.0 / 3, -2.0 / 7);
  r.impulse = Eigen::Vector2d(0.1, 1e-310);
  r.lambda = Eigen::Vector3d(1, 2, 3);
  r.active = Eigen::Vector2i(1, 0);
  r.kinetic_energy_pre = 0.7;
  r.kinetic_energy_post = 0.3;
  r.energy_consistent = false;
  const io::ojson j = io::ojson::parse(io::dump_line(io::impact_result_to_json("a", r)));
  EXPECT_EQ(j.at("status"), "ok");
  EXPECT_EQ(j.at("qdot_plus")[0].get<double>(), 1.0 / 3);
  EXPECT_EQ(j.at("qdot_plus")[1].get<double>(), -2.0 / 7);
  EXPECT_EQ(j.at("impulse")[1].get<double>(), 1e-310);
  EXPECT_EQ(j.at("lambda").size(), 3u);
  EXPECT_EQ(j.at("active"), io::ojson::parse("[1, 0]"));
  EXPECT_EQ(j.at("kinetic_energy_pre").get<double>(), 0.7);
  EXPECT_EQ(j.at("kinetic_energy_post").get<double>(), 0.3);
  EXPECT_EQ(j.at("energy_consistent"), false);
  DynamicsResult d;
  d.qddot = Eigen::Vector2d(0.1, 0.2);
  d.lambda = Eigen::VectorXd::Zero(0);
  d.active = Eigen::VectorXi::Zero(0);
  const io::ojson k = io::dynamics_result_to_json(3, d);
  EXPECT_EQ(k.at("lambda"), io::ojson::array());
  EXPECT_EQ(k.at("qddot")[1].get<double>(), 0.2);
}

}  // namespace
}  // namespace obliq

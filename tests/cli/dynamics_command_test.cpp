// `obliq dynamics` end to end: the seed-004 example and hand-checkable cases, keys the command
// ignores, the unresolved-impact error, against closed forms and the reference path.
#include <gtest/gtest.h>

#include <map>

#include "cli_helpers.hpp"
#include "obliq/io/scenario_json.hpp"
#include "obliq/reference.hpp"

namespace obliq {
namespace {

using namespace cli_test;

constexpr double kTol = 1e-10;

void expect_matches_reference(const json& out, const Scenario& s) {
  SCOPED_TRACE("id " + out.at("id").dump());
  const DynamicsResult ref = reference::dynamics(s);
  ASSERT_EQ(ref.status, Status::ok);
  ASSERT_EQ(status_of(out), "ok");
  EXPECT_TRUE(near(vec(out.at("qddot")), ref.qddot, kTol));
  EXPECT_TRUE(near(vec(out.at("lambda")), ref.lambda, kTol));
  EXPECT_EQ(vec(out.at("active")), ref.active.cast<double>());
}

TEST(DynamicsCommand, BundledExampleMatchesClosedFormsAndReference) {
  const auto r = run_obliq("dynamics " + quote(example("dynamics.jsonl")));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto out = parse_lines(r.out);
  const auto lines = file_lines(example("dynamics.jsonl"));
  ASSERT_EQ(out.size(), lines.size());
  std::map<std::string, json> by_id;
  for (std::size_t k = 0; k < out.size(); ++k) {
    auto p = io::parse_scenario_line(lines[k], long(k + 1), io::Use::dynamics);
    ASSERT_EQ(p.error, "");
    EXPECT_EQ(out[k].at("id"), p.id);
    EXPECT_EQ(out[k].size(), 5u);  // id, status, qddot, lambda, active
    expect_matches_reference(out[k], p.scenario);
    by_id[out[k].at("id").get<std::string>()] = out[k];
  }

  // Seed 004: W = [[2, 1], [1, 2]], b = (-3, -3): N = (1, 1), w = 0, so qddot = 0 under either law.
  for (const char* id : {"seed 004", "seed 004, projection law"}) {
    EXPECT_TRUE(near(vec(by_id.at(id).at("qddot")), Eigen::Vector3d::Zero(), kTol)) << id;
    EXPECT_TRUE(near(vec(by_id.at(id).at("lambda")), Eigen::Vector2d(1, 1), kTol)) << id;
    EXPECT_EQ(vec(by_id.at(id).at("active")), Eigen::Vector2d(1, 1)) << id;
  }
  // Ball of mass 2 resting under gravity (h_z = m g = 19.62): the floor carries m g.
  EXPECT_TRUE(near(vec(by_id.at("ball resting on the floor").at("qddot")), Eigen::Vector3d::Zero(), kTol));
  EXPECT_TRUE(near(vec(by_id.at("ball resting on the floor").at("lambda")), Eigen::VectorXd::Constant(1, 19.62), kTol));
  // Lifted by u_z = 30 > m g: it leaves the floor, a_z = (30 - 19.62) / 2, no force...
  EXPECT_TRUE(near(vec(by_id.at("ball lifted off the floor").at("qddot")), Eigen::Vector3d(0, 0, 5.19), kTol));
  EXPECT_TRUE(near(vec(by_id.at("ball lifted off the floor").at("lambda")), Eigen::VectorXd::Zero(1), kTol));
  // ...unless the projection law holds the row: the floor pulls with 19.62 - 30.
  const json& held = by_id.at("ball held on the floor, projection law");
  EXPECT_TRUE(near(vec(held.at("qddot")), Eigen::Vector3d::Zero(), kTol));
  EXPECT_TRUE(near(vec(held.at("lambda")), Eigen::VectorXd::Constant(1, -10.38), kTol));
  // Box of mass 2 on four corners: minimum-norm forces share m g equally.
  const json& box = by_id.at("box resting on four corners (redundant)");
  EXPECT_TRUE(near(vec(box.at("qddot")), Eigen::VectorXd::Zero(6), kTol));
  EXPECT_TRUE(near(vec(box.at("lambda")), Eigen::Vector4d::Constant(19.62 / 4), kTol));
  // Bilateral rail x = 0 with Adot qdot = 0.5: a_x = -0.5 (A a + c = 0), a_y = u_y, lambda = -0.5.
  const json& rail = by_id.at("slider on a bilateral rail with Adot qdot");
  EXPECT_TRUE(near(vec(rail.at("qddot")), Eigen::Vector2d(-0.5, -1), kTol));
  EXPECT_TRUE(near(vec(rail.at("lambda")), Eigen::VectorXd::Constant(1, -0.5), kTol));
  EXPECT_EQ(rail.at("active"), json::array());
}

TEST(DynamicsCommand, IgnoredKeysErrorsAndOrder) {
  const std::string ball = R"("M": [[2, 0, 0], [0, 2, 0], [0, 0, 2]], "h": [0, 0, 19.62], "A_u": [[0, 0, 1]])";
  const std::vector<std::pair<std::string, std::string>> lines = {
      // e and i_u are impact keys: ignored here, even when they would be invalid.
      {R"({"id": "ignores e and i_u", "qdot": [1, 0, 0], "e": 7, "i_u": "junk", )" + ball + "}", "ok"},
      // A closed row approaching: the impact must be resolved first.
      {R"({"id": "approaching", "qdot": [1, 0, -1], )" + ball + "}",
       std::string("error: ") + status_reason(Status::unresolved_impact)},
      {R"({"id": "open gap", "qdot": [1, 0, -1], "phi_u": [0.5], )" + ball + "}", "ok"},
      {R"({"id": "bad h", "qdot": [1], "M": [[1]], "h": [1, 2]})",
       "error: bad shape: h has 2 entries, expected 1 (n = 1 from M)"},
      {R"({"id": "not spd", "qdot": [1, 0], "M": [[1, 0], [0, -1]]})",
       std::string("error: ") + status_reason(Status::not_spd)},
      {R"({"id": "bad Adot_qdot", "qdot": [1, 0, 0], "Adot_qdot": [1, 2], )" + ball + "}",
       "error: bad shape: Adot_qdot has 2 entries, expected 1 (m_b + m_u = 1 from A_b and A_u)"},
  };
  std::string text;
  for (const auto& [l, s] : lines) text += l + "\n";
  const auto path = write_temp("dynamics_lines.jsonl", text);
  const auto r = run_obliq("dynamics " + quote(path.string()));
  EXPECT_EQ(r.exit_code, 3) << r.err;
  const auto out = parse_lines(r.out);
  ASSERT_EQ(out.size(), lines.size());
  for (std::size_t k = 0; k < lines.size(); ++k) {
    SCOPED_TRACE(lines[k].first);
    EXPECT_EQ(out[k].at("id"), json::parse(lines[k].first).at("id"));
    EXPECT_EQ(status_of(out[k]), lines[k].second);
  }
  // Resting ball: the floor carries m g. Ball above the floor: free fall, a_z = -g.
  EXPECT_TRUE(near(vec(out[0].at("lambda")), Eigen::VectorXd::Constant(1, 19.62), kTol));
  EXPECT_TRUE(near(vec(out[2].at("qddot")), Eigen::Vector3d(0, 0, -9.81), kTol));
  EXPECT_EQ(vec(out[2].at("active")), Eigen::VectorXd::Zero(1));
}

TEST(DynamicsCommand, StdinGivesTheSameLines) {
  const auto a = run_obliq("dynamics " + quote(example("dynamics.jsonl")));
  const auto b = run_obliq("dynamics - < " + quote(example("dynamics.jsonl")));
  EXPECT_EQ(a.exit_code, 0);
  EXPECT_EQ(b.exit_code, 0);
  EXPECT_FALSE(a.out.empty());
  EXPECT_EQ(a.out, b.out);
}

}  // namespace
}  // namespace obliq

// `obliq model --mu`: the model layer's tangent rows (tangent_rows.hpp) on the built-in ball
// (point mass of 1 moving in x, y, z; contact at its lowest point, 0.1 below the centre): floor
// normal +z gives t1 = +y, t2 = -x; --impact with --mu against the closed form of a sliding and of
// a sticking impact; --floor-normal tilts the rows; the quadruped's feet rows at the neutral state.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "obliq/model/friction_rows.hpp"
#include "obliq/model/host.hpp"

using nlohmann::json;

namespace {

json run_one(const std::string& args, const std::string& state) {
  const std::string path = std::string(::testing::TempDir()) + std::to_string(::getpid()) + "_friction_state.jsonl";
  std::ofstream(path) << state << "\n";
  const std::string cmd = std::string(OBLIQ_CLI_PATH) + " model ball --state " + path + " " + args;
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  while (size_t k = fread(buf, 1, sizeof buf, p)) out.append(buf, k);
  pclose(p);
  return json::parse(out.substr(0, out.find('\n')));
}

TEST(ModelFriction, BallTangentRowsAndImpactClosedForm) {
  // At rest on the floor (z = 0.1), moving (3, 0, -2): e = 0.5, mu = 0.25 -> P_N = 1.5 * 2 = 3,
  // sliding: P_T = 0.75 against x, vx+ = 2.25.
  const json j = run_one("--impact --e 0.5 --mu 0.25", R"({"id":1,"q":[0,0,0.1],"qdot":[3,0,-2]})");
  ASSERT_EQ(j.at("status"), "ok") << j.dump();
  EXPECT_EQ(j.at("dim"), 3);
  EXPECT_EQ(j.at("A_t"), json::parse("[[0,1,0],[-1,0,0]]"));
  EXPECT_NEAR(j.at("qdot_plus")[0].get<double>(), 2.25, 1e-12);
  EXPECT_NEAR(j.at("qdot_plus")[2].get<double>(), 1.0, 1e-12);
  EXPECT_NEAR(j.at("lambda_t")[1].get<double>(), 0.75, 1e-12);  // along t2 = -x
  // Large mu: sticks, vx+ = 0.
  const json k = run_one("--impact --e 0.5 --mu 2", R"({"id":1,"q":[0,0,0.1],"qdot":[3,0,-2]})");
  EXPECT_NEAR(k.at("qdot_plus")[0].get<double>(), 0.0, 1e-12);
}

TEST(ModelFriction, FloorNormalTiltsTheRows) {
  const double s = std::sqrt(0.5);
  const json j = run_one("--mu 0.5 --floor-normal 1,0,1", R"({"id":1,"q":[0,0,0.1],"qdot":[0,0,0]})");
  ASSERT_EQ(j.at("status"), "ok");
  EXPECT_NEAR(j.at("A_u")[0][0].get<double>(), s, 1e-15);
  EXPECT_NEAR(j.at("A_u")[0][2].get<double>(), s, 1e-15);
  // n = (s, 0, s): least aligned axis y, t1 = n x y = (-s, 0, s), t2 = n x t1 = (0, -1, 0).
  EXPECT_NEAR(j.at("A_t")[0][0].get<double>(), -s, 1e-15);
  EXPECT_NEAR(j.at("A_t")[0][2].get<double>(), s, 1e-15);
  EXPECT_NEAR(j.at("A_t")[1][1].get<double>(), -1.0, 1e-15);
}

TEST(ModelFriction, QuadrupedTangentRowsAreOrthogonalPointVelocities) {
  const auto m = obliq::model::builtin_model("quadruped");
  Eigen::VectorXd q = obliq::model::neutral(m), v = Eigen::VectorXd::LinSpaced(m.nv, -1, 1);
  obliq::Scenario s;
  obliq::Friction f;
  ASSERT_EQ(obliq::model::evaluate(m, q, v, s), obliq::Status::ok);
  ASSERT_EQ(obliq::model::evaluate_friction(m, q, v, 0.7, f), obliq::Status::ok);
  ASSERT_EQ(f.A_t.rows(), 2 * s.A_u.rows());
  EXPECT_EQ(f.mu, Eigen::VectorXd::Constant(s.A_u.rows(), 0.7));
  // At the neutral state the base frame is the world's, and the base's linear velocity moves every
  // foot point by itself: the first three columns of each row are its direction, n = +z,
  // t1 = +y, t2 = -x; the rows are independent (leg with 3 joints + base).
  for (int c = 0; c < s.A_u.rows(); ++c) {
    EXPECT_LT((s.A_u.row(c).head(3) - Eigen::RowVector3d(0, 0, 1)).norm(), 1e-15);
    EXPECT_LT((f.A_t.row(2 * c).head(3) - Eigen::RowVector3d(0, 1, 0)).norm(), 1e-15);
    EXPECT_LT((f.A_t.row(2 * c + 1).head(3) - Eigen::RowVector3d(-1, 0, 0)).norm(), 1e-15);
    Eigen::MatrixXd J(3, m.nv);
    J << s.A_u.row(c), f.A_t.row(2 * c), f.A_t.row(2 * c + 1);
    EXPECT_EQ(Eigen::FullPivLU<Eigen::MatrixXd>(J).rank(), 3);
  }
}

}  // namespace

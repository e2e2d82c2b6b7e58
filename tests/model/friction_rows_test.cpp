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

// A quadruped state from a random-policy run (Moreau-Jean, h = 5e-3, mu = 0.8: the step's impact
// problem, four feet taking part) on which Newton and NSGS both stop with a foot at r_N = 0 and
// u_N < 0 (so do Siconos's fc3d_nsgs and NSN_AC); the extragradient fallback of the cone solver
// (cone_solver.hpp) certifies it. Oracle: Siconos's fc3d PROX and VI_EG on the same W, q (both
// converged to 1e-15, 2026-12-03) give the normal impulses below.
TEST(ModelFriction, QuadrupedStepThatNewtonAndNsgsMiss) {
  const auto m = obliq::model::builtin_model("quadruped");
  Eigen::VectorXd q(19), v(18), u(18);
  q << 0.053638314058281247, 0.017359353882685762, 0.11319564812217765, -0.11570310095018473, 0.15440507062871156, -0.9811988172814522, -0.0045549489715674555, 0.23883479484774628, -0.14358686777346333, -1.5350237384049865, -0.29131121640949859, 0.37415221422273098, -1.3605099832404046, -0.53893978930835507, -0.041251846174873014, -2.8617576650440681, -0.63396830782115576, 0.66420243475064511, -1.8227269903806171;
  v << -1.2981445034604766, 0.18585968740780873, -0.83724043905837031, 0.44153786367473091, -1.6880479620550188, 2.1111872051029037, -7.8382959321647911, -6.5805886665144078, 5.2364552421024086, -0.28210660655676101, -4.8117240586886449, 1.2159887019642133, -14.029478858527682, -36.141083402021586, 4.2631762075612514, -2.1338402704676418, 1.361481377594528, -5.4262108551590522;
  u << 0, 0, 0, 0, 0, 0, -30, 30, 30, -27.844566735997816, 30, 30, 30, 30, 30, 28.7470823317, -30, 30;
  obliq::Scenario s;
  ASSERT_EQ(obliq::model::evaluate(m, q, v, s), obliq::Status::ok);
  const double h = 5e-3;
  s.i_u = h * (u - s.h);                          // the step's applied impulse
  Eigen::VectorXd w = s.A_u * v;                  // its predicted gaps (docs/simulator.md, friction)
  for (int i = 0; i < w.size(); ++i)
    if (std::abs(w(i)) <= 1e-9) w(i) = 0;
  s.phi_u = s.phi_u + 0.5 * h * w;
  s.gap_tol = 0;
  s.vel_tol = 1e30;
  s.e.setZero();
  obliq::Friction f;
  ASSERT_EQ(obliq::model::evaluate_friction(m, q, v, 0.8, f), obliq::Status::ok);
  obliq::FrictionResult info;
  const obliq::ImpactResult r = obliq::impact(s, f, &info);
  ASSERT_EQ(r.status, obliq::Status::ok);
  EXPECT_EQ(info.method, "extragradient");
  EXPECT_LE(info.residual, 1e-9);
  const double siconos[4] = {0.552406903495, 0.595245152395, 1.41318577537, 0.711188532688};
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(r.lambda(i), siconos[i], 1e-9 * siconos[i]) << "foot " << i;
}

}  // namespace

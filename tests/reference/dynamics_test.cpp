// Dynamics (docs/math.md 4 and 7, Gauss's principle): closed forms, redundant contacts, the seed-004
// example, the minimum-norm valid multiplier, infeasible constraints, random KKT residuals.
// Closed-form checks on O(1) values use 1e-14 absolute (about 45 ulps of the result).
#include <gtest/gtest.h>

#include "reference_helpers.hpp"

namespace obliq::reference {
namespace {

using namespace testing;

// A box (q = linear velocity, angular velocity; M = diag(m, m, m, Ix, Iy, Iz)) resting on its
// four bottom corners r = (+-a, +-b, -c): normal rows (0, 0, 1, r_y, -r_x, 0), rank 3 of 4.
// Under gravity (h = (0, 0, m g, 0, 0, 0)): qddot = 0 and the minimum-norm forces are m g / 4.
TEST(ReferenceDynamics, BoxOnFourCorners) {
  const double m = 2.0, g = 9.81, a = 0.3, b = 0.2, c = 0.1;
  Scenario s = Scenario::zeros({6, 0, 4});
  s.M.diagonal() << m, m, m, 0.05, 0.07, 0.09;
  const double corners[4][2] = {{a, b}, {-a, b}, {-a, -b}, {a, -b}};
  for (int i = 0; i < 4; ++i) s.A_u.row(i) << 0, 0, 1, corners[i][1], -corners[i][0], 0;
  (void)c;
  s.h << 0, 0, m * g, 0, 0, 0;
  for (Law law : {Law::projection, Law::complementarity}) {
    s.law = law;
    const DynamicsResult r = dynamics(s);
    ASSERT_EQ(r.status, Status::ok);
    EXPECT_EQ(r.active, Eigen::Vector4i(1, 1, 1, 1));
    EXPECT_LT(r.qddot.norm(), 1e-14 * g);
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(r.lambda(i), m * g / 4, 1e-13);
  }
  // Pushed up harder than gravity: it lifts off, no force, free acceleration.
  s.u << 0, 0, 3 * m * g, 0, 0, 0;
  s.law = Law::complementarity;
  const DynamicsResult lift = dynamics(s);
  ASSERT_EQ(lift.status, Status::ok);
  EXPECT_EQ(lift.lambda.norm(), 0.0);
  EXPECT_NEAR(lift.qddot(2), 2 * g, 1e-13);
}

// docs/math.md 7, seed 004: M = I_3, A_u = [[1,1,0],[0,1,1]], u = (-1,-2,-1), qdot = (1,-1,1)
// (resting): W = [[2,1],[1,2]], b = (-3,-3), lambda = (1,1), w = 0 and qddot = 0.
TEST(ReferenceDynamics, Seed004CoupledContacts) {
  Scenario s = Scenario::zeros({3, 0, 2});
  s.A_u << 1, 1, 0, 0, 1, 1;
  s.u << -1, -2, -1;
  s.qdot << 1, -1, 1;
  for (Law law : {Law::projection, Law::complementarity}) {
    s.law = law;
    const DynamicsResult r = dynamics(s);
    ASSERT_EQ(r.status, Status::ok);
    EXPECT_EQ(r.active, Eigen::Vector2i(1, 1));
    EXPECT_LT((r.lambda - Eigen::Vector2d(1, 1)).norm(), 1e-14);
    EXPECT_LT(r.qddot.norm(), 1e-14);
  }
}

// docs/math.md 7: rows a1, a2, a1 + a2 with f = M qdd + h - u = a1. Pseudo-inverse (projection law):
// (2/3, -1/3, 1/3); the valid minimum-norm multiplier (complementarity): (1, 0, 0).
TEST(ReferenceDynamics, MinimumNormValidMultiplier) {
  Scenario s = Scenario::zeros({2, 0, 3});
  s.A_u << 1, 0, 0, 1, 1, 1;
  s.u << -1, 0;
  s.law = Law::projection;
  DynamicsResult r = dynamics(s);
  ASSERT_EQ(r.status, Status::ok);
  EXPECT_LT(r.qddot.norm(), 1e-14);
  EXPECT_LT((r.lambda - Eigen::Vector3d(2.0 / 3, -1.0 / 3, 1.0 / 3)).norm(), 1e-14);
  s.law = Law::complementarity;
  r = dynamics(s);
  ASSERT_EQ(r.status, Status::ok);
  EXPECT_LT(r.qddot.norm(), 1e-14);
  EXPECT_LT((r.lambda - Eigen::Vector3d(1, 0, 0)).norm(), 1e-14);
  // The same with a bilateral copy of a2 (lambda_b free in sign): lambda_b a2 + l1 a1 + l2 a2
  // + l3 (a1 + a2) = a1 gives l1 = 1 - l3, lambda_b = -l2 - l3; the norm is smallest at l2 = 0,
  // l3 = 1/3: (-1/3 | 2/3, 0, 1/3). (The pseudo-inverse would take l2 = -0.2, l3 = 0.4.)
  s.A_b = MatrixXd(1, 2);
  s.A_b << 0, 1;
  s.Adot_qdot = VectorXd::Zero(4);
  r = dynamics(s);
  ASSERT_EQ(r.status, Status::ok);
  EXPECT_LT((r.lambda - Eigen::Vector4d(-1.0 / 3, 2.0 / 3, 0, 1.0 / 3)).norm(), 1e-14);
}

TEST(ReferenceDynamics, AdotQdotTargets) {
  // A pendulum-like bilateral row a = (1, 1) with c = 2: A qdd + c = 0 gives a.qdd = -2;
  // with M = I and no force, qdd = -(1, 1) and lambda = -W^+ b = -(1/2) (2) = -1.
  Scenario s = Scenario::zeros({2, 1, 0});
  s.A_b << 1, 1;
  s.Adot_qdot << 2;
  for (Law law : {Law::projection, Law::complementarity}) {
    s.law = law;
    const DynamicsResult r = dynamics(s);
    ASSERT_EQ(r.status, Status::ok);
    EXPECT_LT((r.qddot - Eigen::Vector2d(-1, -1)).norm(), 1e-14);
    EXPECT_NEAR(r.lambda(0), -1, 1e-14);
  }
}

TEST(ReferenceDynamics, InfeasibleAndLeastSquares) {
  // Bilateral rows that repeat one another with different Adot_qdot: inconsistent targets.
  Scenario s = Scenario::zeros({2, 2, 0});
  s.A_b << 1, 0, 1, 0;
  s.Adot_qdot << 0, 1;
  s.law = Law::complementarity;
  EXPECT_EQ(dynamics(s).status, Status::infeasible);
  s.law = Law::projection;  // least squares: A qdd = A A^+ t, t = (0, -1): qdd_1 = -1/2
  DynamicsResult r = dynamics(s);
  ASSERT_EQ(r.status, Status::ok);
  EXPECT_NEAR(r.qddot(0), -0.5, 1e-14);
  EXPECT_NEAR(r.qddot(1), 0.0, 1e-14);

  // Opposing unilateral rows: qdd_1 >= 0 and -qdd_1 - 1 >= 0.
  s = Scenario::zeros({2, 0, 2});
  s.A_u << 1, 0, -1, 0;
  s.Adot_qdot << 0, -1;
  s.law = Law::complementarity;
  EXPECT_EQ(dynamics(s).status, Status::infeasible);
  s.Adot_qdot << 0, 1;  // qdd_1 in [0, 1]: feasible, the free motion (0) is kept
  r = dynamics(s);
  ASSERT_EQ(r.status, Status::ok);
  EXPECT_LT(r.qddot.norm() + r.lambda.norm(), 1e-14);

  // A unilateral row that depends on a bilateral one, with an incompatible target.
  s = Scenario::zeros({3, 1, 1});
  s.A_b << 1, 2, 0;
  s.A_u << 2, 4, 0;
  s.Adot_qdot << 0, -1;  // A_b qdd = 0 but A_u qdd >= 1
  s.law = Law::complementarity;
  EXPECT_EQ(dynamics(s).status, Status::infeasible);
  s.Adot_qdot << 0, 1;  // compatible: A_u qdd >= -1 holds with slack
  r = dynamics(s);
  ASSERT_EQ(r.status, Status::ok);
  EXPECT_LT(r.qddot.norm() + r.lambda.norm(), 1e-14);
}

// KKT residuals (docs/math.md 4, 7) on random feasible scenarios: n 1..40, up to 24 rows,
// dependent rows, cond(M) up to 1e8.
TEST(ReferenceDynamics, RandomKkt) {
  std::mt19937 rng(4242);
  std::uniform_int_distribution<int> Nn(1, 40), Nb(0, 6), Nu(0, 18);
  const double conds[] = {1.0, 1e3, 1e6, 1e8};
  double worst[3] = {0, 0, 0};
  int n_brute = 0, n_dep = 0;
  for (int trial = 0; trial < 160; ++trial) {
    RandomSpec spec;
    spec.n = Nn(rng);
    spec.m_b = std::min(Nb(rng), spec.n);
    spec.m_u = Nu(rng);
    spec.cond = conds[trial % 4];
    if (trial % 3 == 0) {
      spec.rank_b = spec.m_b / 2;
      spec.rank_u = std::max(1, spec.m_u / 3);
    }
    Scenario s = random_feasible_scenario(spec, rng);
    s.qdot.setZero();  // every closed row is resting
    for (int i = 0; i < spec.m_u; ++i) s.phi_u(i) = (i % 3 == 2) ? 0.1 : 0.0;
    // Consistent bilateral Adot_qdot (c_b in range(A_b)); arbitrary unilateral ones.
    s.Adot_qdot = random_vector(spec.m_b + spec.m_u, rng);
    if (spec.m_b > 0) s.Adot_qdot.head(spec.m_b) = s.A_b * random_vector(spec.n, rng);
    s.law = (trial % 2) ? Law::projection : Law::complementarity;
    const DynamicsResult r = dynamics(s);
    ASSERT_EQ(r.status, Status::ok) << "trial " << trial;
    EXPECT_EQ(r.active, dynamics_candidates(s));

    const VectorXd a_f = s.M.llt().solve(s.u - s.h);
    const MatrixXd A = active_rows(s, r.active);
    const VectorXd lam = rows_taking_part(r.lambda, spec.m_b, r.active);
    VectorXd t(A.rows());  // -c on the rows taking part
    t.head(spec.m_b) = -s.Adot_qdot.head(spec.m_b);
    for (int i = 0, c = spec.m_b; i < spec.m_u; ++i)
      if (r.active(i)) t(c++) = -s.Adot_qdot(spec.m_b + i);
    const LawCheck c = check_law(s.M, A, spec.m_b, t, a_f, r.qddot, lam, s.law);
    EXPECT_LT(c.stationarity, 1e-12 * spec.cond) << "trial " << trial;
    EXPECT_LT(c.primal, 1e-11 * spec.cond) << "trial " << trial;
    EXPECT_LT(c.least_squares, 1e-11 * spec.cond) << "trial " << trial;
    EXPECT_LT(c.min_norm, 1e-12 * spec.cond) << "trial " << trial;
    worst[0] = std::max(worst[0], c.stationarity / spec.cond);
    worst[1] = std::max(worst[1], std::max(c.primal, c.least_squares) / spec.cond);
    worst[2] = std::max(worst[2], c.min_norm / spec.cond);
    n_brute += c.brute_forced;
    n_dep += c.dependent;
  }
  std::printf("dynamics KKT / cond(M): stationarity %.3g, primal or least squares %.3g, min-norm %.3g "
              "(%d brute-forced, %d with dependent binding rows)\n",
              worst[0], worst[1], worst[2], n_brute, n_dep);
  EXPECT_GT(n_dep, 5);
}

}  // namespace
}  // namespace obliq::reference

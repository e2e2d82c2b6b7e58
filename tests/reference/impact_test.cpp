// Impact (docs/math.md 5-6): closed forms, the energy-consistency test, infeasible constraints, and
// KKT residuals of both laws on random scenarios.
// Closed-form checks on O(1) values use 1e-14 absolute (about 45 ulps of the result).
#include <gtest/gtest.h>

#include "reference_helpers.hpp"

namespace obliq::reference {
namespace {

using namespace testing;

// A ball of mass m (q = x, y, z) hitting the floor z = 0 with velocity (vx, vy, -vz):
// v+ = (vx, vy, e vz), lambda = m (1 + e) vz, KE_post = m/2 (vx^2 + vy^2 + e^2 vz^2).
TEST(ReferenceImpact, BallOnFloor) {
  const double m = 2.5, vx = 0.3, vy = -0.2, vz = 1.7;
  for (Law law : {Law::projection, Law::complementarity}) {
    for (double e : {0.0, 0.5, 1.0}) {
      Scenario s = Scenario::zeros({3, 0, 1});
      s.M = m * MatrixXd::Identity(3, 3);
      s.A_u << 0, 0, 1;
      s.qdot << vx, vy, -vz;
      s.e << e;
      s.law = law;
      const ImpactResult r = impact(s);
      ASSERT_EQ(r.status, Status::ok);
      EXPECT_EQ(r.active(0), 1);
      EXPECT_NEAR(r.qdot_plus(0), vx, 1e-14);
      EXPECT_NEAR(r.qdot_plus(1), vy, 1e-14);
      EXPECT_NEAR(r.qdot_plus(2), e * vz, 1e-14);
      EXPECT_NEAR(r.lambda(0), m * (1 + e) * vz, 1e-14);
      EXPECT_LT((r.impulse - Eigen::Vector3d(0, 0, m * (1 + e) * vz)).norm(), 1e-14);
      EXPECT_NEAR(r.kinetic_energy_pre, 0.5 * m * (vx * vx + vy * vy + vz * vz), 1e-14);
      EXPECT_NEAR(r.kinetic_energy_post, 0.5 * m * (vx * vx + vy * vy + e * e * vz * vz), 1e-14);
      EXPECT_TRUE(r.energy_consistent);
    }
  }
  // Separating, or above the floor: no candidate, nothing happens; an applied impulse still acts.
  Scenario s = Scenario::zeros({3, 0, 1});
  s.A_u << 0, 0, 1;
  s.qdot << 0, 0, 1;
  s.i_u << 0, 0, -5;
  const ImpactResult r = impact(s);
  ASSERT_EQ(r.status, Status::ok);
  EXPECT_EQ(r.active(0), 0);
  EXPECT_EQ(r.lambda(0), 0.0);
  EXPECT_LT((r.qdot_plus - Eigen::Vector3d(0, 0, -4)).norm(), 1e-14);
  EXPECT_LT(r.impulse.norm(), 1e-14);
  EXPECT_TRUE(r.energy_consistent);
}

// A planar bar (q = x, z, theta; M = diag(m, m, m L^2 / 12)) lying flat, its two ends on the
// floor: rows (0, 1, -L/2) and (0, 1, L/2).
Scenario bar(double m, double L) {
  Scenario s = Scenario::zeros({3, 0, 2});
  s.M.diagonal() << m, m, m * L * L / 12;
  s.A_u << 0, 1, -L / 2, 0, 1, L / 2;
  return s;
}

TEST(ReferenceImpact, BarFallingFlat) {
  // Both ends hit with speed v: W = [[4, -2], [-2, 4]] / m, v+ = (0, e v, 0),
  // lambda = (1 + e) m v / 2 on each end.
  const double m = 3.0, L = 2.0, v = 1.25;
  for (Law law : {Law::projection, Law::complementarity})
    for (double e : {0.0, 0.5, 1.0}) {
      Scenario s = bar(m, L);
      s.qdot << 0.4, -v, 0;
      s.e.setConstant(e);
      s.law = law;
      const ImpactResult r = impact(s);
      ASSERT_EQ(r.status, Status::ok);
      EXPECT_LT((r.qdot_plus - Eigen::Vector3d(0.4, e * v, 0)).norm(), 1e-14);
      EXPECT_NEAR(r.lambda(0), (1 + e) * m * v / 2, 1e-14);
      EXPECT_NEAR(r.lambda(1), (1 + e) * m * v / 2, 1e-14);
      EXPECT_TRUE(r.energy_consistent);
    }
}

TEST(ReferenceImpact, BarTippingOneEnd) {
  // Rotating about its centre with rate w: end 0 approaches at L w / 2, end 1 separates.
  // One-contact closed form: lambda = (1 + e) m L w / 8, v_z = lambda / m,
  // w+ = w (1 - 3 (1 + e) / 4); end 0 leaves with e L w / 2.
  const double m = 3.0, L = 2.0, w = 0.8;
  for (Law law : {Law::projection, Law::complementarity})
    for (double e : {0.0, 0.5, 1.0}) {
      Scenario s = bar(m, L);
      s.qdot << 0, 0, w;
      s.e.setConstant(e);
      s.law = law;
      const ImpactResult r = impact(s);
      ASSERT_EQ(r.status, Status::ok);
      EXPECT_EQ(r.active, Eigen::Vector2i(1, 0));
      const double lam = (1 + e) * m * L * w / 8;
      EXPECT_NEAR(r.lambda(0), lam, 1e-14);
      EXPECT_EQ(r.lambda(1), 0.0);
      EXPECT_LT((r.qdot_plus - Eigen::Vector3d(0, lam / m, w * (1 - 0.75 * (1 + e)))).norm(), 1e-14);
      EXPECT_NEAR((s.A_u.row(0) * r.qdot_plus)(0), e * L * w / 2, 1e-14);
    }
}

TEST(ReferenceImpact, ComplementarityReleasesAPullingContact) {
  // M = I_2, rows a1 = (1, 0), a2 = (1, 1) both approaching; with e = (1, 0) the projection law
  // pulls on row 2, the complementarity law does not.
  Scenario s = Scenario::zeros({2, 0, 2});
  s.A_u << 1, 0, 1, 1;
  s.qdot << -1, 0.5;  // A_u q = (-1, -0.5)
  s.e << 1, 0;
  s.law = Law::projection;
  const ImpactResult p = impact(s);
  ASSERT_EQ(p.status, Status::ok);
  // Projection: v = (1, -1) (rows met as equalities), lambda = W^-1 (t - A q) with
  // W = [[1, 1], [1, 2]], t - A q = (2, 0.5): lambda = (3.5, -1.5).
  EXPECT_LT((p.qdot_plus - Eigen::Vector2d(1, -1)).norm(), 1e-14);
  EXPECT_LT((p.lambda - Eigen::Vector2d(3.5, -1.5)).norm(), 1e-14);
  // Complementarity: row 1 alone binds: v = (1, 0.5), lambda = (2, 0); row 2 separates
  // (A_u v)_2 = 1.5 >= 0.
  s.law = Law::complementarity;
  const ImpactResult c = impact(s);
  ASSERT_EQ(c.status, Status::ok);
  EXPECT_LT((c.qdot_plus - Eigen::Vector2d(1, 0.5)).norm(), 1e-14);
  EXPECT_LT((c.lambda - Eigen::Vector2d(2, 0)).norm(), 1e-14);
  EXPECT_NEAR(c.kinetic_energy_post, 0.5 * 1.25, 1e-14);
}

TEST(ReferenceImpact, EnergyConsistency) {
  // docs/math.md 6: two contacts with W_u = [[1, p], [p, 1]] (M = I, rows of unit norm at cos = p).
  auto coupled = [](double p, Eigen::Vector2d e) {
    Scenario s = Scenario::zeros({2, 0, 2});
    s.A_u << 1, 0, p, std::sqrt(1 - p * p);
    s.qdot << -1, -1;
    s.e = e;
    s.law = Law::projection;
    return impact(s);
  };
  EXPECT_FALSE(coupled(0.5, {1.0, 0.0}).energy_consistent);  // lambda_max = (sqrt(2) - 1)/2 > 0
  EXPECT_TRUE(coupled(0.5, {0.7, 0.7}).energy_consistent);   // a global e <= 1
  EXPECT_TRUE(coupled(0.5, {1.0, 1.0}).energy_consistent);
  EXPECT_TRUE(coupled(0.0, {1.0, 0.0}).energy_consistent);   // decoupled contacts
  // Strongly coupled contacts with e = (1, 0): inconsistent, whatever the velocity.
  const ImpactResult r = coupled(0.9, {1.0, 0.0});
  ASSERT_EQ(r.status, Status::ok);
  EXPECT_FALSE(r.energy_consistent);
  // Bilateral rows do not enter E: a bar end on the floor plus a bilateral pin elsewhere, e = 1.
  Scenario s = bar(1.0, 2.0);
  s.A_b = MatrixXd(1, 3);
  s.A_b << 1, 0, 0;
  s.Adot_qdot = VectorXd::Zero(3);
  s.qdot << 0, -1, -0.5;
  s.e << 1, 1;
  EXPECT_TRUE(impact(s).energy_consistent);
}

TEST(ReferenceImpact, InfeasibleAndLeastSquares) {
  // A bilateral row and a unilateral copy of it approaching at speed 1 with e = 1: A_b v = 0 and
  // (A_u v) >= 1 cannot both hold.
  Scenario s = Scenario::zeros({2, 1, 1});
  s.A_b << 0, 1;
  s.A_u << 0, 1;
  s.qdot << 0.3, -1;
  s.e << 1;
  s.law = Law::complementarity;
  EXPECT_EQ(impact(s).status, Status::infeasible);
  // With e = 0 the same rows are compatible (target 0): the contact stops, min-norm lambda
  // splits the impulse evenly between the two identical rows.
  s.e << 0;
  ImpactResult r = impact(s);
  ASSERT_EQ(r.status, Status::ok);
  EXPECT_LT((r.qdot_plus - Eigen::Vector2d(0.3, 0)).norm(), 1e-14);
  EXPECT_NEAR(r.lambda(0), 0.5, 1e-14);
  EXPECT_NEAR(r.lambda(1), 0.5, 1e-14);
  // The projection law meets inconsistent targets (0 and 1) in least squares: A v = A A^+ t.
  s.e << 1;
  s.law = Law::projection;
  r = impact(s);
  ASSERT_EQ(r.status, Status::ok);
  EXPECT_NEAR(r.qdot_plus(1), 0.5, 1e-14);
  EXPECT_NEAR(r.qdot_plus(0), 0.3, 1e-14);
}

// KKT residuals (docs/math.md 5, 7) on random feasible scenarios, both laws. Bounds scale with
// cond(M); the measured worst cases are printed.
TEST(ReferenceImpact, RandomKkt) {
  std::mt19937 rng(77);
  std::uniform_int_distribution<int> Nn(1, 40), Nb(0, 6), Nu(0, 18);
  const double conds[] = {1.0, 1e3, 1e6, 1e8};
  double worst[4] = {0, 0, 0, 0};
  int n_brute = 0, n_dep = 0;
  for (int trial = 0; trial < 160; ++trial) {
    RandomSpec spec;
    spec.n = Nn(rng);
    spec.m_b = std::min(Nb(rng), spec.n);
    spec.m_u = Nu(rng);
    spec.cond = conds[trial % 4];
    if (trial % 3 == 0) {  // dependent rows
      spec.rank_b = spec.m_b / 2;
      spec.rank_u = std::max(1, spec.m_u / 3);
    }
    Scenario s = random_feasible_scenario(spec, rng);
    // Pre-impact velocity with A_b q = 0 and about half of the unilateral rows closed.
    if (s.A_b.rows() > 0) s.qdot = projection(MatrixXd::Identity(spec.n, spec.n), s.A_b).P * s.qdot;
    for (int i = 0; i < spec.m_u; ++i) s.phi_u(i) = (i % 2 == 0) ? 0.0 : 0.1;
    s.law = (trial % 2) ? Law::projection : Law::complementarity;
    const ImpactResult r = impact(s);
    ASSERT_EQ(r.status, Status::ok) << "trial " << trial;
    EXPECT_EQ(r.active, impact_candidates(s));

    const VectorXd v_f = s.qdot + s.M.llt().solve(s.i_u);
    const MatrixXd A = active_rows(s, r.active);
    const VectorXd lam = rows_taking_part(r.lambda, spec.m_b, r.active);
    VectorXd t = VectorXd::Zero(A.rows());  // 0 on bilateral rows, -e_i (A_u q)_i on candidates
    for (int i = 0, c = spec.m_b; i < spec.m_u; ++i)
      if (r.active(i)) t(c++) = -s.e(i) * s.A_u.row(i).dot(s.qdot);
    const LawCheck c = check_law(s.M, A, spec.m_b, t, v_f, r.qdot_plus, lam, s.law);
    EXPECT_LT(c.stationarity, 1e-12 * spec.cond) << "trial " << trial;
    EXPECT_LT(c.primal, 1e-11 * spec.cond) << "trial " << trial;
    EXPECT_LT(c.least_squares, 1e-11 * spec.cond) << "trial " << trial;
    EXPECT_LT(c.min_norm, 1e-12 * spec.cond) << "trial " << trial;
    worst[0] = std::max(worst[0], c.stationarity / spec.cond);
    worst[1] = std::max(worst[1], std::max(c.primal, c.least_squares) / spec.cond);
    worst[2] = std::max(worst[2], c.min_norm / spec.cond);
    n_brute += c.brute_forced;
    n_dep += c.dependent;

    // Outputs derived from v.
    const double scale = s.M.norm() * (r.qdot_plus.norm() + s.qdot.norm()) + 1e-300;
    EXPECT_LT((r.impulse - (s.M * (r.qdot_plus - s.qdot) - s.i_u)).norm(), 1e-13 * scale);
    EXPECT_NEAR(r.kinetic_energy_pre, 0.5 * s.qdot.dot(s.M * s.qdot), 1e-13 * scale * s.qdot.norm());
    EXPECT_NEAR(r.kinetic_energy_post, 0.5 * r.qdot_plus.dot(s.M * r.qdot_plus),
                1e-13 * scale * r.qdot_plus.norm());
  }
  std::printf("impact KKT / cond(M): stationarity %.3g, primal or least squares %.3g, min-norm %.3g "
              "(%d brute-forced, %d with dependent binding rows)\n",
              worst[0], worst[1], worst[2], n_brute, n_dep);
  EXPECT_GT(n_dep, 5);
}

}  // namespace
}  // namespace obliq::reference

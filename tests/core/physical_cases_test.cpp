// Hand-checkable physical cases, solved by the per-scenario core (double and float), against
// closed forms worked out on paper.
#include <gtest/gtest.h>

#include "support/core_runner.hpp"

using namespace obliq;
using test::core_dynamics;
using test::core_impact;

namespace {

// A ball (mass m, 3 translational dof) one contact with the floor, falling at vz < 0.
Scenario ball(double m, Eigen::Vector3d v, double e, Law law) {
  Scenario s = Scenario::zeros({3, 0, 1});
  s.M = m * Eigen::Matrix3d::Identity();
  s.qdot = v;
  s.A_u = Eigen::RowVector3d(0, 0, 1);
  s.e.setConstant(e);
  s.law = law;
  return s;
}

// A planar bar (x, y, theta), mass m, inertia I, half-length l, horizontal, contacts at both ends.
Scenario bar(double m, double I, double l, Eigen::Vector3d v, double e, Law law) {
  Scenario s = Scenario::zeros({3, 0, 2});
  s.M = Eigen::Vector3d(m, m, I).asDiagonal();
  s.qdot = v;
  s.A_u << 0, 1, -l, 0, 1, l;
  s.e.setConstant(e);
  s.law = law;
  return s;
}

// A box (x, y, z, wx, wy, wz about its centre, world frame), mass m, inertia diag(I), resting
// on four coplanar corners (+-a, +-b, -c): four unilateral rows of rank 3 (redundant).
Scenario box(double m, Eigen::Vector3d I, double a, double b, double c, Law law) {
  Scenario s = Scenario::zeros({6, 0, 4});
  Eigen::VectorXd d(6);
  d << m, m, m, I;
  s.M = d.asDiagonal();
  int row = 0;
  for (double sx : {-1.0, 1.0})
    for (double sy : {-1.0, 1.0}) {
      Eigen::Vector3d r(sx * a, sy * b, -c);
      // z-velocity of the corner: vz + (w x r)_z = vz + wx r_y - wy r_x
      s.A_u.row(row++) << 0, 0, 1, r.y(), -r.x(), 0;
    }
  s.law = law;
  return s;
}

template <class T> double tol() { return sizeof(T) == sizeof(double) ? 1e-12 : 2e-5; }

}  // namespace

template <class T> class PhysicalCases : public ::testing::Test {};
using Scalars = ::testing::Types<double, float>;
TYPED_TEST_SUITE(PhysicalCases, Scalars);

TYPED_TEST(PhysicalCases, BallOnFloor) {
  using T = TypeParam;
  for (Law law : {Law::projection, Law::complementarity})
    for (double e : {0.0, 0.5, 1.0}) {
      const double m = 2.0, vz = -3.0;
      ImpactResult r = core_impact<T>(ball(m, {0.7, -0.2, vz}, e, law));
      ASSERT_EQ(r.status, Status::ok);
      // Newton's law: vz+ = -e vz; tangential velocity unchanged (frictionless).
      EXPECT_NEAR(r.qdot_plus[0], 0.7, tol<T>());
      EXPECT_NEAR(r.qdot_plus[1], -0.2, tol<T>());
      EXPECT_NEAR(r.qdot_plus[2], -e * vz, 3 * tol<T>());
      EXPECT_NEAR(r.lambda[0], m * (1 + e) * -vz, 10 * tol<T>());
      EXPECT_NEAR(r.impulse[2], m * (1 + e) * -vz, 10 * tol<T>());
      EXPECT_EQ(r.active[0], 1);
      const double ke0 = 0.5 * m * (0.49 + 0.04 + 9.0);
      EXPECT_NEAR(r.kinetic_energy_pre, ke0, 10 * tol<T>());
      EXPECT_NEAR(r.kinetic_energy_post, ke0 - 0.5 * m * 9.0 * (1 - e * e), 10 * tol<T>());
      EXPECT_TRUE(r.energy_consistent);
    }
}

TYPED_TEST(PhysicalCases, BallMovingAwayIsNotACandidate) {
  using T = TypeParam;
  ImpactResult r = core_impact<T>(ball(1.0, {0, 0, 2.0}, 0.5, Law::projection));
  ASSERT_EQ(r.status, Status::ok);
  EXPECT_EQ(r.active[0], 0);
  EXPECT_NEAR(r.qdot_plus[2], 2.0, tol<T>());
  EXPECT_EQ(r.lambda[0], 0.0);
}

TYPED_TEST(PhysicalCases, BarFallingFlatOnTwoContacts) {
  using T = TypeParam;
  const double m = 3.0, I = 0.25, l = 0.5, v = -2.0;
  for (Law law : {Law::projection, Law::complementarity})
    for (double e : {0.0, 0.5, 1.0}) {
      ImpactResult r = core_impact<T>(bar(m, I, l, {0, v, 0}, e, law));
      ASSERT_EQ(r.status, Status::ok);
      // Symmetric: the bar bounces at -e v without rotation; each end takes half the impulse.
      EXPECT_NEAR(r.qdot_plus[1], -e * v, 4 * tol<T>());
      EXPECT_NEAR(r.qdot_plus[2], 0.0, 4 * tol<T>());
      EXPECT_NEAR(r.lambda[0], 0.5 * m * (1 + e) * -v, 20 * tol<T>());
      EXPECT_NEAR(r.lambda[1], 0.5 * m * (1 + e) * -v, 20 * tol<T>());
    }
}

TYPED_TEST(PhysicalCases, BarTiltedImpactLiftsOneEnd) {
  using T = TypeParam;
  // The bar falls and spins: the left end (y - l theta_dot) approaches, the right end too at
  // first, but after the left-end impulse alone the right end separates. With e = 0 and the
  // complementarity law only the left contact pushes:
  //   lambda = -(A_1 qdot) / (A_1 M^-1 A_1^T),  A_1 = (0, 1, -l).
  const double m = 1.0, I = 1.0 / 12.0, l = 0.5;
  const Eigen::Vector3d qd(0, -1.0, 2.5);  // left end: -1 - 1.25 = -2.25; right end: -1 + 1.25 = 0.25 > 0
  ImpactResult r = core_impact<T>(bar(m, I, l, qd, 0.0, Law::complementarity));
  ASSERT_EQ(r.status, Status::ok);
  EXPECT_EQ(r.active[0], 1);
  EXPECT_EQ(r.active[1], 0);  // moving away: not a candidate
  const double w11 = 1.0 / m + l * l / I;
  const double lam = 2.25 / w11;
  EXPECT_NEAR(r.lambda[0], lam, 20 * tol<T>());
  EXPECT_NEAR(r.qdot_plus[1], -1.0 + lam / m, 20 * tol<T>());
  EXPECT_NEAR(r.qdot_plus[2], 2.5 - l * lam / I, 50 * tol<T>());
}

TYPED_TEST(PhysicalCases, BarBothEndsApproachingButOneSeparates) {
  using T = TypeParam;
  // Both ends approach; holding both (projection law, e = 0) would pull on one end. The
  // complementarity law releases it. Worked example: m = 1, I = 1/12, l = 0.5, qdot = (0, -1, 1):
  // ends approach at -1.5 and -0.5. Both held: lambda = W^-1 (1.5, 0.5) with
  // W = [[1 + 3, 1 - 3], [1 - 3, 1 + 3]] = [[4, -2], [-2, 4]] -> lambda = (7/12, 5/12)... both > 0,
  // so here both push and the two laws agree.
  const double m = 1.0, I = 1.0 / 12.0, l = 0.5;
  for (Law law : {Law::projection, Law::complementarity}) {
    ImpactResult r = core_impact<T>(bar(m, I, l, {0, -1.0, 1.0}, 0.0, law));
    ASSERT_EQ(r.status, Status::ok);
    EXPECT_NEAR(r.lambda[0], 7.0 / 12.0, 20 * tol<T>());
    EXPECT_NEAR(r.lambda[1], 5.0 / 12.0, 20 * tol<T>());
    EXPECT_NEAR(r.qdot_plus[1], 0.0, 20 * tol<T>());
    EXPECT_NEAR(r.qdot_plus[2], 0.0, 50 * tol<T>());
  }
  // qdot = (0, -1, 6): ends at -4 and 2: only the left end is a candidate.
  // qdot = (0, -1, 3): ends at -2.5 and 0.5 -> right end not a candidate either.
  // qdot = (0, -1, 1.9): ends at -1.95 and -0.05: both candidates; held, lambda_2 < 0:
  // W [l1, l2] = [1.95, 0.05] -> l1 = (4*1.95 + 2*0.05)/12 = 0.6583, l2 = (2*1.95 + 4*0.05)/12 = 0.3417 (> 0).
  // A pulling case needs e > 0 on the left only: with e = (1, 0), targets (1.95, 0):
  // W lambda = (1.95 + 1.95, 0.05) = (3.9, 0.05) -> l2 = (2*3.9 + 4*0.05)/12 = 0.6667 > 0 still.
  // So take e = (1, 0) and qdot = (0, -1, 1.9) with I = 1/3 (W = [[1.75, 0.25], [0.25, 1.75]]):
  Scenario s = bar(1.0, 1.0 / 3.0, 0.5, {0, -1.0, 1.9}, 0.0, Law::projection);
  s.e << 1.0, 0.0;
  // ends: -1 - 0.95 = -1.95, -1 + 0.95 = -0.05; targets t = (1.95, 0); W lambda = t - A q = (3.9, 0.05)
  // projection: lambda = W^-1 (3.9, 0.05) = (3.9*1.75 - 0.05*0.25, -3.9*0.25 + 0.05*1.75)/3 = (2.2708, -0.2958)
  ImpactResult p = core_impact<T>(s);
  ASSERT_EQ(p.status, Status::ok);
  EXPECT_NEAR(p.lambda[0], (3.9 * 1.75 - 0.05 * 0.25) / 3.0, 50 * tol<T>());
  EXPECT_NEAR(p.lambda[1], (-3.9 * 0.25 + 0.05 * 1.75) / 3.0, 50 * tol<T>());
  // complementarity: the right end lets go: lambda_2 = 0, lambda_1 = 3.9 / 1.75, and the right
  // end separates with A_2 v = -0.05 + 0.25 * lambda_1 > 0.
  s.law = Law::complementarity;
  ImpactResult c = core_impact<T>(s);
  ASSERT_EQ(c.status, Status::ok);
  EXPECT_NEAR(c.lambda[0], 3.9 / 1.75, 50 * tol<T>());
  EXPECT_EQ(c.lambda[1], 0.0);
  EXPECT_GT(s.A_u.row(1).dot(c.qdot_plus), 0.0);
  // e = (1, 0) on coupled contacts gains energy for some velocities (docs/math.md 6): not consistent.
  EXPECT_FALSE(c.energy_consistent);
  EXPECT_FALSE(p.energy_consistent);
}

TYPED_TEST(PhysicalCases, BoxRestingOnFourCornersIsRedundant) {
  using T = TypeParam;
  const double m = 2.0, g = 9.81;
  for (Law law : {Law::projection, Law::complementarity}) {
    Scenario s = box(m, {0.3, 0.4, 0.5}, 0.4, 0.25, 0.1, law);
    s.h << 0, 0, m * g, 0, 0, 0;  // gravity on the left side: M qdd + h = A^T lambda
    DynamicsResult r = core_dynamics<T>(s);
    ASSERT_EQ(r.status, Status::ok);
    for (int i = 0; i < 6; ++i) EXPECT_NEAR(r.qddot[i], 0.0, 100 * tol<T>());
    // Minimum-norm forces of four symmetric corners: m g / 4 each.
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(r.lambda[i], m * g / 4, 100 * tol<T>() * m * g);
    // Impact of the box falling flat: it stops (e = 0), each corner takes m v / 4.
    Scenario si = s;
    si.qdot << 0, 0, -1.5, 0, 0, 0;
    ImpactResult ri = core_impact<T>(si);
    ASSERT_EQ(ri.status, Status::ok);
    for (int i = 0; i < 6; ++i) EXPECT_NEAR(ri.qdot_plus[i], 0.0, 100 * tol<T>());
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(ri.lambda[i], m * 1.5 / 4, 100 * tol<T>());
  }
}

TYPED_TEST(PhysicalCases, Seed004Example) {
  using T = TypeParam;
  // docs/math.md 7: W = [[2,1],[1,2]], b = (-3,-3) -> N = (1, 1), w = 0.
  Scenario s = Scenario::zeros({3, 0, 2});
  s.A_u << 1, 1, 0, 0, 1, 1;
  s.u << -1, -2, -1;
  s.qdot << 1, -1, 1;  // A_u qdot = 0: both rows resting
  s.law = Law::complementarity;
  DynamicsResult r = core_dynamics<T>(s);
  ASSERT_EQ(r.status, Status::ok);
  EXPECT_NEAR(r.lambda[0], 1.0, 10 * tol<T>());
  EXPECT_NEAR(r.lambda[1], 1.0, 10 * tol<T>());
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(r.qddot[i], 0.0, 10 * tol<T>());
}

TYPED_TEST(PhysicalCases, MinimumNormValidMultipliers) {
  using T = TypeParam;
  // docs/math.md 7: rows a1, a2, a1 + a2 with f = a1: the valid minimum-norm multiplier is (1, 0, 0);
  // the plain pseudo-inverse (projection law) gives (2/3, -1/3, 1/3).
  Scenario s = Scenario::zeros({2, 0, 3});
  s.A_u << 1, 0, 0, 1, 1, 1;
  s.u << -1, 0;
  s.law = Law::complementarity;
  DynamicsResult c = core_dynamics<T>(s);
  ASSERT_EQ(c.status, Status::ok);
  EXPECT_NEAR(c.lambda[0], 1.0, 10 * tol<T>());
  EXPECT_NEAR(c.lambda[1], 0.0, 10 * tol<T>());
  EXPECT_NEAR(c.lambda[2], 0.0, 10 * tol<T>());
  s.law = Law::projection;
  DynamicsResult p = core_dynamics<T>(s);
  ASSERT_EQ(p.status, Status::ok);
  EXPECT_NEAR(p.lambda[0], 2.0 / 3.0, 10 * tol<T>());
  EXPECT_NEAR(p.lambda[1], -1.0 / 3.0, 10 * tol<T>());
  EXPECT_NEAR(p.lambda[2], 1.0 / 3.0, 10 * tol<T>());
}

TYPED_TEST(PhysicalCases, StatusesForBadInput) {
  using T = TypeParam;
  Scenario s = ball(1.0, {0, 0, -1}, 0.5, Law::projection);
  s.e[0] = 1.5;
  EXPECT_EQ(core_impact<T>(s).status, Status::bad_restitution);
  s = ball(1.0, {0, 0, -1}, 0.5, Law::projection);
  s.M(0, 0) = -1;
  EXPECT_EQ(core_impact<T>(s).status, Status::not_spd);
  s = ball(1.0, {0, 0, -1}, 0.5, Law::projection);
  s.M(0, 1) = 0.5;  // not symmetric
  EXPECT_EQ(core_impact<T>(s).status, Status::not_spd);
  s = ball(1.0, {0, 0, -1}, 0.5, Law::projection);
  s.qdot[1] = std::nan("");
  ImpactResult r = core_impact<T>(s);
  EXPECT_EQ(r.status, Status::non_finite);
  EXPECT_TRUE(r.qdot_plus.allFinite());  // never a silent NaN
  s = ball(1.0, {0, 0, -1}, 0.5, Law::projection);
  s.gap_tol = -1;
  EXPECT_EQ(core_impact<T>(s).status, Status::bad_tolerance);
  // dynamics with a closed, approaching row
  s = ball(1.0, {0, 0, -1}, 0.5, Law::complementarity);
  EXPECT_EQ(core_dynamics<T>(s).status, Status::unresolved_impact);
}

TYPED_TEST(PhysicalCases, InfeasibleComplementarity) {
  using T = TypeParam;
  // Two copies of the same row with incompatible Newton targets cannot both be met with
  // inequality... they can (the larger one wins). Infeasible: a row and its negative with
  // targets that exclude each other: v_z >= 1 and -v_z >= 1 (dynamics, Adot_qdot).
  Scenario s = Scenario::zeros({1, 0, 2});
  s.A_u << 1, -1;
  s.Adot_qdot << -1, -1;  // rows a qdd - 1 >= 0 and -qdd - 1 >= 0
  s.law = Law::complementarity;
  EXPECT_EQ(core_dynamics<T>(s).status, Status::infeasible);
  s.law = Law::projection;  // least squares: qdd = 0 (the average of 1 and -1)
  DynamicsResult p = core_dynamics<T>(s);
  ASSERT_EQ(p.status, Status::ok);
  EXPECT_NEAR(p.qddot[0], 0.0, 10 * tol<T>());
}

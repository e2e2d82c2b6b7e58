// The a-posteriori certificate (include/obliq/core/mechanics/certificate.hpp): answers worked out
// on paper pass it, and deliberately perturbed ones (a broken row, a row bouncing too little or
// too much, a pulling multiplier, a wrong active flag, an unbalanced impulse, NaN) are rejected.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "support/core_runner.hpp"

using namespace obliq;
using test::dynamics_residual;
using test::impact_residual;

namespace {

// Ball of mass 2 falling at vz = -3 on a floor, e = 0.5: qdot_plus = (1, 0, 1.5), lambda = 9
// (M (v - q) = 2 * 4.5 = 9).
Scenario ball(Law law = Law::complementarity) {
  Scenario s = Scenario::zeros({3, 0, 1});
  s.M = 2 * Eigen::Matrix3d::Identity();
  s.qdot = Eigen::Vector3d(1, 0, -3);
  s.A_u = Eigen::RowVector3d(0, 0, 1);
  s.e.setConstant(0.5);
  s.law = law;
  return s;
}

ImpactResult answer(Eigen::VectorXd v, Eigen::VectorXd lambda, Eigen::VectorXi active) {
  ImpactResult r;
  r.qdot_plus = v;
  r.impulse = Eigen::VectorXd::Zero(v.size());
  r.lambda = lambda;
  r.active = active;
  return r;
}

Eigen::VectorXd vec(std::initializer_list<double> x) {
  Eigen::VectorXd v(Eigen::Index(x.size()));
  Eigen::Index i = 0;
  for (double d : x) v(i++) = d;
  return v;
}
Eigen::VectorXi one(int k = 1) { return Eigen::VectorXi::Constant(1, k); }

template <class T> bool ok(T r) { return certified(r); }

}  // namespace

template <class T> class Certificate : public ::testing::Test {};
using Scalars = ::testing::Types<double, float>;
TYPED_TEST_SUITE(Certificate, Scalars);

TYPED_TEST(Certificate, BallByHandIsExact) {
  using T = TypeParam;
  EXPECT_EQ(impact_residual<T>(ball(), answer(vec({1, 0, 1.5}), vec({9}), one())), T(0));
  EXPECT_EQ(impact_residual<T>(ball(Law::projection), answer(vec({1, 0, 1.5}), vec({9}), one())), T(0));
}

TYPED_TEST(Certificate, PerturbedBallAnswersAreRejected) {
  using T = TypeParam;
  const Scenario s = ball();
  const double d = std::is_same_v<T, double> ? 1e-4 : 1e-1;  // far above rounding, far below the answer
  // Unbalanced: the velocity moved but the multiplier did not.
  EXPECT_FALSE(ok(impact_residual<T>(s, answer(vec({1, 0, 1.5 + d}), vec({9}), one()))));
  EXPECT_FALSE(ok(impact_residual<T>(s, answer(vec({1 + d, 0, 1.5}), vec({9}), one()))));
  EXPECT_FALSE(ok(impact_residual<T>(s, answer(vec({1, 0, 1.5}), vec({9 + d}), one()))));
  // Balanced, but bouncing too little (row broken) or too much (slack and push together).
  EXPECT_FALSE(ok(impact_residual<T>(s, answer(vec({1, 0, 1.0}), vec({8}), one()))));
  EXPECT_FALSE(ok(impact_residual<T>(s, answer(vec({1, 0, 2.0}), vec({10}), one()))));
  // The candidate rule says the row takes part.
  EXPECT_FALSE(ok(impact_residual<T>(s, answer(vec({1, 0, 1.5}), vec({9}), one(0)))));
  // Non-finite answers.
  EXPECT_FALSE(ok(impact_residual<T>(s, answer(vec({1, 0, std::nan("")}), vec({9}), one()))));
  EXPECT_FALSE(ok(impact_residual<T>(s, answer(vec({1, 0, 1.5}), vec({HUGE_VAL}), one()))));
}

TYPED_TEST(Certificate, PullingMultiplierIsRejected) {
  using T = TypeParam;
  // At rest on the floor, pulled up by an applied impulse 2: it lifts off, v = (0, 0, 1), lambda 0.
  Scenario s = Scenario::zeros({3, 0, 1});
  s.M = 2 * Eigen::Matrix3d::Identity();
  s.A_u = Eigen::RowVector3d(0, 0, 1);
  s.i_u = Eigen::Vector3d(0, 0, 2);
  EXPECT_EQ(impact_residual<T>(s, answer(vec({0, 0, 1}), vec({0}), one())), T(0));
  // Held down by a pulling contact (lambda = -2): balanced and on the row, but lambda < 0.
  EXPECT_FALSE(ok(impact_residual<T>(s, answer(vec({0, 0, 0}), vec({-2}), one()))));
}

TYPED_TEST(Certificate, RowsThatDoNotTakePartCarryNoMultiplier) {
  using T = TypeParam;
  Scenario s = ball();
  s.A_u.conservativeResize(2, 3);
  s.A_u.row(1) << 1, 0, 0;  // separating (A_u qdot = 1 > 0): not a candidate
  s.e = vec({0.5, 0.5});
  s.phi_u = vec({0, 0});
  const Eigen::VectorXi act = (Eigen::VectorXi(2) << 1, 0).finished();
  EXPECT_EQ(impact_residual<T>(s, answer(vec({1, 0, 1.5}), vec({9, 0}), act)), T(0));
  // The same balance reached with an impulse on the separating row: rejected.
  EXPECT_FALSE(ok(impact_residual<T>(s, answer(vec({1.5, 0, 1.5}), vec({9, 1}), act))));
}

TYPED_TEST(Certificate, BrokenBilateralRowIsRejected) {
  using T = TypeParam;
  // Issue 9's "min5": the answer the cpu backend once gave, (-1, 5, 0), balances the impulse
  // with lambda = (4, 0) but breaks the bilateral row (A_b v = 4). The right answer
  // (-3, 3, 0) with lambda = (2, 0) passes.
  Scenario s = Scenario::zeros({3, 1, 1});
  s.A_b << 1, 1, 0;
  s.A_u << -0.5, -0.5, 0;
  s.i_u = vec({-5, 1, 0});
  EXPECT_FALSE(ok(impact_residual<T>(s, answer(vec({-1, 5, 0}), vec({4, 0}), one()))));
  EXPECT_EQ(impact_residual<T>(s, answer(vec({-3, 3, 0}), vec({2, 0}), one())), T(0));
  // "pinned": the wrong answer -1.2e16 (3 v = 0 broken by 3.6e16).
  Scenario p = Scenario::zeros({1, 1, 1});
  p.M << 0.3;
  p.qdot << -3;
  p.A_b << 3;
  p.A_u << 1;
  p.e << 0.5;
  const double v = -1.2e16;
  EXPECT_FALSE(ok(impact_residual<T>(p, answer(vec({v}), vec({0.3 * (v + 3) / 3, 0}), one()))));
}

TYPED_TEST(Certificate, ProjectionLawLeastSquares) {
  using T = TypeParam;
  // Two copies of the floor row with e = 0 and e = 1: targets 0 and 3 are inconsistent; the
  // projection law meets them in least squares, A v = 1.5, lambda = (4.5, 4.5) (minimum norm).
  Scenario s = ball(Law::projection);
  s.qdot = vec({0, 0, -3});
  s.A_u = Eigen::MatrixXd(2, 3);
  s.A_u << 0, 0, 1, 0, 0, 1;
  s.e = vec({0, 1});
  s.phi_u = vec({0, 0});
  const Eigen::VectorXi act = Eigen::VectorXi::Ones(2);
  EXPECT_EQ(impact_residual<T>(s, answer(vec({0, 0, 1.5}), vec({4.5, 4.5}), act)), T(0));
  const double d = std::is_same_v<T, double> ? 1e-4 : 1e-1;
  EXPECT_FALSE(ok(impact_residual<T>(s, answer(vec({0, 0, 1.5 + d}), vec({4.5 + d, 4.5 + d}), act))));
  // Under the complementarity law the same rows are inequalities: v = 3 meets both.
  s.law = Law::complementarity;
  EXPECT_EQ(impact_residual<T>(s, answer(vec({0, 0, 3}), vec({0, 12}), act)), T(0));
  EXPECT_FALSE(ok(impact_residual<T>(s, answer(vec({0, 0, 1.5}), vec({4.5, 4.5}), act))));
}

TYPED_TEST(Certificate, DynamicsRestingBall) {
  using T = TypeParam;
  // Resting on the floor under gravity: M qdd + h = u + A^T lambda with h = (0, 0, 19.62):
  // qdd = 0, lambda = 19.62.
  Scenario s = Scenario::zeros({3, 0, 1});
  s.M = 2 * Eigen::Matrix3d::Identity();
  s.A_u = Eigen::RowVector3d(0, 0, 1);
  s.h = vec({0, 0, 19.62});
  DynamicsResult r;
  r.qddot = vec({0, 0, 0});
  r.lambda = vec({19.62});
  r.active = one();
  EXPECT_EQ(dynamics_residual<T>(s, r), T(0));
  const double d = std::is_same_v<T, double> ? 1e-4 : 1e-1;
  r.qddot = vec({0, 0, -d});  // sinks into the floor, balanced by a smaller force
  r.lambda = vec({19.62 - 2 * d});
  EXPECT_FALSE(ok(dynamics_residual<T>(s, r)));
  r.qddot = vec({0, 0, d});  // lifts off while pushed
  r.lambda = vec({19.62 + 2 * d});
  EXPECT_FALSE(ok(dynamics_residual<T>(s, r)));
}

TEST(Certificate, InvariantUnderRowAndMassScaling) {
  // The residual of a slightly perturbed answer is the same number for any scale of the row or
  // of M (powers of two: exact), from 2^-1000 to 2^1000: no square overflows or underflows.
  const ImpactResult base = answer(vec({1, 0, 1.5 + 1e-7}), vec({9}), one());
  const double r0 = impact_residual<double>(ball(), base);
  EXPECT_GT(r0, 1e-9);
  for (int k = -1000; k <= 1000; k += 50) {
    const double S = std::ldexp(1.0, k);
    Scenario s = ball();
    s.A_u *= S;
    ImpactResult a = base;
    a.lambda /= S;
    EXPECT_NEAR(impact_residual<double>(s, a), r0, 1e-6 * r0) << "row scale 2^" << k;
    Scenario m = ball();
    m.M *= S;
    ImpactResult b = base;
    b.lambda *= S;
    EXPECT_NEAR(impact_residual<double>(m, b), r0, 1e-6 * r0) << "mass scale 2^" << k;
  }
}

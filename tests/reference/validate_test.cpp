// Validation statuses in docs/format.md's order, and the candidate rules ("Candidates").
#include <gtest/gtest.h>

#include <limits>

#include "reference_helpers.hpp"

namespace obliq::reference {
namespace {

Scenario good_scenario() {
  Scenario s = Scenario::zeros({3, 1, 2});
  s.M << 2, 0.5, 0, 0.5, 3, 0.1, 0, 0.1, 1;
  s.A_b << 1, 0, 0;
  s.A_u << 0, 1, 0, 0, 0, 1;
  s.e << 0.5, 1.0;
  return s;
}

TEST(ReferenceValidate, GoodScenarioIsOk) {
  EXPECT_EQ(validate(good_scenario()), Status::ok);
  // No constraint rows at all, and 0-row Jacobians given as 0 x 0, are fine.
  Scenario s = Scenario::zeros({2, 0, 0});
  EXPECT_EQ(validate(s), Status::ok);
  s.A_b.resize(0, 0);
  s.A_u.resize(0, 0);
  EXPECT_EQ(validate(s), Status::ok);
}

TEST(ReferenceValidate, BadShapes) {
  auto expect_bad = [](auto mutate) {
    Scenario s = good_scenario();
    mutate(s);
    EXPECT_EQ(validate(s), Status::bad_shape);
  };
  expect_bad([](Scenario& s) { s.M.conservativeResize(3, 2); });
  expect_bad([](Scenario& s) { s.qdot.resize(2); });
  expect_bad([](Scenario& s) { s.h.resize(4); });
  expect_bad([](Scenario& s) { s.u.resize(0); });
  expect_bad([](Scenario& s) { s.i_u.resize(1); });
  expect_bad([](Scenario& s) { s.A_b = Eigen::MatrixXd::Zero(1, 2); });
  expect_bad([](Scenario& s) { s.A_u = Eigen::MatrixXd::Zero(2, 4); });
  expect_bad([](Scenario& s) { s.phi_u.resize(3); });
  expect_bad([](Scenario& s) { s.e.resize(1); });
  expect_bad([](Scenario& s) { s.Adot_qdot.resize(2); });
  // Shape wins over every later check.
  expect_bad([](Scenario& s) {
    s.qdot.resize(2);
    s.M(0, 0) = std::numeric_limits<double>::quiet_NaN();
    s.e(0) = 2;
  });
}

TEST(ReferenceValidate, NonFinite) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  auto expect_nf = [](auto mutate) {
    Scenario s = good_scenario();
    mutate(s);
    EXPECT_EQ(validate(s), Status::non_finite);
  };
  expect_nf([&](Scenario& s) { s.M(1, 2) = nan; });
  expect_nf([&](Scenario& s) { s.qdot(0) = inf; });
  expect_nf([&](Scenario& s) { s.h(2) = -inf; });
  expect_nf([&](Scenario& s) { s.u(1) = nan; });
  expect_nf([&](Scenario& s) { s.i_u(1) = nan; });
  expect_nf([&](Scenario& s) { s.A_b(0, 2) = inf; });
  expect_nf([&](Scenario& s) { s.A_u(1, 0) = nan; });
  expect_nf([&](Scenario& s) { s.phi_u(1) = nan; });
  expect_nf([&](Scenario& s) { s.Adot_qdot(2) = inf; });
  expect_nf([&](Scenario& s) { s.e(0) = nan; });
  expect_nf([&](Scenario& s) { s.gap_tol = nan; });
  expect_nf([&](Scenario& s) { s.vel_tol = inf; });
  // Non-finite wins over a negative tolerance and a bad e.
  expect_nf([&](Scenario& s) {
    s.gap_tol = -1;
    s.e(0) = 2;
    s.h(0) = nan;
  });
}

TEST(ReferenceValidate, ToleranceRestitutionSpd) {
  Scenario s = good_scenario();
  s.gap_tol = -1e-12;
  EXPECT_EQ(validate(s), Status::bad_tolerance);
  s = good_scenario();
  s.vel_tol = -1;
  s.e(1) = 1.5;  // tolerance is checked before restitution
  EXPECT_EQ(validate(s), Status::bad_tolerance);

  s = good_scenario();
  s.e(1) = 1.0 + 1e-15;
  EXPECT_EQ(validate(s), Status::bad_restitution);
  s.e(1) = -1e-300;
  EXPECT_EQ(validate(s), Status::bad_restitution);
  s.e << 0.0, 1.0;  // both limits are valid (docs/math.md 8, eq 21)
  EXPECT_EQ(validate(s), Status::ok);
  s.e(0) = 3;
  s.M(0, 0) = -1;  // restitution is checked before SPD
  EXPECT_EQ(validate(s), Status::bad_restitution);

  // Not symmetric: max|M - M^T| > 1e-12 max|M|.
  s = good_scenario();
  s.M(0, 1) += 3 * 1e-12 * 3.0;
  EXPECT_EQ(validate(s), Status::not_spd);
  s = good_scenario();
  s.M(0, 1) += 0.5e-12 * 3.0;  // within the relative tolerance
  EXPECT_EQ(validate(s), Status::ok);
  // Symmetric but indefinite, semidefinite, zero.
  s = good_scenario();
  s.M << 1, 2, 0, 2, 1, 0, 0, 0, 1;
  EXPECT_EQ(validate(s), Status::not_spd);
  s.M << 1, 1, 0, 1, 1, 0, 0, 0, 1;
  EXPECT_EQ(validate(s), Status::not_spd);
  s.M.setZero();
  EXPECT_EQ(validate(s), Status::not_spd);
}

TEST(ReferenceValidate, ErrorLeavesResultsSizedAndZero) {
  Scenario s = good_scenario();
  s.M(2, 2) = -1;
  const ImpactResult r = impact(s);
  EXPECT_EQ(r.status, Status::not_spd);
  ASSERT_EQ(r.qdot_plus.size(), 3);
  ASSERT_EQ(r.lambda.size(), 3);
  ASSERT_EQ(r.active.size(), 2);
  EXPECT_EQ(r.qdot_plus.norm() + r.impulse.norm() + r.lambda.norm(), 0.0);
  const DynamicsResult d = dynamics(s);
  EXPECT_EQ(d.status, Status::not_spd);
  ASSERT_EQ(d.qddot.size(), 3);
  EXPECT_EQ(d.qddot.norm() + d.lambda.norm(), 0.0);
}

TEST(ReferenceCandidates, ImpactAndDynamicsRules) {
  // Rows: (gap, normal velocity) = closed approaching, closed resting within vel_tol, closed
  // separating, open approaching, closed at exactly gap_tol and -vel_tol.
  Scenario s = Scenario::zeros({1, 0, 5});
  s.gap_tol = 1e-6;
  s.vel_tol = 1e-3;
  s.A_u << 1, 1, 1, 1, 1;
  s.qdot << 1.0;
  s.A_u.col(0) << -2.0, 5e-4, 3.0, -1.0, -1e-3;
  s.phi_u << 0.0, -1e-3, 0.0, 1e-5, 1e-6;
  s.e.setZero();
  EXPECT_EQ(impact_candidates(s), (Eigen::VectorXi(5) << 1, 1, 0, 0, 1).finished());
  EXPECT_EQ(dynamics_candidates(s), (Eigen::VectorXi(5) << 0, 1, 0, 0, 1).finished());
  // Row 0 is closed and approaching faster than vel_tol: dynamics refuses the scenario.
  EXPECT_EQ(dynamics(s).status, Status::unresolved_impact);
  s.phi_u(0) = 1.0;  // open: no longer an unresolved impact
  const DynamicsResult d = dynamics(s);
  EXPECT_EQ(d.status, Status::ok);
  EXPECT_EQ(d.active, (Eigen::VectorXi(5) << 0, 1, 0, 0, 1).finished());
}

}  // namespace
}  // namespace obliq::reference

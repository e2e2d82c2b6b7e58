// tests/friction/closed_forms_test.cpp: frictional contact against closed forms (docs/friction.md
// "Checks"): a block on an incline (sticks iff tan(theta) <= mu, else slides with
// a = g (sin(theta) - mu cos(theta)) down the slope; a block sliding down or up decelerates at
// g (mu cos(theta) -+ sin(theta))), a spinning ball hitting the floor (rolls or slides with the
// known tangential velocity), Painleve's rod (no solution / two solutions), and a ball on the floor
// in space; both formulations, double and float.
#include <gtest/gtest.h>

#include <cmath>

#include "obliq/friction.hpp"

namespace {

using obliq::Friction;
using obliq::FrictionResult;
using obliq::Scenario;
using obliq::Status;
using obliq::friction::Formulation;
constexpr double g = 9.81;

// A point mass m on an incline of angle theta, in the plane (x, y) or in space (x, y, z), with
// velocity `v` along the slope (positive: up the slope). Normal n = (-sin, cos), slope direction
// t = (cos, sin).
struct Incline {
  Scenario s;
  Friction f;
  double theta;
  Incline(double theta_, double mu, double v, int dim, double m = 2.0) : theta(theta_) {
    const int n = dim;
    s = Scenario::zeros({n, 0, 1});
    s.M = m * Eigen::MatrixXd::Identity(n, n);
    s.h = Eigen::VectorXd::Zero(n);
    s.h(1) = m * g;  // M qdd + h = u + A^T lambda
    s.A_u.row(0).setZero();
    s.A_u(0, 0) = -std::sin(theta), s.A_u(0, 1) = std::cos(theta);
    s.qdot = Eigen::VectorXd::Zero(n);
    s.qdot(0) = v * std::cos(theta), s.qdot(1) = v * std::sin(theta);
    f = Friction::none(s, dim);
    f.A_t(0, 0) = std::cos(theta), f.A_t(0, 1) = std::sin(theta);
    if (dim == 3) f.A_t(1, 2) = 1.0;
    f.mu.setConstant(mu);
  }
  double along(const Eigen::VectorXd& a) const { return a(0) * std::cos(theta) + a(1) * std::sin(theta); }
};

struct Case {
  int dim;
  Formulation form;
};

class InclineTest : public ::testing::TestWithParam<Case> {};

TEST_P(InclineTest, AtRestSticksIffTanBelowMu) {
  const Case c = GetParam();
  for (double theta : {0.1, 0.3, 0.5, 0.7, 1.0})
    for (double mu : {0.0, 0.2, 0.5, 1.0}) {
      Incline in(theta, mu, 0.0, c.dim);
      in.f.formulation = c.form;
      FrictionResult info;
      const auto r = obliq::dynamics(in.s, in.f, &info);
      ASSERT_EQ(r.status, Status::ok) << theta << " " << mu;
      const double a = in.along(r.qddot);
      const double m = 2.0;
      if (std::tan(theta) <= mu) {
        EXPECT_NEAR(r.qddot.norm(), 0.0, 1e-9) << theta << " " << mu;
        EXPECT_NEAR(r.lambda(0), m * g * std::cos(theta), 1e-9);
        EXPECT_NEAR(info.lambda_t(0), m * g * std::sin(theta), 1e-9);  // friction up the slope
      } else {
        EXPECT_NEAR(a, -g * (std::sin(theta) - mu * std::cos(theta)), 1e-9) << theta << " " << mu;
        EXPECT_NEAR(r.lambda(0), m * g * std::cos(theta), 1e-9);
        if (mu > 0) EXPECT_NEAR(info.lambda_t(0), mu * m * g * std::cos(theta), 1e-9);
      }
      if (c.dim == 3) EXPECT_NEAR(r.qddot(2), 0.0, 1e-12);
    }
}

TEST_P(InclineTest, SlidingBlockDeceleratesAtTheClosedForm) {
  const Case c = GetParam();
  for (double theta : {0.1, 0.4, 0.9})
    for (double mu : {0.1, 0.5, 1.2})
      for (double v : {-1.5, 2.0}) {  // down the slope, up the slope
        Incline in(theta, mu, v, c.dim);
        in.f.formulation = c.form;
        FrictionResult info;
        const auto r = obliq::dynamics(in.s, in.f, &info);
        ASSERT_EQ(r.status, Status::ok);
        ASSERT_EQ(info.sliding(0), 1);
        // Acceleration along the slope: gravity -g sin, friction -mu g cos sign(v).
        const double expect = -g * std::sin(theta) - (v > 0 ? 1 : -1) * mu * g * std::cos(theta);
        EXPECT_NEAR(in.along(r.qddot), expect, 1e-9) << theta << " " << mu << " " << v;
      }
}

INSTANTIATE_TEST_SUITE_P(Friction, InclineTest,
                         ::testing::Values(Case{2, Formulation::cone}, Case{2, Formulation::pyramid},
                                           Case{3, Formulation::cone}, Case{3, Formulation::pyramid}));

// A disc (plane) of mass m, radius R, inertia I = 2/5 m R^2 (a ball rolling in a plane), q = (x, y, phi),
// hitting the floor y = 0 with velocity (vx, vy < 0) and spin w. Contact-point slip
// s = vx + R w (the point (0, -R) moves at v + w k x (0, -R) = (vx + R w, vy)).
struct SpinningBall {
  Scenario s;
  Friction f;
  double m = 1.5, R = 0.2, I = 0.4 * 1.5 * 0.04;
  SpinningBall(double vx, double vy, double w, double e, double mu) {
    s = Scenario::zeros({3, 0, 1});
    s.M.diagonal() << m, m, I;
    s.qdot << vx, vy, w;
    s.A_u << 0, 1, 0;
    s.e.setConstant(e);
    f = Friction::none(s, 2);
    f.A_t << 1, 0, R;
    f.mu.setConstant(mu);
  }
};

TEST(SpinningBall, RollsOrSlidesWithTheKnownTangentialVelocity) {
  for (Formulation form : {Formulation::cone, Formulation::pyramid})
    for (double vx : {-2.0, 0.0, 1.0, 3.0})
      for (double w : {-20.0, 0.0, 15.0})
        for (double e : {0.0, 0.6, 1.0})
          for (double mu : {0.05, 0.3, 2.0}) {
            SpinningBall b(vx, -2.5, w, e, mu);
            b.f.formulation = form;
            FrictionResult info;
            const auto r = obliq::impact(b.s, b.f, &info);
            ASSERT_EQ(r.status, Status::ok);
            const double PN = b.m * (1 + e) * 2.5;   // W_NT = 0: the normal impulse of the frictionless impact
            const double slip = vx + b.R * w;
            const double meff = 1.0 / (1.0 / b.m + b.R * b.R / b.I);  // 2/7 m
            double PT = -meff * slip;                                   // rolling
            if (std::fabs(PT) > mu * PN) PT = -mu * PN * (slip > 0 ? 1 : -1);  // sliding
            EXPECT_NEAR(r.lambda(0), PN, 1e-9);
            EXPECT_NEAR(info.lambda_t(0), PT, 1e-9);
            EXPECT_NEAR(r.qdot_plus(0), vx + PT / b.m, 1e-9);
            EXPECT_NEAR(r.qdot_plus(1), 2.5 * e, 1e-9);
            EXPECT_NEAR(r.qdot_plus(2), w + b.R * PT / b.I, 1e-9);
            if (std::fabs(meff * slip) <= mu * PN) {  // rolling: v_x = -R w afterwards, (5 vx - 2 R w) / 7
              EXPECT_NEAR(r.qdot_plus(0) + b.R * r.qdot_plus(2), 0.0, 1e-9);
              EXPECT_NEAR(r.qdot_plus(0), (5 * vx - 2 * b.R * w) / 7, 1e-9);
            }
            EXPECT_LE(std::fabs(info.lambda_t(0)), mu * r.lambda(0) * (1 + 1e-12));
            EXPECT_LE(r.kinetic_energy_post, r.kinetic_energy_pre * (1 + 1e-12));
          }
}

// The same ball with contacts in space (dim 3) whose first tangent row is zero, as a planar
// model's contact frame gives (the out-of-plane tangent moves no coordinate): W is singular on that
// row, the sticking case solves it by elimination (one_contact.hpp). Same closed forms.
TEST(SpinningBall, ZeroOutOfPlaneTangentRow) {
  for (Formulation form : {Formulation::cone, Formulation::pyramid})
    for (double vx : {-2.0, 1.0})
      for (double w : {-20.0, 0.0, 15.0})
        for (double mu : {0.05, 0.3, 2.0}) {
          SpinningBall b(vx, -2.5, w, 0.0, mu);
          Friction f = Friction::none(b.s, 3);
          f.A_t << 0, 0, 0,  //
              1, 0, b.R;
          f.mu.setConstant(mu);
          f.formulation = form;
          FrictionResult info;
          const auto r = obliq::impact(b.s, f, &info);
          ASSERT_EQ(r.status, Status::ok) << "vx " << vx << " w " << w << " mu " << mu;
          const double PN = b.m * 2.5, slip = vx + b.R * w, meff = 1.0 / (1.0 / b.m + b.R * b.R / b.I);
          double PT = -meff * slip;
          if (std::fabs(PT) > mu * PN) PT = -mu * PN * (slip > 0 ? 1 : -1);
          EXPECT_NEAR(r.lambda(0), PN, 1e-9);
          EXPECT_NEAR(info.lambda_t(0), 0.0, 1e-9);
          EXPECT_NEAR(info.lambda_t(1), PT, 1e-9);
          EXPECT_NEAR(r.qdot_plus(0), vx + PT / b.m, 1e-9);
          EXPECT_NEAR(r.qdot_plus(2), w + b.R * PT / b.I, 1e-9);
        }
}

TEST(SpinningBall, FloatAgrees) {
  SpinningBall b(1.0, -2.5, 15.0, 0.5, 0.3);
  const auto rd = obliq::impact<double>(b.s, b.f);
  const auto rf = obliq::impact<float>(b.s, b.f);
  ASSERT_EQ(rf.status, Status::ok);
  EXPECT_LT((rd.qdot_plus - rf.qdot_plus).norm(), 1e-4 * rd.qdot_plus.norm());
}

// Painleve's rod: a rod of length 2l, mass m, q = (x, y, phi) of its centre, its lower end on the
// floor at angle phi, sliding. Contact rows: normal (0, 1, -l cos phi), tangent (1, 0, l sin phi).
// Sliding with tangential velocity v_T < 0 gives r_T = +mu r_N and the normal LCP coefficient
// a = W_NN + mu W_NT = (1 + 3 cos^2 phi - 3 mu sin phi cos phi) / m, negative for mu > 2.5 at
// phi = 30 deg: with q_N < 0 (gravity) no solution, with q_N > 0 two (r_N = 0 and r_N = -q_N / a).
Scenario painleve_rod(double mu, double up_force, Friction& f) {
  const double m = 1.0, l = 0.5, phi = M_PI / 6;
  Scenario s = Scenario::zeros({3, 0, 1});
  s.M.diagonal() << m, m, m * l * l / 3;
  s.A_u << 0, 1, -l * std::cos(phi);
  s.qdot << -1.0, 0.0, 0.0;  // slides to the left, v_T = -1
  s.h << 0, m * g, 0;
  s.u << 0, up_force, 0;
  f = Friction::none(s, 2);
  f.A_t << 1, 0, l * std::sin(phi);
  f.mu.setConstant(mu);
  return s;
}

TEST(Painleve, NoSolutionAndSeveralSolutionsAreStatuses) {
  Friction f;
  for (Formulation form : {Formulation::cone, Formulation::pyramid}) {
    Scenario s = painleve_rod(3.0, 0.0, f);
    f.formulation = form;
    EXPECT_EQ(obliq::dynamics(s, f).status, Status::infeasible);
    s = painleve_rod(3.0, 2.0 * g, f);
    f.formulation = form;
    EXPECT_EQ(obliq::dynamics(s, f).status, Status::ambiguous);
    // Low friction: a > 0, one solution, and the rod's end stays on the floor.
    s = painleve_rod(0.5, 0.0, f);
    f.formulation = form;
    FrictionResult info;
    const auto r = obliq::dynamics(s, f, &info);
    ASSERT_EQ(r.status, Status::ok);
    EXPECT_NEAR(s.A_u.row(0).dot(r.qddot), 0.0, 1e-9);
    EXPECT_GT(r.lambda(0), 0.0);
    EXPECT_NEAR(info.lambda_t(0), 0.5 * r.lambda(0), 1e-9);  // v_T < 0: friction along +t
  }
}

// A ball in space: q = (x, y, z, wx, wy, wz), falling on the floor z = 0 with horizontal velocity
// and spin: the contact point's slip is v_xy + w x (0, 0, -R); the tangential impulse opposes the
// slip (directions from the cone, not the pyramid's facets).
TEST(SpatialBall, SlidingImpulseOpposesSlipAndRollingStopsIt) {
  const double m = 1.0, R = 0.1, I = 0.4 * m * R * R;
  for (double mu : {0.1, 1.0}) {
    Scenario s = Scenario::zeros({6, 0, 1});
    s.M.diagonal() << m, m, m, I, I, I;
    s.qdot << 1.0, 0.5, -2.0, 3.0, -4.0, 1.0;
    s.A_u << 0, 0, 1, 0, 0, 0;
    s.e.setConstant(0.3);
    Friction f = Friction::none(s, 3);
    // contact point velocity = v + w x (0,0,-R) = (vx - R wy, vy + R wx, vz)
    f.A_t << 1, 0, 0, 0, -R, 0,  //
        0, 1, 0, R, 0, 0;
    f.mu.setConstant(mu);
    FrictionResult info;
    const auto r = obliq::impact(s, f, &info);
    ASSERT_EQ(r.status, Status::ok);
    const Eigen::Vector2d slip = f.A_t * s.qdot;
    const double PN = m * 1.3 * 2.0;
    EXPECT_NEAR(r.lambda(0), PN, 1e-9);
    const double meff = 1.0 / (1.0 / m + R * R / I);
    if (meff * slip.norm() <= mu * PN) {
      EXPECT_NEAR((f.A_t * r.qdot_plus).norm(), 0.0, 1e-9);
    } else {
      const Eigen::Vector2d expect = -mu * PN * slip.normalized();
      EXPECT_NEAR((info.lambda_t - expect).norm(), 0.0, 1e-9);
    }
  }
}

}  // namespace

// tests/sim: the Simulator against closed forms (bouncing ball, Newton's cradle, a rigid body on
// two contacts where the two impact laws differ), energy never gained, and every built-in model
// and a URDF through both integrators.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "obliq/simulator.hpp"
#include "support/sim_scenes.hpp"

namespace {

using obliq::Law;
using obliq::SimOptions;
using obliq::Simulator;
using obliq::Status;
using obliq::sim::Integrator;
namespace model = obliq::model;

constexpr double g = 9.81;

SimOptions event_options(Law law = Law::complementarity) {
  SimOptions o;
  o.integrator = Integrator::event_driven;
  o.law = law;
  o.threads = 1;
  return o;
}

// Bouncing ball (built-in `ball`, radius 0.1) dropped from gap h0 at rest: impact k (k = 1, 2, ...)
// at t_k with rebound speed v_k = e^k sqrt(2 g h0), t_1 = sqrt(2 h0 / g), t_{k+1} = t_k + 2 v_k / g;
// apex heights v_k^2 / (2 g) = e^(2k) h0.
TEST(BouncingBall, EventDrivenApexHeightsAndImpactTimes) {
  const double h0 = 1.0;
  for (const double e : {1.0, 0.8, 0.5}) {
    Simulator<double> sim(model::builtin_model("ball"), 1, event_options());
    sim.q(0, 2) = 0.1 + h0;
    sim.e.setConstant(e);
    double t_expect = std::sqrt(2 * h0 / g), v_expect = e * std::sqrt(2 * g * h0);
    int seen = 0;
    const int bounces = e == 0.5 ? 6 : 10;
    for (int step = 0; step < 20000 && seen < bounces; ++step) {
      sim.step(1e-3);
      ASSERT_EQ(sim.status[0], Status::ok);
      ASSERT_LE(sim.impacts[0], seen + 1) << "two impacts in one output interval";
      if (sim.impacts[0] == seen + 1) {
        ++seen;
        const double apex = sim.last_impact_v(0, 2) * sim.last_impact_v(0, 2) / (2 * g);
        EXPECT_NEAR(apex / h0, std::pow(e, 2 * seen), 1e-9 * std::pow(e, 2 * seen)) << "e " << e << " bounce " << seen;
        EXPECT_NEAR(sim.last_impact_time[0], t_expect, 1e-9 * t_expect) << "e " << e << " bounce " << seen;
        t_expect += 2 * v_expect / g;
        v_expect *= e;
      }
    }
    EXPECT_EQ(seen, bounces);
  }
}

// Moreau-Jean on the ball: exact in free flight (theta = 1/2 integrates constant gravity exactly),
// comes to rest on the floor (to within the landing step's penetration), and with e = 0 never gains energy (with e > 0 the discrete energy
// of Moreau-Jean's scheme may rise by O(g^2 h^2) while the ball chatters into rest: Acary 2016,
// "Energy conservation and dissipation properties of time-integration methods for nonsmooth
// elastodynamics"; only the final energy is checked then).
TEST(BouncingBall, MoreauJeanComesToRestWithoutEnergyGain) {
  for (const double e : {0.0, 0.5}) {
    SimOptions o;
    o.threads = 1;
    Simulator<double> sim(model::builtin_model("ball"), 1, o);
    sim.q(0, 2) = 1.1;
    sim.e.setConstant(e);
    const double h = 1e-3;
    std::vector<double> kin, pot;
    sim.energies(kin, pot);
    const double start = kin[0] + pot[0];
    double energy = start;
    for (int k = 0; k < 4000; ++k) {
      sim.step(h);
      ASSERT_EQ(sim.status[0], Status::ok);
      sim.energies(kin, pot);
      if (e == 0.0) EXPECT_LE(kin[0] + pot[0], energy + 1e-12 * start) << "step " << k;
      energy = kin[0] + pot[0];
      if (k == 200) {  // before the first impact (t = 0.4515): the closed form of free fall
        const double t = (k + 1) * h;
        EXPECT_NEAR(sim.q(0, 2), 1.1 - 0.5 * g * t * t, 1e-12);
        EXPECT_NEAR(sim.v(0, 2), -g * t, 1e-12);
      }
    }
    EXPECT_LT(energy, start);
    EXPECT_GT(sim.impacts[0], e > 0 ? 3 : 0);
    EXPECT_NEAR(sim.v(0, 2), 0.0, g * h);              // at rest up to one step of gravity
    // On the floor: a velocity-level scheme leaves the penetration of its landing step, at most
    // h times the impact speed sqrt(2 g h0) (Siconos's Moreau-Jean does the same: siconos_compare.py).
    EXPECT_NEAR(sim.q(0, 2) - 0.1, 0.0, h * std::sqrt(2 * g * 1.0));
  }
}

// An n-ball Newton's cradle in zero gravity (gravity is a per-scenario control): pendulums of
// length 1 pivoting 0.1 + gap apart, balls of radius 0.05.
model::Model cradle(int n, double gap) {
  model::Model m;
  std::vector<int> b(n);
  for (int i = 0; i < n; ++i) {
    b[i] = model::add_body(m, "swing_" + std::to_string(i), -1, model::JointType::revolute, Eigen::Matrix3d::Identity(),
                           Eigen::Vector3d((0.1 + gap) * i, 0, 1), Eigen::Vector3d::UnitY(), 1.0,
                           Eigen::Vector3d(0, 0, -1), Eigen::Matrix3d::Zero());
  }
  for (int i = 0; i + 1 < n; ++i) {
    model::ContactSpec c;
    c.name = "gap_" + std::to_string(i);
    c.body_a = b[i + 1];
    c.point_a = Eigen::Vector3d(0, 0, -1);
    c.body_b = b[i];
    c.point_b = Eigen::Vector3d(0, 0, -1);
    c.normal = Eigen::Vector3d::UnitX();
    c.offset = 0.1;
    model::add_contact(m, c);
  }
  return m;
}

// Ball i's x velocity at theta = 0 is -L theta_dot_i (rotation about +y).
TEST(NewtonsCradle, SimultaneousImpactClosedFormBothLaws) {
  const double V = 1.0;
  for (const int n : {3, 5})
    for (const double e : {1.0, 0.5})
      for (const Law law : {Law::projection, Law::complementarity}) {
        Simulator<double> sim(cradle(n, 0.0), 1, event_options(law));
        sim.gravity.setZero();
        sim.e.setConstant(e);
        sim.v(0, 0) = -V;  // ball 1 moves +x at V into the touching chain
        sim.step(1e-6);
        ASSERT_EQ(sim.status[0], Status::ok);
        ASSERT_EQ(sim.impacts[0], 1);
        // All rows closed: ball 1 approaching, the others resting. Both laws: every row binds
        // (the chain's Delassus inverse is entrywise positive), w = V (1 + e) / n for balls
        // 2..n and w - e V for ball 1.
        const double w = V * (1 + e) / n;
        EXPECT_NEAR(-sim.last_impact_v(0, 0), w - e * V, 1e-12) << n << " balls, e " << e;
        for (int i = 1; i < n; ++i) EXPECT_NEAR(-sim.last_impact_v(0, i), w, 1e-12) << n << " balls, e " << e;
      }
}

TEST(NewtonsCradle, SequentialImpactsSendTheLastBallOut) {
  // Gaps of 1 mm: the event-driven integrator resolves one two-ball impact after another; with
  // e = 1 each passes the whole velocity on: (V, 0, ..., 0) -> (0, ..., 0, V). Exactly for balls
  // on a line (raw data: x_i, rows x_{i+1} - x_i - 0.1); on the pendulums of the cradle to
  // O(theta^2) (the rows are along x, the balls move on arcs: theta ~ 1e-3 here).
  const double V = 1.0;
  for (const int n : {3, 5}) {
    obliq::Batch<double> line({n, 0, n - 1}, 1);
    for (int i = 0; i + 1 < n; ++i) {
      line.A_u_of(0)(i, i) = -1;
      line.A_u_of(0)(i, i + 1) = 1;
      line.phi_u_of(0)(i) = -0.1;
    }
    line.e_of(0).setConstant(1.0);
    line.qdot_of(0)(0) = V;
    Simulator<double> chain(line, event_options());
    for (int i = 0; i < n; ++i) chain.q(0, i) = 0.101 * i;
    Simulator<double> pendula(cradle(n, 1e-3), 1, event_options());
    pendula.gravity.setZero();
    pendula.e.setConstant(1.0);
    pendula.v(0, 0) = -V;
    chain.step(0.01);
    pendula.step(0.01);
    for (const auto* sim : {&chain, &pendula}) {
      const double tol = sim == &chain ? 1e-12 : 1e-6;
      ASSERT_EQ(sim->status[0], Status::ok);
      EXPECT_EQ(sim->impacts[0], n - 1);
      for (int i = 0; i + 1 < n; ++i) EXPECT_NEAR(sim->v(0, i), 0.0, tol) << n << " balls";
      EXPECT_NEAR(std::abs(sim->v(0, n - 1)), V, tol) << n << " balls";
    }
  }
}

// A rigid body on two contacts (raw data: planar (x, z, theta), M = diag(2, 2, 2), contact rows
// of the ends at +-0.5 linearised at theta = 0). End b rests, end a approaches at V. The rows
// couple positively (W_ab = 1/2 - 1/8 > 0), so the projection law pulls on b (lambda_b < 0) and
// the complementarity law lets b lift off:
//   projection:       zdot+ = e V / 2,  thetadot+ = -e V
//   complementarity:  lambda_a = V (1 + e) / W_aa (W_aa = 5/8), zdot+ = -V/2 + lambda_a / 2,
//                     thetadot+ = V - lambda_a / 4
TEST(TwoContactBody, ProjectionAndComplementarityDiffer) {
  const double V = 2.0;
  for (const double e : {1.0, 0.3}) {
    for (const Law law : {Law::projection, Law::complementarity}) {
      obliq::Batch<double> b({3, 0, 2}, 1);
      b.M_of(0) = 2.0 * Eigen::Matrix3d::Identity();
      b.A_u_of(0) << 0, 1, -0.5, 0, 1, 0.5;
      b.qdot_of(0) << 0, -V / 2, V;
      b.e_of(0).setConstant(e);
      Simulator<double> sim(b, event_options(law));
      sim.step(1e-9);
      ASSERT_EQ(sim.status[0], Status::ok);
      const double la = V * (1 + e) / 0.625;
      const double zdot = law == Law::projection ? e * V / 2 : -V / 2 + la / 2;
      const double thdot = law == Law::projection ? -e * V : V - la / 4;
      EXPECT_NEAR(sim.last_impact_v(0, 1), zdot, 1e-12) << obliq::law_name(law) << " e " << e;
      EXPECT_NEAR(sim.last_impact_v(0, 2), thdot, 1e-12) << obliq::law_name(law) << " e " << e;
    }
  }
}

// Event-driven runs never gain energy with e <= 1 (the impacts dissipate; RK4 between them
// conserves to its truncation error).
TEST(Energy, EventDrivenNeverGainsEnergy) {
  for (const char* name : {"ball", "dimer"}) {
    Simulator<double> sim(model::builtin_model(name), 1, event_options());
    if (std::string(name) == "ball") {
      sim.q(0, 2) = 1.1;
    } else {
      sim.q.row(0) << 0, 1.0, 0.4;  // dimer tilted, 1 m up
      sim.v.row(0) << 0.3, 0, 1.0;
    }
    sim.e.setConstant(0.7);
    std::vector<double> kin, pot;
    sim.energies(kin, pot);
    const double scale = std::abs(kin[0]) + std::abs(pot[0]);
    double energy = kin[0] + pot[0];
    for (int k = 0; k < 1500; ++k) {
      sim.step(1e-3);
      ASSERT_EQ(sim.status[0], Status::ok) << name << " step " << k;
      sim.energies(kin, pot);
      EXPECT_LE(kin[0] + pot[0], energy + 1e-9 * scale) << name << " step " << k;
      energy = std::min(energy, kin[0] + pot[0]);
    }
    EXPECT_GT(sim.impacts[0], 1) << name;
  }
}

// Every built-in model and a URDF (free base, contacts added as on the command line) run both
// integrators from a drop with status ok, and the contacts stop the fall.
TEST(AllModels, BothIntegratorsRun) {
  std::vector<model::Model> models;
  for (const auto& info : model::builtin_models()) models.push_back(model::builtin_model(info.name));
  models.push_back(obliq::test::scene_model("hopper"));
  for (const model::Model& m : models) {
    for (const Integrator integ : {Integrator::moreau_jean, Integrator::event_driven}) {
      SimOptions o;
      o.integrator = integ;
      o.threads = 1;
      Simulator<double> sim(m, 2, o);
      // Lift the model so that every unilateral gap is positive, then drop it.
      obliq::Scenario sc;
      ASSERT_EQ(model::evaluate(m, model::neutral(m), Eigen::VectorXd::Zero(m.nv), sc), Status::ok);
      const double lift = sc.phi_u.size() ? std::max(0.0, -sc.phi_u.minCoeff()) + 0.05 : 0.0;
      for (int s = 0; s < 2; ++s) {
        for (int i = 0; i < m.nbodies(); ++i) {
          const bool free_root = m.parent[i] == -1 && m.joint_type[i] == int(model::JointType::free_flyer);
          const bool z_slider = m.joint_type[i] == int(model::JointType::prismatic) && m.joint_names[i] == "z";
          if (free_root) sim.q(s, m.idx_q[i] + 2) += lift;
          if (z_slider) sim.q(s, m.idx_q[i]) += lift;
        }
        if (m.name.rfind("cradle", 0) == 0) sim.v(s, 0) = -0.5;  // ball 1 into the others
      }
      sim.e.setConstant(0.3);
      for (int k = 0; k < 300; ++k) sim.step(2e-3);
      for (int s = 0; s < 2; ++s) {
        EXPECT_EQ(sim.status[s], Status::ok) << m.name << " " << obliq::sim::integrator_name(integ);
        EXPECT_TRUE(sim.q.row(s).allFinite()) << m.name;
      }
      EXPECT_GT(sim.impacts[0], 0) << m.name << " " << obliq::sim::integrator_name(integ);
    }
  }
}

}  // namespace

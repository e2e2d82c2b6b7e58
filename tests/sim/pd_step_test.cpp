// tests/sim: Simulator::step_pd, the PD-tracked environment step (include/obliq/sim/pd_tracking.hpp).
// The oracle is a hand-rolled loop: the torques of (PD1) computed here from the state, written
// into a count x nv array, and Simulator::step(dt, 1, u) frame_skip times; the same states,
// statuses, counters and contacts bit for bit, and the effort (PD2) bit for bit. Then: bitwise
// the same for 1, 2 and 3 threads; held scenarios get no torque; float; the event-driven
// integrator; and the host checks (std::invalid_argument, nothing stepped).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "obliq/simulator.hpp"

namespace {

using obliq::HostArray;
using obliq::PdTracking;
using obliq::SimOptions;
using obliq::Simulator;
using obliq::Status;
using obliq::sim::Integrator;
namespace model = obliq::model;

// The quadruped's actuators (obliq.envs.QuadrupedEnv): the 12 joints, kp 80, kd 1, |tau| <= 30.
PdTracking quadruped_pd() {
  PdTracking pd;
  for (int j = 0; j < 12; ++j) {
    pd.v_index.push_back(6 + j);
    pd.q_index.push_back(7 + j);
  }
  pd.kp = 80;
  pd.kd = 1;
  pd.max_torque = 30;
  return pd;
}

// revolute_actuators: every revolute joint in body order, the gains as given; the quadruped's
// are its 12 joints (the hand-written list above), the free base gets none; biped5's planar base
// is two sliders and its torso pitch (revolute: actuated), then the four leg joints.
TEST(PdTracking, RevoluteActuatorsAreTheModelsRevoluteJoints) {
  const PdTracking q = obliq::revolute_actuators(model::builtin_model("quadruped"), 80, 1, 30);
  const PdTracking hand = quadruped_pd();
  EXPECT_EQ(q.v_index, hand.v_index);
  EXPECT_EQ(q.q_index, hand.q_index);
  EXPECT_EQ(q.kp, 80);
  EXPECT_EQ(q.kd, 1);
  EXPECT_EQ(q.max_torque, 30);
  const PdTracking b = obliq::revolute_actuators(model::builtin_model("biped5"), 2, 3);
  EXPECT_EQ(b.v_index, (std::vector<int>{2, 3, 4, 5, 6}));
  EXPECT_EQ(b.q_index, (std::vector<int>{2, 3, 4, 5, 6}));
  EXPECT_EQ(b.max_torque, std::numeric_limits<double>::infinity());
  EXPECT_TRUE(obliq::revolute_actuators(model::builtin_model("ball"), 1, 1).v_index.empty());
}

// `count` quadrupeds dropped from a few centimetres with random joints and velocities, Coulomb
// friction mu 0.8 (the environments' contacts), and random targets around the stance.
template <class T> struct Drop {
  Simulator<T> sim;
  std::vector<T> target;        // count x 12
  std::vector<std::uint8_t> hold;  // count
};

template <class T> Drop<T> quadruped_drop(std::size_t count, const SimOptions& o, unsigned seed = 11) {
  const model::Model m = model::builtin_model("quadruped");
  Drop<T> d{Simulator<T>(m, count, o), {}, {}};
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  const double stance[3] = {0.0, 0.6, -1.2};
  for (std::size_t s = 0; s < count; ++s) {
    d.sim.q(s, 2) = T(0.42 + 0.05 * (u(rng) + 1));
    for (int k = 7; k < m.nq; ++k) d.sim.q(s, k) = T(stance[(k - 7) % 3] + 0.3 * u(rng));
    for (int k = 0; k < m.nv; ++k) d.sim.v(s, k) = T(0.3 * u(rng));
    for (int i = 0; i < m.n_unilateral(); ++i) d.sim.mu(s, i) = T(0.8);
    for (int j = 0; j < 12; ++j) d.target.push_back(T(stance[j % 3] + 0.8 * u(rng)));
    d.hold.push_back(s % 5 == 3);
  }
  return d;
}

// The oracle's torques: (PD1) written out, zero off the actuated coordinates and when held.
// Returns sum_j tau_j^2 in the order of the actuators.
template <class T>
T oracle_torques(const Simulator<T>& sim, const PdTracking& pd, const std::vector<T>& target,
                 const std::vector<std::uint8_t>& hold, std::size_t s, obliq::RowMat<T>& u) {
  u.row(long(s)).setZero();
  if (!hold.empty() && hold[s]) return T(0);
  T norm2 = 0;
  const std::size_t n = pd.v_index.size();
  for (std::size_t j = 0; j < n; ++j) {
    const T e = target[s * n + j] - sim.q(long(s), pd.q_index[j]);
    T tau = T(pd.kp) * e - T(pd.kd) * sim.v(long(s), pd.v_index[j]);
    if (tau < -T(pd.max_torque)) tau = -T(pd.max_torque);
    if (tau > T(pd.max_torque)) tau = T(pd.max_torque);
    u(long(s), pd.v_index[j]) = tau;
    norm2 += tau * tau;
  }
  return norm2;
}

// frame_skip steps of Simulator::step(dt, 1, u) with the oracle's torques; the effort (PD2).
template <class T>
std::vector<T> oracle_env_step(Simulator<T>& sim, const PdTracking& pd, const std::vector<T>& target,
                               const std::vector<std::uint8_t>& hold, T dt, int frame_skip) {
  obliq::RowMat<T> u = obliq::RowMat<T>::Zero(long(sim.count()), sim.nv());
  std::vector<T> effort(sim.count(), T(0));
  for (int k = 0; k < frame_skip; ++k) {
    for (std::size_t s = 0; s < sim.count(); ++s) effort[s] += oracle_torques(sim, pd, target, hold, s, u);
    sim.step(dt, 1, HostArray<const T>{u.data(), sim.nv(), 1});
  }
  for (T& x : effort) x /= T(frame_skip);
  return effort;
}

template <class T> bool same_bits(const T* a, const T* b, std::size_t n) {
  return std::memcmp(a, b, n * sizeof(T)) == 0;
}

template <class T> void expect_same_state(const Simulator<T>& a, const Simulator<T>& b, const std::string& what) {
  EXPECT_TRUE(same_bits(a.q.data(), b.q.data(), std::size_t(a.q.size()))) << what << ": q";
  EXPECT_TRUE(same_bits(a.v.data(), b.v.data(), std::size_t(a.v.size()))) << what << ": v";
  EXPECT_TRUE(same_bits(a.t.data(), b.t.data(), a.t.size())) << what << ": t";
  EXPECT_EQ(a.status, b.status) << what;
  EXPECT_EQ(a.impacts, b.impacts) << what;
  EXPECT_EQ(a.lcp_solves, b.lcp_solves) << what;
  EXPECT_EQ(a.active, b.active) << what;
}

template <class T> void matches_the_step_loop(Integrator integrator, int env_steps, T dt, int min_landed) {
  SimOptions o;
  o.threads = 2;
  o.integrator = integrator;
  const PdTracking pd = quadruped_pd();
  Drop<T> a = quadruped_drop<T>(23, o), b = quadruped_drop<T>(23, o);
  std::vector<T> effort(a.sim.count(), T(-1));
  for (int k = 0; k < env_steps; ++k) {
    const std::string what = "env step " + std::to_string(k);
    a.sim.step_pd(dt, 4, pd, {a.target.data(), 12, 1}, {a.hold.data(), 1, 0}, {effort.data(), 1, 0});
    const std::vector<T> expected = oracle_env_step(b.sim, pd, b.target, b.hold, dt, 4);
    expect_same_state(a.sim, b.sim, what);
    EXPECT_TRUE(same_bits(effort.data(), expected.data(), effort.size())) << what << ": effort";
    if (::testing::Test::HasFailure()) return;
  }
  int landed = 0, held_still = 0;
  for (std::size_t s = 0; s < a.sim.count(); ++s) {
    EXPECT_EQ(a.sim.status[s], Status::ok) << "scenario " << s;
    landed += a.sim.impacts[s] > 0;
    if (a.hold[s]) held_still += effort[s] == T(0);
  }
  EXPECT_GE(landed, min_landed) << "the drops should land";
  EXPECT_EQ(held_still, 4) << "held scenarios: zero effort";
  EXPECT_TRUE(a.sim.u.isZero()) << "step_pd leaves the Simulator's own torques alone";
}

TEST(PdStep, MatchesTheStepLoopWithExplicitTorques) {
  matches_the_step_loop<double>(Integrator::moreau_jean, 40, 5e-3, 15);
}

TEST(PdStep, MatchesTheStepLoopInFloat) { matches_the_step_loop<float>(Integrator::moreau_jean, 20, 5e-3f, 15); }

TEST(PdStep, MatchesTheStepLoopEventDriven) { matches_the_step_loop<double>(Integrator::event_driven, 5, 5e-3, 8); }

// The biped's actuators (velocity and configuration indices the same) and a torque limit that binds.
TEST(PdStep, MatchesTheStepLoopOnTheBiped) {
  SimOptions o;
  o.threads = 1;
  const model::Model m = model::builtin_model("biped5");
  Simulator<double> a(m, 9, o), b(m, 9, o);
  PdTracking pd;
  pd.v_index = pd.q_index = {3, 4, 5, 6};
  pd.kp = 300;
  pd.kd = 10;
  pd.max_torque = 20;
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> target;
  for (std::size_t s = 0; s < a.count(); ++s) {
    for (int k = 0; k < m.nq; ++k) a.q(s, k) = b.q(s, k) = (k == 1 ? 0.82 + 0.02 * u(rng) : 0.1 * u(rng));
    for (int j = 0; j < 4; ++j) target.push_back(0.8 * u(rng));
  }
  // Targets column-major (element stride count): strided caller memory.
  std::vector<double> target_cm(target.size());
  for (std::size_t s = 0; s < a.count(); ++s)
    for (std::size_t j = 0; j < 4; ++j) target_cm[j * a.count() + s] = target[s * 4 + j];
  std::vector<double> effort(2 * a.count());
  for (int k = 0; k < 30; ++k) {
    a.step_pd(2e-3, 3, pd, {target_cm.data(), 1, std::ptrdiff_t(a.count())}, {}, {effort.data(), 2, 1});
    const std::vector<double> expected = oracle_env_step(b, pd, target, {}, 2e-3, 3);
    expect_same_state(a, b, "env step " + std::to_string(k));
    for (std::size_t s = 0; s < a.count(); ++s)
      ASSERT_EQ(0, std::memcmp(&effort[2 * s], &expected[s], sizeof(double))) << "scenario " << s;
    EXPECT_LE(*std::max_element(effort.begin(), effort.end()), 4 * 20.0 * 20.0) << "the limit holds";
  }
  int landed = 0;
  for (std::size_t s = 0; s < a.count(); ++s) {
    EXPECT_EQ(a.status[s], Status::ok) << "scenario " << s;
    landed += a.impacts[s] > 0;
  }
  EXPECT_GE(landed, 5) << "the drops should land";
}

TEST(PdStep, BitwiseAcrossThreadCounts) {
  const PdTracking pd = quadruped_pd();
  std::vector<Drop<double>> runs;
  std::vector<std::vector<double>> efforts;
  for (const int threads : {1, 2, 3}) {
    SimOptions o;
    o.threads = threads;
    Drop<double> d = quadruped_drop<double>(37, o, 5);
    std::vector<double> effort(d.sim.count());
    for (int k = 0; k < 25; ++k)
      d.sim.step_pd(5e-3, 4, pd, {d.target.data(), 12, 1}, {d.hold.data(), 1, 0}, {effort.data(), 1, 0});
    runs.push_back(std::move(d));
    efforts.push_back(effort);
  }
  for (std::size_t r = 1; r < runs.size(); ++r) {
    expect_same_state(runs[0].sim, runs[r].sim, "threads run " + std::to_string(r));
    EXPECT_TRUE(same_bits(efforts[0].data(), efforts[r].data(), efforts[0].size()));
  }
}

// A scenario whose status is not ok stays where it is; the others go on.
TEST(PdStep, BadScenarioStopsOnlyItself) {
  SimOptions o;
  o.threads = 2;
  const PdTracking pd = quadruped_pd();
  Drop<double> d = quadruped_drop<double>(6, o);
  d.target[2 * 12 + 5] = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> effort(6);
  d.sim.step_pd(5e-3, 4, pd, {d.target.data(), 12, 1}, {}, {effort.data(), 1, 0});
  EXPECT_NE(d.sim.status[2], Status::ok);
  EXPECT_TRUE(std::isnan(effort[2]));
  const double t2 = d.sim.t[2];
  for (std::size_t s = 0; s < 6; ++s)
    if (s != 2) EXPECT_EQ(d.sim.status[s], Status::ok) << s;
  d.sim.step_pd(5e-3, 4, pd, {d.target.data(), 12, 1}, {}, {effort.data(), 1, 0});
  EXPECT_EQ(d.sim.t[2], t2) << "a failed scenario is not stepped again";
  EXPECT_DOUBLE_EQ(d.sim.t[0], 8 * 5e-3);
}

TEST(PdStep, BadHostInputThrowsAndStepsNothing) {
  SimOptions o;
  o.threads = 1;
  Drop<double> d = quadruped_drop<double>(3, o);
  const auto q0 = d.sim.q;
  std::vector<double> effort(3);
  const HostArray<const double> target{d.target.data(), 12, 1};
  auto expect_refused = [&](PdTracking pd, int frame_skip, HostArray<const double> tg, HostArray<double> ef,
                            const std::string& words) {
    try {
      d.sim.step_pd(5e-3, frame_skip, pd, tg, {}, ef);
      ADD_FAILURE() << "no exception; expected one naming '" << words << "'";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  const PdTracking good = quadruped_pd();
  PdTracking pd = good;
  expect_refused(good, 0, target, {effort.data(), 1, 0}, "frame_skip must be >= 1");
  pd.q_index.pop_back();
  expect_refused(pd, 4, target, {}, "same length");
  pd = good;
  pd.v_index[3] = 18;
  expect_refused(pd, 4, target, {}, "v_index[3] = 18 is outside [0, nv) = [0, 18)");
  pd.v_index[3] = -1;
  expect_refused(pd, 4, target, {}, "v_index[3] = -1 is outside");
  pd = good;
  pd.q_index[0] = 19;
  expect_refused(pd, 4, target, {}, "q_index[0] = 19 is outside [0, nq) = [0, 19)");
  pd = good;
  pd.v_index[4] = pd.v_index[1];
  expect_refused(pd, 4, target, {}, "v_index[4] = 7 is repeated");
  pd = good;
  pd.kp = std::numeric_limits<double>::infinity();
  expect_refused(pd, 4, target, {}, "kp and kd must be finite");
  pd = good;
  pd.kd = std::numeric_limits<double>::quiet_NaN();
  expect_refused(pd, 4, target, {}, "kp and kd must be finite");
  pd = good;
  pd.max_torque = -1;
  expect_refused(pd, 4, target, {}, "max_torque must be >= 0");
  pd.max_torque = std::numeric_limits<double>::quiet_NaN();
  expect_refused(pd, 4, target, {}, "max_torque must be >= 0");
  expect_refused(good, 4, {nullptr, 12, 1}, {}, "targets array has no data");
  expect_refused(good, 4, target, {effort.data(), 0, 1}, "scenario_stride must not be 0");
  d.sim.options.backend = obliq::Backend::reference;
  expect_refused(good, 4, target, {}, "backend");
  EXPECT_TRUE(d.sim.q == q0) << "nothing stepped";
  for (std::size_t s = 0; s < 3; ++s) EXPECT_EQ(d.sim.t[s], 0.0);
}

// No actuators at all: the free step (u = 0), effort 0.
TEST(PdStep, NoActuatorsIsTheFreeStep) {
  SimOptions o;
  o.threads = 1;
  Drop<double> a = quadruped_drop<double>(4, o), b = quadruped_drop<double>(4, o);
  std::vector<double> effort(4, -1);
  a.sim.step_pd(5e-3, 4, PdTracking{}, {}, {}, {effort.data(), 1, 0});
  b.sim.step(5e-3, 4);
  expect_same_state(a.sim, b.sim, "no actuators");
  for (double x : effort) EXPECT_EQ(x, 0.0);
}

}  // namespace

// tests/sim: the batched Simulator: bitwise determinism across thread counts, float against
// double on the same trajectories, per-scenario failure, and raw data against the same model.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>

#include "obliq/simulator.hpp"

namespace {

using obliq::Law;
using obliq::SimOptions;
using obliq::Simulator;
using obliq::Status;
using obliq::sim::Integrator;
namespace model = obliq::model;

// `count` quadrupeds dropped from random heights with random joint angles, velocities and e.
template <class T> Simulator<T> quadruped_drop(std::size_t count, const SimOptions& o, unsigned seed = 7) {
  const model::Model m = model::builtin_model("quadruped");
  Simulator<T> sim(m, count, o);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  for (std::size_t s = 0; s < count; ++s) {
    sim.q(s, 2) = T(0.55 + 0.2 * (u(rng) + 1));
    for (int k = 7; k < m.nq; ++k) sim.q(s, k) = T(0.3 * u(rng));
    for (int k = 0; k < m.nv; ++k) sim.v(s, k) = T(0.5 * u(rng));
    for (int i = 0; i < m.n_unilateral(); ++i) sim.e(s, i) = T(0.5 * (u(rng) + 1));
  }
  return sim;
}

TEST(Determinism, BitwiseAcrossThreadCounts) {
  for (const Integrator integ : {Integrator::moreau_jean, Integrator::event_driven}) {
    SimOptions o;
    o.integrator = integ;
    std::vector<Simulator<double>> runs;
    for (const int threads : {1, 2, 3}) {
      o.threads = threads;
      Simulator<double> sim = quadruped_drop<double>(37, o);
      for (int k = 0; k < 150; ++k) sim.step(2e-3);
      runs.push_back(std::move(sim));
    }
    int impacts = 0;
    for (std::size_t s = 0; s < runs[0].count(); ++s) impacts += runs[0].impacts[s] > 0;
    EXPECT_GT(impacts, 30) << "the drops should land";
    for (std::size_t r = 1; r < runs.size(); ++r) {
      EXPECT_EQ(0, std::memcmp(runs[0].q.data(), runs[r].q.data(), sizeof(double) * runs[0].q.size()));
      EXPECT_EQ(0, std::memcmp(runs[0].v.data(), runs[r].v.data(), sizeof(double) * runs[0].v.size()));
      EXPECT_EQ(runs[0].impacts, runs[r].impacts);
      EXPECT_EQ(runs[0].status, runs[r].status);
    }
  }
}

// Float follows double on the same trajectory (bouncing ball: the event times and rebound
// speeds to float precision; quadruped Moreau-Jean: positions over a landing).
TEST(FloatVsDouble, SameTrajectories) {
  SimOptions o;
  o.integrator = Integrator::event_driven;
  o.threads = 1;
  Simulator<double> d(model::builtin_model("ball"), 1, o);
  Simulator<float> f(model::builtin_model("ball"), 1, o);
  d.q(0, 2) = 1.1;
  f.q(0, 2) = 1.1f;
  d.e.setConstant(0.8);
  f.e.setConstant(0.8f);
  for (int k = 0; k < 1200; ++k) {
    d.step(1e-3);
    f.step(1e-3f);
    ASSERT_EQ(f.status[0], Status::ok);
    ASSERT_EQ(d.impacts[0], f.impacts[0]) << "step " << k;
    if (d.impacts[0] > 0) {
      EXPECT_NEAR(f.last_impact_time[0], d.last_impact_time[0], 1e-5 * d.last_impact_time[0]);
      EXPECT_NEAR(f.last_impact_v(0, 2), d.last_impact_v(0, 2), 1e-4 * std::abs(d.last_impact_v(0, 2)));
    }
  }
  EXPECT_GE(d.impacts[0], 2);

  o.integrator = Integrator::moreau_jean;
  Simulator<double> qd = quadruped_drop<double>(8, o);
  Simulator<float> qf = quadruped_drop<float>(8, o);
  for (int k = 0; k < 200; ++k) {
    qd.step(1e-3);
    qf.step(1e-3f);
  }
  for (std::size_t s = 0; s < 8; ++s) {
    ASSERT_EQ(qf.status[s], Status::ok);
    for (int k = 0; k < qd.nq(); ++k) EXPECT_NEAR(qf.q(s, k), qd.q(s, k), 2e-3) << "scenario " << s << " q " << k;
  }
}

TEST(PerScenarioStatus, BadStateStopsOnlyItself) {
  SimOptions o;
  Simulator<double> sim = quadruped_drop<double>(4, o);
  sim.q(1, 3) = std::nan("");  // a broken quaternion
  sim.q(2, 6) = 2.0;           // not a unit quaternion
  const Eigen::RowVectorXd q3 = sim.q.row(3);
  for (int k = 0; k < 10; ++k) sim.step(1e-3);
  EXPECT_EQ(sim.status[0], Status::ok);
  EXPECT_EQ(sim.status[1], Status::bad_quaternion);  // a NaN in it names the quaternion
  EXPECT_EQ(sim.status[2], Status::bad_quaternion);
  EXPECT_EQ(sim.status[3], Status::ok);
  EXPECT_NEAR(sim.t[3], 0.01, 1e-15);
  EXPECT_EQ(sim.t[1], 0.0);  // stopped where it was
  EXPECT_NE((sim.q.row(3) - q3).norm(), 0.0);
  // Bad restitution: a status, not a crash.
  Simulator<double> ball(model::builtin_model("ball"), 2, o);
  ball.e(1, 0) = 1.5;
  for (int k = 0; k < 200; ++k) ball.step(1e-3);
  EXPECT_EQ(ball.status[0], Status::ok);
  EXPECT_EQ(ball.status[1], Status::bad_restitution);
}

// The raw-data path and the model path agree on the ball (constant M, gap linear in z).
// A zero quaternion, and one 0.1 % too long, are bad_quaternion (whose reason names the
// quaternion), not bad_shape; a unit one beside them steps.
TEST(PerScenarioStatus, ZeroOrNonUnitQuaternionIsNamed) {
  SimOptions o;
  Simulator<double> sim = quadruped_drop<double>(3, o);
  for (int k = 3; k < 7; ++k) sim.q(0, k) = 0.0;
  sim.q(1, 3) = 0.0, sim.q(1, 4) = 0.0, sim.q(1, 5) = 0.0, sim.q(1, 6) = 1.001;
  std::vector<double> kin, pot;
  std::vector<Status> state;
  sim.energies(kin, pot, &state);  // judged before any step
  EXPECT_EQ(state, (std::vector<Status>{Status::bad_quaternion, Status::bad_quaternion, Status::ok}));
  for (int k = 0; k < 3; ++k) sim.step(1e-3);
  EXPECT_EQ(sim.status[0], Status::bad_quaternion);
  EXPECT_EQ(sim.status[1], Status::bad_quaternion);
  EXPECT_EQ(sim.status[2], Status::ok);
  EXPECT_NE(std::string(obliq::status_reason(Status::bad_quaternion)).find("quaternion"), std::string::npos);
}

TEST(RawData, MatchesTheModelOnTheBall) {
  for (const Integrator integ : {Integrator::moreau_jean, Integrator::event_driven}) {
    SimOptions o;
    o.integrator = integ;
    o.threads = 1;
    Simulator<double> mod(model::builtin_model("ball"), 1, o);
    mod.q(0, 2) = 0.6;
    mod.v.row(0) << 0.3, -0.2, 0.5;
    mod.e.setConstant(0.9);
    obliq::Batch<double> b({3, 0, 1}, 1);
    b.M_of(0).setIdentity();
    b.h_of(0) << 0, 0, 9.81;    // M qdd + h = 0: gravity as h = -f_g
    b.A_u_of(0) << 0, 0, 1;
    b.phi_u_of(0) << -0.1;      // gap z - 0.1
    b.qdot_of(0) << 0.3, -0.2, 0.5;
    b.e_of(0) << 0.9;
    Simulator<double> raw(b, o);
    raw.q(0, 2) = 0.6;
    for (int k = 0; k < 1000; ++k) {
      mod.step(1e-3);
      raw.step(1e-3);
    }
    EXPECT_EQ(mod.impacts[0], raw.impacts[0]);
    EXPECT_GE(mod.impacts[0], 2);
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(mod.q(0, k), raw.q(0, k), 1e-12);
      EXPECT_NEAR(mod.v(0, k), raw.v(0, k), 1e-12);
    }
  }
}

}  // namespace

// Torques read from the caller's strided memory (step(dt, k, HostArray)) give bitwise the same
// trajectories as the same torques written into sim.u; sim.u is not touched. A shared row
// (scenario_stride 0) is the same as every row holding it; a null array is refused.
TEST(ExternalTorques, StridedCallerArrayEqualsOwnBuffer) {
  SimOptions o;
  o.threads = 2;
  const std::size_t count = 9;
  Simulator<double> own = quadruped_drop<double>(count, o), ext = quadruped_drop<double>(count, o);
  const int nv = own.nv();
  // The caller's array: (count x nv) stored column-major, so that both strides differ from the
  // Simulator's own layout.
  std::vector<double> buf(std::size_t(nv) * count, -99.0);
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> d(-5, 5);
  for (int k = 0; k < 60; ++k) {
    for (std::size_t s = 0; s < count; ++s)
      for (int j = 6; j < nv; ++j) own.u(s, j) = buf[s + std::size_t(j) * count] = d(rng);
    for (std::size_t s = 0; s < count; ++s)
      for (int j = 0; j < 6; ++j) own.u(s, j) = buf[s + std::size_t(j) * count] = 0.0;
    own.step(1e-3);
    ext.step(1e-3, 1, obliq::HostArray<const double>{buf.data(), 1, std::ptrdiff_t(count)});
  }
  EXPECT_EQ(0, std::memcmp(own.q.data(), ext.q.data(), sizeof(double) * own.q.size()));
  EXPECT_EQ(0, std::memcmp(own.v.data(), ext.v.data(), sizeof(double) * own.v.size()));
  EXPECT_EQ(own.impacts, ext.impacts);
  EXPECT_EQ(ext.u.norm(), 0.0) << "the Simulator's own torques are left as they were";
  EXPECT_NE((own.q.row(0) - quadruped_drop<double>(count, o).q.row(0)).norm(), 0.0);

  // scenario_stride 0: one row of torques for every scenario.
  Simulator<double> shared = quadruped_drop<double>(count, o), rows = quadruped_drop<double>(count, o);
  std::vector<double> one(nv, 0.0);
  for (int j = 6; j < nv; ++j) one[j] = 0.5 * j;
  for (std::size_t s = 0; s < count; ++s)
    for (int j = 0; j < nv; ++j) rows.u(s, j) = one[j];
  shared.step(1e-3, 20, obliq::HostArray<const double>{one.data(), 0, 1});
  rows.step(1e-3, 20);
  EXPECT_EQ(0, std::memcmp(shared.q.data(), rows.q.data(), sizeof(double) * rows.q.size()));

  const Eigen::RowVectorXd q0 = shared.q.row(0);
  EXPECT_THROW(shared.step(1e-3, 1, obliq::HostArray<const double>{}), std::invalid_argument);
  EXPECT_EQ((shared.q.row(0) - q0).norm(), 0.0);
}

// Backend::cuda: a clear std::runtime_error ("backend cuda: ...": no CUDA build, no library or
// no device) with nothing stepped; where a device is present, the step runs. Backend::reference
// has no time stepper: std::invalid_argument.
TEST(Backends, CudaIsRefusedClearlyOrRuns) {
  SimOptions o;
  o.backend = obliq::Backend::cuda;
  Simulator<double> sim(model::builtin_model("ball"), 3, o);
  sim.q.col(2).setConstant(0.5);
  try {
    sim.step(1e-3, 5);
    EXPECT_NEAR(sim.t[2], 5e-3, 1e-15);
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("backend cuda: ", 0), 0u) << e.what();
    EXPECT_EQ(sim.t[2], 0.0);
    EXPECT_EQ(sim.q(1, 2), 0.5);
  }
  sim.options.backend = obliq::Backend::reference;
  EXPECT_THROW(sim.step(1e-3), std::invalid_argument);
}

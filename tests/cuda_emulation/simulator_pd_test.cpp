// tests/cuda_emulation/simulator_pd_test.cpp: Simulator::step_pd (an environment's step under PD
// position tracking, include/obliq/sim/pd_tracking.hpp) on the cuda backend, emulated: the
// Simulator with Backend::cuda reaches the emulated table (emulated_backend.hpp), which runs
// cuda/sim_pd.hpp's sequence (actuator body over every scenario, then the step body of the
// batch's configuration over each chunk, frame_skip times) with host vectors as the memory,
// scratch filled with NaN, chunks of 5 scenarios. It must give the cpu Simulator's step_pd bit
// for bit (states, statuses, counters, contacts, and the effort (PD2)) for every configuration
// (model and raw systems, both integrators, without friction, with the cone and the pyramid),
// double and float, with held scenarios, targets read through strides and an effort written
// through them; and with the device gone, fail with the loader's message, nothing stepped.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "emulated_backend.hpp"
#include "obliq/simulator.hpp"
#include "sim_emulation.hpp"
#include "pd_cases.hpp"
#include "support/sim_scenes.hpp"

namespace {

using obliq::Backend;
using obliq::HostArray;
using obliq::PdTracking;
using obliq::SimOptions;
using obliq::Simulator;
using obliq::Status;
using obliq::sim::Integrator;
using obliq::test::Case;
using obliq::test::kCases;
using obliq::test::joint_actuators;
using obliq::test::options_on;
using obliq::test::pitch_actuator;
using obliq::test::same_bits;

template <class T> void expect_same_state(const Simulator<T>& cpu, const Simulator<T>& emu, const std::string& what) {
  EXPECT_TRUE(same_bits(cpu.q.data(), emu.q.data(), std::size_t(cpu.q.size()))) << what << ": q";
  EXPECT_TRUE(same_bits(cpu.v.data(), emu.v.data(), std::size_t(cpu.v.size()))) << what << ": v";
  EXPECT_TRUE(same_bits(cpu.t.data(), emu.t.data(), cpu.t.size())) << what << ": t";
  EXPECT_TRUE(same_bits(cpu.last_impact_time.data(), emu.last_impact_time.data(), cpu.last_impact_time.size()))
      << what << ": last_impact_time";
  EXPECT_TRUE(same_bits(cpu.last_impact_v.data(), emu.last_impact_v.data(), std::size_t(cpu.last_impact_v.size())))
      << what << ": last_impact_v";
  EXPECT_EQ(cpu.active, emu.active) << what;
  EXPECT_EQ(cpu.impacts, emu.impacts) << what;
  EXPECT_EQ(cpu.lcp_solves, emu.lcp_solves) << what;
  EXPECT_EQ(cpu.status, emu.status) << what;
}

// Three env steps of frame_skip sub-steps on the cpu and on the emulated device, the same targets
// (stored scenario-major with a padding column, read through strides), every fourth scenario held,
// the effort written every other entry. Returns how many contacts the cpu run counted.
template <class T>
std::int64_t run_pair(Simulator<T>& cpu, Simulator<T>& emu, const PdTracking& pd, T dt, int frame_skip,
                      const std::string& what) {
  const std::size_t count = cpu.count(), n = pd.v_index.size(), stride = n + 1;
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<T> target(count * stride);
  std::vector<std::uint8_t> hold(count);
  for (std::size_t s = 0; s < count; ++s) hold[s] = s % 4 == 2;
  const long calls_before = obliq::emulation::g_sim_pd_calls;
  for (int call = 0; call < 3; ++call) {
    for (std::size_t s = 0; s < count; ++s)
      for (std::size_t j = 0; j < n; ++j) target[s * stride + j] = T(cpu.q(long(s), pd.q_index[j]) + 0.6 * u(rng));
    std::vector<T> effort_cpu(2 * count, T(-1)), effort_emu(2 * count, T(-1));
    const HostArray<const T> tg{target.data(), std::ptrdiff_t(stride), 1};
    cpu.step_pd(dt, frame_skip, pd, tg, {hold.data(), 1, 0}, {effort_cpu.data(), 2, 0});
    emu.step_pd(dt, frame_skip, pd, tg, {hold.data(), 1, 0}, {effort_emu.data(), 2, 0});
    EXPECT_TRUE(same_bits(effort_cpu.data(), effort_emu.data(), effort_cpu.size())) << what << ": effort, call " << call;
    for (std::size_t s = 0; s < count; ++s) {
      EXPECT_EQ(effort_emu[2 * s + 1], T(-1)) << what << ": the effort's gaps are not written";
      if (hold[s]) {
        EXPECT_EQ(effort_emu[2 * s], T(0)) << what << ": a held scenario has no torque";
      }
    }
  }
  EXPECT_EQ(obliq::emulation::g_sim_pd_calls - calls_before, 3) << what << ": every call went through the table";
  expect_same_state(cpu, emu, what);
  EXPECT_TRUE(cpu.u.isZero()) << what << ": step_pd leaves the Simulator's own torques alone";
  EXPECT_TRUE(emu.u.isZero()) << what << ": step_pd leaves the Simulator's own torques alone";
  std::int64_t hits = 0;
  for (auto i : cpu.impacts) hits += i;
  return hits;
}


// 7 scenarios (chunks of 5 and 2), every model scene and case.
template <class T> void model_scenes_match() {
  if (!obliq::emulation::emulated_backend_loaded())
    GTEST_SKIP() << "this build has no CUDA backend: Backend::cuda never reaches the table";
  obliq::test::for_each_model_pair<T>(Backend::cuda, run_pair<T>);
}

TEST(SimulatorPdCuda, ModelScenesMatchTheCpuDouble) { model_scenes_match<double>(); }
TEST(SimulatorPdCuda, ModelScenesMatchTheCpuFloat) { model_scenes_match<float>(); }

template <class T> void raw_systems_match() {
  if (!obliq::emulation::emulated_backend_loaded())
    GTEST_SKIP() << "this build has no CUDA backend: Backend::cuda never reaches the table";
  obliq::test::for_each_raw_pair<T>(Backend::cuda, run_pair<T>);
}

TEST(SimulatorPdCuda, RawSystemsMatchTheCpuDouble) { raw_systems_match<double>(); }
TEST(SimulatorPdCuda, RawSystemsMatchTheCpuFloat) { raw_systems_match<float>(); }

// A scenario that fails (a NaN target: its torque is NaN, the step reports it) stops where it is
// on both; its neighbours go on, the same as on the cpu.
TEST(SimulatorPdCuda, AFailingScenarioStopsAloneAsOnTheCpu) {
  if (!obliq::emulation::emulated_backend_loaded())
    GTEST_SKIP() << "this build has no CUDA backend: Backend::cuda never reaches the table";
  const obliq::model::Model m = obliq::test::scene_model("quadruped");
  const PdTracking pd = joint_actuators(m);
  const Case c{Integrator::moreau_jean, "cone"};
  Simulator<double> cpu = obliq::test::dropped<double>(m, 6, options_on(c, Backend::cpu), true);
  Simulator<double> emu = obliq::test::dropped<double>(m, 6, options_on(c, Backend::cuda), true);
  std::vector<double> target(6 * pd.v_index.size(), 0.1);
  target[3 * pd.v_index.size() + 2] = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> effort_cpu(6), effort_emu(6);
  for (int call = 0; call < 2; ++call) {
    cpu.step_pd(2e-3, 4, pd, {target.data(), std::ptrdiff_t(pd.v_index.size()), 1}, {}, {effort_cpu.data(), 1, 0});
    emu.step_pd(2e-3, 4, pd, {target.data(), std::ptrdiff_t(pd.v_index.size()), 1}, {}, {effort_emu.data(), 1, 0});
  }
  EXPECT_NE(cpu.status[3], Status::ok);
  for (std::size_t s : {0, 1, 2, 4, 5}) EXPECT_EQ(cpu.status[s], Status::ok) << s;
  expect_same_state(cpu, emu, "quadruped with a NaN target in scenario 3");
  EXPECT_TRUE(std::isnan(effort_emu[3]));
  EXPECT_TRUE(same_bits(effort_cpu.data(), effort_emu.data(), 6));
}

// The device gone: the loader's message, nothing stepped.
TEST(SimulatorPdCuda, NoDeviceFailsNamingItNothingStepped) {
  if (!obliq::emulation::emulated_backend_loaded())
    GTEST_SKIP() << "this build has no CUDA backend: Backend::cuda never reaches the table";
  const obliq::model::Model m = obliq::test::scene_model("quadruped");
  const PdTracking pd = joint_actuators(m);
  Simulator<double> emu = obliq::test::dropped<double>(m, 3, options_on(kCases[1], Backend::cuda), true);
  const auto q0 = emu.q;
  std::vector<double> target(3 * pd.v_index.size(), 0.0);
  obliq::emulation::g_device = false;
  try {
    emu.step_pd(2e-3, 4, pd, {target.data(), std::ptrdiff_t(pd.v_index.size()), 1});
    ADD_FAILURE() << "step_pd ran without a device";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("backend cuda: no CUDA device found"), std::string::npos) << e.what();
  }
  obliq::emulation::g_device = true;
  EXPECT_TRUE(emu.q == q0);
  EXPECT_EQ(emu.t[0], 0.0);
}

// The sequence itself, without the table: one actuator pass and one step launch per chunk in
// each of the frame_skip rounds (3 chunks of 2, 2, 1 here, 4 rounds).
TEST(SimulatorPdGlue, RoundsOfActuatorsThenChunkedSteps) {
  const obliq::model::Model m = obliq::test::scene_model("biped5");
  const PdTracking pd = joint_actuators(m);
  SimOptions o;
  o.threads = 1;
  Simulator<double> cpu = obliq::test::dropped<double>(m, 5, o, true), emu = obliq::test::dropped<double>(m, 5, o, true);
  const std::size_t n = pd.v_index.size();
  std::vector<double> target(5 * n);
  for (std::size_t k = 0; k < target.size(); ++k) target[k] = 0.05 * double(k % 7) - 0.15;
  std::vector<double> effort_cpu(5), effort_emu(5);
  cpu.step_pd(2e-3, 4, pd, {target.data(), std::ptrdiff_t(n), 1}, {}, {effort_cpu.data(), 1, 0});
  obliq::sim::PdArrays<double> a;
  a.gains = {int(n), pd.v_index.data(), pd.q_index.data(), pd.kp, pd.kd, pd.max_torque};
  a.target = target.data();
  a.target_ss = std::ptrdiff_t(n);
  a.effort = effort_emu.data();
  const auto h = emu.arrays(HostArray<const double>{emu.u.data(), emu.nv(), 1});
  const auto p = emu.step_params();
  const std::size_t ws = obliq::cuda::detail::sim_scratch(h, p, true);
  EXPECT_EQ(obliq::emulation::emulated_simulate_pd(h, p, a, 2e-3, 4, 2 * ws * sizeof(double)), 3 * 4);
  expect_same_state(cpu, emu, "biped5, scratch for 2 scenarios");
  EXPECT_TRUE(same_bits(effort_cpu.data(), effort_emu.data(), 5));
  EXPECT_GT(effort_cpu[0], 0.0);
}

}  // namespace

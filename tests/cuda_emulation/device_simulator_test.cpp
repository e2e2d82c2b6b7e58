// tests/cuda_emulation/device_simulator_test.cpp: DeviceSimulator (a batch resident on the
// device, include/obliq/device_simulator.hpp), emulated: the emulated table's resident batch
// (sim_emulation.hpp's EmulatedResident: cuda/sim_resident.hpp's sequence with host memory and
// host loops over the kernels' bodies, scratch for 5 scenarios, NaN-filled). Against the cpu
// Simulator, bit for bit: step() and step_pd() over several calls with nothing copied between
// them, for every configuration (model and raw systems, both integrators, no friction, cone,
// pyramid), double and float; the targets, hold flags and effort read and written in the
// device's memory at the caller's strides; mu and q written on the device between calls (an
// environment's domain randomisation and reset); upload/download; a failing scenario; the
// checks; and the device gone.
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
#include "host_memory.hpp"
#include "obliq/device_simulator.hpp"
#include "obliq/simulator.hpp"
#include "pd_cases.hpp"
#include "support/sim_scenes.hpp"

namespace {

using obliq::Backend;
using obliq::DeviceSimulator;
using obliq::HostArray;
using obliq::PdTracking;
using obliq::SimOptions;
using obliq::Simulator;
using obliq::Status;
using obliq::cuda::DeviceArray;
using obliq::sim::Integrator;
using obliq::test::Case;
using obliq::test::kCases;
using obliq::test::joint_actuators;
using obliq::test::options_on;
using obliq::test::pitch_actuator;
using obliq::test::same_bits;

// The device copy's state against a cpu Simulator's, bit for bit (read in the device's memory:
// host memory in the emulation).
template <class T> void expect_device_state(const Simulator<T>& cpu, const DeviceSimulator<T>& dev, const std::string& what) {
  const auto& s = dev.arrays().state;
  const std::size_t c = cpu.count();
  EXPECT_TRUE(same_bits(cpu.q.data(), s.q, c * std::size_t(cpu.nq()))) << what << ": q";
  EXPECT_TRUE(same_bits(cpu.v.data(), s.v, c * std::size_t(cpu.nv()))) << what << ": v";
  EXPECT_TRUE(same_bits(cpu.t.data(), s.t, c)) << what << ": t";
  EXPECT_TRUE(same_bits(cpu.last_impact_time.data(), s.last_impact_time, c)) << what << ": last_impact_time";
  EXPECT_TRUE(same_bits(cpu.last_impact_v.data(), s.last_impact_v, c * std::size_t(cpu.nv()))) << what;
  EXPECT_TRUE(same_bits(cpu.active.data(), s.active, c * std::size_t(cpu.m_u()))) << what << ": active";
  EXPECT_TRUE(same_bits(cpu.impacts.data(), s.impacts, c)) << what << ": impacts";
  EXPECT_TRUE(same_bits(cpu.lcp_solves.data(), s.lcp_solves, c)) << what << ": lcp_solves";
  EXPECT_TRUE(same_bits(cpu.status.data(), s.status, c)) << what << ": status";
}


// Three env steps (frame_skip sub-steps each) on the cpu Simulator and on the device copy of
// `host` (a twin of cpu), then two plain steps with torques; between the calls, the copy's mu
// and one scenario's q are written in the device's memory (and the cpu's the same), and no
// transfer between host and device happens in any call after the first. Targets stored with a
// padding column, every third scenario held, the effort every other entry.
template <class T>
std::int64_t run_pair(Simulator<T>& cpu, Simulator<T>& host, const PdTracking& pd, T dt, int frame_skip,
                      const std::string& what) {
  DeviceSimulator<T> dev(host);
  const std::size_t count = cpu.count(), n = pd.v_index.size(), stride = n + 1;
  const auto& d = dev.arrays();
  std::mt19937 rng(23);
  std::uniform_real_distribution<double> u(-1, 1);
  // "Device" buffers of the caller (host memory in the emulation).
  std::vector<T> target(count * stride);
  std::vector<std::uint8_t> hold(count);
  for (std::size_t s = 0; s < count; ++s) hold[s] = s % 3 == 1;
  for (int call = 0; call < 3; ++call) {
    for (std::size_t s = 0; s < count; ++s)
      for (std::size_t j = 0; j < n; ++j) target[s * stride + j] = T(cpu.q(long(s), pd.q_index[j]) + 0.6 * u(rng));
    std::vector<T> effort_cpu(2 * count, T(-1)), effort_dev(2 * count, T(-1));
    cpu.step_pd(dt, frame_skip, pd, HostArray<const T>{target.data(), std::ptrdiff_t(stride), 1},
                {hold.data(), 1, 0}, {effort_cpu.data(), 2, 0});
    const long transfers = obliq::emulation::transfers;
    dev.step_pd(dt, frame_skip, pd, DeviceArray<const T>{target.data(), std::ptrdiff_t(stride), 1},
                {hold.data(), 1, 0}, {effort_dev.data(), 2, 0});
    if (call > 0) {
      EXPECT_EQ(obliq::emulation::transfers - transfers, 0) << what << ": a copy in step_pd " << call;
    }
    EXPECT_TRUE(same_bits(effort_cpu.data(), effort_dev.data(), effort_cpu.size())) << what << ": effort " << call;
    for (std::size_t s = 0; s < count; ++s) EXPECT_EQ(effort_dev[2 * s + 1], T(-1)) << what << ": the effort's gaps";
    expect_device_state(cpu, dev, what + ", after step_pd " + std::to_string(call));
    // Between calls, on the device: new friction coefficients, scenario 0 lifted (a reset).
    const T mu_new = T(0.3 + 0.2 * call);
    T* mu = const_cast<T*>(d.controls.mu);
    for (std::size_t s = 0; s < count; s += 2)
      for (int k = 0; k < cpu.m_u(); ++k) {
        cpu.mu(long(s), k) = mu_new;
        mu[s * std::size_t(cpu.m_u()) + std::size_t(k)] = mu_new;
      }
  }
  // step() with the device's own torques, written there.
  T* ud = const_cast<T*>(d.controls.u);
  for (std::size_t s = 0; s < count; ++s)
    for (int k = 0; k < cpu.nv(); ++k) {
      const T tau = T(0.5 * u(rng));
      cpu.u(long(s), k) = tau;
      ud[s * std::size_t(cpu.nv()) + std::size_t(k)] = tau;
    }
  cpu.step(dt, 2);
  const long transfers = obliq::emulation::transfers;
  dev.step(dt, 2);
  EXPECT_EQ(obliq::emulation::transfers - transfers, 0) << what << ": a copy in step()";
  expect_device_state(cpu, dev, what + ", after step()");
  // download: the host twin now holds the device's state and controls.
  dev.download();
  EXPECT_TRUE(host.q == cpu.q) << what;
  EXPECT_TRUE(host.mu == cpu.mu) << what << ": download brings the device's mu";
  EXPECT_TRUE(host.u == cpu.u) << what << ": download brings the device's torques";
  std::int64_t hits = 0;
  for (auto i : cpu.impacts) hits += i;
  return hits;
}

template <class T> void model_scenes_match() {
  if (!obliq::emulation::emulated_backend_loaded())
    GTEST_SKIP() << "this build has no CUDA backend: the emulated table is not loaded";
  obliq::test::for_each_model_pair<T>(Backend::cpu, run_pair<T>);
}

TEST(DeviceSimulator, ModelScenesMatchTheCpuDouble) { model_scenes_match<double>(); }
TEST(DeviceSimulator, ModelScenesMatchTheCpuFloat) { model_scenes_match<float>(); }

template <class T> void raw_systems_match() {
  if (!obliq::emulation::emulated_backend_loaded())
    GTEST_SKIP() << "this build has no CUDA backend: the emulated table is not loaded";
  obliq::test::for_each_raw_pair<T>(Backend::cpu, run_pair<T>);
}

TEST(DeviceSimulator, RawSystemsMatchTheCpuDouble) { raw_systems_match<double>(); }
TEST(DeviceSimulator, RawSystemsMatchTheCpuFloat) { raw_systems_match<float>(); }

// upload: a state set on the host after the copy was made reaches the device; before it, the
// device steps its own copy.
TEST(DeviceSimulator, UploadSendsTheHostStateAndControls) {
  if (!obliq::emulation::emulated_backend_loaded())
    GTEST_SKIP() << "this build has no CUDA backend: the emulated table is not loaded";
  const obliq::model::Model m = obliq::test::scene_model("quadruped");
  const SimOptions o = options_on(kCases[1], Backend::cpu);
  Simulator<double> cpu = obliq::test::dropped<double>(m, 4, o, true);
  Simulator<double> host = obliq::test::dropped<double>(m, 4, o, true);
  DeviceSimulator<double> dev(host);
  for (Simulator<double>* s : {&cpu, &host}) {
    s->q(2, 2) += 0.05;
    s->v(1, 0) = 0.3;
    s->mu.setConstant(0.4);
    s->e.setConstant(0.2);
  }
  EXPECT_FALSE(same_bits(cpu.q.data(), dev.arrays().state.q, std::size_t(cpu.q.size()))) << "not yet uploaded";
  dev.upload();
  cpu.step(2e-3, 30);
  dev.step(2e-3, 30);
  expect_device_state(cpu, dev, "after upload");
}

// A NaN target fails its scenario alone, as on the cpu; its effort is NaN.
TEST(DeviceSimulator, AFailingScenarioStopsAloneAsOnTheCpu) {
  if (!obliq::emulation::emulated_backend_loaded())
    GTEST_SKIP() << "this build has no CUDA backend: the emulated table is not loaded";
  const obliq::model::Model m = obliq::test::scene_model("quadruped");
  const PdTracking pd = joint_actuators(m);
  const SimOptions o = options_on(Case{Integrator::moreau_jean, "cone"}, Backend::cpu);
  Simulator<double> cpu = obliq::test::dropped<double>(m, 6, o, true);
  Simulator<double> host = obliq::test::dropped<double>(m, 6, o, true);
  DeviceSimulator<double> dev(host);
  const std::ptrdiff_t n = std::ptrdiff_t(pd.v_index.size());
  std::vector<double> target(6 * std::size_t(n), 0.1);
  target[3 * std::size_t(n) + 2] = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> effort_cpu(6), effort_dev(6);
  for (int call = 0; call < 2; ++call) {
    cpu.step_pd(2e-3, 4, pd, HostArray<const double>{target.data(), n, 1}, {}, {effort_cpu.data(), 1, 0});
    dev.step_pd(2e-3, 4, pd, DeviceArray<const double>{target.data(), n, 1}, {}, {effort_dev.data(), 1, 0});
  }
  EXPECT_NE(cpu.status[3], Status::ok);
  for (std::size_t s : {0, 1, 2, 4, 5}) EXPECT_EQ(cpu.status[s], Status::ok) << s;
  expect_device_state(cpu, dev, "a NaN target in scenario 3");
  EXPECT_TRUE(std::isnan(effort_dev[3]));
  EXPECT_TRUE(same_bits(effort_cpu.data(), effort_dev.data(), 6));
}

// The host checks of step_pd, before anything runs: the same messages as Simulator::step_pd.
TEST(DeviceSimulator, BadActuatorsAreRefusedNothingStepped) {
  if (!obliq::emulation::emulated_backend_loaded())
    GTEST_SKIP() << "this build has no CUDA backend: the emulated table is not loaded";
  const obliq::model::Model m = obliq::test::scene_model("quadruped");
  Simulator<double> host = obliq::test::dropped<double>(m, 3, options_on(kCases[1], Backend::cpu), true);
  DeviceSimulator<double> dev(host);
  const std::vector<double> q0(dev.arrays().state.q, dev.arrays().state.q + host.q.size());
  std::vector<double> target(3 * 12, 0.0), effort(3);
  const DeviceArray<const double> tg{target.data(), 12, 1};
  PdTracking pd = joint_actuators(m);
  auto refused = [&](const PdTracking& p, DeviceArray<const double> t, DeviceArray<double> e, int frame_skip,
                     const std::string& says) {
    try {
      dev.step_pd(2e-3, frame_skip, p, t, {}, e);
      ADD_FAILURE() << "accepted: " << says;
    } catch (const std::invalid_argument& err) {
      EXPECT_NE(std::string(err.what()).find(says), std::string::npos) << err.what();
    }
  };
  PdTracking out = pd;
  out.v_index[0] = 99;
  refused(out, tg, {}, 4, "v_index[0] = 99 is outside [0, nv)");
  PdTracking repeated = pd;
  repeated.v_index[1] = repeated.v_index[0];
  refused(repeated, tg, {}, 4, "is repeated");
  refused(pd, tg, {}, 0, "frame_skip must be >= 1");
  refused(pd, {nullptr, 12, 1}, {}, 4, "the targets array has no data");
  refused(pd, tg, {effort.data(), 0, 0}, 4, "its scenario_stride must not be 0");
  EXPECT_TRUE(same_bits(q0.data(), dev.arrays().state.q, q0.size())) << "a refused call stepped";
}

// Without a device the constructor fails with the loader's message.
TEST(DeviceSimulator, NoDeviceFailsNamingIt) {
  if (!obliq::emulation::emulated_backend_loaded())
    GTEST_SKIP() << "this build has no CUDA backend: the emulated table is not loaded";
  const obliq::model::Model m = obliq::test::scene_model("quadruped");
  Simulator<double> host = obliq::test::dropped<double>(m, 3, options_on(kCases[1], Backend::cpu), true);
  obliq::emulation::g_device = false;
  try {
    DeviceSimulator<double> dev(host);
    ADD_FAILURE() << "a DeviceSimulator without a device";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("backend cuda: no CUDA device found"), std::string::npos) << e.what();
  }
  obliq::emulation::g_device = true;
}

}  // namespace

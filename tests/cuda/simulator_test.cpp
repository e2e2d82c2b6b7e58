// tests/cuda/simulator_test.cpp: the Simulator on the cuda backend against the cpu backend on the
// same trajectories (tests/support/sim_scenes.hpp: drops of ball, cradle, biped5, quadruped and a
// URDF hopper, and raw bars), Moreau-Jean and event-driven, without friction and with the cone
// and the pyramid, double and float, several chunks per call. Skips itself without a device.
//
// Not bitwise: the kernel is compiled with -fmad=false (no contraction, as the x86-64 host
// build), but the device's sin/cos/sqrt... are not glibc's, so the two runs differ from the first
// model evaluation by an ulp or so. Required: the same status and the same impact count in every
// scenario, and q, v within 1e-6 (double) / 2e-2 (float) of the cpu run relative to the run's
// largest |q|, |v| after 60 ms (Moreau-Jean) / 40 ms (event-driven) of landing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "obliq/cuda.hpp"
#include "obliq/sim/batch_views.hpp"
#include "obliq/simulator.hpp"
#include "require_device.hpp"
#include "sim_glue.hpp"
#include "support/sim_scenes.hpp"

namespace {

using obliq::SimOptions;
using obliq::Simulator;
using obliq::Status;
using obliq::sim::Integrator;
namespace cu = obliq::cuda;

template <class T> double tolerance() { return std::is_same_v<T, double> ? 1e-6 : 2e-2; }

// Scratch for about half of the batch, so that every call runs in two chunks.
template <class T> std::size_t half_of_the_scratch(const Simulator<T>& sim) {
  const auto h = sim.arrays(obliq::HostArray<const T>{sim.u.data(), sim.nv(), 1});
  const std::size_t ws = cu::detail::sim_scratch(h, sim.step_params(), cu::detail::any_friction(h));
  return (sim.count() / 2 + 1) * ws * sizeof(T);
}

template <class T> void expect_close(const Simulator<T>& cpu, const Simulator<T>& gpu, const std::string& what) {
  const double tol = tolerance<T>();
  const double q_scale = 1 + cpu.q.cwiseAbs().maxCoeff(), v_scale = 1 + cpu.v.cwiseAbs().maxCoeff();
  for (std::size_t s = 0; s < cpu.count(); ++s) {
    ASSERT_EQ(gpu.status[s], cpu.status[s]) << what << ", scenario " << s;
    ASSERT_EQ(gpu.impacts[s], cpu.impacts[s]) << what << ", scenario " << s;
    ASSERT_EQ(gpu.t[s], cpu.t[s]) << what << ", scenario " << s;
    const double dq = (gpu.q.row(s) - cpu.q.row(s)).cwiseAbs().maxCoeff();
    const double dv = (gpu.v.row(s) - cpu.v.row(s)).cwiseAbs().maxCoeff();
    EXPECT_LE(dq, tol * q_scale) << what << ", scenario " << s << ": q differs";
    EXPECT_LE(dv, tol * v_scale) << what << ", scenario " << s << ": v differs";
  }
}

using obliq::test::Case;
using obliq::test::kCases;
using obliq::test::options_of;

template <class T> void run_pair(Simulator<T>& cpu, Simulator<T>& gpu, const Case& c, const std::string& what) {
  gpu.options.backend = obliq::Backend::cuda;
  gpu.options.cuda_scratch_bytes = half_of_the_scratch(gpu);
  const bool mj = c.integrator == Integrator::moreau_jean;
  const T dt = T(mj ? 2e-3 : 5e-3);
  const int steps = mj ? 10 : 4;
  // Event-driven calls are the expensive ones on the device (one thread runs a whole advance):
  // two of them, to stay well inside bench/gpu_check.sh's 300 s for all GPU tests.
  for (int call = 0; call < (mj ? 3 : 2); ++call) {
    cpu.step(dt, steps);
    gpu.step(dt, steps);
    expect_close(cpu, gpu, what + ", call " + std::to_string(call));
  }
  std::int64_t hits = 0;
  for (auto i : cpu.impacts) hits += i;
  EXPECT_GT(hits, 0) << what << ": nothing landed";
}

template <class T> void model_scenes() {
  for (const char* name : {"ball", "cradle", "biped5", "quadruped", "hopper"}) {
    const obliq::model::Model m = obliq::test::scene_model(name);
    for (const Case& c : kCases) {
      const bool friction = std::string(c.friction) != "none";
      Simulator<T> cpu = obliq::test::dropped<T>(m, 24, options_of(c), friction);
      Simulator<T> gpu = obliq::test::dropped<T>(m, 24, options_of(c), friction);
      run_pair(cpu, gpu, c, std::string(name) + " " + obliq::sim::integrator_name(c.integrator) + " " + c.friction);
    }
  }
}

TEST(SimulatorCuda, ModelScenesFollowTheCpuBackendDouble) {
  OBLIQ_REQUIRE_DEVICE();
  model_scenes<double>();
}
TEST(SimulatorCuda, ModelScenesFollowTheCpuBackendFloat) {
  OBLIQ_REQUIRE_DEVICE();
  model_scenes<float>();
}

template <class T> void raw_scenes() {
  for (const Case& c : kCases) {
    const bool friction = std::string(c.friction) != "none";
    Simulator<T> cpu = obliq::test::raw_bars<T>(40, options_of(c), friction);
    Simulator<T> gpu = obliq::test::raw_bars<T>(40, options_of(c), friction);
    run_pair(cpu, gpu, c, std::string("raw bar ") + obliq::sim::integrator_name(c.integrator) + " " + c.friction);
  }
}

TEST(SimulatorCuda, RawSystemsFollowTheCpuBackendDouble) {
  OBLIQ_REQUIRE_DEVICE();
  raw_scenes<double>();
}
TEST(SimulatorCuda, RawSystemsFollowTheCpuBackendFloat) {
  OBLIQ_REQUIRE_DEVICE();
  raw_scenes<float>();
}

// Two runs on the device are bitwise equal; a broken state is that scenario's status only.
TEST(SimulatorCuda, DeterministicAndPerScenarioStatus) {
  OBLIQ_REQUIRE_DEVICE();
  SimOptions o;
  o.backend = obliq::Backend::cuda;
  const obliq::model::Model m = obliq::test::scene_model("quadruped");
  Simulator<double> a = obliq::test::dropped<double>(m, 300, o, true), b = obliq::test::dropped<double>(m, 300, o, true);
  a.q(7, 3) = b.q(7, 3) = std::nan("");
  for (int k = 0; k < 5; ++k) {
    a.step(2e-3, 6);
    b.step(2e-3, 6);
  }
  EXPECT_EQ(0, std::memcmp(a.q.data(), b.q.data(), sizeof(double) * a.q.size()));
  EXPECT_EQ(0, std::memcmp(a.v.data(), b.v.data(), sizeof(double) * a.v.size()));
  EXPECT_EQ(a.impacts, b.impacts);
  EXPECT_EQ(a.status[7], Status::non_finite);
  EXPECT_EQ(a.t[7], 0.0);
  for (std::size_t s = 0; s < a.count(); ++s)
    if (s != 7) {
      EXPECT_EQ(a.status[s], Status::ok) << "scenario " << s;
    }
}

// step_pd (an environment's step under PD tracking) on the device against the cpu's: the
// quadruped's 12 joints tracking random targets, Moreau-Jean with the cone, every fifth copy
// held; statuses, impact counts and times equal, q, v and the effort within the tolerance.
template <class T> void pd_step_follows_the_cpu() {
  const obliq::model::Model m = obliq::test::scene_model("quadruped");
  const Case c = kCases[1];
  Simulator<T> cpu = obliq::test::dropped<T>(m, 64, options_of(c), true);
  Simulator<T> gpu = obliq::test::dropped<T>(m, 64, options_of(c), true);
  gpu.options.backend = obliq::Backend::cuda;
  gpu.options.cuda_scratch_bytes = half_of_the_scratch(gpu);
  const obliq::PdTracking pd = obliq::revolute_actuators(m, 80, 1, 30);  // the 12 joints, obliq.envs' gains
  std::vector<T> target(64 * 12);
  std::vector<std::uint8_t> hold(64);
  for (std::size_t s = 0; s < 64; ++s) {
    hold[s] = s % 5 == 1;
    for (int j = 0; j < 12; ++j) {
      const double stance = j % 3 == 1 ? 0.6 : (j % 3 == 2 ? -1.2 : 0.0);
      target[s * 12 + std::size_t(j)] = T(stance + 0.01 * double((s + std::size_t(j)) % 11));
    }
  }
  for (int call = 0; call < 5; ++call) {
    std::vector<T> e_cpu(64), e_gpu(64);
    cpu.step_pd(T(5e-3), 4, pd, {target.data(), 12, 1}, {hold.data(), 1, 0}, {e_cpu.data(), 1, 0});
    gpu.step_pd(T(5e-3), 4, pd, {target.data(), 12, 1}, {hold.data(), 1, 0}, {e_gpu.data(), 1, 0});
    expect_close(cpu, gpu, "quadruped step_pd, call " + std::to_string(call));
    const double scale = 1 + *std::max_element(e_cpu.begin(), e_cpu.end());
    for (std::size_t s = 0; s < 64; ++s) EXPECT_LE(std::abs(double(e_gpu[s] - e_cpu[s])), tolerance<T>() * scale) << s;
  }
}

TEST(SimulatorCuda, PdStepFollowsTheCpuDouble) {
  OBLIQ_REQUIRE_DEVICE();
  pd_step_follows_the_cpu<double>();
}
TEST(SimulatorCuda, PdStepFollowsTheCpuFloat) {
  OBLIQ_REQUIRE_DEVICE();
  pd_step_follows_the_cpu<float>();
}

}  // namespace

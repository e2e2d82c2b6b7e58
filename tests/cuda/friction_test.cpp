// tests/cuda/friction_test.cpp: frictional scenarios on the cuda backend (obliq::impact_batch /
// dynamics_batch with Backend::cuda, and the same sequence with scratch for 3 scenarios, so that
// every group runs in several chunks) against obliq::impact / dynamics with a Friction on the cpu:
// the batch of tests/support/friction_batch.hpp (random contact sets with mu = 0 ones mixed in,
// Painleve's rod infeasible / ambiguous / ok, a negative mu, a misshaped A_t), cone and pyramid,
// impact and dynamics, double and float. Skips itself without a device.
//
// Required: the same status in every scenario, the same method (newton, nsgs, lemke or "" for the
// frictionless core), and every value (velocities or accelerations, impulses, multipliers,
// energies, tangential reactions) within 1e-7 (double) / 3e-3 (float) of the cpu's relative to
// 1 + the largest |value| of that quantity in that scenario. The kernel is compiled with
// -fmad=false and the core uses only +, -, *, / and sqrt (correctly rounded on the device), so
// the answers are expected to agree far closer; the tolerance is the fused kernels' (docs/cuda.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>

#include "device_memory.hpp"
#include "friction_glue.hpp"
#include "require_device.hpp"
#include "support/friction_batch.hpp"

namespace {

using obliq::DynamicsResult;
using obliq::FrictionResult;
using obliq::ImpactResult;
using obliq::friction::Formulation;
namespace cu = obliq::cuda::detail;

template <class T> double tolerance() { return std::is_same_v<T, double> ? 1e-7 : 3e-3; }

template <class T, class V> void expect_close(const V& gpu, const V& cpu, const std::string& what) {
  ASSERT_EQ(gpu.size(), cpu.size()) << what;
  if (cpu.size() == 0) return;
  const double scale = 1 + cpu.cwiseAbs().maxCoeff();
  EXPECT_LE((gpu - cpu).cwiseAbs().maxCoeff(), tolerance<T>() * scale) << what;
}

template <class T> void expect_close(const ImpactResult& g, const ImpactResult& c, const std::string& what) {
  ASSERT_EQ(g.status, c.status) << what;
  EXPECT_EQ(g.active, c.active) << what;
  expect_close<T>(g.qdot_plus, c.qdot_plus, what + ": qdot_plus");
  expect_close<T>(g.impulse, c.impulse, what + ": impulse");
  expect_close<T>(g.lambda, c.lambda, what + ": lambda");
  const double scale = 1 + std::abs(c.kinetic_energy_pre);
  EXPECT_LE(std::abs(g.kinetic_energy_pre - c.kinetic_energy_pre), tolerance<T>() * scale) << what;
  EXPECT_LE(std::abs(g.kinetic_energy_post - c.kinetic_energy_post), tolerance<T>() * scale) << what;
}
template <class T> void expect_close(const DynamicsResult& g, const DynamicsResult& c, const std::string& what) {
  ASSERT_EQ(g.status, c.status) << what;
  EXPECT_EQ(g.active, c.active) << what;
  expect_close<T>(g.qddot, c.qddot, what + ": qddot");
  expect_close<T>(g.lambda, c.lambda, what + ": lambda");
}

// The batch on the device with scratch for 3 scenarios of its largest workspace.
template <class T, class Result>
std::vector<Result> in_small_chunks(const std::vector<obliq::FrictionalScenario>& batch, std::vector<FrictionResult>* info) {
  const std::size_t ws = obliq::test::largest_workspace<T>(batch, std::is_same_v<Result, DynamicsResult>);
  std::vector<Result> out = cu::run_friction<T, Result, cu::DeviceMemory<T>>(
      batch, info, 3 * ws * sizeof(T),
      [](const cu::FrictionArrays<T>& a, std::size_t s0, std::size_t n, T* scratch, std::size_t w) {
        cu::friction_chunk<T>(a, s0, n, scratch, w);
      });
  OBLIQ_CUDA_CHECK(cudaDeviceSynchronize());
  return out;
}

template <class T, class Result> void matches_the_cpu() {
  constexpr bool dynamics = std::is_same_v<Result, DynamicsResult>;
  for (Formulation form : {Formulation::cone, Formulation::pyramid}) {
    const auto cases = obliq::test::friction_cases(dynamics, form, std::is_same_v<T, float>, 9, 1234);
    const auto batch = obliq::test::pointers_to(cases);
    for (bool small : {false, true}) {
      std::vector<FrictionResult> info;
      std::vector<Result> out;
      if (small) out = in_small_chunks<T, Result>(batch, &info);
      else if constexpr (dynamics) out = obliq::dynamics_batch<T>(batch, obliq::Backend::cuda, &info);
      else out = obliq::impact_batch<T>(batch, obliq::Backend::cuda, &info);
      ASSERT_EQ(out.size(), cases.size());
      for (std::size_t k = 0; k < cases.size(); ++k) {
        const std::string what = std::string(form == Formulation::cone ? "cone" : "pyramid") + (small ? ", small chunks" : "") +
                                 ", scenario " + std::to_string(k);
        FrictionResult ci;
        Result cpu;
        if constexpr (dynamics) cpu = obliq::dynamics<T>(cases[k].scenario, cases[k].friction, &ci);
        else cpu = obliq::impact<T>(cases[k].scenario, cases[k].friction, &ci);
        expect_close<T>(out[k], cpu, what);
        EXPECT_EQ(info[k].method, ci.method) << what;
        expect_close<T>(info[k].lambda_t, ci.lambda_t, what + ": lambda_t");
        if constexpr (dynamics) {
          EXPECT_EQ(info[k].sliding, ci.sliding) << what;
        }
      }
    }
  }
}

TEST(FrictionCuda, ImpactMatchesTheCpuDouble) {
  OBLIQ_REQUIRE_DEVICE();
  matches_the_cpu<double, ImpactResult>();
}
TEST(FrictionCuda, ImpactMatchesTheCpuFloat) {
  OBLIQ_REQUIRE_DEVICE();
  matches_the_cpu<float, ImpactResult>();
}
TEST(FrictionCuda, DynamicsMatchesTheCpuDouble) {
  OBLIQ_REQUIRE_DEVICE();
  matches_the_cpu<double, DynamicsResult>();
}
TEST(FrictionCuda, DynamicsMatchesTheCpuFloat) {
  OBLIQ_REQUIRE_DEVICE();
  matches_the_cpu<float, DynamicsResult>();
}

}  // namespace

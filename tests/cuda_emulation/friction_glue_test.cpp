// tests/cuda_emulation/friction_glue_test.cpp: frictional scenarios on the cuda backend emulated on
// the host: cuda/friction_glue.hpp's sequence (grouping by shape and friction options, packing,
// copies, chunks cut by scratch size, copies back, unpacking) with host vectors as the memory
// (host_memory.hpp) and a host loop over the kernel body (cuda/friction_body.hpp) per chunk,
// threads in reverse order, scratch filled with NaN. It must reproduce obliq::impact / dynamics
// with a Friction on the cpu bit for bit (the same core function on the same numbers with the
// same arena size), statuses included: double and float, cone and pyramid, impact and dynamics,
// random contact sets with mu = 0 ones mixed in, Painleve's rod (infeasible, ambiguous, ok), a
// negative mu and a misshaped A_t, every group in several chunks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include "friction_glue.hpp"
#include "host_memory.hpp"
#include "support/friction_batch.hpp"

namespace {

using obliq::DynamicsResult;
using obliq::FrictionResult;
using obliq::ImpactResult;
using obliq::Status;
using obliq::friction::Formulation;
namespace cu = obliq::cuda::detail;

template <class V> bool same_bits(const V& a, const V& b) {
  return a.size() == b.size() && (a.size() == 0 || std::memcmp(a.data(), b.data(), sizeof(*a.data()) * a.size()) == 0);
}
bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void expect_same(const ImpactResult& a, const ImpactResult& b, const std::string& what) {
  EXPECT_EQ(a.status, b.status) << what;
  EXPECT_TRUE(same_bits(a.qdot_plus, b.qdot_plus)) << what << ": qdot_plus";
  EXPECT_TRUE(same_bits(a.impulse, b.impulse)) << what << ": impulse";
  EXPECT_TRUE(same_bits(a.lambda, b.lambda)) << what << ": lambda";
  EXPECT_TRUE(same_bits(a.active, b.active)) << what << ": active";
  EXPECT_TRUE(same_bits(a.kinetic_energy_pre, b.kinetic_energy_pre)) << what << ": kinetic_energy_pre";
  EXPECT_TRUE(same_bits(a.kinetic_energy_post, b.kinetic_energy_post)) << what << ": kinetic_energy_post";
  EXPECT_EQ(a.energy_consistent, b.energy_consistent) << what;
}
void expect_same(const DynamicsResult& a, const DynamicsResult& b, const std::string& what) {
  EXPECT_EQ(a.status, b.status) << what;
  EXPECT_TRUE(same_bits(a.qddot, b.qddot)) << what << ": qddot";
  EXPECT_TRUE(same_bits(a.lambda, b.lambda)) << what << ": lambda";
  EXPECT_TRUE(same_bits(a.active, b.active)) << what << ": active";
}
void expect_same(const FrictionResult& a, const FrictionResult& b, const std::string& what) {
  EXPECT_TRUE(same_bits(a.lambda_t, b.lambda_t)) << what << ": lambda_t";
  EXPECT_TRUE(same_bits(a.sliding, b.sliding)) << what << ": sliding";
  EXPECT_EQ(a.method, b.method) << what;
  EXPECT_EQ(a.iterations, b.iterations) << what;
  EXPECT_TRUE(same_bits(a.residual, b.residual)) << what << ": residual";
}

// The batch as the cuda backend runs it, with scratch for `per_chunk` scenarios of the largest
// workspace among them; chunks counts the launches.
template <class T, class Result>
std::vector<Result> emulated(const std::vector<obliq::FrictionalScenario>& batch, std::vector<FrictionResult>* info,
                             std::size_t per_chunk, std::size_t& chunks) {
  const std::size_t ws = obliq::test::largest_workspace<T>(batch, std::is_same_v<Result, DynamicsResult>);
  chunks = 0;
  return cu::run_friction<T, Result, obliq::emulation::HostMemory<T>>(
      batch, info, per_chunk * ws * sizeof(T),
      [&](const cu::FrictionArrays<T>& a, std::size_t s0, std::size_t n, T* scratch, std::size_t w) {
        ++chunks;
        for (std::size_t i = n; i-- > 0;) cu::friction_body(a, s0, n, i, scratch, w);
      });
}

template <class T> void matches_the_cpu(bool dynamics) {
  for (Formulation form : {Formulation::cone, Formulation::pyramid}) {
    const auto cases = obliq::test::friction_cases(dynamics, form, std::is_same_v<T, float>, 9, 1234);
    const auto batch = obliq::test::pointers_to(cases);
    std::vector<FrictionResult> info;
    std::size_t chunks = 0;
    std::map<Status, int> statuses;
    std::map<std::string, int> methods;
    const std::string what0 = std::string(dynamics ? "dynamics " : "impact ") + (form == Formulation::cone ? "cone " : "pyramid ") +
                              (std::is_same_v<T, float> ? "float" : "double");
    auto check = [&](const auto& out) {
      ASSERT_EQ(out.size(), cases.size());
      ASSERT_EQ(info.size(), cases.size());
      for (std::size_t k = 0; k < cases.size(); ++k) {
        const std::string what = what0 + ", scenario " + std::to_string(k);
        FrictionResult cpu_info;
        if constexpr (std::is_same_v<std::decay_t<decltype(out[0])>, DynamicsResult>)
          expect_same(obliq::dynamics<T>(cases[k].scenario, cases[k].friction, &cpu_info), out[k], what);
        else
          expect_same(obliq::impact<T>(cases[k].scenario, cases[k].friction, &cpu_info), out[k], what);
        expect_same(cpu_info, info[k], what);
        ++statuses[out[k].status];
        ++methods[info[k].method];
      }
    };
    if (dynamics) check(emulated<T, DynamicsResult>(batch, &info, 3, chunks));
    else check(emulated<T, ImpactResult>(batch, &info, 3, chunks));
    // Five groups (two random shapes, each with and without the optional friction input, and the
    // rods); the largest (7 scenarios of the largest workspace) alone takes 3 chunks of 3.
    EXPECT_GE(chunks, 7u) << what0;
    // The batch shows what it is meant to: frictional answers, frictionless ones, statuses.
    EXPECT_GE(statuses[Status::ok], 15) << what0;
    EXPECT_EQ(statuses[Status::bad_shape], 1) << what0;
    EXPECT_EQ(statuses[Status::bad_friction], 1) << what0;
    if (dynamics) {
      EXPECT_EQ(statuses[Status::infeasible], 1) << what0;
      EXPECT_EQ(statuses[Status::ambiguous], 1) << what0;
    }
    EXPECT_GT(methods[""], 0) << what0 << ": no frictionless answer in the batch";
    EXPECT_GT(methods[form == Formulation::cone ? "newton" : "lemke"], 5) << what0;
  }
}

TEST(FrictionGlue, ImpactMatchesTheCpuDouble) { matches_the_cpu<double>(false); }
TEST(FrictionGlue, ImpactMatchesTheCpuFloat) { matches_the_cpu<float>(false); }
TEST(FrictionGlue, DynamicsMatchesTheCpuDouble) { matches_the_cpu<double>(true); }
TEST(FrictionGlue, DynamicsMatchesTheCpuFloat) { matches_the_cpu<float>(true); }

// Without an info vector the results are the same; the empty batch runs nothing.
TEST(FrictionGlue, NoInfoAndEmptyBatch) {
  const auto cases = obliq::test::friction_cases(false, Formulation::cone, false, 3, 7);
  const auto batch = obliq::test::pointers_to(cases);
  std::size_t chunks = 0;
  std::vector<FrictionResult> info;
  const auto with = emulated<double, ImpactResult>(batch, &info, 2, chunks);
  const auto without = emulated<double, ImpactResult>(batch, nullptr, 2, chunks);
  for (std::size_t k = 0; k < cases.size(); ++k) expect_same(with[k], without[k], "scenario " + std::to_string(k));
  EXPECT_TRUE((emulated<double, ImpactResult>({}, &info, 2, chunks).empty()));
  EXPECT_EQ(chunks, 0u);
  EXPECT_TRUE(info.empty());
}

// Scratch smaller than one scenario's workspace: a clear error.
TEST(FrictionGlue, ScratchTooSmallIsAnError) {
  const auto cases = obliq::test::friction_cases(true, Formulation::cone, false, 1, 3);
  std::size_t chunks = 0;
  EXPECT_THROW((emulated<double, DynamicsResult>(obliq::test::pointers_to(cases), nullptr, 0, chunks)), std::runtime_error);
}

}  // namespace

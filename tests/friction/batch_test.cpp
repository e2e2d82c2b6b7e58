// tests/friction/batch_test.cpp: obliq::impact_batch / dynamics_batch, the batched host entry of
// frictional contact: on the cpu each result (and its FrictionResult) is what obliq::impact /
// dynamics gives that scenario alone; Backend::reference is refused; Backend::cuda without a
// usable CUDA backend throws "backend cuda: ..." (the device path: tests/cuda_emulation and
// tests/cuda).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "obliq/friction.hpp"
#include "support/friction_batch.hpp"

namespace {

using obliq::Backend;
using obliq::FrictionResult;
using obliq::friction::Formulation;

TEST(FrictionBatch, CpuResultsAreTheSingleScenarioOnes) {
  for (Formulation form : {Formulation::cone, Formulation::pyramid}) {
    const auto impacts = obliq::test::friction_cases(false, form, false, 3, 99);
    std::vector<FrictionResult> info;
    const auto imp = obliq::impact_batch<double>(obliq::test::pointers_to(impacts), Backend::cpu, &info);
    ASSERT_EQ(imp.size(), impacts.size());
    ASSERT_EQ(info.size(), impacts.size());
    for (std::size_t k = 0; k < impacts.size(); ++k) {
      FrictionResult one;
      const auto r = obliq::impact<double>(impacts[k].scenario, impacts[k].friction, &one);
      EXPECT_EQ(imp[k].status, r.status) << k;
      EXPECT_EQ(imp[k].qdot_plus, r.qdot_plus) << k;
      EXPECT_EQ(imp[k].lambda, r.lambda) << k;
      EXPECT_EQ(info[k].lambda_t, one.lambda_t) << k;
      EXPECT_EQ(info[k].method, one.method) << k;
    }
    const auto rests = obliq::test::friction_cases(true, form, false, 3, 99);
    const auto dyn = obliq::dynamics_batch<double>(obliq::test::pointers_to(rests), Backend::cpu, &info);
    ASSERT_EQ(dyn.size(), rests.size());
    ASSERT_EQ(info.size(), rests.size());
    for (std::size_t k = 0; k < rests.size(); ++k) {
      FrictionResult one;
      const auto r = obliq::dynamics<double>(rests[k].scenario, rests[k].friction, &one);
      EXPECT_EQ(dyn[k].status, r.status) << k;
      EXPECT_EQ(dyn[k].qddot, r.qddot) << k;
      EXPECT_EQ(dyn[k].lambda, r.lambda) << k;
      EXPECT_EQ(info[k].lambda_t, one.lambda_t) << k;
      EXPECT_EQ(info[k].sliding, one.sliding) << k;
    }
  }
}

TEST(FrictionBatch, ReferenceBackendIsRefused) {
  const auto cases = obliq::test::friction_cases(false, Formulation::cone, false, 1, 1);
  EXPECT_THROW(obliq::impact_batch<double>(obliq::test::pointers_to(cases), Backend::reference), std::invalid_argument);
}

TEST(FrictionBatch, CudaWithoutABackendIsAClearError) {
  const auto cases = obliq::test::friction_cases(true, Formulation::pyramid, false, 1, 1);
  try {
    obliq::dynamics_batch<float>(obliq::test::pointers_to(cases), Backend::cuda);
    GTEST_SKIP() << "the cuda backend ran here";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("backend cuda: ", 0), 0u) << e.what();
  }
}

}  // namespace

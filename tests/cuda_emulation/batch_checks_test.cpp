// tests/cuda_emulation/batch_checks_test.cpp: the host-side checks every device call runs
// before a kernel reads a batch (cuda/batch_checks.hpp).
#include <gtest/gtest.h>

#include "cuda_emulation/host_glue.hpp"
#include "support/random_batch.hpp"

namespace {

namespace cu = obliq::cuda;
namespace emu = obliq::emulation;

TEST(BatchChecks, CompleteBatchPasses) {
  const auto in = obliq::test::random_batch<double>({6, 1, 3}, 10, obliq::Law::projection, false, 0, 1);
  emu::HostBatch<double> hb(in, cu::Layout::interleaved);
  const auto io = hb.impact_outputs();
  const auto dout = hb.dynamics_outputs();
  EXPECT_EQ(cu::detail::check_inputs(hb.inputs(), true), "");
  EXPECT_EQ(cu::detail::check_inputs(hb.inputs(), false), "");
  EXPECT_EQ(cu::detail::check_outputs<double>(&io, nullptr, 6, 4, 3), "");
  EXPECT_EQ(cu::detail::check_outputs<double>(nullptr, &dout, 6, 4, 3), "");
}

TEST(BatchChecks, MissingOrNegativeInputsAreNamed) {
  const auto in = obliq::test::random_batch<double>({6, 1, 3}, 10, obliq::Law::projection, false, 0, 1);
  emu::HostBatch<double> hb(in, cu::Layout::contiguous);
  auto a = hb.inputs();
  a.law.data = nullptr;
  EXPECT_EQ(cu::detail::check_inputs(a, true), "input array law is missing (null data)");
  a = hb.inputs();
  a.gap_tol.data = nullptr;
  EXPECT_EQ(cu::detail::check_inputs(a, false), "input array gap_tol is missing (null data)");
  a = hb.inputs();
  a.vel_tol.data = nullptr;
  EXPECT_EQ(cu::detail::check_inputs(a, true), "input array vel_tol is missing (null data)");
  a = hb.inputs();
  a.i_u.data = nullptr;  // impact reads i_u, dynamics does not
  EXPECT_EQ(cu::detail::check_inputs(a, true), "input array i_u is missing (null data)");
  EXPECT_EQ(cu::detail::check_inputs(a, false), "");
  a = hb.inputs();
  a.A_u.ss = -1;
  EXPECT_EQ(cu::detail::check_inputs(a, true), "input array A_u has a negative stride");
  a = hb.inputs();
  a.e.es = 0;  // one coefficient per scenario: a broadcast input is fine
  a.e.ss = 0;
  EXPECT_EQ(cu::detail::check_inputs(a, true), "");
  a = hb.inputs();
  a.n = 0;
  EXPECT_NE(cu::detail::check_inputs(a, true).find("is not a batch shape"), std::string::npos);
}

TEST(BatchChecks, OutputsMustNotBroadcast) {
  const auto in = obliq::test::random_batch<float>({6, 0, 3}, 10, obliq::Law::projection, false, 0, 1);
  emu::HostBatch<float> hb(in, cu::Layout::interleaved);
  auto io = hb.impact_outputs();
  io.status.ss = 0;
  EXPECT_NE(cu::detail::check_outputs<float>(&io, nullptr, 6, 3, 3).find("output array status needs positive strides"),
            std::string::npos);
  io = hb.impact_outputs();
  io.lambda.es = 0;
  EXPECT_NE(cu::detail::check_outputs<float>(&io, nullptr, 6, 3, 3).find("output array lambda"), std::string::npos);
  io = hb.impact_outputs();
  io.qdot_plus.data = nullptr;
  EXPECT_EQ(cu::detail::check_outputs<float>(&io, nullptr, 6, 3, 3), "output array qdot_plus is missing (null data)");
}

TEST(BatchChecks, BlockSizeWithinWhatTheKernelsAllow) {
  EXPECT_EQ(cu::detail::check_block_size(128, 256), "");
  EXPECT_EQ(cu::detail::check_block_size(256, 256), "");
  EXPECT_NE(cu::detail::check_block_size(512, 256), "");
  EXPECT_NE(cu::detail::check_block_size(0, 256), "");
}

}  // namespace

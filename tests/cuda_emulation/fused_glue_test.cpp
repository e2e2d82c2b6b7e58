// tests/cuda_emulation/fused_glue_test.cpp: the fused kernels' glue (view builders, kernel
// bodies, chunking, scratch layouts, the `only` mask), run on the host, against the cpu
// backend, bit for bit: the same core function on the same numbers must give the same bits
// whatever the strides.
#include <gtest/gtest.h>

#include <cstring>

#include "cuda_emulation/host_glue.hpp"
#include "support/random_batch.hpp"

namespace {

using obliq::Batch;
using obliq::DynamicsResults;
using obliq::ImpactResults;
using obliq::Law;
using obliq::Shape;
namespace cu = obliq::cuda;
namespace emu = obliq::emulation;

template <class U> bool same_bits(const std::vector<U>& a, const std::vector<U>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(U)) == 0);
}

template <class T> class FusedGlue : public ::testing::Test {};
using Scalars = ::testing::Types<double, float>;
TYPED_TEST_SUITE(FusedGlue, Scalars);

const Shape kShapes[] = {{6, 0, 3}, {12, 1, 4}, {18, 2, 6}};
constexpr std::size_t kCount = 150;

// Scratch for about `chunks` chunks of scenarios needing ws elements each.
template <class T> std::size_t scratch_for_chunks(std::size_t ws, std::size_t count, std::size_t chunks) {
  return ws * sizeof(T) * ((count + chunks - 1) / chunks);
}

TYPED_TEST(FusedGlue, ImpactIsBitwiseTheCpuBackendInEveryLayoutAndChunking) {
  using T = TypeParam;
  unsigned seed = 3;
  for (Law law : {Law::projection, Law::complementarity})
    for (Shape shape : kShapes) {
      const Batch<T> in = obliq::test::random_batch<T>(shape, kCount, law, false, seed % 2, seed);
      ++seed;
      ImpactResults<T> cpu;
      obliq::solve_impact(in, cpu, {obliq::Backend::cpu, 1});
      const std::size_t ws = cu::detail::fused_impact_scratch<T>(shape.n, shape.m_b, shape.m_u);
      for (cu::Layout layout : {cu::Layout::interleaved, cu::Layout::contiguous})
        for (bool interleaved_scratch : {true, false}) {
          SCOPED_TRACE(std::string(cu::layout_name(layout)) + (interleaved_scratch ? " interleaved" : " contiguous") +
                       " scratch, n = " + std::to_string(shape.n));
          emu::HostBatch<T> hb(in, layout);
          emu::HostLaunch hl(scratch_for_chunks<T>(ws, kCount, 7), kCount, interleaved_scratch);
          const auto out = hb.impact_outputs();
          EXPECT_EQ(emu::fused<T>(hb.inputs(), &out, nullptr, hl.l), 7u);
          const ImpactResults<T> got = hb.impact_results();
          EXPECT_TRUE(same_bits(got.status, cpu.status));
          EXPECT_TRUE(same_bits(got.qdot_plus, cpu.qdot_plus));
          EXPECT_TRUE(same_bits(got.impulse, cpu.impulse));
          EXPECT_TRUE(same_bits(got.lambda, cpu.lambda));
          EXPECT_TRUE(same_bits(got.active, cpu.active));
          EXPECT_TRUE(same_bits(got.kinetic_energy_pre, cpu.kinetic_energy_pre));
          EXPECT_TRUE(same_bits(got.kinetic_energy_post, cpu.kinetic_energy_post));
          EXPECT_TRUE(same_bits(got.energy_consistent, cpu.energy_consistent));
        }
    }
}

TYPED_TEST(FusedGlue, DynamicsIsBitwiseTheCpuBackendInEveryLayoutAndChunking) {
  using T = TypeParam;
  unsigned seed = 31;
  for (Law law : {Law::projection, Law::complementarity})
    for (Shape shape : kShapes) {
      const Batch<T> in = obliq::test::random_batch<T>(shape, kCount, law, true, seed % 2, seed);
      ++seed;
      DynamicsResults<T> cpu;
      obliq::solve_dynamics(in, cpu, {obliq::Backend::cpu, 1});
      const std::size_t ws = cu::detail::fused_dynamics_scratch<T>(shape.n, shape.m_b, shape.m_u);
      for (cu::Layout layout : {cu::Layout::interleaved, cu::Layout::contiguous})
        for (bool interleaved_scratch : {true, false}) {
          SCOPED_TRACE(std::string(cu::layout_name(layout)) + (interleaved_scratch ? " interleaved" : " contiguous") +
                       " scratch, n = " + std::to_string(shape.n));
          emu::HostBatch<T> hb(in, layout);
          emu::HostLaunch hl(scratch_for_chunks<T>(ws, kCount, 4), kCount, interleaved_scratch);
          const auto out = hb.dynamics_outputs();
          EXPECT_EQ(emu::fused<T>(hb.inputs(), nullptr, &out, hl.l), 4u);
          const DynamicsResults<T> got = hb.dynamics_results();
          EXPECT_TRUE(same_bits(got.status, cpu.status));
          EXPECT_TRUE(same_bits(got.qddot, cpu.qddot));
          EXPECT_TRUE(same_bits(got.lambda, cpu.lambda));
          EXPECT_TRUE(same_bits(got.active, cpu.active));
        }
    }
}

// The `only` selection (how the warp and library paths hand scenarios to the fused kernel: their
// mask compacted by cuda/compaction.hpp): scenarios not selected are not touched, the others
// get the cpu backend's bits.
TYPED_TEST(FusedGlue, OnlyMaskRunsExactlyTheMarkedScenarios) {
  using T = TypeParam;
  const Shape shape{12, 1, 4};
  const Batch<T> in = obliq::test::random_batch<T>(shape, kCount, Law::complementarity, false, 0, 8);
  ImpactResults<T> cpu;
  obliq::solve_impact(in, cpu, {obliq::Backend::cpu, 1});
  emu::HostBatch<T> hb(in, cu::Layout::interleaved);
  const std::size_t ws = cu::detail::fused_impact_scratch<T>(shape.n, shape.m_b, shape.m_u);
  emu::HostLaunch hl(scratch_for_chunks<T>(ws, kCount, 3), kCount, true);
  std::vector<std::uint8_t> only(kCount);
  for (std::size_t s = 0; s < kCount; ++s) only[s] = s % 3 == 1;
  hl.l.only = cu::detail::select_handed_back(thrust::cpp::par, only.data(), kCount, hl.l.select_buffer);
  ASSERT_EQ(*hl.l.only.count, (kCount + 1) / 3);
  const auto out = hb.impact_outputs();
  emu::fused<T>(hb.inputs(), &out, nullptr, hl.l);
  const ImpactResults<T> got = hb.impact_results();
  const int n = shape.n;
  for (std::size_t s = 0; s < kCount; ++s) {
    if (only[s]) {
      EXPECT_EQ(got.status[s], cpu.status[s]) << s;
      EXPECT_EQ(std::memcmp(&got.qdot_plus[s * n], &cpu.qdot_plus[s * n], n * sizeof(T)), 0) << s;
    } else {
      EXPECT_EQ(int(got.status[s]), -1) << "scenario " << s << " was not in the mask but was written";
    }
  }
}

TEST(FusedGlue, ScratchTooSmallForOneScenarioIsAnError) {
  EXPECT_THROW(cu::detail::for_each_chunk<double>(10, 100, 799, [](std::size_t, std::size_t) {}), std::runtime_error);
  std::size_t covered = 0, calls = 0;
  cu::detail::for_each_chunk<double>(10, 100, 800 * 3, [&](std::size_t s0, std::size_t c) {
    EXPECT_EQ(s0, covered);
    covered += c;
    ++calls;
  });
  EXPECT_EQ(covered, 10u);
  EXPECT_EQ(calls, 4u);
}

}  // namespace

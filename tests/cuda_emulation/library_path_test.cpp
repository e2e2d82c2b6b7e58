// tests/cuda_emulation/library_path_test.cpp: the library path's steps (cuda/library_steps.hpp:
// buffers, chunking, prep / energy / finalize kernels, acceptance tests, the masked hand-off to
// the fused kernel) with host versions of the batched cuSOLVER / cuBLAS routines, against the
// cpu backend. Values agree to rounding (another algorithm), statuses exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "cuda_emulation/host_glue.hpp"
#include "support/random_batch.hpp"

namespace {

using obliq::Batch;
using obliq::DynamicsResults;
using obliq::ImpactResults;
using obliq::Law;
using obliq::Shape;
using obliq::Status;
namespace cu = obliq::cuda;
namespace emu = obliq::emulation;

using emu::tolerance;

// Block s (size `size`) of a and b agree to tol relative to b's size.
template <class T>
::testing::AssertionResult close(const char* what, std::size_t s, const std::vector<T>& a, const std::vector<T>& b,
                                 std::size_t size, double tol) {
  const double d = emu::max_rel_diff(a, b, s, size);
  if (d <= tol) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << what << " of scenario " << s << " differs by " << d << " relative";
}

// Runs the library path over `in` (layout, scratch for about `chunks` chunks) and compares
// with the cpu backend. Returns how many scenarios the library path itself finished.
template <class T> std::size_t expect_library_impact_matches(const Batch<T>& in, cu::Layout layout, std::size_t chunks, double tol) {
  const Shape shape = in.shape;
  const int n = shape.n, m = in.m();
  ImpactResults<T> cpu;
  obliq::solve_impact(in, cpu, {obliq::Backend::cpu, 1});
  emu::HostBatch<T> hb(in, layout);
  const std::size_t per_chunk = (in.count + chunks - 1) / chunks;
  emu::HostLaunch hl(cu::detail::carve_bytes<T>(n, m, shape.m_u, per_chunk, true), in.count,
                     layout == cu::Layout::interleaved);
  emu::HostOps<T> ops;
  const auto out = hb.impact_outputs();
  cu::detail::library_run<T>(hb.inputs(), &out, nullptr, hl.l, ops);
  EXPECT_GE(ops.chunks, chunks);
  const ImpactResults<T> got = hb.impact_results();
  for (std::size_t s = 0; s < in.count; ++s) {
    EXPECT_EQ(int(got.status[s]), int(cpu.status[s])) << "scenario " << s;
    if (cpu.status[s] != Status::ok || got.status[s] != Status::ok) continue;
    EXPECT_TRUE(close("qdot_plus", s, got.qdot_plus, cpu.qdot_plus, n, tol));
    EXPECT_TRUE(close("impulse", s, got.impulse, cpu.impulse, n, tol));
    EXPECT_TRUE(close("lambda", s, got.lambda, cpu.lambda, m, tol));
    EXPECT_TRUE(close("kinetic_energy_post", s, got.kinetic_energy_post, cpu.kinetic_energy_post, 1, tol));
    for (int k = 0; k < shape.m_u; ++k) EXPECT_EQ(got.active[s * shape.m_u + k], cpu.active[s * shape.m_u + k]) << s;
    EXPECT_EQ(got.energy_consistent[s], cpu.energy_consistent[s]) << "scenario " << s;
  }
  return in.count - ops.fallbacks;
}

template <class T> class LibraryPath : public ::testing::Test {};
using Scalars = ::testing::Types<double, float>;
TYPED_TEST_SUITE(LibraryPath, Scalars);

TYPED_TEST(LibraryPath, ImpactMatchesCpuBackendOnRandomScenarios) {
  using T = TypeParam;
  unsigned seed = 11;
  for (Shape shape : {Shape{6, 0, 3}, Shape{12, 1, 3}, Shape{18, 2, 6}})
    for (cu::Layout layout : {cu::Layout::interleaved, cu::Layout::contiguous}) {
      SCOPED_TRACE(std::string(cu::layout_name(layout)) + " n = " + std::to_string(shape.n));
      const Batch<T> in = obliq::test::random_batch<T>(shape, 300, Law::projection, false, 0, seed++);
      const std::size_t taken = expect_library_impact_matches(in, layout, 5, tolerance<T>());
      EXPECT_GT(taken, in.count / 2) << "the library path finished too few scenarios itself";
    }
}

// The GPU test's own rank-deficient case ((12, 1, 4), one unilateral row a combination of the
// others): the library path must hand every scenario whose rows taking part are dependent to
// the fused kernel. A Delassus factor from dependent rows has a pivot of rounding size, so its
// diagonal entry (the pivot's square root) is about sqrt(eps) of the largest: a test on the
// diagonal against a multiple of eps accepts it, and W^-1 of a numerically singular W follows.
TYPED_TEST(LibraryPath, ImpactWithDependentRowsMatchesCpuBackend) {
  using T = TypeParam;
  const Batch<T> in = obliq::test::random_batch<T>({12, 1, 4}, 400, Law::projection, false, /*dependent=*/1, 77);
  for (cu::Layout layout : {cu::Layout::interleaved, cu::Layout::contiguous}) {
    SCOPED_TRACE(cu::layout_name(layout));
    const std::size_t taken = expect_library_impact_matches(in, layout, 3, tolerance<T>() * 10);
    EXPECT_GT(taken, 0u) << "no scenario left to the library path (every one has an inactive dependent row?)";
  }
}

TYPED_TEST(LibraryPath, DynamicsMatchesCpuBackend) {
  using T = TypeParam;
  unsigned seed = 101;
  for (int dependent : {0, 1})
    for (Shape shape : {Shape{6, 0, 3}, Shape{12, 1, 4}}) {
      SCOPED_TRACE("dependent rows " + std::to_string(dependent) + ", n = " + std::to_string(shape.n));
      const Batch<T> in = obliq::test::random_batch<T>(shape, 300, Law::projection, true, dependent, seed++);
      const int n = shape.n, m = in.m();
      DynamicsResults<T> cpu;
      obliq::solve_dynamics(in, cpu, {obliq::Backend::cpu, 1});
      emu::HostBatch<T> hb(in, cu::Layout::interleaved);
      emu::HostLaunch hl(cu::detail::carve_bytes<T>(n, m, shape.m_u, 100, false), in.count, true);
      emu::HostOps<T> ops;
      const auto out = hb.dynamics_outputs();
      cu::detail::library_run<T>(hb.inputs(), nullptr, &out, hl.l, ops);
      EXPECT_GE(ops.chunks, 3u);
      EXPECT_LT(ops.fallbacks, in.count);
      const DynamicsResults<T> got = hb.dynamics_results();
      const double tol = tolerance<T>() * (dependent ? 10 : 1);
      for (std::size_t s = 0; s < in.count; ++s) {
        EXPECT_EQ(int(got.status[s]), int(cpu.status[s])) << "scenario " << s;
        if (cpu.status[s] != Status::ok || got.status[s] != Status::ok) continue;
        EXPECT_TRUE(close("qddot", s, got.qddot, cpu.qddot, n, tol));
        EXPECT_TRUE(close("lambda", s, got.lambda, cpu.lambda, m, tol));
      }
    }
}

// Complementarity law and bad input: nothing for the library path, all to the fused kernel.
TYPED_TEST(LibraryPath, ComplementarityLawGoesToTheFusedKernel) {
  using T = TypeParam;
  const Batch<T> in = obliq::test::random_batch<T>({12, 1, 4}, 100, Law::complementarity, false, 0, 5);
  emu::HostBatch<T> hb(in, cu::Layout::contiguous);
  emu::HostLaunch hl(std::size_t(8) << 20, in.count, false);
  emu::HostOps<T> ops;
  const auto out = hb.impact_outputs();
  cu::detail::library_run<T>(hb.inputs(), &out, nullptr, hl.l, ops);
  EXPECT_EQ(ops.fallbacks, in.count);
}

}  // namespace

// tests/cuda_emulation/warp_path_test.cpp: Method::warp (cuda/warp_impact.hpp) run with one
// lane on the host, then the fused kernel on what it handed over, against the cpu backend:
// statuses exactly, values to rounding (another order of operations).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "cuda_emulation/host_glue.hpp"
#include "support/random_batch.hpp"

namespace {

using obliq::Batch;
using obliq::ImpactResults;
using obliq::Law;
using obliq::Shape;
using obliq::Status;
namespace cu = obliq::cuda;
namespace emu = obliq::emulation;

using emu::max_rel_diff;
using emu::tolerance;

template <class T> class WarpPath : public ::testing::Test {};
using Scalars = ::testing::Types<double, float>;
TYPED_TEST_SUITE(WarpPath, Scalars);

TYPED_TEST(WarpPath, ImpactMatchesCpuBackend) {
  using T = TypeParam;
  unsigned seed = 500;
  for (int dependent : {0, 1})
    for (Law law : {Law::projection, Law::complementarity})
      for (Shape shape : {Shape{6, 0, 3}, Shape{12, 1, 4}, Shape{12, 0, 4}, Shape{30, 0, 8}}) {
        SCOPED_TRACE(std::string(obliq::law_name(law)) + " n = " + std::to_string(shape.n) + " m_b = " +
                     std::to_string(shape.m_b) + " m_u = " + std::to_string(shape.m_u) + " dependent " +
                     std::to_string(dependent));
        const Batch<T> in = obliq::test::random_batch<T>(shape, 200, law, false, dependent, seed++);
        ImpactResults<T> cpu;
        obliq::solve_impact(in, cpu, {obliq::Backend::cpu, 1});
        emu::HostBatch<T> hb(in, cu::Layout::contiguous);
        emu::HostLaunch hl(std::size_t(16) << 20, in.count, true);
        const auto out = hb.impact_outputs();
        const std::size_t kept = emu::warp_impact<T>(hb.inputs(), out, hl.l);
        if (law == Law::complementarity) EXPECT_EQ(kept, 0u);
        else EXPECT_GT(kept, in.count / (dependent ? 8 : 2)) << "the warp path kept too few scenarios";
        const ImpactResults<T> got = hb.impact_results();
        const int n = shape.n, m = in.m(), mu = shape.m_u;
        const double tol = tolerance<T>() * (dependent ? 10 : 1);
        for (std::size_t s = 0; s < in.count; ++s) {
          ASSERT_EQ(int(got.status[s]), int(cpu.status[s])) << "scenario " << s;
          if (cpu.status[s] != Status::ok) continue;
          EXPECT_LE(max_rel_diff(got.qdot_plus, cpu.qdot_plus, s, n), tol) << "qdot_plus, scenario " << s;
          EXPECT_LE(max_rel_diff(got.impulse, cpu.impulse, s, n), tol) << "impulse, scenario " << s;
          EXPECT_LE(max_rel_diff(got.lambda, cpu.lambda, s, m), tol) << "lambda, scenario " << s;
          EXPECT_LE(max_rel_diff(got.kinetic_energy_pre, cpu.kinetic_energy_pre, s, 1), tol) << s;
          EXPECT_LE(max_rel_diff(got.kinetic_energy_post, cpu.kinetic_energy_post, s, 1), tol) << s;
          for (int k = 0; k < mu; ++k) EXPECT_EQ(got.active[s * mu + k], cpu.active[s * mu + k]) << s;
          EXPECT_EQ(got.energy_consistent[s], cpu.energy_consistent[s]) << "scenario " << s;
        }
      }
}

// Per-row restitution (the energy test's bracket decides, not the global-e shortcut) and
// scenarios that must be handed over: bad input, M not positive definite.
TYPED_TEST(WarpPath, EnergyTestAndBadScenarios) {
  using T = TypeParam;
  const Shape shape{3, 0, 2};
  Batch<T> in(shape, 4);
  obliq::Scenario pair = obliq::Scenario::zeros(shape);  // two coupled contacts, e = (1, 0)
  pair.M = Eigen::Matrix3d::Identity();
  pair.A_u << 1, 1, 0, 0, 1, 1;
  pair.qdot << -1.0, -1.0, -1.0;
  pair.e << 1.0, 0.0;
  pair.law = Law::projection;
  in.set(0, pair);
  obliq::Scenario mild = pair;  // e = (0.5, 0.4)
  mild.e << 0.5, 0.4;
  in.set(1, mild);
  obliq::Scenario bad_m = pair;
  bad_m.M(2, 2) = -1.0;
  in.set(2, bad_m);
  obliq::Scenario bad_e = pair;
  bad_e.e << 1.5, 0.5;
  in.set(3, bad_e);
  ImpactResults<T> cpu;
  obliq::solve_impact(in, cpu, {obliq::Backend::cpu, 1});
  emu::HostBatch<T> hb(in, cu::Layout::interleaved);
  emu::HostLaunch hl(std::size_t(1) << 20, in.count, true);
  const auto out = hb.impact_outputs();
  EXPECT_EQ(emu::warp_impact<T>(hb.inputs(), out, hl.l), 2u);
  const ImpactResults<T> got = hb.impact_results();
  for (std::size_t s = 0; s < in.count; ++s) EXPECT_EQ(int(got.status[s]), int(cpu.status[s])) << s;
  EXPECT_EQ(got.energy_consistent[0], 0);  // docs/math.md (6): not energy consistent
  EXPECT_EQ(got.energy_consistent[0], cpu.energy_consistent[0]);
  EXPECT_EQ(got.energy_consistent[1], cpu.energy_consistent[1]);
  EXPECT_EQ(got.status[2], Status::not_spd);
  EXPECT_EQ(got.status[3], Status::bad_restitution);
}

}  // namespace

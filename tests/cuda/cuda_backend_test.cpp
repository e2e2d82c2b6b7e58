// tests/cuda/cuda_backend_test.cpp: the cuda backend against the Eigen reference path.
//
// Random scenarios (src/io/random_scenarios.hpp, the generator of the CPU property tests) and
// hand-made physical cases, both laws, impact and dynamics, double and float, both methods
// (fused kernels, cuBLAS/cuSOLVER library path) and both layouts; a bitwise determinism check;
// caller-owned device pointers. Every test skips itself with "no CUDA device found: ..." where
// the CUDA runtime sees no device (CI has nvcc but no GPU). Listing the tests touches no CUDA
// API, so gtest_discover_tests works on such a machine.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "obliq/batch.hpp"
#include "obliq/core/mechanics/impact.hpp"
#include "obliq/cuda.hpp"
#include "obliq/reference.hpp"
#include "require_device.hpp"
#include "support/random_batch.hpp"

namespace {

using obliq::Batch;
using obliq::DynamicsResults;
using obliq::ImpactResults;
using obliq::Law;
using obliq::Scenario;
using obliq::Shape;
using obliq::Status;
namespace cu = obliq::cuda;

template <class T> double tolerance() { return std::is_same_v<T, double> ? 1e-7 : 3e-3; }

// Relative closeness of a vector, scaled by the reference's size.
::testing::AssertionResult close(const char* what, std::size_t s, const Eigen::VectorXd& got, const Eigen::VectorXd& ref,
                                 double tol) {
  if (got.size() != ref.size()) return ::testing::AssertionFailure() << what << " size differs in scenario " << s;
  const double scale = 1.0 + (ref.size() ? ref.cwiseAbs().maxCoeff() : 0.0);
  const double err = got.size() ? (got - ref).cwiseAbs().maxCoeff() : 0.0;
  if (!(err <= tol * scale))
    return ::testing::AssertionFailure() << what << " of scenario " << s << " differs by " << err << " (scale " << scale
                                         << ")\n got " << got.transpose() << "\n ref " << ref.transpose();
  return ::testing::AssertionSuccess();
}

using obliq::test::random_batch;

// Every scenario of `got` against reference::impact on the same (T-rounded) scenario.
template <class T> void expect_impact_matches(const Batch<T>& in, const ImpactResults<T>& got, double tol) {
  ASSERT_EQ(got.count, in.count);
  std::size_t ok = 0, energy_mismatch = 0;
  for (std::size_t s = 0; s < in.count; ++s) {
    const obliq::ImpactResult ref = obliq::reference::impact(in.get(s));
    const obliq::ImpactResult r = got.get(s);
    ASSERT_EQ(int(r.status), int(ref.status)) << "scenario " << s << ": " << obliq::status_reason(r.status) << " vs "
                                              << obliq::status_reason(ref.status);
    if (ref.status != Status::ok) continue;
    ++ok;
    EXPECT_TRUE(close("qdot_plus", s, r.qdot_plus, ref.qdot_plus, tol));
    EXPECT_TRUE(close("impulse", s, r.impulse, ref.impulse, tol));
    EXPECT_TRUE(close("lambda", s, r.lambda, ref.lambda, tol));
    EXPECT_EQ(r.active, ref.active) << "scenario " << s;
    EXPECT_NEAR(r.kinetic_energy_pre, ref.kinetic_energy_pre, tol * (1 + std::abs(ref.kinetic_energy_pre)));
    EXPECT_NEAR(r.kinetic_energy_post, ref.kinetic_energy_post, tol * (1 + std::abs(ref.kinetic_energy_post)));
    if (r.energy_consistent != ref.energy_consistent) ++energy_mismatch;
  }
  EXPECT_GT(ok, in.count / 2) << "too few scenarios solved to compare";
  // The energy test is a threshold on an eigenvalue: in float a borderline case may flip.
  if (std::is_same_v<T, double>) {
    EXPECT_EQ(energy_mismatch, 0u);
  } else {
    EXPECT_LE(energy_mismatch, in.count / 50 + 1);
  }
}

template <class T> void expect_dynamics_matches(const Batch<T>& in, const DynamicsResults<T>& got, double tol) {
  ASSERT_EQ(got.count, in.count);
  std::size_t ok = 0;
  for (std::size_t s = 0; s < in.count; ++s) {
    const obliq::DynamicsResult ref = obliq::reference::dynamics(in.get(s));
    const obliq::DynamicsResult r = got.get(s);
    ASSERT_EQ(int(r.status), int(ref.status)) << "scenario " << s << ": " << obliq::status_reason(r.status) << " vs "
                                              << obliq::status_reason(ref.status);
    if (ref.status != Status::ok) continue;
    ++ok;
    EXPECT_TRUE(close("qddot", s, r.qddot, ref.qddot, tol));
    EXPECT_TRUE(close("lambda", s, r.lambda, ref.lambda, tol));
    EXPECT_EQ(r.active, ref.active) << "scenario " << s;
  }
  EXPECT_GT(ok, in.count / 2) << "too few scenarios solved to compare";
}

template <class T> class CudaBackend : public ::testing::Test {};
using Scalars = ::testing::Types<double, float>;
TYPED_TEST_SUITE(CudaBackend, Scalars);

struct Variant {
  cu::Method method;
  cu::Layout layout;
};
const Variant kVariants[] = {{cu::Method::fused, cu::Layout::interleaved},
                             {cu::Method::fused, cu::Layout::contiguous},
                             {cu::Method::library, cu::Layout::interleaved},
                             {cu::Method::library, cu::Layout::contiguous},
                             {cu::Method::warp, cu::Layout::contiguous},
                             {cu::Method::warp, cu::Layout::interleaved}};

std::string describe(const Variant& v, Law law, Shape s) {
  return std::string(cu::method_name(v.method)) + "/" + cu::layout_name(v.layout) + "/" + obliq::law_name(law) + " n=" +
         std::to_string(s.n) + " m_b=" + std::to_string(s.m_b) + " m_u=" + std::to_string(s.m_u);
}

const Shape kShapes[] = {{6, 0, 3}, {12, 1, 3}, {18, 2, 6}};

TYPED_TEST(CudaBackend, ImpactMatchesReferenceOnRandomScenarios) {
  OBLIQ_REQUIRE_DEVICE();
  using T = TypeParam;
  unsigned seed = 11;
  for (Law law : {Law::projection, Law::complementarity})
    for (Shape shape : kShapes) {
      const Batch<T> in = random_batch<T>(shape, 300, law, /*dynamics=*/false, 0, seed++);
      for (const Variant& v : kVariants) {
        SCOPED_TRACE(describe(v, law, shape));
        cu::Options opt;
        opt.method = v.method;
        opt.scratch_layout = v.layout;
        ImpactResults<T> out;
        cu::solve_impact(in, out, opt, v.layout);
        expect_impact_matches(in, out, tolerance<T>());
      }
    }
}

TYPED_TEST(CudaBackend, ImpactMatchesReferenceWithDependentRows) {
  OBLIQ_REQUIRE_DEVICE();
  using T = TypeParam;
  // Rank-deficient unilateral rows: the library path hands these to the fused kernel.
  for (Law law : {Law::projection, Law::complementarity}) {
    const Batch<T> in = random_batch<T>({12, 1, 4}, 200, law, false, /*dependent=*/1, 77);
    for (const Variant& v : kVariants) {
      SCOPED_TRACE(describe(v, law, in.shape));
      cu::Options opt;
      opt.method = v.method;
      ImpactResults<T> out;
      cu::solve_impact(in, out, opt, v.layout);
      expect_impact_matches(in, out, tolerance<T>() * 10);
    }
  }
}

TYPED_TEST(CudaBackend, DynamicsMatchesReferenceOnRandomScenarios) {
  OBLIQ_REQUIRE_DEVICE();
  using T = TypeParam;
  unsigned seed = 101;
  for (Law law : {Law::projection, Law::complementarity})
    for (Shape shape : kShapes) {
      const Batch<T> in = random_batch<T>(shape, 300, law, /*dynamics=*/true, 0, seed++);
      for (const Variant& v : kVariants) {
        SCOPED_TRACE(describe(v, law, shape));
        cu::Options opt;
        opt.method = v.method;
        opt.scratch_layout = v.layout;
        DynamicsResults<T> out;
        cu::solve_dynamics(in, out, opt, v.layout);
        expect_dynamics_matches(in, out, tolerance<T>());
      }
    }
}

// Hand-made cases with known answers, mixed with bad scenarios that must fail alone.
TYPED_TEST(CudaBackend, PhysicalCasesAndBadScenariosInOneBatch) {
  OBLIQ_REQUIRE_DEVICE();
  using T = TypeParam;
  const Shape shape{3, 0, 2};
  Batch<T> in(shape, 5);
  // 0: a point mass (n = 3) falling onto the ground plane, row 0 = +z, row 1 open; e = 0.5.
  Scenario ball = Scenario::zeros(shape);
  ball.M = 2.0 * Eigen::Matrix3d::Identity();
  ball.qdot << 1.0, 0.0, -4.0;
  ball.A_u << 0, 0, 1, 1, 0, 0;
  ball.phi_u << 0.0, 0.5;
  ball.e << 0.5, 0.5;
  ball.law = Law::complementarity;
  in.set(0, ball);
  // 1: the same under the projection law.
  Scenario ball_p = ball;
  ball_p.law = Law::projection;
  in.set(1, ball_p);
  // 2: M not positive definite.
  Scenario bad_m = ball;
  bad_m.M(2, 2) = -1.0;
  in.set(2, bad_m);
  // 3: restitution outside [0, 1].
  Scenario bad_e = ball;
  bad_e.e << 1.5, 0.5;
  in.set(3, bad_e);
  // 4: two coupled contacts (seed 004's geometry), elastic on one, plastic on the other.
  Scenario pair = Scenario::zeros(shape);
  pair.M = Eigen::Matrix3d::Identity();
  pair.A_u << 1, 1, 0, 0, 1, 1;
  pair.qdot << -1.0, -1.0, -1.0;
  pair.e << 1.0, 0.0;
  in.set(4, pair);

  for (const Variant& v : kVariants) {
    SCOPED_TRACE(describe(v, Law::complementarity, shape));
    cu::Options opt;
    opt.method = v.method;
    ImpactResults<T> out;
    cu::solve_impact(in, out, opt, v.layout);
    expect_impact_matches(in, out, tolerance<T>());
    // The ball bounces: v_z = -e v_z- = 2, tangential velocity unchanged, impulse 2 * 6 = 12.
    for (std::size_t s : {0u, 1u}) {
      const obliq::ImpactResult r = out.get(s);
      ASSERT_EQ(r.status, Status::ok);
      EXPECT_NEAR(r.qdot_plus(2), 2.0, 1e-5);
      EXPECT_NEAR(r.qdot_plus(0), 1.0, 1e-5);
      EXPECT_NEAR(r.impulse(2), 12.0, 1e-4);
      EXPECT_EQ(r.active(0), 1);
      EXPECT_EQ(r.active(1), 0);
      EXPECT_TRUE(r.energy_consistent);
    }
    EXPECT_EQ(out.status[2], Status::not_spd);
    EXPECT_EQ(out.status[3], Status::bad_restitution);
    // Coupled contacts with e = (1, 0) are not energy consistent (docs/math.md 6).
    EXPECT_EQ(out.status[4], Status::ok);
    EXPECT_EQ(out.energy_consistent[4], 0);
  }
}

// Seed 004's example: W = [[2, 1], [1, 2]], b = (-3, -3), lambda = (1, 1), qdd = 0 on both rows.
TYPED_TEST(CudaBackend, DynamicsSeedExample) {
  OBLIQ_REQUIRE_DEVICE();
  using T = TypeParam;
  const Shape shape{3, 0, 2};
  Scenario sc = Scenario::zeros(shape);
  sc.A_u << 1, 1, 0, 0, 1, 1;
  sc.u << -1, -2, -1;
  sc.qdot << 1, -1, 1;
  Batch<T> in(shape, 2);
  in.set(0, sc);
  sc.law = Law::projection;
  in.set(1, sc);
  for (const Variant& v : kVariants) {
    SCOPED_TRACE(describe(v, Law::complementarity, shape));
    cu::Options opt;
    opt.method = v.method;
    DynamicsResults<T> out;
    cu::solve_dynamics(in, out, opt, v.layout);
    expect_dynamics_matches(in, out, tolerance<T>());
    for (std::size_t s : {0u, 1u}) {
      const obliq::DynamicsResult r = out.get(s);
      ASSERT_EQ(r.status, Status::ok);
      EXPECT_NEAR(r.lambda(0), 1.0, 1e-5);
      EXPECT_NEAR(r.lambda(1), 1.0, 1e-5);
    }
  }
}

template <class T> bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// Same input, same output bits, run twice (fused and library, both layouts).
TYPED_TEST(CudaBackend, BitwiseDeterministic) {
  OBLIQ_REQUIRE_DEVICE();
  using T = TypeParam;
  const Batch<T> in = random_batch<T>({12, 1, 4}, 1000, Law::complementarity, false, 0, 5);
  const Batch<T> dyn = random_batch<T>({12, 1, 4}, 1000, Law::projection, true, 0, 6);
  for (const Variant& v : kVariants) {
    SCOPED_TRACE(describe(v, Law::complementarity, in.shape));
    cu::Options opt;
    opt.method = v.method;
    opt.scratch_layout = v.layout;
    ImpactResults<T> a, b;
    cu::solve_impact(in, a, opt, v.layout);
    cu::solve_impact(in, b, opt, v.layout);
    EXPECT_TRUE(same_bits(a.qdot_plus, b.qdot_plus));
    EXPECT_TRUE(same_bits(a.impulse, b.impulse));
    EXPECT_TRUE(same_bits(a.lambda, b.lambda));
    EXPECT_TRUE(same_bits(a.kinetic_energy_post, b.kinetic_energy_post));
    EXPECT_TRUE(same_bits(a.energy_consistent, b.energy_consistent));
    EXPECT_TRUE(same_bits(a.status, b.status));
    DynamicsResults<T> c, d;
    cu::solve_dynamics(dyn, c, opt, v.layout);
    cu::solve_dynamics(dyn, d, opt, v.layout);
    EXPECT_TRUE(same_bits(c.qddot, d.qddot));
    EXPECT_TRUE(same_bits(c.lambda, d.lambda));
    EXPECT_TRUE(same_bits(c.status, d.status));
  }
}

// The host dispatch (Backend::cuda) gives the cpu backend's answers.
TYPED_TEST(CudaBackend, HostDispatchAgreesWithCpuBackend) {
  OBLIQ_REQUIRE_DEVICE();
  using T = TypeParam;
  const Batch<T> in = random_batch<T>({12, 0, 4}, 500, Law::complementarity, false, 0, 9);
  ImpactResults<T> gpu, cpu;
  obliq::solve_impact(in, gpu, {obliq::Backend::cuda, 0});
  obliq::solve_impact(in, cpu, {obliq::Backend::cpu, 0});
  ASSERT_EQ(gpu.count, cpu.count);
  for (std::size_t s = 0; s < in.count; ++s) {
    ASSERT_EQ(gpu.status[s], cpu.status[s]) << "scenario " << s;
    const obliq::ImpactResult g = gpu.get(s), c = cpu.get(s);
    EXPECT_TRUE(close("qdot_plus", s, g.qdot_plus, c.qdot_plus, tolerance<T>()));
    EXPECT_TRUE(close("lambda", s, g.lambda, c.lambda, tolerance<T>()));
  }
}

// Every scenario of `got` against the cpu backend's `cpu`: statuses exactly, values to tol.
template <class T> void expect_impact_agrees(const ImpactResults<T>& got, const ImpactResults<T>& cpu, double tol) {
  ASSERT_EQ(got.count, cpu.count);
  std::size_t ok = 0;
  for (std::size_t s = 0; s < cpu.count; ++s) {
    ASSERT_EQ(got.status[s], cpu.status[s]) << "scenario " << s;
    if (cpu.status[s] != Status::ok) continue;
    ++ok;
    const obliq::ImpactResult g = got.get(s), c = cpu.get(s);
    ASSERT_TRUE(close("qdot_plus", s, g.qdot_plus, c.qdot_plus, tol));
    ASSERT_TRUE(close("lambda", s, g.lambda, c.lambda, tol));
    ASSERT_EQ(g.energy_consistent, c.energy_consistent) << "scenario " << s;
  }
  EXPECT_GT(ok, cpu.count / 2) << "too few scenarios solved to compare";
}

// More than 65,535 matrices in one batched cuBLAS/cuSOLVER call (one chunk of 70,000
// scenarios; syevj gets 140,000 matrices), and more than 65,535 blocks of the fused kernels'
// grid at small block sizes.
TYPED_TEST(CudaBackend, LibraryPathOverSixtyFiveThousandMatricesPerCall) {
  OBLIQ_REQUIRE_DEVICE();
  using T = TypeParam;
  const Batch<T> in = random_batch<T>({6, 0, 3}, 70000, Law::projection, false, 0, 65536);
  ImpactResults<T> cpu;
  obliq::solve_impact(in, cpu, {obliq::Backend::cpu, 0});
  for (const Variant& v : kVariants) {
    SCOPED_TRACE(describe(v, Law::projection, in.shape));
    cu::Options opt;
    opt.method = v.method;
    opt.scratch_layout = v.layout;
    opt.block_size = 32;  // 2,188 blocks: beyond 65,535 threads per launch in few blocks, many in the grid
    ImpactResults<T> out;
    cu::solve_impact(in, out, opt, v.layout);
    expect_impact_agrees(out, cpu, tolerance<T>());
  }
}

// A scratch cap that forces many chunks (about 25 launches of each kernel sequence).
TYPED_TEST(CudaBackend, ManyChunksGiveTheSameAnswers) {
  OBLIQ_REQUIRE_DEVICE();
  using T = TypeParam;
  const Shape shape{12, 1, 4};
  const Batch<T> in = random_batch<T>(shape, 5000, Law::projection, false, 1, 4242);
  ImpactResults<T> cpu;
  obliq::solve_impact(in, cpu, {obliq::Backend::cpu, 0});
  const std::size_t per = obliq::impact_workspace_size<T>(shape.n, shape.m_b, shape.m_u) * sizeof(T);
  for (const Variant& v : kVariants) {
    SCOPED_TRACE(describe(v, Law::projection, in.shape));
    cu::Options opt;
    opt.method = v.method;
    opt.scratch_layout = v.layout;
    opt.scratch_bytes = per * 200;  // 25 chunks of the fused kernel; the library path's are smaller still
    ImpactResults<T> out;
    cu::solve_impact(in, out, opt, v.layout);
    expect_impact_agrees(out, cpu, tolerance<T>() * 10);
  }
}

// A wrapped batch that omits an input, a block size the kernels cannot launch with, and
// RunOptions the backend cannot honour are errors before any kernel runs; the context stays
// usable (the next call works).
TYPED_TEST(CudaBackend, BadCallsAreRefusedOnTheHost) {
  OBLIQ_REQUIRE_DEVICE();
  using T = TypeParam;
  const Batch<T> in = random_batch<T>({6, 0, 3}, 256, Law::complementarity, false, 0, 17);
  cu::DeviceBatch<T> owner(in.shape, in.count, cu::Layout::interleaved);
  owner.upload(in);
  for (const char* missing : {"law", "gap_tol", "vel_tol"}) {
    cu::DeviceBatch<T> view = cu::DeviceBatch<T>::wrap(in.shape, in.count, cu::Layout::interleaved);
    view.M = owner.M;
    view.qdot = owner.qdot;
    view.i_u = owner.i_u;
    view.A_u = owner.A_u;
    view.phi_u = owner.phi_u;
    view.e = owner.e;
    view.law = owner.law;
    view.gap_tol = owner.gap_tol;
    view.vel_tol = owner.vel_tol;
    if (std::string(missing) == "law") view.law = {};
    if (std::string(missing) == "gap_tol") view.gap_tol = {};
    if (std::string(missing) == "vel_tol") view.vel_tol = {};
    try {
      cu::impact(view);
      ADD_FAILURE() << "a batch without " << missing << " was run";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("input array ") + missing + " is missing"), std::string::npos)
          << e.what();
    }
  }
  cu::Options big;
  big.block_size = 2048;
  EXPECT_THROW(cu::impact(owner, big), std::runtime_error);
  big.method = cu::Method::library;
  EXPECT_THROW(cu::impact(owner, big), std::runtime_error);
  ImpactResults<T> out;
  EXPECT_THROW(obliq::solve_impact(in, out, {obliq::Backend::cuda, 4}), std::runtime_error);
  // Still usable.
  ImpactResults<T> cpu;
  obliq::solve_impact(in, out, {obliq::Backend::cuda, 0});
  obliq::solve_impact(in, cpu, {obliq::Backend::cpu, 0});
  expect_impact_agrees(out, cpu, tolerance<T>());
}

// RunOptions::lcp_solver reaches the kernels: PGS on the GPU answers as PGS on the CPU.
TYPED_TEST(CudaBackend, RunOptionsLcpSolverIsHonoured) {
  OBLIQ_REQUIRE_DEVICE();
  using T = TypeParam;
  const Batch<T> in = random_batch<T>({12, 0, 4}, 500, Law::complementarity, false, 0, 23);
  for (obliq::lcp::Solver solver : {obliq::lcp::Solver::pgs, obliq::lcp::Solver::enumerate}) {
    ImpactResults<T> gpu, cpu;
    obliq::solve_impact(in, gpu, {obliq::Backend::cuda, 0, solver});
    obliq::solve_impact(in, cpu, {obliq::Backend::cpu, 0, solver});
    expect_impact_agrees(gpu, cpu, tolerance<T>());
  }
}

// The small set bench/gpu_check.sh runs under compute-sanitizer (memcheck, initcheck,
// racecheck; --gtest_filter='*SanitizerSet*'): every method and kernel once on a few scenarios.
TEST(CudaSanitizerSet, EveryMethodOnAFewScenarios) {
  OBLIQ_REQUIRE_DEVICE();
  for (Law law : {Law::projection, Law::complementarity}) {
    const Batch<double> in = random_batch<double>({12, 1, 4}, 64, law, false, 1, 99);
    const Batch<double> dyn = random_batch<double>({6, 1, 3}, 64, law, true, 0, 98);
    ImpactResults<double> cpu;
    DynamicsResults<double> cpu_d;
    obliq::solve_impact(in, cpu, {obliq::Backend::cpu, 0});
    obliq::solve_dynamics(dyn, cpu_d, {obliq::Backend::cpu, 0});
    for (cu::Method method : {cu::Method::fused, cu::Method::library, cu::Method::warp})
      for (cu::Layout layout : {cu::Layout::interleaved, cu::Layout::contiguous}) {
        SCOPED_TRACE(std::string(cu::method_name(method)) + "/" + cu::layout_name(layout));
        cu::Options opt;
        opt.method = method;
        opt.scratch_layout = layout;
        ImpactResults<double> out;
        cu::solve_impact(in, out, opt, layout);
        expect_impact_agrees(out, cpu, tolerance<double>() * 10);
        DynamicsResults<double> d;
        cu::solve_dynamics(dyn, d, opt, layout);
        for (std::size_t s = 0; s < dyn.count; ++s) ASSERT_EQ(d.status[s], cpu_d.status[s]) << s;
      }
  }
}

// Method::warp against the reference on random scenarios of every kind, both laws (the
// complementarity law all goes to the fused kernel).
TYPED_TEST(CudaBackend, WarpMethodMatchesReference) {
  OBLIQ_REQUIRE_DEVICE();
  using T = TypeParam;
  unsigned seed = 301;
  for (int dependent : {0, 1})
    for (Law law : {Law::projection, Law::complementarity})
      for (Shape shape : {Shape{6, 0, 3}, Shape{12, 1, 4}, Shape{30, 0, 8}}) {
        const Batch<T> in = random_batch<T>(shape, 300, law, false, dependent, seed++);
        for (cu::Layout layout : {cu::Layout::contiguous, cu::Layout::interleaved}) {
          SCOPED_TRACE(describe({cu::Method::warp, layout}, law, shape) + " dependent " + std::to_string(dependent));
          cu::Options opt;
          opt.method = cu::Method::warp;
          ImpactResults<T> out;
          cu::solve_impact(in, out, opt, layout);
          expect_impact_matches(in, out, tolerance<T>() * (dependent ? 10 : 1));
        }
      }
}

// A DeviceBatch that wraps caller-owned device memory (no copy) gives the same results as the
// upload path, and its outputs land in the caller's buffers.
TYPED_TEST(CudaBackend, WrapsCallerOwnedDevicePointers) {
  OBLIQ_REQUIRE_DEVICE();
  using T = TypeParam;
  const Batch<T> in = random_batch<T>({6, 0, 3}, 400, Law::complementarity, false, 0, 21);
  for (cu::Layout layout : {cu::Layout::interleaved, cu::Layout::contiguous}) {
    SCOPED_TRACE(cu::layout_name(layout));
    // "The caller's" device data: a batch uploaded elsewhere, and output buffers of its own.
    cu::DeviceBatch<T> owner(in.shape, in.count, layout);
    owner.upload(in);
    const std::size_t n = in.shape.n, m = in.m();
    cu::DeviceMemory qplus(in.count * n * sizeof(T)), lam(in.count * m * sizeof(T));

    cu::DeviceBatch<T> view = cu::DeviceBatch<T>::wrap(in.shape, in.count, layout);
    view.M = owner.M;
    view.qdot = owner.qdot;
    view.h = owner.h;
    view.u = owner.u;
    view.i_u = owner.i_u;
    view.A_b = owner.A_b;
    view.A_u = owner.A_u;
    view.phi_u = owner.phi_u;
    view.Adot_qdot = owner.Adot_qdot;
    view.e = owner.e;
    view.law = owner.law;
    view.gap_tol = owner.gap_tol;
    view.vel_tol = owner.vel_tol;
    view.qdot_plus = cu::strided(static_cast<T*>(qplus.get()), layout, in.count, n);
    view.lambda = cu::strided(static_cast<T*>(lam.get()), layout, in.count, m);
    cu::impact(view);
    EXPECT_EQ(view.qdot_plus.data, static_cast<T*>(qplus.get()));

    ImpactResults<T> wrapped, uploaded;
    view.download(wrapped);
    cu::solve_impact(in, uploaded, cu::Options{}, layout);
    EXPECT_TRUE(same_bits(wrapped.qdot_plus, uploaded.qdot_plus));
    EXPECT_TRUE(same_bits(wrapped.lambda, uploaded.lambda));
    EXPECT_TRUE(same_bits(wrapped.status, uploaded.status));
    expect_impact_matches(in, wrapped, tolerance<T>());
  }
}

}  // namespace

namespace {

// Contact-like LCPs (W = B B^T PSD, q random) of mixed sizes and a bad shape: the GPU gives the
// CPU batch's statuses, solvers and answers (the same core function runs on both).
TEST(CudaLcp, MatchesCpuBatch) {
  OBLIQ_REQUIRE_DEVICE();
  std::mt19937_64 rng(3);
  std::normal_distribution<double> g;
  std::vector<obliq::LcpProblem> problems;
  for (int i = 0; i < 600; ++i) {
    const int m = 2 + i % 7, k = m + 1;
    obliq::LcpProblem p;
    p.m = m;
    std::vector<double> B(std::size_t(m) * k);
    for (double& x : B) x = g(rng);
    p.M.assign(std::size_t(m) * m, 0.0);
    for (int r = 0; r < m; ++r)
      for (int c = 0; c < m; ++c)
        for (int j = 0; j < k; ++j) p.M[r * m + c] += B[r * k + j] * B[c * k + j];
    for (int r = 0; r < m; ++r) p.q.push_back(g(rng));
    if (i % 5 == 0) p.solver = obliq::LcpSolver::pgs;
    problems.push_back(p);
  }
  obliq::LcpProblem bad;
  bad.m = 3;
  bad.M.assign(4, 1.0);
  bad.q.assign(3, 0.0);
  problems.push_back(bad);

  const std::vector<obliq::LcpSolution> cpu = obliq::solve_lcp_batch(problems);
  const std::vector<obliq::LcpSolution> gpu = cu::solve_lcp_batch(problems);
  ASSERT_EQ(gpu.size(), cpu.size());
  std::size_t ok = 0;
  for (std::size_t i = 0; i < cpu.size(); ++i) {
    ASSERT_EQ(int(gpu[i].status), int(cpu[i].status)) << "problem " << i;
    EXPECT_EQ(int(gpu[i].solver), int(cpu[i].solver)) << "problem " << i;
    if (cpu[i].status != Status::ok) continue;
    ++ok;
    const Eigen::Map<const Eigen::VectorXd> zg(gpu[i].z.data(), long(gpu[i].z.size())), zc(cpu[i].z.data(), long(cpu[i].z.size()));
    const Eigen::Map<const Eigen::VectorXd> wg(gpu[i].w.data(), long(gpu[i].w.size())), wc(cpu[i].w.data(), long(cpu[i].w.size()));
    EXPECT_TRUE(close("z", i, zg, zc, 1e-8));
    EXPECT_TRUE(close("w", i, wg, wc, 1e-8));
  }
  EXPECT_EQ(gpu.back().status, Status::bad_shape);
  EXPECT_GT(ok, cpu.size() / 2);
}

}  // namespace

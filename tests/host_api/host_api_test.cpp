// tests/host_api: the host API's contract (include/obliq/batch.hpp, obliq/host_views.hpp):
// misuse is refused before any output is touched, per-scenario accessors and repeated solves
// allocate nothing, host views with broadcast (stride 0) inputs and a mask give the same
// answers as an owning Batch, and a CPU solve never loads the CUDA backend.
//
// This program replaces the global operator new to count allocations (tests/host_api is its
// own test program so that nothing else runs with the counting allocator).
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "obliq/batch.hpp"
#include "obliq/host_views.hpp"
#include "obliq/version.hpp"

// ThreadSanitizer's runtime defines operator new itself (scripts/ci/sanitize.sh builds this
// program with it): there the counting allocator is left out and the two tests that count skip.
#if defined(__SANITIZE_THREAD__)
#define OBLIQ_COUNT_ALLOCATIONS 0
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define OBLIQ_COUNT_ALLOCATIONS 0
#endif
#endif
#ifndef OBLIQ_COUNT_ALLOCATIONS
#define OBLIQ_COUNT_ALLOCATIONS 1
#endif

namespace {
std::atomic<long> g_allocations{0};
}  // namespace

#if OBLIQ_COUNT_ALLOCATIONS
void* operator new(std::size_t n) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#endif

namespace {

using obliq::Backend;
using obliq::Batch;
using obliq::DynamicsResults;
using obliq::HostBatchView;
using obliq::ImpactResults;
using obliq::Law;
using obliq::RunOptions;
using obliq::Shape;
using obliq::Status;

// Three balls in a row (Newton's cradle, n = 3, two contacts), mass 1..3, ball 1 moving at 1.
// Contact rows: gap between balls i and i+1, A_u row = e_{i+1} - e_i (positive when separating).
Batch<double> cradle(std::size_t count) {
  Batch<double> b({3, 0, 2}, count);
  for (std::size_t s = 0; s < count; ++s) {
    b.M_of(s).diagonal() << 1, 2, 3;
    b.qdot_of(s) << 1, 0, 0;
    b.A_u_of(s) << -1, 1, 0, 0, -1, 1;
    b.e_of(s) << double(s % 11) / 10, 0.5;
    b.law[s] = std::uint8_t(s % 2 ? Law::projection : Law::complementarity);
  }
  return b;
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

TEST(HostApi, VersionHeader) {
  EXPECT_EQ(std::string(obliq::version_string), std::to_string(OBLIQ_VERSION_MAJOR) + "." + std::to_string(OBLIQ_VERSION_MINOR) +
                                                    "." + std::to_string(OBLIQ_VERSION_PATCH));
}

TEST(HostApi, ShapeChangedAfterConstructionIsRefusedAndResultsKept) {
  Batch<double> b = cradle(4);
  ImpactResults<double> out;
  obliq::solve_impact(b, out);
  const std::vector<double> before = out.qdot_plus;
  const std::vector<Status> status_before = out.status;
  b.shape.n = 5;  // the buffers still hold n = 3 scenarios
  EXPECT_THROW(obliq::solve_impact(b, out), std::invalid_argument);
  EXPECT_NE(message_of([&] { obliq::solve_impact(b, out); }).find("buffer M has 36 entries"), std::string::npos)
      << message_of([&] { obliq::solve_impact(b, out); });
  b.shape.n = 3;
  b.count = 5;
  EXPECT_THROW(obliq::solve_impact(b, out), std::invalid_argument);
  b.count = 4;
  b.e.pop_back();
  EXPECT_NE(message_of([&] { obliq::solve_impact(b, out); }).find("buffer e"), std::string::npos);
  EXPECT_EQ(out.qdot_plus, before);
  EXPECT_EQ(out.status, status_before);
  DynamicsResults<double> dyn;
  EXPECT_THROW(obliq::solve_dynamics(b, dyn), std::invalid_argument);
  EXPECT_EQ(dyn.count, 0u);  // not even sized
}

TEST(HostApi, BadShapesAndScenariosAreRefused) {
  EXPECT_THROW(Batch<double>({-1, 0, 0}, 2), std::invalid_argument);
  EXPECT_THROW(Batch<double>({0, 0, 1}, 2), std::invalid_argument);
  Batch<double> b({3, 0, 1}, 2);
  obliq::Scenario wrong = obliq::Scenario::zeros({2, 0, 1});
  EXPECT_THROW(b.set(0, wrong), std::invalid_argument);
  obliq::Scenario right = obliq::Scenario::zeros({3, 0, 1});
  EXPECT_THROW(b.set(2, right), std::invalid_argument);  // past the end
  EXPECT_NO_THROW(b.set(1, right));
}

TEST(HostApi, CudaUnavailableLeavesResultsIntact) {
  Batch<double> b = cradle(3);
  ImpactResults<double> out;
  obliq::solve_impact(b, out);
  const ImpactResults<double> before = out;
  RunOptions cuda{Backend::cuda};
  std::string why;
  try {
    obliq::solve_impact(b, out, cuda);
    GTEST_SKIP() << "a CUDA device is present: the no-device path cannot be tested here";
  } catch (const std::runtime_error& e) {
    why = e.what();
  }
  EXPECT_EQ(why.rfind("backend cuda: ", 0), 0u) << why;
  EXPECT_EQ(why.find("nvcc"), std::string::npos) << why;
  EXPECT_EQ(out.qdot_plus, before.qdot_plus);
  EXPECT_EQ(out.lambda, before.lambda);
  EXPECT_EQ(out.status, before.status);
  DynamicsResults<double> dyn;
  EXPECT_THROW(obliq::solve_dynamics(b, dyn, cuda), std::runtime_error);
  EXPECT_EQ(dyn.count, 0u);
}

TEST(HostApi, SerialThresholdFollowsTheWork) {
  EXPECT_GT(obliq::serial_batch_size({3, 0, 1}), obliq::serial_batch_size({12, 0, 4}));
  EXPECT_GT(obliq::serial_batch_size({12, 0, 4}), obliq::serial_batch_size({30, 0, 12}));
  EXPECT_GE(obliq::serial_batch_size({200, 0, 100}), 1u);
}

TEST(HostApi, ThreadCountValidated) {
  Batch<double> b = cradle(8);
  ImpactResults<double> out;
  RunOptions opt;
  opt.threads = -3;
  EXPECT_NE(message_of([&] { obliq::solve_impact(b, out, opt); }).find("threads = -3"), std::string::npos);
  EXPECT_EQ(out.count, 0u);
  for (int t : {0, 1, 2, 7, 64}) {
    opt.threads = t;
    EXPECT_NO_THROW(obliq::solve_impact(b, out, opt)) << t;
  }
}

TEST(HostApi, BitwiseIdenticalAcrossThreadCounts) {
  const Batch<double> b = cradle(600);
  ImpactResults<double> one, two, automatic;
  obliq::solve_impact(b, one, {Backend::cpu, 1});
  obliq::solve_impact(b, two, {Backend::cpu, 2});
  obliq::solve_impact(b, automatic, {Backend::cpu, 0});
  EXPECT_EQ(one.qdot_plus, two.qdot_plus);
  EXPECT_EQ(one.lambda, two.lambda);
  EXPECT_EQ(one.qdot_plus, automatic.qdot_plus);
  for (Status s : one.status) EXPECT_EQ(s, Status::ok);
}

TEST(HostApi, AccessorsAllocateNothingAndAgreeWithGet) {
  if (!OBLIQ_COUNT_ALLOCATIONS) GTEST_SKIP() << "operator new is ThreadSanitizer's here: allocations are not counted";
  const Batch<double> b = cradle(10);
  ImpactResults<double> out;
  obliq::solve_impact(b, out);
  const ImpactResults<double>& cout = out;
  double sum = 0;
  const long before = g_allocations.load();
  for (std::size_t s = 0; s < b.count; ++s) {
    sum += b.M_of(s)(1, 1) + b.qdot_of(s)[0] + b.A_u_of(s)(1, 2) + b.e_of(s)[0];
    sum += cout.qdot_plus_of(s)[1] + cout.impulse_of(s)[0] + cout.lambda_of(s)[1] + cout.active_of(s)[0];
    sum += out.qdot_plus_of(s).sum();
  }
  EXPECT_EQ(g_allocations.load() - before, 0);
  EXPECT_TRUE(std::isfinite(sum));
  for (std::size_t s = 0; s < b.count; ++s) {
    const obliq::ImpactResult r = out.get(s);
    EXPECT_EQ(r.qdot_plus, cout.qdot_plus_of(s));
    EXPECT_EQ(r.lambda, cout.lambda_of(s));
    EXPECT_EQ(r.active, cout.active_of(s).cast<int>());
  }
  out.qdot_plus_of(2)[0] = 42;  // non-const views write through
  EXPECT_EQ(out.qdot_plus[2 * 3], 42);
}

TEST(HostApi, ThousandSolvesAllocateNothingAfterTheFirst) {
  if (!OBLIQ_COUNT_ALLOCATIONS) GTEST_SKIP() << "operator new is ThreadSanitizer's here: allocations are not counted";
  for (int threads : {1, 2}) {
    const std::size_t count = 64;  // threads = 2 is explicit: a team of two runs
    const Batch<double> b = cradle(count);
    Batch<double> resting = cradle(count);  // dynamics: contacts closed and at rest
    for (std::size_t s = 0; s < count; ++s) resting.qdot_of(s).setZero();
    ImpactResults<double> out;
    DynamicsResults<double> dyn;
    const RunOptions opt{Backend::cpu, threads};
    obliq::solve_impact(b, out, opt);
    obliq::solve_dynamics(resting, dyn, opt);
    const long before = g_allocations.load();
    for (int k = 0; k < 1000; ++k) {
      obliq::solve_impact(b, out, opt);
      obliq::solve_dynamics(resting, dyn, opt);
    }
    EXPECT_EQ(g_allocations.load() - before, 0) << threads << " threads";
    for (std::size_t s = 0; s < count; ++s) {
      EXPECT_EQ(out.status[s], Status::ok) << s;
      EXPECT_EQ(dyn.status[s], Status::ok) << s;
    }
  }
}

// Host views: one shared M and A (scenario_stride 0), one e per scenario, outputs in the
// caller's arrays with a padded stride; the answers equal the owning batch's bit for bit.
TEST(HostApi, HostViewsBroadcastSharedInputs) {
  const std::size_t count = 300;
  const Batch<double> b = cradle(count);
  std::vector<double> M = {1, 0, 0, 0, 2, 0, 0, 0, 3}, A = {-1, 1, 0, 0, -1, 1};
  std::vector<double> e(count * 2);
  for (std::size_t s = 0; s < count; ++s) {
    e[2 * s] = b.e_of(s)[0];
    e[2 * s + 1] = b.e_of(s)[1];
  }
  std::vector<double> qdot = {1, 0, 0};
  const std::ptrdiff_t pad = 5;  // output rows of 5 entries, 3 used
  std::vector<double> vplus(count * pad, -7), impulse(count * 3), lambda(count * 2), ke0(count), ke1(count);
  std::vector<std::uint8_t> active(count * 2), consistent(count);
  std::vector<Status> status(count, Status::not_solved);

  HostBatchView<double> v;
  v.shape = {3, 0, 2};
  v.count = count;
  v.M = {M.data(), 0, 1};
  v.qdot = {qdot.data(), 0, 1};
  v.A_u = {A.data(), 0, 1};
  v.e = {e.data(), 2, 1};
  v.law = {b.law.data(), 1, 1};
  v.qdot_plus = {vplus.data(), pad, 1};
  v.impulse = {impulse.data(), 3, 1};
  v.lambda = {lambda.data(), 2, 1};
  v.active = {active.data(), 2, 1};
  v.kinetic_energy_pre = {ke0.data(), 1, 1};
  v.kinetic_energy_post = {ke1.data(), 1, 1};
  v.energy_consistent = {consistent.data(), 1, 1};
  v.status = {status.data(), 1, 1};
  obliq::solve_impact(v, {Backend::cpu, 2});

  ImpactResults<double> ref;
  obliq::solve_impact(b, ref);
  for (std::size_t s = 0; s < count; ++s) {
    ASSERT_EQ(status[s], ref.status[s]) << s;
    for (int i = 0; i < 3; ++i) EXPECT_EQ(vplus[s * pad + i], ref.qdot_plus_of(s)[i]) << s;
    EXPECT_EQ(vplus[s * pad + 3], -7);  // padding untouched
    for (int i = 0; i < 2; ++i) EXPECT_EQ(lambda[s * 2 + i], ref.lambda_of(s)[i]) << s;
    EXPECT_EQ(ke1[s], ref.kinetic_energy_post[s]);
  }
  // One global e: both strides 0.
  const double e_global = 0.3;
  v.e = {&e_global, 0, 0};
  obliq::solve_impact(v);
  Batch<double> g = cradle(count);
  for (std::size_t s = 0; s < count; ++s) g.e_of(s).setConstant(e_global);
  obliq::solve_impact(g, ref);
  for (std::size_t s = 0; s < count; ++s) EXPECT_EQ(vplus[s * pad + 2], ref.qdot_plus_of(s)[2]) << s;
  // The reference backend runs on views too.
  obliq::solve_impact(v, {Backend::reference});
  for (std::size_t s = 0; s < count; ++s) EXPECT_NEAR(vplus[s * pad + 2], ref.qdot_plus_of(s)[2], 1e-12) << s;
}

TEST(HostApi, MaskSolvesASubsetAndLeavesTheRest) {
  const Batch<double> b = cradle(40);
  std::vector<std::uint8_t> mask(40, 0);
  for (std::size_t s = 0; s < 40; s += 3) mask[s] = 1;
  RunOptions opt;
  opt.mask = mask;
  ImpactResults<double> fresh;
  obliq::solve_impact(b, fresh, opt);
  for (std::size_t s = 0; s < 40; ++s)
    EXPECT_EQ(fresh.status[s], mask[s] ? Status::ok : Status::not_solved) << s;  // never zeros marked ok

  ImpactResults<double> all;
  obliq::solve_impact(b, all);
  ImpactResults<double> kept = all;
  for (double& x : kept.qdot_plus) x = 99;  // what a caller held before the masked solve
  obliq::solve_impact(b, kept, opt);
  for (std::size_t s = 0; s < 40; ++s)
    for (int i = 0; i < 3; ++i) EXPECT_EQ(kept.qdot_plus_of(s)[i], mask[s] ? all.qdot_plus_of(s)[i] : 99.0) << s;

  std::vector<std::uint8_t> short_mask(39, 1);
  opt.mask = short_mask;
  EXPECT_NE(message_of([&] { obliq::solve_impact(b, kept, opt); }).find("mask has 39 entries for a batch of 40"), std::string::npos);
}

TEST(HostApi, HostViewMisuseIsRefusedBeforeWriting) {
  std::vector<double> M = {2, 0, 0, 2}, qdot = {1, -1}, A = {0, 1};
  std::vector<double> out(2 * 2, -1), imp(2 * 2, -1), lam(2, -1), ke0(2, -1), ke1(2, -1);
  std::vector<std::uint8_t> act(2, 9), cons(2, 9);
  std::vector<Status> status(2, Status::not_solved);
  HostBatchView<double> v;
  v.shape = {2, 0, 1};
  v.count = 2;
  v.M = {M.data(), 0, 1};
  v.qdot = {qdot.data(), 0, 1};
  v.qdot_plus = {out.data(), 2, 1};
  v.impulse = {imp.data(), 2, 1};
  v.lambda = {lam.data(), 1, 1};
  v.active = {act.data(), 1, 1};
  v.kinetic_energy_pre = {ke0.data(), 1, 1};
  v.kinetic_energy_post = {ke1.data(), 1, 1};
  v.energy_consistent = {cons.data(), 1, 1};
  v.status = {status.data(), 1, 1};
  EXPECT_NE(message_of([&] { obliq::solve_impact(v); }).find("A_u (m_u > 0) is required but null"), std::string::npos);
  v.A_u = {A.data(), 0, 1};
  v.lambda = {lam.data(), 0, 1};
  EXPECT_NE(message_of([&] { obliq::solve_impact(v); }).find("output lambda has scenario_stride 0"), std::string::npos);
  v.lambda = {lam.data(), 1, 1};
  EXPECT_THROW(obliq::solve_impact(v, {Backend::cuda}), std::invalid_argument);
  EXPECT_THROW(obliq::solve_dynamics(v), std::invalid_argument);  // qddot missing
  EXPECT_EQ(out, std::vector<double>(4, -1));
  EXPECT_EQ(status, std::vector<Status>(2, Status::not_solved));
  obliq::solve_impact(v);
  EXPECT_EQ(status, std::vector<Status>(2, Status::ok));
  // A ball of mass 2 hitting the floor at -1 with e = 0 (null e reads as 0): it stops, x keeps 1.
  EXPECT_EQ(out, (std::vector<double>{1, 0, 1, 0}));
  for (int k = 0; k < 4; ++k) EXPECT_NEAR(imp[k], k % 2 ? 2.0 : 0.0, 1e-15) << k;
}

// A CPU solve maps no CUDA library into the process (the backend library is opened only on
// Backend::cuda).
TEST(HostApi, CpuSolveLoadsNoCudaLibrary) {
  Batch<double> b = cradle(4);
  ImpactResults<double> out;
  obliq::solve_impact(b, out);
  std::ifstream maps("/proc/self/maps");
  if (!maps) GTEST_SKIP() << "no /proc/self/maps";
  std::string line;
  while (std::getline(maps, line)) {
    EXPECT_EQ(line.find("libcudart"), std::string::npos) << line;
    EXPECT_EQ(line.find("obliq_cuda"), std::string::npos) << line;
  }
}

}  // namespace

// Batch::reset refills in place: Refill::all gives what a new Batch(s, count) holds; inputs_only
// refills the inputs and leaves the state quantities; clear_state(s) resets one scenario's.
TEST(HostApi, BatchResetAndClearState) {
  const Shape s{3, 1, 2};
  Batch<double> fresh(s, 4), b(Shape{5, 0, 1}, 7);
  for (auto* v : {&b.M, &b.qdot, &b.h, &b.u, &b.i_u, &b.A_u, &b.e}) v->assign(v->size(), 9.0);
  b.parent = {-1, 0, 1, 2, 3};
  b.reset(s, 4);
  EXPECT_EQ(b.M, fresh.M);
  EXPECT_EQ(b.qdot, fresh.qdot);
  EXPECT_EQ(b.h, fresh.h);
  EXPECT_EQ(b.u, fresh.u);
  EXPECT_EQ(b.i_u, fresh.i_u);
  EXPECT_EQ(b.A_b, fresh.A_b);
  EXPECT_EQ(b.A_u, fresh.A_u);
  EXPECT_EQ(b.phi_u, fresh.phi_u);
  EXPECT_EQ(b.Adot_qdot, fresh.Adot_qdot);
  EXPECT_EQ(b.e, fresh.e);
  EXPECT_EQ(b.law, fresh.law);
  EXPECT_EQ(b.gap_tol, fresh.gap_tol);
  EXPECT_EQ(b.vel_tol, fresh.vel_tol);
  EXPECT_TRUE(b.parent.empty());
  b.check();

  for (auto* v : {&b.M, &b.h, &b.A_u, &b.u, &b.e}) v->assign(v->size(), 9.0);
  b.reset(s, 4, Batch<double>::Refill::inputs_only);
  b.check();
  EXPECT_EQ(b.M, std::vector<double>(4 * 9, 9.0));  // state quantities left as they were
  EXPECT_EQ(b.h, std::vector<double>(4 * 3, 9.0));
  EXPECT_EQ(b.u, fresh.u);                          // inputs refilled
  EXPECT_EQ(b.e, fresh.e);
  b.clear_state(2);
  EXPECT_EQ(b.M_of(2), fresh.M_of(2));
  EXPECT_TRUE(b.h_of(2).isZero(0));
  EXPECT_TRUE(b.A_u_of(2).isZero(0));
  EXPECT_EQ(b.M_of(1)(0, 0), 9.0);  // the others untouched
  EXPECT_EQ(b.M_of(3)(2, 2), 9.0);
}

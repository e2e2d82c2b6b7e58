// src/cpu/solve.cpp: the batch entry points. Every argument is checked before any output is
// touched; then the cpu backend maps the per-scenario core over scenarios (OpenMP, one scratch
// arena per thread, kept between calls; serial below serial_batch_size(shape); no exception
// crosses a parallel region), the reference backend maps the Eigen reference, and the cuda
// backend is handed to the CUDA library, which is loaded only when asked for
// (cpu/cuda_backend.hpp).
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cpu/cuda_backend.hpp"
#include "cpu/omp_guard.hpp"
#include "cpu/scenario_views.hpp"
#include "obliq/batch.hpp"
#include "obliq/core/mechanics/dynamics.hpp"
#include "obliq/core/mechanics/impact.hpp"
#include "obliq/host_views.hpp"
#include "obliq/reference.hpp"

namespace obliq {

// Below this much work (the proxy of serial_batch_size) a batch runs on the calling thread when
// threads = 0. Measured with `obliq bench` (docs/host-api.md, "Threads and determinism"): on the
// shared 2-core development machine two threads broke even at about 1e7 (n = 30, m = 12, 256
// scenarios) and lost below it; on a quiet machine the team start-up is far cheaper, so the
// threshold sits lower, at about 1-3 ms of single-thread work.
constexpr double kParallelWork = 2e6;

std::size_t serial_batch_size(Shape s) {
  const double n = s.n, m = s.m_b + s.m_u;
  const double work = std::max(1.0, n * n * n + m * m * m + m * n * n);  // factorizations' flops, up to constants
  return std::size_t(std::ceil(kParallelWork / work));
}

namespace {

enum class Kind { impact, dynamics };

void check_options(const RunOptions& opt, std::size_t count) {
  if (opt.threads < 0)
    throw std::invalid_argument("obliq: RunOptions::threads = " + std::to_string(opt.threads) +
                                ": expected 0 (automatic) or a positive number of threads");
  if (!opt.mask.empty() && opt.mask.size() != count)
    throw std::invalid_argument("obliq: RunOptions::mask has " + std::to_string(opt.mask.size()) +
                                " entries for a batch of " + std::to_string(count) + " scenarios (expected one per scenario, or none)");
}

template <class A> void require(const A& a, const char* name, bool needed) {
  if (needed && !a.data)
    throw std::invalid_argument(std::string("obliq::HostBatchView: ") + name + " is required but null");
}
template <class A> void require_output(const A& a, const char* name, std::size_t count) {
  require(a, name, true);
  if (a.scenario_stride == 0 && count > 1)
    throw std::invalid_argument(std::string("obliq::HostBatchView: output ") + name +
                                " has scenario_stride 0 (every scenario would write the same place)");
}

template <class T> void check_view(const HostBatchView<T>& v, Kind kind) {
  const Shape s = v.shape;
  if (s.n < 0 || s.m_b < 0 || s.m_u < 0 || (s.n == 0 && v.count > 0))
    throw std::invalid_argument("obliq::HostBatchView: bad shape (n = " + std::to_string(s.n) + ", m_b = " +
                                std::to_string(s.m_b) + ", m_u = " + std::to_string(s.m_u) + ")");
  if (v.count == 0) return;
  require(v.M, "M", true);
  require(v.qdot, "qdot", true);
  require(v.A_b, "A_b (m_b > 0)", s.m_b > 0);
  require(v.A_u, "A_u (m_u > 0)", s.m_u > 0);
  check_tree(v.parent, std::size_t(s.n), s.n, "obliq::HostBatchView: parent");
  if (kind == Kind::impact) {
    require_output(v.qdot_plus, "qdot_plus", v.count);
    require_output(v.impulse, "impulse", v.count);
    require_output(v.kinetic_energy_pre, "kinetic_energy_pre", v.count);
    require_output(v.kinetic_energy_post, "kinetic_energy_post", v.count);
    require_output(v.energy_consistent, "energy_consistent", v.count);
  } else {
    require_output(v.qddot, "qddot", v.count);
  }
  require_output(v.lambda, "lambda", v.count);
  require_output(v.active, "active", v.count);
  require_output(v.status, "status", v.count);
}

// Threads for a batch: 0 = automatic (serial below serial_batch_size, else OpenMP's default),
// a positive count as given; both clamped to io::kMaxThreads (cpu::thread_count) and to count.
int team_size(const RunOptions& opt, Shape shape, std::size_t count) {
  if (count < 2) return 1;
  if (opt.threads == 0 && count < serial_batch_size(shape)) return 1;
  return int(std::min<std::size_t>(std::size_t(cpu::thread_count(opt.threads)), count));
}

// The calling thread's scratch buffers, one per team member. Grown here, in the calling thread,
// so that a size that cannot be had throws std::bad_alloc before any output is written, and kept
// between calls: solving again allocates nothing. Not touched here (first touch per member).
unsigned char* const* team_scratch(int threads, std::size_t bytes) {
  thread_local std::vector<std::unique_ptr<unsigned char[]>> buffers;
  thread_local std::vector<unsigned char*> pointers;
  thread_local std::size_t size = 0;
  if (bytes > size) {
    buffers.clear();
    pointers.clear();
    size = bytes;
  }
  while (buffers.size() < std::size_t(threads)) {
    buffers.emplace_back(new unsigned char[size]);
    pointers.push_back(buffers.back().get());
  }
  return pointers.data();
}

// Scenario after scenario (skipping masked-out ones) through `core(s, scratch)` or `reference(s)`.
// No exception crosses the OpenMP region: the first one is rethrown after it, in the calling
// thread (cpu/omp_guard.hpp).
template <class CoreFn, class RefFn>
void map_scenarios(Shape shape, std::size_t count, const RunOptions& opt, std::size_t scratch_bytes, CoreFn core,
                   RefFn reference) {
  const long long n = static_cast<long long>(count);
  const bool masked = !opt.mask.empty();
  const int threads = team_size(opt, shape, count);
  cpu::OmpGuard guard;
  if (opt.backend == Backend::reference) {
#pragma omp parallel for schedule(dynamic, 16) num_threads(threads) if (threads > 1)
    for (long long s = 0; s < n; ++s)
      if (!masked || opt.mask[s]) guard.run([&] { reference(s); });
    guard.rethrow();
    return;
  }
  unsigned char* const* scratch = team_scratch(threads, scratch_bytes);
#pragma omp parallel num_threads(threads) if (threads > 1)
  {
    void* base = scratch[omp_get_thread_num()];
#pragma omp for schedule(static)
    for (long long s = 0; s < n; ++s)
      if (!masked || opt.mask[s]) guard.run([&] { core(s, base); });
  }
  guard.rethrow();
}

template <class T> void run_impact(const HostBatchView<T>& v, const RunOptions& opt) {
  const Shape sh = v.shape;
  const std::size_t ws = impact_workspace_size<T>(sh.n, sh.m_b, sh.m_u);
  map_scenarios(
      sh, v.count, opt, ws * sizeof(T) + 64,
      [&](std::size_t s, void* scratch) {
        Arena<T> arena{static_cast<T*>(scratch), ws};
        *cpu::scalar_at(v.status, s) = impact<T>(cpu::scenario_view(v, s, opt.lcp_solver), cpu::impact_view(v, s), arena);
      },
      [&](std::size_t s) {
        // The reference's answers are certified too (core/mechanics/certificate.hpp).
        const ScenarioView<T> sv = cpu::scenario_view(v, s);
        const ImpactView<T> out = cpu::impact_view(v, s);
        Status st = cpu::store(reference::impact(cpu::to_scenario(sv)), out);
        if (st == Status::ok && !certified(impact_certificate(sv, out))) {
          st = Status::not_certified;
          clear_impact(out);
        }
        *cpu::scalar_at(v.status, s) = st;
      });
}

template <class T> void run_dynamics(const HostBatchView<T>& v, const RunOptions& opt) {
  const Shape sh = v.shape;
  const std::size_t ws = dynamics_workspace_size<T>(sh.n, sh.m_b, sh.m_u);
  map_scenarios(
      sh, v.count, opt, ws * sizeof(T) + 64,
      [&](std::size_t s, void* scratch) {
        Arena<T> arena{static_cast<T*>(scratch), ws};
        *cpu::scalar_at(v.status, s) = dynamics<T>(cpu::scenario_view(v, s, opt.lcp_solver), cpu::dynamics_view(v, s), arena);
      },
      [&](std::size_t s) {
        const ScenarioView<T> sv = cpu::scenario_view(v, s);
        const DynamicsView<T> out = cpu::dynamics_view(v, s);
        Status st = cpu::store(reference::dynamics(cpu::to_scenario(sv)), out);
        if (st == Status::ok && !certified(dynamics_certificate(sv, out))) {
          st = Status::not_certified;
          clear_dynamics(out);
        }
        *cpu::scalar_at(v.status, s) = st;
      });
}

void refuse_cuda_views() {
  throw std::invalid_argument(
      "obliq::solve_impact/solve_dynamics on a HostBatchView: Backend::cuda is not available for host views "
      "(use obliq::cuda::DeviceBatch for device data, or an obliq::Batch)");
}

}  // namespace

template <class T> void solve_impact(const HostBatchView<T>& v, const RunOptions& opt) {
  check_options(opt, v.count);
  if (opt.backend == Backend::cuda) refuse_cuda_views();
  check_view(v, Kind::impact);
  run_impact(v, opt);
}

template <class T> void solve_dynamics(const HostBatchView<T>& v, const RunOptions& opt) {
  check_options(opt, v.count);
  if (opt.backend == Backend::cuda) refuse_cuda_views();
  check_view(v, Kind::dynamics);
  run_dynamics(v, opt);
}

namespace {

// An owning batch: checked, the cuda backend loaded (or refused) before `out` is touched, then
// the results sized (kept when unchanged) and solved through their views.
template <class T, class Results, class CudaFn, class RunFn>
void solve_batch(const Batch<T>& in, Results& out, const RunOptions& opt, CudaFn cuda_fn, RunFn run) {
  in.check();
  check_options(opt, in.count);
  if (opt.backend == Backend::cuda) {
    const cpu::CudaBackend& cuda = cpu::cuda_backend();  // throws, out untouched, when unavailable
    if (!opt.mask.empty()) throw std::invalid_argument("obliq: RunOptions::mask is not supported by Backend::cuda");
    return cuda_fn(cuda);
  }
  out.resize(in.shape, in.count);
  HostBatchView<T> v = host_view(in);
  set_outputs(v, out);
  run(v, opt);
}

}  // namespace

template <class T> void solve_impact(const Batch<T>& in, ImpactResults<T>& out, const RunOptions& opt) {
  solve_batch(in, out, opt, [&](const cpu::CudaBackend& c) { c.impact(in, out, opt); }, run_impact<T>);
}

template <class T> void solve_dynamics(const Batch<T>& in, DynamicsResults<T>& out, const RunOptions& opt) {
  solve_batch(in, out, opt, [&](const cpu::CudaBackend& c) { c.dynamics(in, out, opt); }, run_dynamics<T>);
}

#define OBLIQ_INSTANTIATE(T)                                                                        \
  template void solve_impact<T>(const HostBatchView<T>&, const RunOptions&);                       \
  template void solve_dynamics<T>(const HostBatchView<T>&, const RunOptions&);                     \
  template void solve_impact<T>(const Batch<T>&, ImpactResults<T>&, const RunOptions&);            \
  template void solve_dynamics<T>(const Batch<T>&, DynamicsResults<T>&, const RunOptions&);
OBLIQ_INSTANTIATE(double)
OBLIQ_INSTANTIATE(float)
#undef OBLIQ_INSTANTIATE

}  // namespace obliq

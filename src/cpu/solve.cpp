// src/cpu/solve.cpp: the batch entry points. The cpu backend maps the per-scenario core over
// scenarios with OpenMP (one scratch arena per thread); the reference backend maps the Eigen
// reference; the cuda backend is forwarded to cuda/ when this build has it.
#include <omp.h>

#include <memory>
#include <stdexcept>
#include <vector>

#include "cpu/omp_guard.hpp"
#include "cpu/scenario_views.hpp"
#include "obliq/batch.hpp"
#include "obliq/core/mechanics/dynamics.hpp"
#include "obliq/core/mechanics/impact.hpp"
#include "obliq/reference.hpp"
#if defined(OBLIQ_HAVE_CUDA)
#include "obliq/cuda.hpp"
#endif

namespace obliq {
namespace {

[[noreturn]] void no_cuda() {
  throw std::runtime_error("this build of obliq has no CUDA backend (nvcc was not found at configure time)");
}

}  // namespace

// One scenario after another through the per-scenario core (`core(s, arena)`, one scratch
// arena per thread) or the reference (`reference(s)`), over OpenMP threads. The scratch is
// allocated before the region, so that a size that cannot be had throws std::bad_alloc here, in
// the calling thread; an exception inside the region is rethrown after it (cpu/omp_guard.hpp).
template <class CoreFn, class RefFn>
void map_scenarios(std::size_t count, const RunOptions& opt, std::size_t workspace, CoreFn core, RefFn reference) {
  const long long n = static_cast<long long>(count);
  const int threads = cpu::thread_count(opt.threads);
  cpu::OmpGuard guard;
  if (opt.backend == Backend::reference) {
#pragma omp parallel for schedule(dynamic, 16) num_threads(threads)
    for (long long s = 0; s < n; ++s) guard.run([&] { reference(s); });
    guard.rethrow();
    return;
  }
  const std::size_t bytes = workspace * sizeof(double) + 64;
  std::vector<std::unique_ptr<unsigned char[]>> scratch(static_cast<std::size_t>(threads));
  for (auto& b : scratch) b.reset(new unsigned char[bytes]);  // not touched here: first touch per thread
#pragma omp parallel num_threads(threads)
  {
    void* base = scratch[std::size_t(omp_get_thread_num())].get();
#pragma omp for schedule(static)
    for (long long s = 0; s < n; ++s) guard.run([&] { core(s, base); });
  }
  guard.rethrow();
}

template <class T> void solve_impact(const Batch<T>& in, ImpactResults<T>& out, const RunOptions& opt) {
  out.resize(in.shape, in.count);
  if (opt.backend == Backend::cuda) {
#if defined(OBLIQ_HAVE_CUDA)
    return cuda::solve_impact(in, out, opt);
#else
    no_cuda();
#endif
  }
  const Shape sh = in.shape;
  const std::size_t ws = impact_workspace_size<T>(sh.n, sh.m_b, sh.m_u);
  map_scenarios(
      in.count, opt, ws,
      [&](std::size_t s, void* scratch) {
        Arena<T> arena{static_cast<T*>(scratch), ws};
        out.status[s] = impact<T>(cpu::scenario_view(in, s, opt.lcp_solver), cpu::impact_view(out, s), arena);
      },
      [&](std::size_t s) { out.set(s, reference::impact(in.get(s))); });
}

template <class T> void solve_dynamics(const Batch<T>& in, DynamicsResults<T>& out, const RunOptions& opt) {
  out.resize(in.shape, in.count);
  if (opt.backend == Backend::cuda) {
#if defined(OBLIQ_HAVE_CUDA)
    return cuda::solve_dynamics(in, out, opt);
#else
    no_cuda();
#endif
  }
  const Shape sh = in.shape;
  const std::size_t ws = dynamics_workspace_size<T>(sh.n, sh.m_b, sh.m_u);
  map_scenarios(
      in.count, opt, ws,
      [&](std::size_t s, void* scratch) {
        Arena<T> arena{static_cast<T*>(scratch), ws};
        out.status[s] = dynamics<T>(cpu::scenario_view(in, s, opt.lcp_solver), cpu::dynamics_view(out, s), arena);
      },
      [&](std::size_t s) { out.set(s, reference::dynamics(in.get(s))); });
}

template void solve_impact<double>(const Batch<double>&, ImpactResults<double>&, const RunOptions&);
template void solve_impact<float>(const Batch<float>&, ImpactResults<float>&, const RunOptions&);
template void solve_dynamics<double>(const Batch<double>&, DynamicsResults<double>&, const RunOptions&);
template void solve_dynamics<float>(const Batch<float>&, DynamicsResults<float>&, const RunOptions&);

}  // namespace obliq

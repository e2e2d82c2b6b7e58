// python/src/friction.cpp: frictional scenarios of a HostBatchView through the host API of
// friction (obliq/friction.hpp). Scenario s is copied into a Scenario and a Friction (the host
// API's input: Eigen objects in double, which the solve casts back to T exactly) by the cpu
// backend's own conversions (src/cpu/scenario_views.hpp), solved, and its results written through
// the views: the same calls, in the same precision, as `obliq impact` / `obliq dynamics` make for
// a line with friction.
#include "friction.hpp"

#include <omp.h>

#include <string>
#include <type_traits>
#include <vector>

#include "cpu/omp_guard.hpp"
#include "cpu/scenario_views.hpp"

namespace obliq::python {
namespace {

template <class T> Friction friction_at(const FrictionViews<T>& f, std::size_t s, int n, int m_u, bool impact, lcp::Solver solver) {
  Friction out;
  out.dim = f.dim;
  out.A_t = cpu::to_matrix(cpu::mat_at(f.A_t, s, f.m_t, n));
  out.mu = cpu::to_vector(cpu::vec_at(f.mu, s, m_u));
  if (impact && f.e_t.data) out.e_t = cpu::to_vector(cpu::vec_at(f.e_t, s, m_u));
  if (!impact && f.Adot_qdot_t.data) out.Adot_qdot_t = cpu::to_vector(cpu::vec_at(f.Adot_qdot_t, s, f.m_t));
  out.formulation = f.formulation;
  out.directions = f.facets;
  out.lcp_solver = solver;
  return out;
}

// The Method code of a FrictionResult's method name (-1: "", the frictionless core answered).
std::int8_t method_code(const std::string& name) {
  for (int k = 0; k <= int(friction::Method::extragradient); ++k)
    if (name == friction::method_name(friction::Method(k))) return std::int8_t(k);
  return -1;
}

// Scenario s's results into the views.
template <class T, class Result>
void store(const HostBatchView<T>& v, bool impact, const FrictionViews<T>& f, std::size_t s, const Result& r,
           const FrictionResult& info) {
  Status st;
  if constexpr (std::is_same_v<Result, ImpactResult>) st = cpu::store(r, cpu::impact_view(v, s));
  else st = cpu::store(r, cpu::dynamics_view(v, s));
  *cpu::scalar_at(v.status, s) = st;
  cpu::put(cpu::vec_at(f.lambda_t, s, f.m_t), info.lambda_t);
  if (!impact) cpu::put(cpu::vec_at(f.sliding, s, v.shape.m_u), info.sliding);
  *cpu::scalar_at(f.method, s) = method_code(info.method);
  *cpu::scalar_at(f.iterations, s) = info.iterations;
  *cpu::scalar_at(f.residual, s) = info.residual;
}

}  // namespace

template <class T>
void solve_frictional(const HostBatchView<T>& v, bool impact, const FrictionViews<T>& f, const RunOptions& opt) {
  const int n = v.shape.n, m_u = v.shape.m_u;
  const long long count = static_cast<long long>(v.count);
  const auto scenario = [&](std::size_t s) { return cpu::to_scenario(cpu::scenario_view(v, s, opt.lcp_solver)); };
  if (opt.backend != Backend::cpu) {  // impact_batch / dynamics_batch: on the device, or refused
    std::vector<Scenario> sc(v.count);
    std::vector<Friction> fr(v.count);
    std::vector<FrictionalScenario> batch(v.count);
    for (std::size_t s = 0; s < v.count; ++s) {
      sc[s] = scenario(s);
      fr[s] = friction_at(f, s, n, m_u, impact, opt.lcp_solver);
      batch[s] = {&sc[s], &fr[s]};
    }
    std::vector<FrictionResult> info;
    if (impact) {
      const auto r = impact_batch<T>(batch, opt.backend, &info);
      for (std::size_t s = 0; s < v.count; ++s) store(v, impact, f, s, r[s], info[s]);
    } else {
      const auto r = dynamics_batch<T>(batch, opt.backend, &info);
      for (std::size_t s = 0; s < v.count; ++s) store(v, impact, f, s, r[s], info[s]);
    }
    return;
  }
  // The cpu: obliq::impact<T> / dynamics<T> on each scenario, one at a time per thread (as the
  // command line's frictional lines); no exception crosses the region (cpu/omp_guard.hpp).
  cpu::OmpGuard guard;
#pragma omp parallel for schedule(dynamic, 1) num_threads(cpu::thread_count(opt.threads, count))
  for (long long k = 0; k < count; ++k) {
    guard.run([&] {
      const std::size_t s = std::size_t(k);
      const Scenario sc = scenario(s);
      const Friction fr = friction_at(f, s, n, m_u, impact, opt.lcp_solver);
      FrictionResult info;
      if (impact) store(v, impact, f, s, obliq::impact<T>(sc, fr, &info), info);
      else store(v, impact, f, s, obliq::dynamics<T>(sc, fr, &info), info);
    });
  }
  guard.rethrow();
}

template void solve_frictional<double>(const HostBatchView<double>&, bool, const FrictionViews<double>&, const RunOptions&);
template void solve_frictional<float>(const HostBatchView<float>&, bool, const FrictionViews<float>&, const RunOptions&);

}  // namespace obliq::python

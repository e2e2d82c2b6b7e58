// lcp/solve.cpp: the host LCP API: one problem, or a batch in parallel over OpenMP.
//
// Each problem runs the per-scenario core (obliq/core/lcp/select.hpp) in double on row-major
// views of its own vectors, with scratch from a per-thread buffer. Problems are independent: a
// failure is a status and never touches another problem.
#include <omp.h>

#include <algorithm>
#include <vector>

#include "cpu/omp_guard.hpp"
#include "obliq/lcp.hpp"

namespace obliq {
namespace {

LcpSolution solve_one(const LcpProblem& p, const LcpOptions& opt, std::vector<double>& scratch) {
  LcpSolution s;
  const LcpSolver solver = p.solver.value_or(opt.solver);
  s.solver = solver == LcpSolver::automatic ? LcpSolver::lemke : solver;
  const int m = p.m;
  if (m < 0 || p.M.size() != std::size_t(m) * std::size_t(m) || p.q.size() != std::size_t(m)) {
    s.status = Status::bad_shape;
    s.residual = 0;
    return s;
  }
  s.z.assign(std::size_t(m), 0.0);
  s.w.assign(std::size_t(m), 0.0);
  const std::size_t need = lcp::solve_workspace<double>(m);
  if (scratch.size() < need) scratch.resize(need);
  Arena<double> arena{scratch.data(), scratch.size()};
  MatView<const double> M{p.M.data(), m, m, m, 1};
  VecView<const double> q{p.q.data(), m, 1};
  VecView<double> z{s.z.data(), m, 1}, w{s.w.data(), m, 1};
  LcpSolver used = s.solver;
  const lcp::Result<double> r =
      p.warm ? lcp::solve_warm<double>(M, q, z, w, arena, solver, p.warm->data(), int(p.warm->size()), &s.warm,
                                       opt.max_iterations, &used, opt.omega)
             : lcp::solve<double>(M, q, z, w, arena, solver, opt.max_iterations, &used, opt.omega);
  s.status = r.status;
  s.iterations = r.iterations;
  s.residual = r.residual;
  s.solver = used;
  return s;
}

}  // namespace

std::vector<int> lcp_active_set(const LcpSolution& solution) {
  std::vector<int> active;
  for (std::size_t i = 0; i < solution.z.size(); ++i)
    if (solution.z[i] > 0) active.push_back(int(i));
  return active;
}

LcpSolution solve_lcp(const LcpProblem& problem, const LcpOptions& options) {
  std::vector<double> scratch;
  return solve_one(problem, options, scratch);
}

std::vector<LcpSolution> solve_lcp_batch(const std::vector<LcpProblem>& problems, const LcpOptions& options) {
  std::vector<LcpSolution> out(problems.size());
  const long n = long(problems.size());
  cpu::OmpGuard guard;  // a scratch that cannot be grown throws after the region, never inside
#pragma omp parallel num_threads(cpu::thread_count(options.threads))
  {
    std::vector<double> scratch;  // per thread, grown to the largest m it meets
#pragma omp for schedule(dynamic, 16)
    for (long i = 0; i < n; ++i)
      guard.run([&] { out[std::size_t(i)] = solve_one(problems[std::size_t(i)], options, scratch); });
  }
  guard.rethrow();
  return out;
}

}  // namespace obliq

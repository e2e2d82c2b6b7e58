// obliq/core/lcp/select.hpp: one entry point over the LCP solvers, and the `auto` rule.
//
// The `auto` rule (documented in docs/lcp.md):
//   1. Lemke's method (lemke.hpp). It processes every copositive-plus M, so every contact LCP
//      (W = A M^-1 A^T is PSD, also when singular) and every P-matrix, and its secondary ray
//      proves infeasibility for those classes. If it certifies: done.
//   2. Otherwise, for m <= 16: enumeration of complementary bases (enumerate.hpp), exact for any
//      M (it solved lcp_CPS_3.dat, a non-P0 bimatrix game where Lemke ends on a ray).
//   3. Otherwise: Murty's least-index principal pivoting (pivot.hpp), exact for P-matrices.
//   4. If none certifies, Lemke's verdict is returned (re-run, so that z, w and the residual are
//      Lemke's), and `used` says lemke.
// PGS is never chosen by `auto`: it is not exact (ask for it by name).
// Warm start (solve_warm): the caller's active set is tried first (basis.hpp); only a certified
// answer is taken from it, anything else falls back to the cold solve of the chosen solver.
#pragma once

#include <cstddef>

#include "obliq/core/config.hpp"
#include "obliq/core/lcp/basis.hpp"
#include "obliq/core/lcp/certificate.hpp"
#include "obliq/core/lcp/enumerate.hpp"
#include "obliq/core/lcp/lemke.hpp"
#include "obliq/core/lcp/pgs.hpp"
#include "obliq/core/lcp/pivot.hpp"
#include "obliq/core/status.hpp"
#include "obliq/core/view.hpp"

namespace obliq::lcp {

enum class Solver : int { lemke = 0, pivot, pgs, enumerate, automatic };

// The name used on the command line and in the output's "solver" key.
OBLIQ_HD inline const char* solver_name(Solver s) {
  switch (s) {
    case Solver::lemke: return "lemke";
    case Solver::pivot: return "pivot";
    case Solver::pgs: return "pgs";
    case Solver::enumerate: return "enum";
    case Solver::automatic: return "auto";
  }
  return "unknown";
}

// Largest m for which `auto` tries enumeration.
constexpr int auto_enumerate_max_m = 16;

// Default budgets (max_iterations <= 0 asks for them): pivots for lemke and pivot, sweeps for
// pgs, bases for enumeration.
OBLIQ_HD inline int default_budget(Solver s, int m) {
  switch (s) {
    case Solver::lemke: return 1000 + 50 * m;
    case Solver::pivot: return 1000 + 50 * m;
    case Solver::pgs: return 10000;
    case Solver::enumerate: return 1 << (m < 0 ? 0 : (m > 16 ? 16 : m));  // 2^m bases, at most 65536
    case Solver::automatic: return 0;
  }
  return 0;
}

// Arena elements solve() needs for any solver.
template <class T> OBLIQ_HD std::size_t solve_workspace(int m) {
  std::size_t n = lemke_workspace<T>(m);
  n = max_(n, principal_pivot_workspace<T>(m));
  n = max_(n, enumerate_workspace<T>(m));
  n = max_(n, pgs_workspace<T>(m));
  return n;
}

// Solves LCP(M, q) with the chosen solver (`automatic`: the rule above). `max_iterations` <= 0:
// the solver's default budget (for `automatic`, each stage gets its own default). `used`, when
// not null, receives the solver whose answer is returned. PGS options: `omega`, `warm_start`.
template <class T>
OBLIQ_HD Result<T> solve(MatView<const T> M, VecView<const T> q, VecView<T> z, VecView<T> w, Arena<T>& arena,
                         Solver solver, int max_iterations = 0, Solver* used = nullptr, T omega = T(1),
                         bool warm_start = false) {
  const int m = q.size;
  const auto budget = [&](Solver s) { return max_iterations > 0 ? max_iterations : default_budget(s, m); };
  if (used) *used = solver;
  switch (solver) {
    case Solver::lemke: return lemke(M, q, z, w, arena, budget(Solver::lemke));
    case Solver::pivot: return principal_pivot(M, q, z, w, arena, budget(Solver::pivot));
    case Solver::pgs: return pgs(M, q, z, w, arena, budget(Solver::pgs), omega, warm_start);
    case Solver::enumerate: return enumerate(M, q, z, w, arena, budget(Solver::enumerate));
    case Solver::automatic: break;
  }
  if (used) *used = Solver::lemke;
  Result<T> r = lemke(M, q, z, w, arena, budget(Solver::lemke));
  if (r.status == Status::ok || r.status == Status::non_finite || r.status == Status::bad_shape) return r;
  int spent = r.iterations;
  if (m <= auto_enumerate_max_m) {
    Result<T> e = enumerate(M, q, z, w, arena, budget(Solver::enumerate));
    spent += e.iterations;
    if (e.status == Status::ok) {
      if (used) *used = Solver::enumerate;
      e.iterations = spent;
      return e;
    }
  }
  Result<T> p = principal_pivot(M, q, z, w, arena, budget(Solver::pivot));
  spent += p.iterations;
  if (p.status == Status::ok) {
    if (used) *used = Solver::pivot;
    p.iterations = spent;
    return p;
  }
  if (used) *used = Solver::lemke;
  r = lemke(M, q, z, w, arena, budget(Solver::lemke));
  return r;
}

// solve() warm-started from an active set J = active[0..count) (typically the indices with
// z_i > 0 of the previous, nearly equal problem): when J's basis certifies (basis.hpp
// warm_start) that is the answer, with 0 pivots; otherwise (J wrong, singular, out of range,
// repeated) the cold solve() answers as if no J had been given, and its iterations are reported.
// `hit`, when not null, says whether J gave the answer. The arena needs solve_workspace<T>(m).
template <class T, class Active>
OBLIQ_HD Result<T> solve_warm(MatView<const T> M, VecView<const T> q, VecView<T> z, VecView<T> w, Arena<T>& arena,
                              Solver solver, const Active& active, int count, bool* hit = nullptr,
                              int max_iterations = 0, Solver* used = nullptr, T omega = T(1)) {
  if (hit) *hit = false;
  if (used) *used = solver == Solver::automatic ? Solver::lemke : solver;
  const Result<T> r = warm_start(M, q, z, w, arena, active, count);
  if (r.status == Status::ok || r.status == Status::non_finite || r.status == Status::bad_shape) {
    if (hit) *hit = r.status == Status::ok;
    return r;
  }
  return solve(M, q, z, w, arena, solver, max_iterations, used, omega);
}

}  // namespace obliq::lcp

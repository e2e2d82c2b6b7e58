// obliq/core/friction/cone_solver.hpp: the exact Coulomb cone. A nonsmooth Newton method on the
// Alart-Curnier function with a backtracking line search, and projected (nonsmooth) Gauss-Seidel
// over contacts as fallback, the pair Siconos's fc3d solvers use (fc3d_nonsmooth_Newton_AlartCurnier,
// fc3d_nsgs). docs/friction.md (F6).
// Each method has its header: newton.hpp, nsgs.hpp, extragradient.hpp; the planar stage's LCP is
// pyramid.hpp. This header is the orchestrator, solve_cone:
//
// solve_cone: Newton from two cheap Gauss-Seidel sweeps (gauss_seidel_start), again from r = 0 when
// that does not certify; if it still does not certify and the problem is planar, the LCP (its
// answer kept when it passes the cone's certificate); then NSGS from Newton's last iterate, then a
// few Newton steps from NSGS's answer (kept when they certify better); if NSGS does not certify
// either, the extragradient from r = 0 and Newton from its iterate. The
// certified answer is then projected onto the cones (F4): the iterates meet |r_T| <= mu r_N only to
// the certificate's tolerance, the answer exactly (up to rounding); it is certified again.
// Planar problems (dim 2, or space contacts with a zero tangent row: pyramid.hpp): there the cone
// is the 2-facet pyramid, so the exact Coulomb problem is an LCP, which Lemke's method solves in
// finitely many pivots (lcp::Solver::automatic), where the iterative stages can stall (the planar
// block resting on both corners with restitution: docs/friction.md (F6), "Planar problems").
#pragma once

#include <cstddef>

#include "obliq/core/friction/certificate.hpp"
#include "obliq/core/friction/extragradient.hpp"
#include "obliq/core/friction/newton.hpp"
#include "obliq/core/friction/nsgs.hpp"
#include "obliq/core/friction/pyramid.hpp"

namespace obliq::friction {

template <class T> OBLIQ_HD std::size_t cone_workspace(int m, int dim) {
  // The planar stage's LCP has 2 m_e + 4 nc <= 2 m variables.
  return max_(max_(max_(newton_workspace<T>(m), nsgs_workspace<T>(m, dim)), extragradient_workspace<T>(m)),
              pyramid_workspace<T>(2 * m, m) + std::size_t(m < 0 ? 0 : m)) +
         2 * std::size_t(m < 0 ? 0 : m);
}

namespace detail {

// Projects each contact's reaction (not those with a prescribed sliding direction) onto its cone
// and certifies the result (rep.status, rep.residual).
template <class T> OBLIQ_HD void project_reactions(const Problem<T>& p, VecView<T> r, VecView<T> u, Report<T>& rep) {
  T x[3];
  for (int c = 0; c < p.nc; ++c) {
    if (p.sliding(c)) continue;
    const int f = p.row(c);
    for (int j = 0; j < p.dim; ++j) x[j] = r[f + j];
    project_cone(x, p.dim, p.mu[c]);
    for (int j = 0; j < p.dim; ++j) r[f + j] = x[j];
  }
  rep.status = certify(p, r.as_const(), u, rep);
}

// Newton's start: `sweeps` cheap Gauss-Seidel sweeps from r = 0 (header comment). An equality
// row takes r_i -= u_i / W_ii; contact c, with q~ = q_c + sum_{j not in c} W_cj r_j, takes r_c = 0
// when q~_N >= 0, else r_N = -q~_N / W_NN and the tangent that sticks (W_TT r_T = -(q~_T + W_TN r_N))
// when that lies in the cone (F2), otherwise r_T = -mu r_N v / |v| along the slip v = q~_T + W_TN r_N
// with r_N refreshed to -(q~_N + W_NT r_T) / W_NN (>= 0). Not a solver (no case is checked exactly):
// it only moves the start near the answer, which cut Newton's steps at 24 contacts from 5.8 to 4.5
// on the benchmark's problems. Contacts with a prescribed sliding direction keep r_c = 0.
template <class T> OBLIQ_HD void gauss_seidel_start(const Problem<T>& p, VecView<T> r, int sweeps) {
  const int m = p.size(), d = p.dim;
  for (int sw = 0; sw < sweeps; ++sw) {
    for (int i = 0; i < p.m_e; ++i) {
      T s = p.q[i];
      for (int j = 0; j < m; ++j) s += p.W(i, j) * r[j];
      if (p.W(i, i) > T(0)) r[i] -= s / p.W(i, i);
    }
    for (int c = 0; c < p.nc; ++c) {
      if (p.sliding(c)) continue;
      const int f = p.row(c);
      T q[3] = {T(0), T(0), T(0)}, x[3] = {T(0), T(0), T(0)};
      for (int a = 0; a < d; ++a) {
        T s = p.q[f + a];
        for (int j = 0; j < m; ++j)
          if (j < f || j >= f + d) s += p.W(f + a, j) * r[j];
        q[a] = s;
      }
      const T wnn = p.W(f, f);
      if (q[0] < T(0) && wnn > T(0)) {
        x[0] = -q[0] / wnn;
        T v[2] = {T(0), T(0)}, v2 = T(0);
        for (int a = 1; a < d; ++a) v[a - 1] = q[a] + p.W(f + a, f) * x[0], v2 += v[a - 1] * v[a - 1];
        T det = p.W(f + 1, f + 1);
        if (d == 3) {
          det = p.W(f + 1, f + 1) * p.W(f + 2, f + 2) - p.W(f + 1, f + 2) * p.W(f + 2, f + 1);
          x[1] = (-v[0] * p.W(f + 2, f + 2) + v[1] * p.W(f + 1, f + 2)) / det;
          x[2] = (-v[1] * p.W(f + 1, f + 1) + v[0] * p.W(f + 2, f + 1)) / det;
        } else {
          x[1] = -v[0] / det;
        }
        T t2 = T(0);
        for (int a = 1; a < d; ++a) t2 += x[a] * x[a];
        const T lim = p.mu[c] * x[0];
        if (!(det > T(0)) || !(std::sqrt(t2) <= lim)) {  // sliding (NaN included)
          const T nv = std::sqrt(v2);
          T qn = q[0];
          for (int a = 1; a < d; ++a) x[a] = nv > T(0) ? -lim * v[a - 1] / nv : T(0), qn += p.W(f, f + a) * x[a];
          const T rn = max_(T(0), -qn / wnn);
          for (int a = 1; a < d; ++a) x[a] *= rn / x[0];
          x[0] = rn;
        }
      }
      for (int a = 0; a < d; ++a) r[f + a] = x[a];
    }
  }
  bool finite = true;
  for (int i = 0; i < m; ++i) finite = finite && (r[i] - r[i] == T(0));
  if (!finite)
    for (int i = 0; i < m; ++i) r[i] = T(0);
}

}  // namespace detail

namespace detail {

// Newton's aim: 1000 times below the tolerance (quadratic convergence makes that a step or two
// more), so that its answers also meet error measures scaled differently (Siconos's, relative to
// |q|); it is accepted at the tolerance.
template <class T> OBLIQ_HD T newton_target() {
  return max_(tolerance<T>::rel * T(1e-3), T(64) * scalar_traits<T>::eps);
}

}  // namespace detail

// solve_cone's first stage: the problem's checks, then Newton from two Gauss-Seidel sweeps and
// again from r = 0 when that does not certify; a certified answer projected onto the cones and
// certified again. Returns true when `rep` ends the solve (certified, or a failure that no other
// solver mends); false: Newton's last iterate is in r, and cone_fallbacks goes on from it with
// this `rep`. The cuda backend's Simulator runs the two stages as kernels of their own
// (friction::ImpactStage, impact.hpp).
template <class T>
OBLIQ_HD bool cone_newton(const Problem<T>& p, VecView<T> r, VecView<T> u, Arena<T>& arena, Report<T>& rep,
                          int newton_budget = 50) {
  rep = Report<T>{};
  rep.status = check_problem(p, r, u);
  for (int i = 0; i < r.size; ++i) r[i] = T(0);
  if (rep.status != Status::ok) return true;
  const T target = detail::newton_target<T>();
  detail::gauss_seidel_start(p, r, 2);
  rep = newton(p, r, u, arena, newton_budget, target);
  if (rep.status != Status::bad_shape && rep.residual > tolerance<T>::rel) {  // again from r = 0
    const int first = rep.iterations;
    for (int i = 0; i < r.size; ++i) r[i] = T(0);
    rep = newton(p, r, u, arena, newton_budget - first, target);
    rep.iterations += first;
  }
  if (rep.status != Status::bad_shape && rep.residual <= tolerance<T>::rel) rep.status = Status::ok;
  if (rep.status == Status::ok) detail::project_reactions(p, r, u, rep);
  return rep.status == Status::ok || rep.status == Status::bad_shape;
}

// solve_cone's second stage, after cone_newton returned false with `newton_rep`: for a planar
// problem the exact LCP (its answer kept when it passes the cone's certificate), then NSGS from
// Newton's last iterate (r), polished by Newton, then the extragradient from r = 0.
template <class T>
OBLIQ_HD Report<T> cone_fallbacks(const Problem<T>& p, VecView<T> r, VecView<T> u, Arena<T>& arena,
                                  const Report<T>& newton_rep, int nsgs_budget = 2000) {
  const T target = detail::newton_target<T>();
  const int spent = newton_rep.iterations;
  Report<T> rep = newton_rep;
  if (planar(p)) {  // the exact LCP (header comment), Newton's iterate kept for NSGS
    const std::size_t mk = arena.mark();
    VecView<T> rl = arena.vec(r.size);
    if (!arena.overflow) {
      Report<T> lrep = solve_pyramid(p, 2, rl, u, arena, lcp::Solver::automatic);
      if (lrep.status == Status::ok) {
        detail::project_reactions(p, rl, u, lrep);
        if (lrep.status == Status::ok) {
          for (int i = 0; i < r.size; ++i) r[i] = rl[i];
          lrep.method = Method::lemke;
          lrep.iterations += spent;
          arena.release(mk);
          return lrep;
        }
      }
    }
    arena.release(mk);
  }
  bool finite = true;
  for (int i = 0; i < r.size; ++i) finite = finite && (r[i] - r[i] == T(0));
  if (!finite)
    for (int i = 0; i < r.size; ++i) r[i] = T(0);
  rep = nsgs(p, r, u, arena, nsgs_budget);
  rep.iterations += spent;
  if (rep.status == Status::ok) {
    // Polish: Newton from the NSGS answer, kept when it certifies better.
    const std::size_t mk = arena.mark();
    VecView<T> r2 = arena.vec(r.size);
    VecView<T> u2 = arena.vec(r.size);
    if (!arena.overflow) {
      for (int i = 0; i < r.size; ++i) r2[i] = r[i];
      Report<T> pol = newton(p, r2, u2, arena, 10, target);
      if (pol.residual < rep.residual) {
        for (int i = 0; i < r.size; ++i) r[i] = r2[i];
        rep.residual = pol.residual;
        rep.iterations += pol.iterations;
      }
    }
    arena.release(mk);
    detail::project_reactions(p, r, u, rep);
    // An answer at the tolerance's edge can fail it after the projection (seen in float): then
    // the extragradient, which stops below the tolerance.
    if (rep.status == Status::ok) return rep;
  }
  if (rep.status == Status::bad_shape) return rep;
  const int spent_nsgs = rep.iterations;
  for (int i = 0; i < r.size; ++i) r[i] = T(0);
  rep = extragradient(p, r, u, arena, 20 * nsgs_budget, target);
  rep.iterations += spent_nsgs;
  if (rep.status == Status::ok) detail::project_reactions(p, r, u, rep);
  return rep;
}

// The exact cone (header comment): cone_newton, then cone_fallbacks when it does not settle.
// `iterations` counts Newton steps plus NSGS sweeps; `method` says which one certified.
template <class T>
OBLIQ_HD Report<T> solve_cone(const Problem<T>& p, VecView<T> r, VecView<T> u, Arena<T>& arena,
                              int newton_budget = 50, int nsgs_budget = 2000) {
  Report<T> rep;
  if (cone_newton(p, r, u, arena, rep, newton_budget)) return rep;
  return cone_fallbacks(p, r, u, arena, rep, nsgs_budget);
}

}  // namespace obliq::friction

// obliq/core/lcp/pivot.hpp: Murty's least-index principal pivoting method (for P-matrices).
//
// Mathematics (Murty 1974, "Note on a Bard-type scheme for solving the complementarity
// problem", Opsearch 11; Murty 1988, "Linear Complementarity, Linear and Nonlinear
// Programming", section 4.1; Cottle, Pang & Stone 1992, section 4.2 "principal pivoting").
// Keep a complementary basis: for each i exactly one of w_i, z_i is basic, written as a
// condensed (Tucker) tableau  basic = rhs + T nonbasic,  starting from w = q + M z. While some
// basic variable is negative, take the least such index i and make the principal pivot on
// (i, i), exchanging w_i and z_i. When M is a P-matrix every principal pivot transform of M is
// again a P-matrix, so the diagonal pivot T_ii is positive, and the least-index rule reaches the
// unique solution in finitely many pivots (at most 2^m; Murty's example, lcp_exp_murty.dat,
// makes it exponential). For a matrix that is not P the method can break down (T_ii <= 0 or
// rounding noise: Status::no_convergence) or cycle (Status::lcp_budget).
//
// A pivot costs (m + 1) m multiply-adds. Tolerances as in lemke.hpp: a basic value counts as
// negative below -256 eps times its row's scale (see the loop); a diagonal pivot must exceed
// 4096 eps max(max_i |T_ii column|, 1). One step of iterative refinement on the final basis,
// then the certificate of certificate.hpp decides the status.
#pragma once

#include <cstddef>

#include "obliq/core/config.hpp"
#include "obliq/core/lcp/certificate.hpp"
#include "obliq/core/lcp/scaling.hpp"
#include "obliq/core/status.hpp"
#include "obliq/core/view.hpp"

namespace obliq::lcp {

// Arena elements principal_pivot() takes: the tableau m x (m + 1), the basis flags (m) and a
// copy of z (m), on top of the equilibration's (scaling.hpp).
template <class T> OBLIQ_HD std::size_t principal_pivot_workspace(int m) {
  const std::size_t n = std::size_t(m < 0 ? 0 : m);
  return equilibration_workspace<T>(m) + n * (n + 1) + n + n;
}

namespace detail {

// One run of the method on (M, q) as given (principal_pivot() below).
template <class T>
OBLIQ_HD Result<T> principal_pivot_run(MatView<const T> M, VecView<const T> q, VecView<T> z, VecView<T> w,
                                       Arena<T>& arena, int max_iterations) {
  const int m = q.size;
  Result<T> res;
  if (!lcp_begin(M, q, z, w, res)) return res;
  bool start_ok = true;
  for (int i = 0; i < m; ++i) {
    if (q[i] < T(0)) start_ok = false;
  }
  if (start_ok) return res;  // q >= 0: z = 0

  const std::size_t mark = arena.mark();
  MatView<T> tab = arena.mat(m, m + 1);                             // (m x (m + 1)): T | rhs
  IndexView<T> zbasic{arena.take(std::size_t(m)), m, arena.stride};  // (m) 1 where z_i is basic
  VecView<T> zold{arena.take(std::size_t(m)), m, arena.stride};      // (m) z before refinement
  if (arena.overflow || zold.data == nullptr) {
    arena.release(mark);
    res.status = Status::bad_shape;
    return res;
  }
  const int rhs = m;
  const T eps = scalar_traits<T>::eps;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < m; ++j) tab(i, j) = M(i, j);
    tab(i, rhs) = q[i];
    zbasic.set(i, 0);
  }

  int it = 0;
  bool solved = false;
  while (true) {
    // Least index with a negative basic variable, each judged at its own row's scale (one row's
    // large numbers must not hide another's sign): a basic w_i = q_i + sum_j M_ij z_j against
    // |q_i| + sum_j |M_ij z_j|, a basic z_i against the largest basic z.
    T zmax = T(0);
    for (int i = 0; i < m; ++i)
      if (zbasic.get(i)) zmax = max_(zmax, abs_(tab(i, rhs)));
    int r = -1;
    for (int i = 0; i < m && r < 0; ++i) {
      if (!(tab(i, rhs) < T(0))) continue;
      T s = zmax;
      if (!zbasic.get(i)) {
        s = abs_(q[i]);
        for (int j = 0; j < m; ++j)
          if (zbasic.get(j)) s += abs_(M(i, j) * tab(j, rhs));
      }
      if (tab(i, rhs) < -T(256) * eps * s) r = i;
    }
    if (r < 0) {
      solved = true;
      break;
    }
    if (it >= max_iterations) {
      res.status = Status::lcp_budget;
      break;
    }
    T cmax = T(0);
    for (int i = 0; i < m; ++i) cmax = max_(cmax, abs_(tab(i, r)));
    const T p = tab(r, r);
    if (!(p > T(4096) * eps * max_(cmax, T(1)))) {
      res.status = Status::no_convergence;  // breakdown: M is not a P-matrix
      break;
    }
    // Principal pivot on (r, r) (the Tucker exchange of lemke.hpp with s = r).
    const T inv = T(1) / p;
    for (int j = 0; j <= m; ++j) tab(r, j) = -tab(r, j) * inv;
    tab(r, r) = inv;
    for (int i = 0; i < m; ++i) {
      if (i == r) continue;
      const T f = tab(i, r);
      if (f == T(0)) continue;
      for (int j = 0; j <= m; ++j) tab(i, j) += f * tab(r, j);
      tab(i, r) = f * inv;
    }
    zbasic.set(r, 1 - zbasic.get(r));
    ++it;
  }
  res.iterations = it;
  for (int i = 0; i < m; ++i) z[i] = zbasic.get(i) ? max_(tab(i, rhs), T(0)) : T(0);
  res.residual = lcp_residual(M, q, z.as_const(), w);
  if (solved) {
    T certificate = T(0);
    bool refined = false;
    // Iterative refinement as in lemke.hpp: rows with w_k nonbasic carry the residual
    // (M z + q)_k, and column k of B^-1 is -T(:, k).
    for (int k = 0; k < m; ++k) zold[k] = z[k];
    bool refine = false;
    for (int k = 0; k < m; ++k)
      if (zbasic.get(k) && w[k] != T(0)) refine = true;
    if (refine) {
      for (int k = 0; k < m; ++k) {
        if (!zbasic.get(k)) continue;
        const T rk = w[k];
        for (int i = 0; i < m; ++i) tab(i, rhs) -= tab(i, k) * rk;
      }
      for (int i = 0; i < m; ++i) z[i] = zbasic.get(i) ? max_(tab(i, rhs), T(0)) : T(0);
      keep_better_refinement(M, q, z, zold, w, res, certificate);
      refined = true;
    }
    // The certificate of the z kept: from the refinement's pass over M, or its own pass.
    if (!refined) certificate = lcp_certificate(M, q, z.as_const());
    res.status = lcp_accepted(certificate) ? Status::ok : Status::no_convergence;
  }
  arena.release(mark);
  return res;
}

}  // namespace detail

// Solves LCP(M, q) by Murty's least-index principal pivoting. Returns as lemke(): z, w = M z + q,
// the number of pivots and the certificate; Status ok, no_convergence (breakdown: a diagonal
// pivot <= tolerance, so M is not a P-matrix, or a final certificate above tolerance),
// lcp_budget (more than max_iterations pivots), non_finite, bad_shape. Widely spread rows and
// columns are equilibrated first, as for lemke() (scaling.hpp).
template <class T>
OBLIQ_HD Result<T> principal_pivot(MatView<const T> M, VecView<const T> q, VecView<T> z, VecView<T> w,
                                   Arena<T>& arena, int max_iterations) {
  return solve_equilibrated(M, q, z, w, arena,
                            [&](MatView<const T> Ms, VecView<const T> qs, VecView<T> zs, VecView<T> ws, Arena<T>& a) {
                              return detail::principal_pivot_run(Ms, qs, zs, ws, a, max_iterations);
                            });
}

}  // namespace obliq::lcp

// obliq/core/lcp/lemke.hpp: Lemke's complementary pivoting method with a lexicographic
// minimum-ratio rule.
//
// Mathematics (Lemke 1965; Cottle, Pang & Stone 1992, "The Linear Complementarity Problem",
// section 4.4 "Lemke's method" and 4.9 "degeneracy"/lexicographic rule; Murty 1988, ch. 2).
// Augment LCP(M, q) with an artificial variable z0 and the covering vector d = (1, ..., 1):
//
//     w = q + M z + d z0,   w, z, z0 >= 0,   w_i z_i = 0 for all i.
//
// Start from the basis w = q; if q >= 0, z = 0 solves the LCP at once. Otherwise z0 enters at
// the value -min_i q_i and the most negative row leaves; from then on the variable that enters
// is the complement of the one that just left (w_i <-> z_i), its blocking row is chosen by the
// minimum-ratio test, and the method stops when z0 leaves the basis (a solution) or when the
// entering column blocks nowhere (a secondary ray: no solution found). With d > 0 Lemke's method
// processes every copositive-plus M (so every PSD M, including the singular contact matrices
// W = A M^-1 A^T of redundant contacts): it ends on a secondary ray only when the LCP is
// infeasible (CPS Theorem 4.4.13). Ties in the ratio test are broken lexicographically by the
// rows of (B^-1 q, B^-1) / pivot entry (CPS 4.9.3; Murty 2.3.6), which keeps every basis
// lexico-feasible and so rules out cycling on degenerate problems; z0 leaves whenever it ties.
//
// Storage: a condensed (Tucker) tableau, m rows x (m + 1) nonbasic columns plus the right-hand
// side: basic_i = rhs_i + sum_j T_ij nonbasic_j. A pivot costs (m + 1)(m + 2) multiply-adds, half
// a full m x (2m + 1) tableau. Column k of B^-1 (for the lexicographic rule) is e_r when w_k is
// basic in row r and -T(:, c) when w_k is nonbasic in column c.
//
// Variables are numbered w_k = k, z_k = m + k, z0 = 2m. Tolerances (all scaled by the unit
// roundoff eps and the data, so double and float share the code):
// - pivot: an entry a_i = -T_is counts as positive when a_i > 4096 eps max(max_i |a_i|, c),
//   with c = the largest entry of the entering variable's original column (1 for w_k and z0,
//   max_i |M_ik| for z_k); a column of pure rounding noise therefore counts as zero (a ray);
// - ratio ties: rows whose ratio exceeds the minimum by at most 256 eps max|rhs| / a_i.
// After termination z is refined by one step of iterative refinement on the final basis and the
// certificate of certificate.hpp decides the status.
#pragma once

#include <cstddef>

#include "obliq/core/config.hpp"
#include "obliq/core/lcp/certificate.hpp"
#include "obliq/core/lcp/scaling.hpp"
#include "obliq/core/status.hpp"
#include "obliq/core/view.hpp"

namespace obliq::lcp {

// Arena elements lemke() takes: the tableau m x (m + 2) and the index arrays (row -> variable m,
// column -> variable m + 1, variable -> place 2m + 1, tie candidates m) and a copy of z (m),
// on top of the equilibration's (scaling.hpp).
template <class T> OBLIQ_HD std::size_t lemke_workspace(int m) {
  const std::size_t n = std::size_t(m < 0 ? 0 : m);
  return equilibration_workspace<T>(m) + n * (n + 2) + n + (n + 1) + (2 * n + 1) + n + n;
}

namespace detail {

// Lexicographic tie-break among the candidate rows cand[0..nc) of the ratio test with pivot
// column entries a (positive). Compares the rows of B^-1 divided by a_i, column by column,
// keeping the minimal ones, until one row is left. Returns that row. The comparisons are exact
// (as in Siconos's lcp_lexicolemke.c): the rule's guarantee rests on a strict order of the
// rows, and a relative tie tolerance here was measured to make lcp_tobenna.dat cycle.
template <class T>
OBLIQ_HD int lemke_lexico(MatView<T> tab, int m, IndexView<T> place, IndexView<T> cand, int nc, int col_a,
                          T a_sign) {
  for (int k = 0; k < m && nc > 1; ++k) {
    // Column k of B^-1: e_r if w_k basic in row r, else -T(:, c) for w_k nonbasic in column c.
    const int pk = place.get(k);
    T vmin = T(0);
    for (int t = 0; t < nc; ++t) {
      const int i = cand.get(t);
      const T b = pk >= 0 ? (i == pk ? T(1) : T(0)) : -tab(i, -pk - 1);
      const T v = b / (a_sign * tab(i, col_a));
      if (t == 0 || v < vmin) vmin = v;
    }
    int keep = 0;
    for (int t = 0; t < nc; ++t) {
      const int i = cand.get(t);
      const T b = pk >= 0 ? (i == pk ? T(1) : T(0)) : -tab(i, -pk - 1);
      const T v = b / (a_sign * tab(i, col_a));
      if (v <= vmin) cand.set(keep++, i);
    }
    nc = keep;
  }
  return cand.get(0);
}

// Pivot on (row r, column s) of the Tucker tableau tab (m x (m + 2); column m + 1 is rhs):
// the basic variable of row r and the nonbasic variable of column s trade places.
template <class T>
OBLIQ_HD void lemke_pivot(MatView<T> tab, int m, int r, int s, IndexView<T> rowvar, IndexView<T> colvar,
                          IndexView<T> place) {
  const int nc = m + 2;
  const T p = tab(r, s);
  const T inv = T(1) / p;
  // Row r: v = (u - rhs_r - sum_{j != s} T_rj x_j) / p.
  for (int j = 0; j < nc; ++j) tab(r, j) = -tab(r, j) * inv;
  tab(r, s) = inv;
  // Other rows: substitute v. (Contiguous rows, the CPU layout, get a loop the compiler
  // vectorises; strided ones the generic loop.)
  if (tab.cs == 1) {
    const T* __restrict__ pr = &tab(r, 0);
    for (int i = 0; i < m; ++i) {
      if (i == r) continue;
      T* __restrict__ pi = &tab(i, 0);
      const T f = pi[s];
      if (f == T(0)) continue;
      for (int j = 0; j < nc; ++j) pi[j] += f * pr[j];
      pi[s] = f * inv;
    }
  } else {
    for (int i = 0; i < m; ++i) {
      if (i == r) continue;
      const T f = tab(i, s);
      if (f == T(0)) continue;
      for (int j = 0; j < nc; ++j) tab(i, j) += f * tab(r, j);
      tab(i, s) = f * inv;
    }
  }
  const int u = rowvar.get(r), v = colvar.get(s);
  rowvar.set(r, v);
  colvar.set(s, u);
  place.set(v, r);
  place.set(u, -s - 1);
}

}  // namespace detail

namespace detail {

// One run of Lemke's method with pivot tolerance pivot_factor * eps * (column scale).
// Out of line on the device: lemke() runs it up to 3 times, inlined they spill (docs/cuda.md).
template <class T>
OBLIQ_HD OBLIQ_NOINLINE Result<T> lemke_run(MatView<const T> M, VecView<const T> q, VecView<T> z, VecView<T> w,
                                            Arena<T>& arena, int max_iterations, T pivot_factor) {
  const int m = q.size;
  Result<T> res;
  if (!lcp_begin(M, q, z, w, res)) return res;
  // q >= 0: z = 0 is a solution.
  int r = -1;
  T qmin = T(0), qmax = T(0);
  for (int i = 0; i < m; ++i) {
    qmax = max_(qmax, abs_(q[i]));
    if (q[i] < qmin) qmin = q[i], r = i;
  }
  if (r < 0) return res;

  const std::size_t mark = arena.mark();
  MatView<T> tab = arena.mat(m, m + 2);  // (m x (m + 2)): T | d-column | rhs, Tucker form
  IndexView<T> rowvar{arena.take(std::size_t(m)), m, arena.stride};          // (m) basic variable of row i
  IndexView<T> colvar{arena.take(std::size_t(m + 1)), m + 1, arena.stride};  // (m + 1) nonbasic variable of column j
  IndexView<T> place{arena.take(std::size_t(2 * m + 1)), 2 * m + 1, arena.stride};  // (2m + 1) row r >= 0 or -(col + 1)
  IndexView<T> cand{arena.take(std::size_t(m)), m, arena.stride};            // (m) ratio-test ties
  if (arena.overflow || cand.slots == nullptr) {
    arena.release(mark);
    res.status = Status::bad_shape;
    return res;
  }
  const int rhs = m + 1, z0col = m;
  const T eps = scalar_traits<T>::eps;
  const T tol_factor = T(256) * eps;

  // Initial tableau: w = q + M z + d z0 (columns 0..m-1: z_j, column m: z0).
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < m; ++j) tab(i, j) = M(i, j);
    tab(i, z0col) = T(1);
    tab(i, rhs) = q[i];
    rowvar.set(i, i);
    place.set(i, i);
  }
  for (int j = 0; j < m; ++j) colvar.set(j, m + j), place.set(m + j, -j - 1);
  colvar.set(z0col, 2 * m);
  place.set(2 * m, -z0col - 1);

  // First pivot: z0 enters at -min q; the leaving row minimises (q_i, e_i) / d_i
  // lexicographically among the rows tied at the minimum.
  {
    int nc = 0;
    const T tol = tol_factor * qmax;
    for (int i = 0; i < m; ++i)
      if (q[i] <= qmin + tol) cand.set(nc++, i);
    r = lemke_lexico(tab, m, place, cand, nc, z0col, T(1));
  }
  int leaving = rowvar.get(r);
  detail::lemke_pivot(tab, m, r, z0col, rowvar, colvar, place);
  int it = 1;

  bool solved = false;
  while (true) {
    // The complement of the variable that just left enters.
    const int entering = leaving < m ? leaving + m : leaving - m;
    const int s = -place.get(entering) - 1;
    // Ratio test on a_i = -T_is > 0: the entering variable can grow to rhs_i / a_i.
    T amax = T(0), rmax = T(0);
    for (int i = 0; i < m; ++i) {
      amax = max_(amax, abs_(tab(i, s)));
      rmax = max_(rmax, abs_(tab(i, rhs)));
    }
    T cmax = T(1);
    if (entering >= m && entering < 2 * m) {
      cmax = T(0);
      for (int i = 0; i < m; ++i) cmax = max_(cmax, abs_(M(i, entering - m)));
    }
    const T ptol = pivot_factor * eps * max_(amax, cmax);
    T best = T(0);
    bool any = false;
    for (int i = 0; i < m; ++i) {
      const T a = -tab(i, s);
      if (a > ptol) {
        const T ratio = max_(tab(i, rhs), T(0)) / a;
        if (!any || ratio < best) best = ratio, any = true;
      }
    }
    if (!any) {
      res.status = Status::lcp_ray;
      break;
    }
    if (it >= max_iterations) {
      res.status = Status::lcp_budget;
      break;
    }
    const T rtol = tol_factor * max_(rmax, qmax);
    int nc = 0, z0row = -1;
    for (int i = 0; i < m; ++i) {
      const T a = -tab(i, s);
      if (a > ptol && max_(tab(i, rhs), T(0)) <= best * a + rtol) {
        cand.set(nc++, i);
        if (rowvar.get(i) == 2 * m) z0row = i;
      }
    }
    // z0 leaves whenever it ties (the method ends), unless its pivot entry is under 1/100 of the
    // largest tied one: then it is likely rounding noise of a dependent row, and the
    // lexicographic rule decides.
    if (z0row >= 0 && nc > 1) {
      T pm = T(0);
      for (int t = 0; t < nc; ++t) pm = max_(pm, -tab(cand.get(t), s));
      if (-tab(z0row, s) < T(0.01) * pm) z0row = -1;
    }
    r = z0row >= 0 ? z0row : (nc == 1 ? cand.get(0) : lemke_lexico(tab, m, place, cand, nc, s, T(-1)));
    leaving = rowvar.get(r);
    lemke_pivot(tab, m, r, s, rowvar, colvar, place);
    ++it;
    if (leaving == 2 * m) {
      solved = true;
      break;
    }
  }
  res.iterations = it;

  // Read z off the tableau (z0 = 0 at a solution; clamp rounding below zero).
  for (int i = 0; i < m; ++i) {
    const int v = rowvar.get(i);
    if (v >= m && v < 2 * m) z[v - m] = max_(tab(i, rhs), T(0));
  }
  res.residual = lcp_residual(M, q, z.as_const(), w);
  if (solved) {
    T certificate = T(0);
    bool refined = false;
    // One step of iterative refinement on the final complementary basis: the residual of the
    // rows whose w_k is nonbasic (k in J, z_J basic) is res_k = (M z + q)_k; the correction is
    // x_B += B^-1 res with column k of B^-1 = -T(:, c) for w_k nonbasic in column c.
    bool refine = false;
    for (int k = 0; k < m; ++k)
      if (place.get(k) < 0 && w[k] != T(0)) refine = true;
    if (refine) {
      VecView<T> zold{arena.take(std::size_t(m)), m, arena.stride};  // (m) z before refinement
      if (zold.data != nullptr) {
        for (int k = 0; k < m; ++k) zold[k] = z[k];
        for (int k = 0; k < m; ++k) {
          const int pk = place.get(k);
          if (pk >= 0) continue;
          const T rk = w[k];
          const int c = -pk - 1;
          for (int i = 0; i < m; ++i) tab(i, rhs) -= tab(i, c) * rk;
        }
        for (int i = 0; i < m; ++i) {
          const int v = rowvar.get(i);
          if (v >= m && v < 2 * m) z[v - m] = max_(tab(i, rhs), T(0));
        }
        keep_better_refinement(M, q, z, zold, w, res, certificate);
        refined = true;
      }
    }
    // The certificate of the z kept: from the refinement's pass over M, or its own pass.
    if (!refined) certificate = lcp_certificate(M, q, z.as_const());
    res.status = lcp_accepted(certificate) ? Status::ok : Status::no_convergence;
  }
  arena.release(mark);
  return res;
}

}  // namespace detail

// Solves LCP(M, q) (M m x m, q, z, w of size m) by Lemke's method. On return z and w = M z + q
// hold the final iterate (z = 0, w = q when the method could not start), `iterations` the number
// of pivots, `residual` the min-map certificate. Status: ok (certificate accepted), lcp_ray
// (secondary ray: for copositive-plus M, proof that no solution exists), lcp_budget (more than
// max_iterations pivots), non_finite (NaN/Inf in M or q), bad_shape (sizes disagree or the arena
// is smaller than lemke_workspace<T>(m)), no_convergence (the method terminated but rounding
// left a certificate above tolerance).
//
// Rounding guard: the first run uses the pivot tolerance 4096 eps (relative to the column); when
// it ends on a ray or with a certificate above tolerance, which on singular (rank-deficient)
// problems can be the work of a noise pivot, the method is run once more with 65536 eps and
// that answer is kept if it certifies; otherwise the first run's verdict stands. `iterations`
// counts the pivots of every run made.
//
// Rows and columns whose scales spread by more than 2^26 (float: 2^12) are first equilibrated by
// powers of two (scaling.hpp, docs/lcp.md (L2)-(L4)); the answer is certified on M and q.
// Out of line on the device: inlined at lcp::solve's 3 calls, the contact solve spills (docs/cuda.md).
template <class T>
OBLIQ_HD OBLIQ_NOINLINE Result<T> lemke(MatView<const T> M, VecView<const T> q, VecView<T> z, VecView<T> w,
                                        Arena<T>& arena, int max_iterations) {
  return solve_equilibrated(M, q, z, w, arena,
                            [&](MatView<const T> Ms, VecView<const T> qs, VecView<T> zs, VecView<T> ws, Arena<T>& a) {
                              Result<T> r1 = detail::lemke_run(Ms, qs, zs, ws, a, max_iterations, T(4096));
                              if (r1.status != Status::lcp_ray && r1.status != Status::no_convergence) return r1;
                              Result<T> r2 = detail::lemke_run(Ms, qs, zs, ws, a, max_iterations, T(65536));
                              r2.iterations += r1.iterations;
                              if (r2.status == Status::ok) return r2;
                              // restore the first answer
                              Result<T> r3 = detail::lemke_run(Ms, qs, zs, ws, a, max_iterations, T(4096));
                              r3.iterations = r2.iterations;
                              return r3;
                            });
}

}  // namespace obliq::lcp

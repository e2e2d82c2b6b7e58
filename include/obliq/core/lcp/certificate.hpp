// obliq/core/lcp/certificate.hpp: what every LCP solver returns, and the residual certificate.
//
// LCP(M, q): find z >= 0 with w = M z + q >= 0 and z^T w = 0 (Cottle, Pang & Stone, "The
// Linear Complementarity Problem", 1992, section 1.1).
//
// Certificate. The natural residual ("min-map") of a candidate z is
//
//     r(z) = max_i |min(z_i, w_i)|,   w = M z + q,
//
// which is zero exactly when z solves the LCP (z >= 0, w >= 0 and z_i w_i = 0 for every i:
// min(z_i, w_i) = 0 says one of them is zero and the other nonnegative). It is the quantity
// Siconos's test data (tests/data/siconos-lcp/REFERENCE.md, column "minmap") reports, so obliq
// reports it unscaled for a like-for-like comparison.
//
// Acceptance, row by row. Each row of w = M z + q is judged against its own scale, the size of
// the terms whose sum it is, plus the rounding floor of z (a computed z is known only to the
// rounding of its largest entry: 1024 ulps of max|z|, at most tol_T / 16: config.hpp
// rounding_floor_over_tol),
//
//     s_i = |q_i| + sum_j |M_ij z_j| + (sum_j |M_ij| u_j) zmax min(1024 eps, tol_T / 16) / tol_T,
//     zmax = max_j |z_j| / u_j                                                    (docs/lcp.md (L1))
//
// (so a z_j that is rounding residue, 1e-31 beside z of order 1, does not make a row whose
// true terms are all zero fail on a scale of 1e-31; in double the floor is 2.3e-13 |M_i| max|z|
// in absolute terms, in float 6.3e-6 |M_i| max|z|). Each z_j is measured in the unit u_j of its
// column: u = 1 unless the caller passes the power-of-two column units of an equilibration
// (scaling.hpp), under which z_j / u_j are the equilibrated problem's unknowns, so that the
// verdict is that of the equilibrated problem, exactly (with u = 1 a z_j of 1e150 in one
// uncoupled row would widen every other row's floor to 2.3e-13 x 1e150);
// and z is accepted ("ok") when every row i has
//
//     z_i >= 0,   w_i >= -tol_T s_i,   and, if z_i > 0: w_i <= tol_T s_i or z_i |M_ii| <= tol_T s_i
//
// (z_i w_i = 0 to the row's rounding: either w_i is zero at its scale, or z_i is too small to
// move row i; with M_ii = 0 a positive z_i needs w_i zero at its scale). tol_T = 1e-9 for double
// and 1e-4 for float (about 1000 ulps at m = 24: room for the conditioning of small contact
// problems, never for a wrong active set, whose rows miss by O(s_i)). A row with s_i = 0 must hold
// exactly. One row's large numbers never hide another row's violation (as one global scale
// would: z = 0 for q = (-2, 1e10) is rejected), and the verdict is independent of the units of
// M and q and of scaling a row of (M, q): LCP(D M, D q) has the same solutions with the same
// verdicts (D positive diagonal); scaling a column of M (the unit of one z_j) leaves the
// verdict unchanged when u is scaled with it.
#pragma once

#include <cstddef>

#include "obliq/core/config.hpp"
#include "obliq/core/status.hpp"
#include "obliq/core/view.hpp"

namespace obliq::lcp {

// The outcome of one LCP solve. `iterations`: pivots (Lemke, principal pivoting), sweeps (PGS),
// complementary bases tried (enumeration). `residual`: r(z) above, unscaled.
template <class T> struct Result {
  Status status;
  int iterations;
  T residual;
};

// Relative acceptance tolerance tol_T (see the header comment).
template <class T> struct lcp_tolerance;
template <> struct lcp_tolerance<double> { static constexpr double rel = 1e-9; };
template <> struct lcp_tolerance<float> { static constexpr float rel = 1e-4f; };

// True when x is neither NaN nor +-Inf (no <cmath>: works the same under nvcc).
template <class T> OBLIQ_HD OBLIQ_FORCEINLINE bool is_finite_(T x) { return (x - x) == (x - x) && x == x; }

// Scans M (m x m) and q (m) for NaN or Inf.
template <class T> OBLIQ_HD bool lcp_input_finite(MatView<const T> M, VecView<const T> q) {
  const int m = q.size;
  for (int i = 0; i < m; ++i) {
    if (!is_finite_(q[i])) return false;
    for (int j = 0; j < m; ++j)
      if (!is_finite_(M(i, j))) return false;
  }
  return true;
}

// Sizes agree: M is m x m and z, w have m entries (m = q.size), with m <= max_m.
template <class T>
OBLIQ_HD bool lcp_shape_ok(MatView<const T> M, VecView<const T> q, VecView<T> z, VecView<T> w, int max_m = 1 << 30) {
  const int m = q.size;
  return M.rows == m && M.cols == m && z.size == m && w.size == m && m >= 0 && m <= max_m;
}

// The start every pivoting solver shares: checks the sizes (Status::bad_shape), sets z = 0 and
// w = q, and checks that M and q are finite (Status::non_finite, residual NaN). Returns false,
// with res set, when the solver must stop there.
template <class T>
OBLIQ_HD bool lcp_begin(MatView<const T> M, VecView<const T> q, VecView<T> z, VecView<T> w, Result<T>& res,
                        int max_m = 1 << 30) {
  res = Result<T>{Status::ok, 0, T(0)};
  if (!lcp_shape_ok(M, q, z, w, max_m)) {
    res.status = Status::bad_shape;
    return false;
  }
  for (int i = 0; i < q.size; ++i) z[i] = T(0), w[i] = q[i];
  if (!lcp_input_finite(M, q)) {
    res.status = Status::non_finite;
    res.residual = T(0) / T(0);
    return false;
  }
  return true;
}

// w := M z + q, then returns r(z) = max_i |min(z_i, w_i)| (NaN propagates: a non-finite z or w
// gives a non-finite residual, never a small one).
template <class T>
OBLIQ_HD T lcp_residual(MatView<const T> M, VecView<const T> q, VecView<const T> z, VecView<T> w) {
  const int m = q.size;
  T r = T(0);
  bool finite = true;
  for (int i = 0; i < m; ++i) {
    T s = q[i];
    for (int j = 0; j < m; ++j) s += M(i, j) * z[j];
    w[i] = s;
    const T mn = min_(z[i], s);
    if (!is_finite_(mn)) finite = false;
    r = max_(r, abs_(mn));
  }
  if (!finite) return T(0) / T(0) + (T(1) / T(0));  // NaN
  return r;
}

// Rows judged one by one: the block of row i is row i alone.
struct SingleRows {
  OBLIQ_HD int operator()(int i) const { return i + 1; }
};

namespace detail {

// The rounding floor of z in every row's scale: max_j |z_j| / u_j min(1024 eps, tol_T / 16) / tol_T
// (u: the column units; size 0: all 1).
template <class T> OBLIQ_HD T lcp_floor(VecView<const T> z, VecView<const T> unit) {
  const bool units = unit.size == z.size && z.size > 0;
  T zmax = T(0);
  for (int j = 0; j < z.size; ++j) zmax = max_(zmax, units ? abs_(z[j]) / unit[j] : abs_(z[j]));
  return zmax * rounding_floor_over_tol(lcp_tolerance<T>::rel);
}

// (L1): row i of w = M z + q and its scale s_i = |q_i| + sum_j (|M_ij z_j| + |M_ij| u_j floor)
// (u: the column units; size 0: all 1).
template <class T>
OBLIQ_HD OBLIQ_FORCEINLINE void lcp_row(MatView<const T> M, VecView<const T> q, VecView<const T> z,
                                        VecView<const T> unit, int i, T floor, T& w, T& s) {
  const bool units = unit.size == q.size && q.size > 0;
  w = q[i], s = abs_(q[i]);
  for (int j = 0; j < q.size; ++j) {
    const T p = M(i, j) * z[j];
    w += p;
    s += abs_(p) + abs_(M(i, j)) * (units ? unit[j] * floor : floor);
  }
}

// Row i's worst violation / scale in the acceptance test, given w_i and its (block's) scale s:
// +Inf for a non-finite w_i or z_i, or z_i < 0.
template <class T>
OBLIQ_HD OBLIQ_FORCEINLINE T lcp_row_violation(MatView<const T> M, VecView<const T> z, int i, T w, T s) {
  const T inf = T(1) / T(0);
  // v / s: 0 without a violation (v <= 0), +Inf for a violation on a zero scale or a NaN.
  const auto ratio = [&](T v, T sc) { return v > T(0) ? (sc > T(0) ? v / sc : inf) : (v <= T(0) ? T(0) : inf); };
  if (!is_finite_(w) || !is_finite_(z[i]) || z[i] < T(0)) return inf;
  T worst = ratio(-w, s);
  if (z[i] > T(0) && w > T(0)) {
    const T d = abs_(M(i, i)) * z[i];
    worst = max_(worst, d > T(0) ? min_(ratio(w, s), ratio(d, s)) : ratio(w, s));
  }
  return worst;
}

}  // namespace detail

// The worst row of the acceptance test (header comment): the largest violation / s_i, 0 for an
// exact solution, +Inf for a violation on a row with s_i = 0 or a non-finite z (NaN counts as Inf).
// `unit`: the column units u_j of the rounding floor (size 0: all 1; else size m, positive).
// `block_end(i)`, for the first row i of a block, is one past its last row: the rows of a block
// share the largest of their scales (a contact's rows of one velocity vector, split in a frame
// of the solver's choosing, as the pyramid's facet rows: friction/pyramid.hpp); SingleRows: every
// row alone, the test above.
template <class T, class BlockEnd = SingleRows>
OBLIQ_HD T lcp_certificate_in_units(MatView<const T> M, VecView<const T> q, VecView<const T> z, VecView<const T> unit,
                                    BlockEnd block_end = {}) {
  const int m = q.size;
  const T inf = T(1) / T(0);
  T worst = T(0);
  const T floor = detail::lcp_floor(z, unit);
  for (int b = 0; b < m;) {
    const int e = min_(max_(block_end(b), b + 1), m);
    T w, s, sb = T(0);
    if (e > b + 1)
      for (int i = b; i < e; ++i) detail::lcp_row(M, q, z, unit, i, floor, w, s), sb = max_(sb, s);
    for (int i = b; i < e; ++i) {
      detail::lcp_row(M, q, z, unit, i, floor, w, s);
      const T v = detail::lcp_row_violation(M, z, i, w, max_(s, sb));
      if (v == inf) return inf;
      worst = max_(worst, v);
    }
    b = e;
  }
  return worst;
}

// The acceptance test's worst row with every column unit 1 (the input's own units).
template <class T, class BlockEnd = SingleRows>
OBLIQ_HD T lcp_certificate(MatView<const T> M, VecView<const T> q, VecView<const T> z, BlockEnd block_end = {}) {
  return lcp_certificate_in_units(M, q, z, VecView<const T>{}, block_end);
}

// lcp_residual and lcp_certificate (rows judged one by one) in one pass over M: w := M z + q,
// `residual` := r(z), and returns the certificate; the same values as the two calls.
template <class T>
OBLIQ_HD T lcp_residual_certificate(MatView<const T> M, VecView<const T> q, VecView<const T> z, VecView<T> w,
                                    T& residual) {
  const int m = q.size;
  const T floor = detail::lcp_floor(z, VecView<const T>{});
  T r = T(0), worst = T(0);
  bool finite = true;
  for (int i = 0; i < m; ++i) {
    T wi, s;
    detail::lcp_row(M, q, z, VecView<const T>{}, i, floor, wi, s);
    w[i] = wi;
    const T mn = min_(z[i], wi);
    if (!is_finite_(mn)) finite = false;
    r = max_(r, abs_(mn));
    worst = max_(worst, detail::lcp_row_violation(M, z, i, wi, s));
  }
  residual = finite ? r : T(0) / T(0) + (T(1) / T(0));  // NaN, as lcp_residual
  return worst;
}

// The acceptance test (header comment) on a computed certificate, and on z.
template <class T> OBLIQ_HD OBLIQ_FORCEINLINE bool lcp_accepted(T certificate) {
  return certificate <= lcp_tolerance<T>::rel;  // false on NaN
}
template <class T, class BlockEnd = SingleRows>
OBLIQ_HD bool lcp_accept(MatView<const T> M, VecView<const T> q, VecView<const T> z, BlockEnd block_end = {}) {
  return lcp_accepted(lcp_certificate(M, q, z, block_end));
}

// The acceptance test with column units `unit` (lcp_certificate_in_units).
template <class T>
OBLIQ_HD bool lcp_accept_in_units(MatView<const T> M, VecView<const T> q, VecView<const T> z, VecView<const T> unit) {
  return lcp_certificate_in_units(M, q, z, unit) <= lcp_tolerance<T>::rel;  // false on NaN
}

// After a step of iterative refinement changed z (zold: z before it), keep the refined z only if
// its residual is at most the one before; otherwise restore zold. Updates w = M z + q,
// res.residual and `certificate` (lcp_certificate of the z kept), in one pass over M per z tried.
template <class T>
OBLIQ_HD void keep_better_refinement(MatView<const T> M, VecView<const T> q, VecView<T> z, VecView<T> zold, VecView<T> w,
                                     Result<T>& res, T& certificate) {
  T r2 = T(0);
  const T c2 = lcp_residual_certificate(M, q, z.as_const(), w, r2);
  if (r2 <= res.residual) {
    res.residual = r2;
    certificate = c2;
    return;
  }
  for (int k = 0; k < z.size; ++k) z[k] = zold[k];
  certificate = lcp_residual_certificate(M, q, z.as_const(), w, res.residual);
}
template <class T>
OBLIQ_HD void keep_better_refinement(MatView<const T> M, VecView<const T> q, VecView<T> z, VecView<T> zold, VecView<T> w,
                                     Result<T>& res) {
  T certificate = T(0);
  keep_better_refinement(M, q, z, zold, w, res, certificate);
}

}  // namespace obliq::lcp

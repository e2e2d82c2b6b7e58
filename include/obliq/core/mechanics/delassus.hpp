// obliq/core/mechanics/delassus.hpp: the factored Delassus operator W = A M^-1 A^T of the rows
// taking part, and the equality solve of the projection law.
//
// MATH.md 1 and 3: with A = U_r diag(s_r) V_r^T (rank decided on A alone) and M = L L^T,
//     W^+ = U_r diag(1/s_r) H^-1 diag(1/s_r) U_r^T,   H = V_r^T M^-1 V_r = Y^T Y,  Y = L^-1 V_r.
// The rows are thereby reduced to r orthonormal rows V_r^T; everything below works in the
// whitened coordinates xi = L^T (x - x_f), where the metric M becomes the identity.
#pragma once

#include <cmath>

#include "obliq/core/dense/cholesky.hpp"
#include "obliq/core/dense/ops.hpp"
#include "obliq/core/dense/svd.hpp"

namespace obliq {

template <class T> struct DelassusFactor {
  dense::Svd<T> svd;  // of A (m x n): U (m x m), s (m), V (n x m)
  MatView<T> Y;       // n x r, L^-1 V_r
  MatView<T> H;       // r x r, lower Cholesky factor of H = Y^T Y
  OBLIQ_HD int rank() const { return svd.rank; }
};

template <class T> OBLIQ_HD std::size_t delassus_workspace(int m, int n) {
  return dense::svd_workspace<T>(m, n) + std::size_t(n) * m + std::size_t(m) * m;
}

// Factors the rows A (m x n) given the Cholesky factor L of M.
template <class T>
OBLIQ_HD Status factor_delassus(MatView<const T> A, MatView<const T> L, DelassusFactor<T>& f, Arena<T>& arena) {
  const int n = A.cols;
  Status st = dense::svd(A, f.svd, arena);
  if (st != Status::ok) return st;
  const int r = f.svd.rank;
  f.Y = arena.mat(n, r);
  f.H = arena.mat(r, r);
  if (arena.overflow) return Status::bad_shape;
  dense::copy(f.svd.V.left_cols(r).as_const(), f.Y);
  dense::solve_lower(L, f.Y);
  dense::gram(f.Y, f.H);
  // H is SPD with cond(H) <= cond(M); failure means M is numerically singular.
  if (!dense::cholesky(f.H)) return Status::not_spd;
  return Status::ok;
}

// MATH.md 1: targets t are consistent when ||t - U_r U_r^T t|| <= tol * max(1, ||t||)
// (tol = 1e-10 in double).
template <class T> OBLIQ_HD bool targets_consistent(const DelassusFactor<T>& f, VecView<const T> t) {
  const T tol = sizeof(T) == sizeof(double) ? T(1e-10) : T(1e-5);
  const int m = f.svd.m, r = f.svd.rank;
  // The residual lies in the span of the trailing columns U_{r+1..m} (U is orthogonal):
  // |t - U_r U_r^T t|^2 = sum_{j >= r} (U_j^T t)^2, summed directly (no cancellation).
  T tt = T(0), res2 = T(0);
  for (int i = 0; i < m; ++i) tt += t[i] * t[i];
  for (int j = r; j < m; ++j) {
    T c = T(0);
    for (int i = 0; i < m; ++i) c += f.svd.U(i, j) * t[i];
    res2 += c * c;
  }
  return std::sqrt(res2) <= tol * max_(T(1), std::sqrt(tt));
}

// Projection law on the factored rows (MATH.md 4 and 5, KKT/Delassus form):
//     lambda = W^+ (t - A x_f),   x = x_f + M^-1 A^T lambda,   impulse = A^T lambda = V_r y
// with y = H^-1 diag(1/s_r) U_r^T (t - A x_f). Inconsistent targets are met in least squares,
// A x = A A^+ t. lambda is the minimum-norm multiplier. Outputs: x (n), lambda (m), impulse (n).
template <class T>
OBLIQ_HD void solve_equality(const DelassusFactor<T>& f, MatView<const T> A, MatView<const T> L, VecView<const T> x_f,
                             VecView<const T> t, VecView<T> x, VecView<T> lambda, VecView<T> impulse, Arena<T>& arena) {
  const int m = A.rows, n = A.cols, r = f.svd.rank;
  const std::size_t mark = arena.mark();
  VecView<T> res = arena.vec(m);
  VecView<T> y = arena.vec(r);
  // res = t - A x_f; y = diag(1/s) U_r^T res
  dense::copy(t, res);
  dense::gemv(T(-1), A, x_f, T(1), res);
  for (int j = 0; j < r; ++j) {
    T c = T(0);
    for (int i = 0; i < m; ++i) c += f.svd.U(i, j) * res[i];
    y[j] = c / f.svd.s[j];
  }
  dense::cholesky_solve(f.H.as_const(), y);  // y = H^-1 g
  for (int i = 0; i < m; ++i) {               // lambda = U_r diag(1/s) y
    T c = T(0);
    for (int j = 0; j < r; ++j) c += f.svd.U(i, j) * y[j] / f.svd.s[j];
    lambda[i] = c;
  }
  dense::gemv(T(1), f.svd.V.left_cols(r).as_const(), y.as_const(), T(0), impulse);  // A^T lambda
  dense::gemv(T(1), f.Y.as_const(), y.as_const(), T(0), x);                          // xi = Y y
  dense::solve_lower_transpose(L, x);                                                 // L^-T xi
  dense::axpy(T(1), x_f, x);
  arena.release(mark);
}

}  // namespace obliq

// obliq/core/mechanics/delassus.hpp: the factored Delassus operator W = A M^-1 A^T of the rows
// taking part, and the equality solve of the projection law.
//
// docs/math.md 1 and 3: write the rows as A = K V^T with V (n x r) orthonormal and K (m x r) of full
// column rank r = rank(A) (decided on A alone). With M = F F^T (mass_factor.hpp: F = L, the
// dense Cholesky factor, or the tree factor L^T),
//     W^+ = Kp H^-1 Kp^T,   Kp = K^{+T},   H = V^T M^-1 V = Y^T Y,   Y = F^-1 V.
// Two factorizations give K and V:
//  - Householder QR of A^T = Q R (m <= n), when it certifies full row rank: V = Q, K = R^T,
//    Kp = R^-1, and Y = F^-1 Q = (F^-1 A^T) R^-1 (Q itself is never formed). Certificate: s_min(A) >= 1 / |R^-1|_F, and full rank is accepted only when that
//    bound exceeds 8 times the rank tolerance tau = max(m, n) eps s_1 (s_1 <= |R|_F), so the
//    SVD would decide the same rank. This is docs/math.md 1's "QR of A^T" substitute, used where it
//    is unambiguous; it saves the Jacobi sweeps in the common case of independent contacts.
//  - otherwise the SVD A = U_r diag(s_r) V_r^T: V = V_r, K = U_r diag(s_r), Kp = U_r diag(1/s_r),
//    with U's trailing columns spanning the left null space (dependent rows).
// The rows are thereby reduced to r orthonormal rows V^T; everything below works in the
// whitened coordinates xi = F^T (x - x_f), where the metric M becomes the identity.
#pragma once

#include <cmath>

#include "obliq/core/dense/cholesky.hpp"
#include "obliq/core/dense/householder.hpp"
#include "obliq/core/dense/ops.hpp"
#include "obliq/core/dense/svd.hpp"
#include "obliq/core/mechanics/mass_factor.hpp"

namespace obliq {

template <class T> struct DelassusFactor {
  int m = 0, n = 0, r = 0;
  bool from_svd = false;  // svd below is filled (else the QR certificate gave r = m)
  dense::Svd<T> svd;      // of A (m x n), when from_svd: U (m x m), s (m), V (n x m)
  MatView<T> Kp;          // m x r, K^{+T}
  MatView<T> Y;           // n x r, F^-1 V
  MatView<T> H;           // r x r, lower Cholesky factor of H = Y^T Y
  OBLIQ_HD int rank() const { return r; }
};

template <class T> OBLIQ_HD std::size_t delassus_workspace(int m, int n) {
  const std::size_t M = m, N = n;
  const std::size_t qr = 2 * N * M + M + M * M;             // reflectors, beta, R^-1, V
  const std::size_t svd = dense::svd_workspace<T>(m, n) + M * M;  // SVD, Kp
  return max_(qr, svd) + N * M + M * M;                      // Y, H
}

namespace detail {
// QR path: fills f.Kp = R^-1 and returns true when full row rank is certified.
template <class T> OBLIQ_HD bool factor_rows_qr(MatView<const T> A, DelassusFactor<T>& f, Arena<T>& arena) {
  const int m = A.rows, n = A.cols;
  MatView<T> X = arena.mat(n, m);
  VecView<T> beta = arena.vec(m);
  MatView<T> Rinv = arena.mat(m, m);
  if (arena.overflow) return false;
  dense::copy(A.transpose(), X);
  dense::householder_qr(X, beta);
  // R^-1 (upper triangular), column by column by back substitution.
  T frob_R = T(0), frob_Rinv = T(0);
  for (int i = 0; i < m; ++i) {
    if (X(i, i) == T(0)) return false;
    for (int j = i; j < m; ++j) frob_R += X(i, j) * X(i, j);
  }
  for (int j = 0; j < m; ++j)
    for (int i = m - 1; i >= 0; --i) {
      T v = (i == j) ? T(1) : T(0);
      for (int k = i + 1; k <= j; ++k) v -= X(i, k) * Rinv(k, j);
      Rinv(i, j) = i > j ? T(0) : v / X(i, i);
      frob_Rinv += Rinv(i, j) * Rinv(i, j);
    }
  const T tau_bound = T(8) * T(max_(m, n)) * scalar_traits<T>::eps * std::sqrt(frob_R);
  if (!(T(1) / std::sqrt(frob_Rinv) > tau_bound)) return false;  // also false on NaN/Inf
  f.Kp = Rinv;
  f.r = m;
  f.from_svd = false;
  return true;
}
}  // namespace detail

// Factors the rows A (m x n) given the factor F of M (mass_factor.hpp).
template <class T>
OBLIQ_HD Status factor_delassus(MatView<const T> A, const MassFactor<T>& L, DelassusFactor<T>& f, Arena<T>& arena) {
  const int m = A.rows, n = A.cols;
  f.m = m;
  f.n = n;
  const std::size_t mark = arena.mark();
  if (!(m > 0 && m <= n && detail::factor_rows_qr(A, f, arena))) {
    arena.release(mark);
    arena.overflow = false;
    Status st = dense::svd(A, f.svd, arena);
    if (st != Status::ok) return st;
    f.from_svd = true;
    f.r = f.svd.rank;
    f.Kp = arena.mat(m, f.r);
    if (arena.overflow) return Status::bad_shape;
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < f.r; ++j) f.Kp(i, j) = f.svd.U(i, j) / f.svd.s[j];
  }
  const int r = f.r;
  f.Y = arena.mat(n, r);
  f.H = arena.mat(r, r);
  if (arena.overflow) return Status::bad_shape;
  if (f.from_svd) {
    dense::copy(f.svd.V.left_cols(r).as_const(), f.Y);  // Y = F^-1 V_r
    whiten(L, f.Y);
  } else {
    dense::copy(A.transpose(), f.Y);  // Y = (F^-1 A^T) R^-1, R^-1 upper triangular
    whiten(L, f.Y);
    for (int j = r - 1; j >= 0; --j)  // column j needs columns k <= j only: in place, right to left
      for (int i = 0; i < n; ++i) {
        T s = T(0);
        for (int k = 0; k <= j; ++k) s += f.Y(i, k) * f.Kp(k, j);
        f.Y(i, j) = s;
      }
  }
  dense::gram(f.Y, f.H);
  // H is SPD with cond(H) <= cond(M); failure means M is numerically singular.
  if (!dense::cholesky(f.H)) return Status::not_spd;
  return Status::ok;
}

// docs/math.md 1: targets t are consistent when ||t - U_r U_r^T t|| <= tol * max(1, ||t||)
// (tol = 1e-10 in double).
template <class T> OBLIQ_HD bool targets_consistent(const DelassusFactor<T>& f, VecView<const T> t) {
  const T tol = sizeof(T) == sizeof(double) ? T(1e-10) : T(1e-5);
  const int m = f.m, r = f.r;
  if (r == m) return true;  // full row rank: every target is reachable (and f.svd may be unset)
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

// Projection law on the factored rows (docs/math.md 4 and 5, KKT/Delassus form):
//     lambda = W^+ (t - A x_f),   x = x_f + M^-1 A^T lambda = x_f + F^-T Y y,   impulse = A^T lambda
// with y = H^-1 Kp^T (t - A x_f), lambda = Kp y. Inconsistent targets are met in least squares,
// A x = A A^+ t. lambda is the minimum-norm multiplier. Outputs: x (n), lambda (m), impulse (n).
template <class T>
OBLIQ_HD void solve_equality(const DelassusFactor<T>& f, MatView<const T> A, const MassFactor<T>& L, VecView<const T> x_f,
                             VecView<const T> t, VecView<T> x, VecView<T> lambda, VecView<T> impulse, Arena<T>& arena) {
  const int m = A.rows, r = f.r;
  const std::size_t mark = arena.mark();
  VecView<T> res = arena.vec(m);
  VecView<T> y = arena.vec(r);
  // res = t - A x_f; g = K^+ res = Kp^T res
  dense::copy(t, res);
  dense::gemv(T(-1), A, x_f, T(1), res);
  dense::gemv(T(1), f.Kp.transpose().as_const(), res.as_const(), T(0), y);
  dense::cholesky_solve(f.H.as_const(), y);                                 // y = H^-1 g
  dense::gemv(T(1), f.Kp.as_const(), y.as_const(), T(0), lambda);           // lambda = Kp y
  dense::gemv(T(1), A.transpose(), lambda.as_const(), T(0), impulse);      // A^T lambda
  dense::gemv(T(1), f.Y.as_const(), y.as_const(), T(0), x);                          // xi = Y y
  unwhiten(L, x);                                                                     // F^-T xi
  dense::axpy(T(1), x_f, x);
  arena.release(mark);
}

}  // namespace obliq

// obliq/core/dense/svd.hpp: singular value decomposition of a small matrix by one-sided
// (Hestenes) Jacobi rotations, and the rank rule of docs/math.md section 1.
//
// For A (m x n) we orthogonalize the columns of X = A^T (n x m) by plane rotations J:
// X J = B with mutually orthogonal columns b_i, |b_i| = s_i. Then A = J diag(s) Vh^T with
// Vh = B diag(1/s): U = J (m x m, orthogonal), V = Vh (n x r). Jacobi is the most accurate
// way to get small singular values, which is what the rank decision needs, and it is simple
// enough to run per scenario inside a kernel.
#pragma once

#include <cmath>

#include "obliq/core/config.hpp"
#include "obliq/core/dense/householder.hpp"
#include "obliq/core/status.hpp"
#include "obliq/core/view.hpp"

namespace obliq::dense {

template <class T> struct Svd {
  int m = 0, n = 0;
  int rank = 0;
  MatView<T> U;  // m x m, orthogonal; columns ordered by decreasing singular value
  VecView<T> s;  // m singular values, decreasing (entries past min(m, n) are ~0)
  MatView<T> V;  // n x m; column i = A^T U_i / s_i for i < rank (orthonormal), unspecified after
};

template <class T> OBLIQ_HD std::size_t svd_workspace(int m, int n) {
  // U, s, V, and for m < n the QR preconditioning: Householder vectors (n x m), R (m x m), betas.
  return std::size_t(m) * m + std::size_t(m) + std::size_t(n) * m +
         (m < n ? std::size_t(n) * m + std::size_t(m) * m + std::size_t(m) : 0);
}

// docs/math.md 1: tau = max(m, n) * eps * s_1; rank = #{s_i > tau}.
template <class T> OBLIQ_HD int svd_rank(VecView<const T> s, int m, int n) {
  if (m == 0 || n == 0) return 0;
  const T s1 = s[0];
  if (!(s1 > T(0))) return 0;
  const T tau = T(max_(m, n)) * scalar_traits<T>::eps * s1;
  int r = 0;
  while (r < s.size && r < n && s[r] > tau) ++r;
  return r;
}

// Computes the SVD of A into views taken from the arena. Returns Status::no_convergence if the
// sweeps did not converge (never seen on finite input; the budget is a safeguard).
//
// With fewer rows than columns (m < n, the usual contact case) the rotations run on the m x m
// triangular factor of a Householder QR, X = A^T = Q R, instead of on X itself (the
// preconditioning of LAPACK's xGEJSV): R J = B, so A = J diag(s) (Q Vh)^T with Vh = B diag(1/s);
// the sweeps then cost O(m^3) instead of O(m^2 n), and V = Q [Vh; 0].
template <class T> OBLIQ_HD Status svd(MatView<const T> A, Svd<T>& out, Arena<T>& arena, int max_sweeps = 60) {
  const int m = A.rows, n = A.cols;
  const bool qr = m < n;
  out.m = m;
  out.n = n;
  out.U = arena.mat(m, m);
  out.s = arena.vec(m);
  out.V = arena.mat(n, m);
  MatView<T> H, B;  // Householder vectors (n x m, below the diagonal); rotated matrix (p x m)
  VecView<T> beta;
  if (qr) {
    H = arena.mat(n, m);
    B = arena.mat(m, m);
    beta = arena.vec(m);
  } else {
    B = out.V;
  }
  if (arena.overflow) return Status::bad_shape;
  MatView<T> U = out.U;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) U(i, j) = (i == j) ? T(1) : T(0);
  MatView<T> X = qr ? H : B;  // X = A^T
  for (int k = 0; k < n; ++k)
    for (int i = 0; i < m; ++i) X(k, i) = A(i, k);

  if (qr) {
    householder_qr(X, beta);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < m; ++j) B(i, j) = j >= i ? X(i, j) : T(0);
  }
  const int p = B.rows;

  const T eps = scalar_traits<T>::eps;
  // Columns below eps * |A|_F are rounding noise (their singular values fall under the rank
  // tolerance); rotating them against each other would never settle, so they are left alone.
  T frob2 = T(0);
  for (int k = 0; k < p; ++k)
    for (int i = 0; i < m; ++i) frob2 += B(k, i) * B(k, i);
  const T negligible = eps * eps * frob2;
  const T orth_tol = T(p) * eps;
  bool converged = (m <= 1);
  for (int sweep = 0; sweep < max_sweeps && !converged; ++sweep) {
    converged = true;
    for (int i = 0; i < m - 1; ++i) {
      for (int j = i + 1; j < m; ++j) {
        T alpha = T(0), beta2 = T(0), gamma = T(0);
        for (int k = 0; k < p; ++k) {
          const T bi = B(k, i), bj = B(k, j);
          alpha += bi * bi;
          beta2 += bj * bj;
          gamma += bi * bj;
        }
        // Rotate only when the pair is not yet orthogonal to working precision: p * eps, as in
        // LAPACK's xGESVJ (a bound of eps alone can keep rotating on rounding noise forever).
        if (!(abs_(gamma) > orth_tol * std::sqrt(alpha * beta2)) || gamma == T(0)) continue;
        if (alpha <= negligible || beta2 <= negligible) continue;
        converged = false;
        const T zeta = (beta2 - alpha) / (T(2) * gamma);
        const T t = (zeta >= T(0) ? T(1) : T(-1)) / (abs_(zeta) + std::sqrt(T(1) + zeta * zeta));
        const T c = T(1) / std::sqrt(T(1) + t * t);
        const T sn = c * t;
        for (int k = 0; k < p; ++k) {
          const T bi = B(k, i), bj = B(k, j);
          B(k, i) = c * bi - sn * bj;
          B(k, j) = sn * bi + c * bj;
        }
        for (int k = 0; k < m; ++k) {
          const T ui = U(k, i), uj = U(k, j);
          U(k, i) = c * ui - sn * uj;
          U(k, j) = sn * ui + c * uj;
        }
      }
    }
  }

  // Singular values are the column norms; order them decreasingly (selection sort, swapping
  // the columns of B and U along).
  for (int i = 0; i < m; ++i) {
    T a = T(0);
    for (int k = 0; k < p; ++k) a += B(k, i) * B(k, i);
    out.s[i] = std::sqrt(a);
  }
  for (int i = 0; i < m; ++i) {
    int best = i;
    for (int j = i + 1; j < m; ++j)
      if (out.s[j] > out.s[best]) best = j;
    if (best != i) {
      swap_(out.s[i], out.s[best]);
      for (int k = 0; k < p; ++k) swap_(B(k, i), B(k, best));
      for (int k = 0; k < m; ++k) swap_(U(k, i), U(k, best));
    }
  }
  out.rank = svd_rank<T>(out.s.as_const(), m, n);
  for (int i = 0; i < out.rank; ++i) {
    const T inv = T(1) / out.s[i];
    for (int k = 0; k < p; ++k) B(k, i) *= inv;
  }
  if (qr) {
    // V = Q [Vh; 0]
    MatView<T> V = out.V;
    for (int k = 0; k < n; ++k)
      for (int i = 0; i < m; ++i) V(k, i) = k < m ? B(k, i) : T(0);
    apply_q(H.as_const(), beta.as_const(), V);
  }
  return converged ? Status::ok : Status::no_convergence;
}

}  // namespace obliq::dense

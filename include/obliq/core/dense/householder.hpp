// obliq/core/dense/householder.hpp: Householder QR of a small tall matrix, X = Q R, kept in
// LAPACK's compact form (R in the upper triangle, the reflectors below it), and the product
// with Q.
#pragma once

#include <cmath>

#include "obliq/core/view.hpp"

namespace obliq::dense {

// In place: X (n x m, n >= m) becomes R (upper triangle) and the reflectors
// H_j = I - beta_j v_j v_j^T, v_j = (1, X(j+1.., j)) (below the diagonal).
template <class T> OBLIQ_HD void householder_qr(MatView<T> X, VecView<T> beta) {
  const int n = X.rows, m = X.cols;
  for (int j = 0; j < m; ++j) {
    T norm2 = T(0);
    for (int k = j; k < n; ++k) norm2 += X(k, j) * X(k, j);
    const T alpha = std::sqrt(norm2);
    const T x0 = X(j, j);
    if (alpha == T(0)) {
      beta[j] = T(0);
      continue;
    }
    const T r = x0 >= T(0) ? -alpha : alpha;  // R_jj, sign chosen against cancellation
    const T v0 = x0 - r;
    for (int k = j + 1; k < n; ++k) X(k, j) /= v0;
    X(j, j) = r;
    beta[j] = -v0 / r;  // = 2 / (v^T v)
    for (int c = j + 1; c < m; ++c) {
      T d = X(j, c);
      for (int k = j + 1; k < n; ++k) d += X(k, j) * X(k, c);
      d *= beta[j];
      X(j, c) -= d;
      for (int k = j + 1; k < n; ++k) X(k, c) -= d * X(k, j);
    }
  }
}

// C <- H_j C with the j-th reflector of householder_qr in X.
template <class T> OBLIQ_HD void apply_reflector(MatView<const T> X, VecView<const T> beta, int j, MatView<T> C) {
  const int n = X.rows;
  if (beta[j] == T(0)) return;
  for (int c = 0; c < C.cols; ++c) {
    T d = C(j, c);
    for (int k = j + 1; k < n; ++k) d += X(k, j) * C(k, c);
    d *= beta[j];
    C(j, c) -= d;
    for (int k = j + 1; k < n; ++k) C(k, c) -= d * X(k, j);
  }
}

// C (n x c) <- Q C = H_0 H_1 ... H_{m-1} C, with the reflectors of householder_qr in X.
template <class T> OBLIQ_HD void apply_q(MatView<const T> X, VecView<const T> beta, MatView<T> C) {
  for (int j = X.cols - 1; j >= 0; --j) apply_reflector(X, beta, j, C);
}

// C (n x c) <- Q^T C = H_{m-1} ... H_1 H_0 C (each H_j is symmetric).
template <class T> OBLIQ_HD void apply_qt(MatView<const T> X, VecView<const T> beta, MatView<T> C) {
  for (int j = 0; j < X.cols; ++j) apply_reflector(X, beta, j, C);
}

}  // namespace obliq::dense

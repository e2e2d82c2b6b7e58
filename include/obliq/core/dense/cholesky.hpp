// obliq/core/dense/cholesky.hpp: Cholesky factorization L L^T = A of a small SPD matrix, with
// failure detection, and the triangular solves built on it.
#pragma once

#include <cmath>

#include "obliq/core/view.hpp"

namespace obliq::dense {

// Overwrites the lower triangle of A with L (the strict upper triangle is not read and is
// set to zero). Returns false when a pivot is not positive (A not positive definite) or
// not finite; A is then partly overwritten.
template <class T> OBLIQ_HD bool cholesky(MatView<T> A) {
  const int n = A.rows;
  for (int j = 0; j < n; ++j) {
    T d = A(j, j);
    for (int k = 0; k < j; ++k) d -= A(j, k) * A(j, k);
    if (!(d > T(0)) || !(d - d == T(0))) return false;
    const T ljj = std::sqrt(d);
    A(j, j) = ljj;
    const T inv = T(1) / ljj;
    for (int i = j + 1; i < n; ++i) {
      T s = A(i, j);
      for (int k = 0; k < j; ++k) s -= A(i, k) * A(j, k);
      A(i, j) = s * inv;
    }
    for (int i = 0; i < j; ++i) A(i, j) = T(0);
  }
  return true;
}

// x <- L^-1 x (forward substitution).
template <class T> OBLIQ_HD void solve_lower(MatView<const T> L, VecView<T> x) {
  for (int i = 0; i < L.rows; ++i) {
    T s = x[i];
    for (int k = 0; k < i; ++k) s -= L(i, k) * x[k];
    x[i] = s / L(i, i);
  }
}

// x <- L^-T x (back substitution with the transpose).
template <class T> OBLIQ_HD void solve_lower_transpose(MatView<const T> L, VecView<T> x) {
  for (int i = L.rows - 1; i >= 0; --i) {
    T s = x[i];
    for (int k = i + 1; k < L.rows; ++k) s -= L(k, i) * x[k];
    x[i] = s / L(i, i);
  }
}

// x <- A^-1 x with A = L L^T.
template <class T> OBLIQ_HD void cholesky_solve(MatView<const T> L, VecView<T> x) {
  solve_lower(L, x);
  solve_lower_transpose(L, x);
}

// B <- L^-1 B, column by column.
template <class T> OBLIQ_HD void solve_lower(MatView<const T> L, MatView<T> B) {
  for (int j = 0; j < B.cols; ++j) solve_lower(L, B.col(j));
}

}  // namespace obliq::dense

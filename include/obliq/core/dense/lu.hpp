// obliq/core/dense/lu.hpp: LU factorization with partial pivoting of a small square matrix
// (Golub & Van Loan, "Matrix Computations", 4th ed., algorithm 3.4.1), for the nonsymmetric
// Jacobians of the frictional Newton method (core/friction).
#pragma once

#include "obliq/core/config.hpp"
#include "obliq/core/dense/ops.hpp"
#include "obliq/core/view.hpp"

namespace obliq::dense {

// y -= f x over n entries `inc` apart; the contiguous case (the CPU's) as a loop of its own, so
// that it vectorizes (the same operations on each entry, so the same values).
template <class T> OBLIQ_HD OBLIQ_FORCEINLINE void sub_scaled(T* y, const T* x, T f, int n, std::ptrdiff_t inc) {
  if (inc == 1) {
    for (int j = 0; j < n; ++j) y[j] -= f * x[j];
  } else {
    for (int j = 0; j < n; ++j) y[j * inc] -= f * x[j * inc];
  }
}

// In place: A (k x k) becomes L (unit lower, below the diagonal) and U (upper triangle) of
// P A = L U; piv[c] is the row swapped with row c at step c. Returns false when a pivot is at
// most 4096 eps times the largest entry of A (singular to working precision) or not finite.
template <class T> OBLIQ_HD bool lu(MatView<T> A, IndexView<T> piv) {
  const int k = A.rows;
  const T amax = max_abs(A.as_const());
  const T ptol = T(4096) * scalar_traits<T>::eps * amax;
  for (int c = 0; c < k; ++c) {
    int p = c;
    for (int a = c + 1; a < k; ++a)
      if (abs_(A(a, c)) > abs_(A(p, c))) p = a;
    piv.set(c, p);
    if (!(abs_(A(p, c)) > ptol) || !(A(p, c) - A(p, c) == T(0))) return false;
    if (p != c)
      for (int j = 0; j < k; ++j) swap_(A(c, j), A(p, j));
    const T inv = T(1) / A(c, c);
    for (int a = c + 1; a < k; ++a) {
      const T f = A(a, c) * inv;
      A(a, c) = f;
      if (f == T(0)) continue;
      sub_scaled(&A(a, c + 1), &A(c, c + 1), f, k - c - 1, A.cs);
    }
  }
  return true;
}

// x <- A^-1 x with the factors of lu().
template <class T> OBLIQ_HD void lu_solve(MatView<const T> LU, IndexView<T> piv, VecView<T> x) {
  const int k = LU.rows;
  for (int c = 0; c < k; ++c) {
    const int p = piv.get(c);
    if (p != c) swap_(x[c], x[p]);
  }
  for (int i = 0; i < k; ++i) {
    T s = x[i];
    for (int j = 0; j < i; ++j) s -= LU(i, j) * x[j];
    x[i] = s;
  }
  for (int i = k - 1; i >= 0; --i) {
    T s = x[i];
    for (int j = i + 1; j < k; ++j) s -= LU(i, j) * x[j];
    x[i] = s / LU(i, i);
  }
}

}  // namespace obliq::dense

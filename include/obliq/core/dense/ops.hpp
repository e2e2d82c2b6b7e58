// obliq/core/dense/ops.hpp: the few BLAS-like loops the core needs, on strided views.
#pragma once

#include <math.h>

#include <type_traits>

#include "obliq/core/view.hpp"

namespace obliq::dense {

template <class T> OBLIQ_HD void fill(VecView<T> x, T value) {
  for (int i = 0; i < x.size; ++i) x[i] = value;
}
template <class T> OBLIQ_HD void fill(MatView<T> A, T value) {
  for (int i = 0; i < A.rows; ++i)
    for (int j = 0; j < A.cols; ++j) A(i, j) = value;
}
template <class T, class U> OBLIQ_HD void copy(VecView<U> src, VecView<T> dst) {
  for (int i = 0; i < src.size; ++i) dst[i] = T(src[i]);
}
template <class T, class U> OBLIQ_HD void copy(MatView<U> src, MatView<T> dst) {
  for (int i = 0; i < src.rows; ++i)
    for (int j = 0; j < src.cols; ++j) dst(i, j) = T(src(i, j));
}
template <class T, class U> OBLIQ_HD std::remove_const_t<T> dot(VecView<T> x, VecView<U> y) {
  std::remove_const_t<T> s = 0;
  for (int i = 0; i < x.size; ++i) s += x[i] * y[i];
  return s;
}
// Branch-free (fabs, and max_ compiles to one max instruction) with four running maxima so that
// the comparisons overlap: the same value as the plain loop (max is exact, NaN entries are skipped
// either way, and a zero comes out +0 both ways). The certificate's row scales and lu()'s pivot
// threshold spend their time here.
template <class T> OBLIQ_HD std::remove_const_t<T> max_abs(VecView<T> x) {
  std::remove_const_t<T> m0 = 0, m1 = 0, m2 = 0, m3 = 0;
  int i = 0;
  for (; i + 4 <= x.size; i += 4) {
    m0 = max_(m0, std::remove_const_t<T>(fabs(x[i]))), m1 = max_(m1, std::remove_const_t<T>(fabs(x[i + 1])));
    m2 = max_(m2, std::remove_const_t<T>(fabs(x[i + 2]))), m3 = max_(m3, std::remove_const_t<T>(fabs(x[i + 3])));
  }
  for (; i < x.size; ++i) m0 = max_(m0, std::remove_const_t<T>(fabs(x[i])));
  return max_(max_(m0, m1), max_(m2, m3));
}
template <class T> OBLIQ_HD std::remove_const_t<T> max_abs(MatView<T> A) {
  std::remove_const_t<T> m = 0;
  for (int i = 0; i < A.rows; ++i) m = max_(m, max_abs(A.row(i)));
  return m;
}
template <class T> OBLIQ_HD void scale(VecView<T> x, T alpha) {
  for (int i = 0; i < x.size; ++i) x[i] *= alpha;
}
// y += alpha * x
template <class T, class U> OBLIQ_HD void axpy(T alpha, VecView<U> x, VecView<T> y) {
  for (int i = 0; i < x.size; ++i) y[i] += alpha * T(x[i]);
}
// y = alpha * A x + beta * y   (beta = 0 overwrites y, even if it held NaN)
template <class T, class UA, class Ux> OBLIQ_HD void gemv(T alpha, MatView<UA> A, VecView<Ux> x, T beta, VecView<T> y) {
  for (int i = 0; i < A.rows; ++i) {
    T s = T(0);
    for (int j = 0; j < A.cols; ++j) s += T(A(i, j)) * T(x[j]);
    y[i] = (beta == T(0) ? T(0) : beta * y[i]) + alpha * s;
  }
}
// C = alpha * A B + beta * C
template <class T, class UA, class UB> OBLIQ_HD void gemm(T alpha, MatView<UA> A, MatView<UB> B, T beta, MatView<T> C) {
  for (int i = 0; i < C.rows; ++i)
    for (int j = 0; j < C.cols; ++j) {
      T s = T(0);
      for (int k = 0; k < A.cols; ++k) s += T(A(i, k)) * T(B(k, j));
      C(i, j) = (beta == T(0) ? T(0) : beta * C(i, j)) + alpha * s;
    }
}
// C = A^T A (Gram matrix of the columns of A), symmetric.
template <class T> OBLIQ_HD void gram(MatView<T> A, MatView<T> C) {
  for (int i = 0; i < A.cols; ++i)
    for (int j = 0; j <= i; ++j) {
      T s = T(0);
      for (int k = 0; k < A.rows; ++k) s += A(k, i) * A(k, j);
      C(i, j) = s;
      C(j, i) = s;
    }
}
template <class T> OBLIQ_HD bool all_finite(VecView<T> x) {
  for (int i = 0; i < x.size; ++i)
    if (!(x[i] - x[i] == 0)) return false;  // NaN or Inf
  return true;
}
template <class T> OBLIQ_HD bool all_finite(MatView<T> A) {
  for (int i = 0; i < A.rows; ++i)
    if (!all_finite(A.row(i))) return false;
  return true;
}

// A power of two p with p x in [1, 2) for finite x > 0 (1 otherwise; for subnormal x, the
// largest power of two there is). Multiplying by p is exact: the equilibration of rows and
// matrices that keeps squares and products of the core inside the floating-point range.
template <class T> OBLIQ_HD T pow2_inverse(T x) {
  if (!(x > T(0)) || !(x - x == T(0))) return T(1);
  int e = 0;
  constexpr int max_exp = sizeof(T) == sizeof(double) ? 1023 : 127;
  if constexpr (sizeof(T) == sizeof(double)) {
    ::frexp(double(x), &e);  // x = f 2^e, f in [0.5, 1)
    return T(::ldexp(1.0, min_(1 - e, max_exp)));
  } else {
    ::frexpf(float(x), &e);
    return T(::ldexpf(1.0f, min_(1 - e, max_exp)));
  }
}

}  // namespace obliq::dense

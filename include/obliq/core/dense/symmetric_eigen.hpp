// obliq/core/dense/symmetric_eigen.hpp: eigenvalues of a small symmetric matrix by cyclic
// Jacobi rotations (the energy-consistency test needs the largest one, docs/math.md 6).
#pragma once

#include <cmath>

#include "obliq/core/config.hpp"
#include "obliq/core/status.hpp"
#include "obliq/core/view.hpp"

namespace obliq::dense {

// Diagonalizes the symmetric matrix A in place (both triangles are read and updated); on
// return its diagonal holds the eigenvalues (unordered).
template <class T> OBLIQ_HD Status symmetric_eigenvalues(MatView<T> A, int max_sweeps = 60) {
  const int k = A.rows;
  const T eps = scalar_traits<T>::eps;
  for (int sweep = 0; sweep < max_sweeps; ++sweep) {
    T off = T(0), diag = T(0);
    for (int p = 0; p < k; ++p) {
      diag += A(p, p) * A(p, p);
      for (int q = p + 1; q < k; ++q) off += A(p, q) * A(p, q);
    }
    if (off <= eps * eps * diag || off == T(0)) return Status::ok;
    for (int p = 0; p < k - 1; ++p) {
      for (int q = p + 1; q < k; ++q) {
        const T apq = A(p, q);
        if (apq == T(0)) continue;
        // Classical Jacobi rotation zeroing A(p, q).
        const T theta = (A(q, q) - A(p, p)) / (T(2) * apq);
        const T t = (theta >= T(0) ? T(1) : T(-1)) / (abs_(theta) + std::sqrt(T(1) + theta * theta));
        const T c = T(1) / std::sqrt(T(1) + t * t);
        const T s = t * c;
        for (int r = 0; r < k; ++r) {  // columns p, q
          const T arp = A(r, p), arq = A(r, q);
          A(r, p) = c * arp - s * arq;
          A(r, q) = s * arp + c * arq;
        }
        for (int r = 0; r < k; ++r) {  // rows p, q
          const T apr = A(p, r), aqr = A(q, r);
          A(p, r) = c * apr - s * aqr;
          A(q, r) = s * apr + c * aqr;
        }
        A(p, q) = A(q, p) = T(0);
      }
    }
  }
  return Status::no_convergence;
}

// Largest eigenvalue of a symmetric matrix (destroys A). k = 0 gives 0.
template <class T> OBLIQ_HD Status max_eigenvalue(MatView<T> A, T& lambda_max) {
  lambda_max = T(0);
  if (A.rows == 0) return Status::ok;
  const Status st = symmetric_eigenvalues(A);
  lambda_max = A(0, 0);
  for (int i = 1; i < A.rows; ++i) lambda_max = max_(lambda_max, A(i, i));
  return st;
}

}  // namespace obliq::dense

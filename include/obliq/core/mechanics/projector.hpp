// obliq/core/mechanics/projector.hpp: pseudo-inverse A^+ and null-space projector P of the
// constraint Jacobian (docs/math.md 1, seed 000 section "a").
//
//     A = U_r diag(s_r) V_r^T,   A^+ = V_r diag(1/s_r) U_r^T,   P = I - A^+ A = I - V_r V_r^T
// P is built as I - V_r V_r^T (never as I - A^+ A, which is O(eps) noise when r = n).
#pragma once

#include "obliq/core/dense/svd.hpp"

namespace obliq {

// Apinv (n x m) = A^+ from the SVD of A.
template <class T> OBLIQ_HD void pseudo_inverse(const dense::Svd<T>& svd, MatView<T> Apinv) {
  for (int i = 0; i < svd.n; ++i)
    for (int j = 0; j < svd.m; ++j) {
      T s = T(0);
      for (int k = 0; k < svd.rank; ++k) s += svd.V(i, k) * svd.U(j, k) / svd.s[k];
      Apinv(i, j) = s;
    }
}

// P (n x n) = I - V_r V_r^T, the orthogonal projector onto N(A).
template <class T> OBLIQ_HD void null_space_projector(const dense::Svd<T>& svd, MatView<T> P) {
  for (int i = 0; i < svd.n; ++i)
    for (int j = 0; j < svd.n; ++j) {
      T s = (i == j) ? T(1) : T(0);
      for (int k = 0; k < svd.rank; ++k) s -= svd.V(i, k) * svd.V(j, k);
      P(i, j) = s;
    }
}

}  // namespace obliq

// obliq/core/mechanics/oblique_projection.hpp: the oblique projector S, the reflector R and the
// closed-form impact law of seed 000 (docs/math.md 3 and 5, eq 26-27, 42-50).
//
//     S = I - M_c^-1 P M                       (= M^-1 A^T W^+ A, the M-orthogonal projector
//                                               onto M^-1 range(A^T))
//     M_o^+ = M_c^-1 P
//     v = q - S (I + Etilde) q + M_o^+ i_u,   Etilde = A^+ E A      (eq 49, general form)
// The batch paths use the cheaper Delassus form (delassus.hpp); these functions are the
// seed's own formulas, kept for analysis and cross-checked against it in the tests.
#pragma once

#include "obliq/core/dense/cholesky.hpp"
#include "obliq/core/dense/ops.hpp"

namespace obliq {

// S (n x n) and M_o^+ (n x n) from M, P and M_c. Returns false when M_c is not SPD.
template <class T>
OBLIQ_HD bool oblique_projection(MatView<const T> M, MatView<const T> P, MatView<const T> M_c, MatView<T> S,
                                 MatView<T> Mo_pinv, Arena<T>& arena) {
  const int n = M.rows;
  const std::size_t mark = arena.mark();
  MatView<T> Lc = arena.mat(n, n);
  dense::copy(M_c, Lc);
  if (!dense::cholesky(Lc)) {
    arena.release(mark);
    return false;
  }
  // S = I - M_c^-1 (P M), column by column; M_o^+ = M_c^-1 P.
  dense::gemm(T(-1), P, M, T(0), S);
  for (int j = 0; j < n; ++j) dense::cholesky_solve(Lc.as_const(), S.col(j));
  for (int i = 0; i < n; ++i) S(i, i) += T(1);
  dense::copy(P, Mo_pinv);
  for (int j = 0; j < n; ++j) dense::cholesky_solve(Lc.as_const(), Mo_pinv.col(j));
  arena.release(mark);
  return true;
}

// Eq 49: v = q - S (I + Etilde) q + M_o^+ i_u with Etilde = A^+ E A, E = diag(E_diag) (m).
template <class T>
OBLIQ_HD void impact_closed_form(MatView<const T> S, MatView<const T> Mo_pinv, MatView<const T> A, MatView<const T> Apinv,
                                 VecView<const T> E_diag, VecView<const T> q, VecView<const T> i_u, VecView<T> v,
                                 Arena<T>& arena) {
  const int n = S.rows, m = A.rows;
  const std::size_t mark = arena.mark();
  VecView<T> Aq = arena.vec(m), w = arena.vec(n);
  dense::gemv(T(1), A, q, T(0), Aq);
  for (int i = 0; i < m; ++i) Aq[i] *= E_diag[i];      // E A q
  dense::gemv(T(1), Apinv, Aq.as_const(), T(0), w);    // Etilde q
  dense::axpy(T(1), q, w);                             // (I + Etilde) q
  dense::copy(q, v);
  dense::gemv(T(-1), S, w.as_const(), T(1), v);        // q - S (I + Etilde) q
  dense::gemv(T(1), Mo_pinv, i_u, T(1), v);            // + M_o^+ i_u
  arena.release(mark);
}

}  // namespace obliq

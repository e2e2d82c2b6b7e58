// obliq/core/lcp/pgs.hpp: projected Gauss-Seidel / SOR with warm start and a sweep budget.
//
// Mathematics (Cryer 1971, "The solution of a quadratic programming problem using systematic
// overrelaxation", SIAM J. Control 9; Cottle, Pang & Stone 1992, section 5.2 "projected SOR";
// Erleben 2013, "Numerical methods for linear complementarity problems in physics-based
// animation"). One sweep updates each index in turn with the values already updated:
//
//     z_i <- max(0, z_i - omega (q_i + sum_j M_ij z_j) / M_ii),   0 < omega < 2.
//
// For symmetric M with positive diagonal (a PSD contact matrix W = A M^-1 A^T with no zero row)
// the iterates decrease the quadratic 1/2 z^T M z + q^T z and converge to a solution when one
// exists (CPS Theorem 5.2.4, for PD M; for PSD M to a solution when the LCP is solvable); it is
// the GPU-friendly method: no pivoting, fixed work per sweep, and a warm start from the previous
// step's z. It is not an exact method: it stops when the certificate of certificate.hpp accepts
// (checked after every sweep) or when the sweep budget runs out (Status::lcp_budget, with the
// last iterate and its residual). A row with M_ii <= 0 cannot be relaxed; it is skipped, and the
// certificate tells whether the result still solves the LCP. Divergence to Inf/NaN (possible
// for nonsymmetric M) stops with Status::no_convergence.
#pragma once

#include <cstddef>

#include "obliq/core/config.hpp"
#include "obliq/core/lcp/certificate.hpp"
#include "obliq/core/status.hpp"
#include "obliq/core/view.hpp"

namespace obliq::lcp {

// Arena elements pgs() takes: none (it works in z and w).
template <class T> OBLIQ_HD std::size_t pgs_workspace(int) { return 0; }

// Solves LCP(M, q) by projected SOR. `warm_start`: start from the given z (negative entries are
// projected to 0; non-finite ones reset the start to 0), else from z = 0. `omega`: relaxation,
// in (0, 2) (1 = Gauss-Seidel; outside: Status::bad_tolerance). `iterations` = sweeps done.
template <class T>
OBLIQ_HD Result<T> pgs(MatView<const T> M, VecView<const T> q, VecView<T> z, VecView<T> w, Arena<T>& arena,
                       int max_iterations, T omega = T(1), bool warm_start = false) {
  (void)arena;
  const int m = q.size;
  Result<T> res{Status::ok, 0, T(0)};
  if (!lcp_shape_ok(M, q, z, w)) {
    res.status = Status::bad_shape;
    return res;
  }
  if (!(omega > T(0) && omega < T(2))) {
    res.status = Status::bad_tolerance;
    return res;
  }
  bool start_finite = warm_start;
  for (int i = 0; i < m && start_finite; ++i) start_finite = is_finite_(z[i]);
  for (int i = 0; i < m; ++i) z[i] = start_finite ? max_(z[i], T(0)) : T(0);
  if (!lcp_input_finite(M, q)) {
    for (int i = 0; i < m; ++i) z[i] = T(0), w[i] = q[i];
    res.status = Status::non_finite;
    res.residual = T(0) / T(0);
    return res;
  }
  if (lcp_accepted(lcp_residual_certificate(M, q, z.as_const(), w, res.residual))) return res;
  int it = 0;
  while (it < max_iterations) {
    for (int i = 0; i < m; ++i) {
      const T d = M(i, i);
      if (!(d > T(0))) continue;
      T s = q[i];
      for (int j = 0; j < m; ++j) s += M(i, j) * z[j];
      z[i] = max_(T(0), z[i] - omega * s / d);
    }
    ++it;
    if (lcp_accepted(lcp_residual_certificate(M, q, z.as_const(), w, res.residual))) {
      res.iterations = it;
      return res;
    }
    if (!is_finite_(res.residual)) {  // the iteration diverged (possible for nonsymmetric M)
      res.iterations = it;
      res.status = Status::no_convergence;
      return res;
    }
  }
  res.iterations = it;
  res.status = Status::lcp_budget;
  return res;
}

}  // namespace obliq::lcp

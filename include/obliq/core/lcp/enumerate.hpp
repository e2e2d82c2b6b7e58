// obliq/core/lcp/enumerate.hpp: enumeration of complementary bases (active sets), small m only.
//
// Mathematics (Cottle, Pang & Stone 1992, section 1.1 and 4.1: every solution of a
// nondegenerate LCP is a complementary basic solution; Murty 1988, section 1.3 "the
// complementary cones"). For each index set J (z_J free, z_i = 0 outside J; w_J = 0) solve the
// principal system M_JJ z_J = -q_J (basis.hpp: Gaussian elimination with partial pivoting, J
// skipped when M_JJ is singular to working precision) and accept the first z whose certificate
// (certificate.hpp) passes. Sets are visited in order of the bitmask of J (J = {}
// first), so 2^m bases at most: use it for m up to ~16 (the budget `max_iterations` counts bases
// tried; more than that: Status::lcp_budget). It is exact and needs nothing of M, which makes it
// the oracle of last resort for small nonsymmetric problems (lcp_CPS_3.dat, where Lemke's method
// ends on a ray). When no basis with a nonsingular principal block solves the LCP the status is
// Status::infeasible: for a nondegenerate LCP that proves there is no solution; in degenerate
// cases a solution on a singular basis can be missed.
#pragma once

#include <cstddef>

#include "obliq/core/config.hpp"
#include "obliq/core/lcp/basis.hpp"
#include "obliq/core/lcp/certificate.hpp"
#include "obliq/core/lcp/scaling.hpp"
#include "obliq/core/status.hpp"
#include "obliq/core/view.hpp"

namespace obliq::lcp {

// Arena elements enumerate() takes: one basis trial's scratch (basis.hpp) and the equilibration's
// (scaling.hpp).
template <class T> OBLIQ_HD std::size_t enumerate_workspace(int m) {
  return equilibration_workspace<T>(m) + basis_workspace<T>(m);
}

namespace detail {

// One enumeration on (M, q) as given (enumerate() below).
template <class T>
OBLIQ_HD Result<T> enumerate_run(MatView<const T> M, VecView<const T> q, VecView<T> z, VecView<T> w, Arena<T>& arena,
                                 int max_iterations) {
  const int m = q.size;
  Result<T> res;
  if (!lcp_begin(M, q, z, w, res, /*max_m=*/62)) return res;
  const std::size_t mark = arena.mark();
  BasisScratch<T> scratch;
  if (!take_basis_scratch(arena, m, scratch)) {
    arena.release(mark);
    res.status = Status::bad_shape;
    return res;
  }
  const unsigned long long count = 1ull << m;
  bool solved = false;
  int it = 0;
  for (unsigned long long mask = 0; mask < count; ++mask) {
    if (it >= max_iterations) {
      res.status = Status::lcp_budget;
      break;
    }
    ++it;
    int k = 0;
    for (int i = 0; i < m; ++i)
      if (mask >> i & 1ull) scratch.idx.set(k++, i);
    T r = T(0);
    if (try_basis(M, q, scratch, k, z, w, r)) {
      res.residual = r;
      solved = true;
      break;
    }
  }
  res.iterations = it;
  if (!solved) {
    for (int i = 0; i < m; ++i) z[i] = T(0);
    res.residual = lcp_residual(M, q, z.as_const(), w);
    if (res.status == Status::ok) res.status = Status::infeasible;
  }
  arena.release(mark);
  return res;
}

}  // namespace detail

// Solves LCP(M, q) by enumerating complementary bases (m <= 62). Returns as lemke(); Status ok,
// infeasible (no basis solves it: judged on the equilibrated problem when rows or columns are
// widely spread, scaling.hpp), lcp_budget (more than max_iterations bases), non_finite,
// bad_shape.
template <class T>
OBLIQ_HD Result<T> enumerate(MatView<const T> M, VecView<const T> q, VecView<T> z, VecView<T> w, Arena<T>& arena,
                             int max_iterations) {
  return solve_equilibrated(M, q, z, w, arena,
                            [&](MatView<const T> Ms, VecView<const T> qs, VecView<T> zs, VecView<T> ws, Arena<T>& a) {
                              return detail::enumerate_run(Ms, qs, zs, ws, a, max_iterations);
                            });
}

}  // namespace obliq::lcp

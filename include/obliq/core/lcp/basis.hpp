// obliq/core/lcp/basis.hpp: one complementary basis (active set) tried directly, and the warm
// start built on it.
//
// Mathematics (Cottle, Pang & Stone 1992, section 1.1 and 4.1; Murty 1988, section 1.3 "the
// complementary cones"). For an index set J (z_J basic, z_i = 0 outside J, w_J = 0) the
// complementary basic solution solves the principal system
//
//     M_JJ z_J = -q_J,
//
// here by the LU with partial pivoting of dense/lu.hpp; J is skipped as singular when a pivot is
// <= 4096 eps times the largest entry of M_JJ. z is accepted only when the certificate of
// certificate.hpp passes, so a wrong J can never give an "ok" answer: it misses by O(s_i) in some
// row. enumerate.hpp tries every J this way; warm_start() below tries the one J the caller
// passes (the previous solve's active set: time stepping and sweeps solve nearly the same LCP
// again and again, and the same J usually solves the next one).
#pragma once

#include <cstddef>

#include "obliq/core/config.hpp"
#include "obliq/core/dense/lu.hpp"
#include "obliq/core/lcp/certificate.hpp"
#include "obliq/core/lcp/scaling.hpp"
#include "obliq/core/status.hpp"
#include "obliq/core/view.hpp"

namespace obliq::lcp {

// Arena elements a basis trial takes (take_basis_scratch): the principal block m x m, its
// right-hand side (m), the index list of J (m) and the LU's pivots (m).
template <class T> OBLIQ_HD std::size_t basis_workspace(int m) {
  const std::size_t n = std::size_t(m < 0 ? 0 : m);
  return n * n + 3 * n;
}

// The scratch of try_basis() for any J of 0..m-1, taken from the arena (released by the caller
// with the arena's mark).
template <class T> struct BasisScratch {
  MatView<T> A;     // (m x m) M_JJ in its leading k x k block, factorised in place
  VecView<T> b;     // (m) -q_J, then z_J
  IndexView<T> idx; // (m) the indices in J
  IndexView<T> piv; // (m) the LU's row swaps
};

// Takes the scratch for an m-row LCP; false when the arena cannot hold it.
template <class T> OBLIQ_HD bool take_basis_scratch(Arena<T>& arena, int m, BasisScratch<T>& s) {
  s.A = arena.mat(m, m);
  s.b = arena.vec(m);
  s.idx = IndexView<T>{arena.take(std::size_t(m)), m, arena.stride};
  s.piv = IndexView<T>{arena.take(std::size_t(m)), m, arena.stride};
  return !arena.overflow && (m == 0 || (s.idx.slots != nullptr && s.piv.slots != nullptr));
}

// Solves the principal system of J = idx[0..k) with the LU of dense/lu.hpp in the scratch's
// leading k x k block, sets z (z_J clamped at 0 against rounding-level negatives, 0 elsewhere),
// w = M z + q and `residual`; returns true when the certificate accepts z. A singular M_JJ
// returns false with z, w untouched.
template <class T>
OBLIQ_HD bool try_basis(MatView<const T> M, VecView<const T> q, const BasisScratch<T>& s, int k, VecView<T> z,
                        VecView<T> w, T& residual) {
  const int m = q.size;
  MatView<T> A = s.A.block(0, 0, k, k);
  VecView<T> b = s.b.head(k);
  for (int a = 0; a < k; ++a) {
    for (int c = 0; c < k; ++c) A(a, c) = M(s.idx.get(a), s.idx.get(c));
    b[a] = -q[s.idx.get(a)];
  }
  if (!dense::lu(A, s.piv)) return false;
  dense::lu_solve(A.as_const(), s.piv, b);
  // The certificate is computed on the clamped z, so whatever it accepts is a solution.
  for (int i = 0; i < m; ++i) z[i] = T(0);
  for (int a = 0; a < k; ++a) z[s.idx.get(a)] = max_(b[a], T(0));
  return lcp_accepted(lcp_residual_certificate(M, q, z.as_const(), w, residual));
}

namespace detail {

// One warm-start trial on (M, q) as given (warm_start() below).
template <class T, class Active>
OBLIQ_HD Result<T> warm_start_run(MatView<const T> M, VecView<const T> q, VecView<T> z, VecView<T> w, Arena<T>& arena,
                                  const Active& active, int count) {
  const int m = q.size;
  Result<T> res;
  if (!lcp_begin(M, q, z, w, res)) return res;
  if (count < 0 || count > m || (count > 0 && index_list_missing(active))) {
    res.status = Status::no_convergence;
    return res;
  }
  const std::size_t mark = arena.mark();
  BasisScratch<T> scratch;
  if (!take_basis_scratch(arena, m, scratch)) {
    arena.release(mark);
    res.status = Status::bad_shape;
    return res;
  }
  // z (all 0 after lcp_begin) marks the indices seen, to refuse repeats.
  bool valid = true;
  for (int a = 0; a < count && valid; ++a) {
    const int i = active[a];
    valid = i >= 0 && i < m && z[i] == T(0);
    if (valid) z[i] = T(1), scratch.idx.set(a, i);
  }
  for (int i = 0; i < m; ++i) z[i] = T(0);
  if (!valid || !try_basis(M, q, scratch, count, z, w, res.residual)) {
    for (int i = 0; i < m; ++i) z[i] = T(0), w[i] = q[i];
    res.residual = T(0);
    res.status = Status::no_convergence;
  }
  arena.release(mark);
  return res;
}

}  // namespace detail

// Warm start: tries J = active[0..count) (0-based indices into 0..m-1). Returns ok, with z,
// w = M z + q and the residual, when that basis is nonsingular and its z certifies; otherwise
// Status::no_convergence (also for an index out of range or repeated: the caller then solves
// cold), non_finite or bad_shape as the solvers. iterations = 0: no pivot is made. Widely
// spread rows and columns are equilibrated first (scaling.hpp); the arena needs
// equilibration_workspace<T>(m) + basis_workspace<T>(m).
template <class T, class Active>
OBLIQ_HD Result<T> warm_start(MatView<const T> M, VecView<const T> q, VecView<T> z, VecView<T> w, Arena<T>& arena,
                              const Active& active, int count) {
  return solve_equilibrated(M, q, z, w, arena,
                            [&](MatView<const T> Ms, VecView<const T> qs, VecView<T> zs, VecView<T> ws, Arena<T>& a) {
                              return detail::warm_start_run(Ms, qs, zs, ws, a, active, count);
                            });
}

}  // namespace obliq::lcp

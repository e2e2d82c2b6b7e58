// obliq/core/friction/painleve.hpp: how many solutions a small LCP has, for the Painleve cases of
// sliding friction at the acceleration level (docs/friction.md (F7)): with every contact
// sliding, the normal problem is LCP(W_NN - mu W_NT S, q_N), whose matrix need not be a
// P-matrix, and then it can have no solution (Painleve's inconsistency) or several
// (indeterminacy) (Painleve 1895; Lotstedt, SIAM J. Appl. Math. 42 (1982)).
//
// Method: every complementary basis J (2^k of them, k <= painleve_max_rows): solve
// M_JJ z_J = -q_J by LU, keep z when z_J >= 0 and w = M z + q >= 0 within the LCP certificate
// (core/lcp/certificate.hpp), count distinct solutions up to two. Bases with a singular M_JJ are
// skipped (a continuum of solutions through them is not seen: the count is exact for
// nondegenerate problems, Cottle, Pang & Stone 1992, section 1.1).
#pragma once

#include <cstddef>

#include "obliq/core/dense/lu.hpp"
#include "obliq/core/lcp/certificate.hpp"

namespace obliq::friction {

constexpr int painleve_max_rows = 12;

template <class T> OBLIQ_HD std::size_t count_solutions_workspace(int k) {
  const std::size_t n = std::size_t(k < 0 ? 0 : k);
  return n * n + 5 * n;
}

// Number of distinct solutions of LCP(M, q) found, capped at 2; -1 for k > painleve_max_rows or
// a too small arena.
template <class T> OBLIQ_HD int count_lcp_solutions(MatView<const T> M, VecView<const T> q, Arena<T>& arena) {
  const int k = q.size;
  if (k > painleve_max_rows) return -1;
  const std::size_t mark = arena.mark();
  MatView<T> A = arena.mat(k, k);
  VecView<T> b = arena.vec(k), z = arena.vec(k), first = arena.vec(k);
  IndexView<T> piv{arena.take(std::size_t(k)), k, arena.stride};
  if (arena.overflow) {
    arena.release(mark);
    return -1;
  }
  int found = 0;
  for (unsigned mask = 0; mask < (1u << k) && found < 2; ++mask) {
    int n = 0;
    int idx[painleve_max_rows];
    for (int i = 0; i < k; ++i)
      if (mask >> i & 1u) idx[n++] = i;
    MatView<T> An = A.block(0, 0, n, n);
    for (int a = 0; a < n; ++a) {
      for (int c = 0; c < n; ++c) An(a, c) = M(idx[a], idx[c]);
      b[a] = -q[idx[a]];
    }
    IndexView<T> pn{piv.slots, n, piv.inc};
    if (n > 0 && !dense::lu(An, pn)) continue;
    VecView<T> bn = b.head(n);
    if (n > 0) dense::lu_solve(An.as_const(), pn, bn);
    for (int i = 0; i < k; ++i) z[i] = T(0);
    for (int a = 0; a < n; ++a) z[idx[a]] = max_(b[a], T(0));  // counted only if it solves the LCP
    if (!lcp::lcp_accept(M, q, z.as_const())) continue;  // row-by-row certificate (lcp/certificate.hpp)
    if (found == 0) {
      for (int i = 0; i < k; ++i) first[i] = z[i];
      found = 1;
      continue;
    }
    T diff = T(0), size = T(0);
    for (int i = 0; i < k; ++i) diff = max_(diff, abs_(z[i] - first[i])), size = max_(size, max_(abs_(z[i]), abs_(first[i])));
    if (diff > T(1e3) * lcp::lcp_tolerance<T>::rel * size) found = 2;
  }
  arena.release(mark);
  return found;
}

}  // namespace obliq::friction

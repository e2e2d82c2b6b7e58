// obliq/core/lcp/scaling.hpp: exact (power-of-two) row and column equilibration of an LCP,
// applied before pivoting by Lemke's method, principal pivoting, enumeration and the warm start.
//
// Mathematics (docs/lcp.md (L2)-(L4)). LCP(M, q) is invariant under z = D z' / s,
// w = E w' / s with D, E positive diagonal and s > 0: w = M z + q  <=>  w' = M' z' + q' with
//
//     M' = E^-1 M D,   q' = s E^-1 q,                                         (L2)
//
// and w', z' >= 0, w'_i z'_i = 0 exactly when w, z are. A row's scale carries no information,
// but the solvers' pivot and tie tolerances and Lemke's covering vector d = (1, ..., 1) compare
// rows and columns with each other, so rows 1e300 apart defeat them (M = diag(1e300, 1),
// q = (-1e300, -1): Lemke and enumeration refused z = (1, 1)). Here E^-1 = diag(2^a_i),
// D = diag(2^b_j) and s = 2^c are powers of two, so M', q' and z are exact (no rounding; only
// entries pushed under the smallest normal number lose bits). The exponents come from integer
// passes over the binary exponents e(x) of the entries (frexp: x in [2^(e-1), 2^e)) of the rows
// of [M q] and the columns of [M q], each line shifted by
//
//     k = trunc((lo + hi) / 2)  (geometric passes),  then  k = trunc(hi / 2)  (largest entry) (L3)
//
// (lo, hi: the smallest and largest scaled exponent of the line's nonzero entries), each phase
// until nothing changes or 16 passes: the geometric scaling of linear programming codes (it
// balances decoupled rows with their own q, M = diag(1e-200, 1), q = (-1e-200, -1), which the
// largest-entry passes alone, Ruiz's equilibration, leave with q'_1 = 2^-210), followed by Ruiz's
// max-norm equilibration (Ruiz 2001, "A scaling algorithm to equilibrate both rows and columns
// norms in matrices"), which leaves every line's largest entry in [1/4, 2).
// The scaling applies only when it is needed: when the largest entries of the nonzero rows of
// [M q], or of the nonzero columns of M, span more than 2^G,
//
//     G = 26 (double), 12 (float): half the mantissa,                          (L4)
//
// and otherwise (all factors 1) the solver runs on M and q themselves, bit for bit as without
// this file. The scaled answer is mapped back (z_j = 2^(b_j - c) z'_j, w = M z + q from the
// data) and is "ok" only when the certificate of certificate.hpp accepts it on the ORIGINAL
// data, with the column units 2^(b_j - c) in its rounding floor (docs/lcp.md (L1)). When the
// scaled solve fails, the problem as given is solved too and its answer taken when it is "ok"
// (docs/lcp.md (L5)); otherwise the verdict of failure (a ray, infeasibility by enumeration, a
// budget) is the scaled problem's, which is the same LCP.
#pragma once

#include <cmath>
#include <cstddef>

#include "obliq/core/config.hpp"
#include "obliq/core/lcp/certificate.hpp"
#include "obliq/core/status.hpp"
#include "obliq/core/view.hpp"

namespace obliq::lcp {

// Arena elements of the equilibration: M' (m x m), q' (m) and the exponents a (m), b (m).
template <class T> OBLIQ_HD std::size_t equilibration_workspace(int m) {
  const std::size_t n = std::size_t(m < 0 ? 0 : m);
  return n * n + 3 * n;
}

// (L4): the spread, in binary orders, above which rows or columns are equilibrated.
template <class T> struct equilibration_gate;
template <> struct equilibration_gate<double> { static constexpr int bits = 26; };
template <> struct equilibration_gate<float> { static constexpr int bits = 12; };

namespace detail {

// e(x) of (L3) for x > 0 (frexp's exponent: x in [2^(e-1), 2^e)).
template <class T> OBLIQ_HD OBLIQ_FORCEINLINE int binary_exponent(T x) {
  int e = 0;
  (void)std::frexp(x, &e);
  return e;
}

// A zero entry's place in the exponent table: below every exponent a sum of them can reach.
constexpr int zero_exponent = -(1 << 20);

}  // namespace detail

// (L4): true when the largest entries of the nonzero rows of [M q], or of the nonzero columns of
// M, span more than 2^G. A line's largest exponent is the exponent of its largest magnitude
// (e(x) grows with |x|), so each line takes one max pass (fabs, no branches) and one exponent,
// not one per entry. `finite`, when given, receives whether every entry of M and q is finite
// (the same pass: the sum of x - x is 0 exactly then); the verdict is meaningful only then.
template <class T> OBLIQ_HD bool needs_equilibration(MatView<const T> M, VecView<const T> q, bool* finite = nullptr) {
  const int m = M.rows;
  int rlo = 0, rhi = 0, clo = 0, chi = 0;
  bool rany = false, cany = false;
  T probe = T(0);
  for (int i = 0; i < m; ++i) {
    T rmax = T(fabs(q[i])), cmax = T(0);
    probe += q[i] - q[i];
    for (int k = 0; k < m; ++k) {
      const T x = M(i, k);
      probe += x - x;
      rmax = max_(rmax, T(fabs(x)));
      cmax = max_(cmax, T(fabs(M(k, i))));
    }
    if (rmax != T(0)) {
      const int er = detail::binary_exponent(rmax);
      rlo = rany ? min_(rlo, er) : er, rhi = rany ? max_(rhi, er) : er, rany = true;
    }
    if (cmax != T(0)) {
      const int ec = detail::binary_exponent(cmax);
      clo = cany ? min_(clo, ec) : ec, chi = cany ? max_(chi, ec) : ec, cany = true;
    }
  }
  if (finite) *finite = probe == T(0);
  return rhi - rlo > equilibration_gate<T>::bits || chi - clo > equilibration_gate<T>::bits;
}

namespace detail {

// The smallest and largest exponent of a line's nonzero entries.
struct ExponentRange {
  int lo = 0, hi = 0;
  bool any = false;
  OBLIQ_HD void add(int e) {
    lo = any && lo < e ? lo : e;
    hi = any && hi > e ? hi : e;
    any = true;
  }
  // (L3): the shift that brings the line to the target: the midpoint of lo and hi (geometric),
  // or hi (largest entry), halved with truncation.
  OBLIQ_HD int shift(bool geometric) const { return !any ? 0 : (geometric ? (lo + hi) / 2 : hi / 2); }
};

}  // namespace detail

// (L3): the exponents a (rows of [M q], E^-1 = diag(2^a)), b (columns of M, D = diag(2^b)) and
// c (q's column, the global factor 2^c), from 0. `ex` (m x m scratch) receives e(|M_ij|) and
// `eq` (m) e(|q_i|) once, so that the passes add integers only (no scaled entry is formed:
// nothing overflows). Geometric passes first (each line's smallest and largest entry made
// reciprocal, so that decoupled rows with their own q balance too), then largest-entry passes
// (each line's largest entry near 1), each phase until nothing changes or 16 passes.
template <class T>
OBLIQ_HD void equilibrate(MatView<const T> M, VecView<const T> q, MatView<T> ex, VecView<T> eq, IndexView<T> a,
                          IndexView<T> b, int& c) {
  const int m = M.rows;
  constexpr int none = detail::zero_exponent;
  c = 0;
  for (int i = 0; i < m; ++i) {
    a.set(i, 0), b.set(i, 0);
    eq[i] = T(q[i] != T(0) ? detail::binary_exponent(abs_(q[i])) : none);
    for (int j = 0; j < m; ++j) ex(i, j) = T(M(i, j) != T(0) ? detail::binary_exponent(abs_(M(i, j))) : none);
  }
  for (int phase = 0; phase < 2; ++phase) {
    const bool geometric = phase == 0;
    for (int pass = 0; pass < 16; ++pass) {
      bool changed = false;
      for (int i = 0; i < m; ++i) {  // rows of [M q]
        detail::ExponentRange r;
        if (int(eq[i]) != none) r.add(int(eq[i]) + a.get(i) + c);
        for (int j = 0; j < m; ++j)
          if (int(ex(i, j)) != none) r.add(int(ex(i, j)) + a.get(i) + b.get(j));
        const int k = r.shift(geometric);
        if (k != 0) a.set(i, a.get(i) - k), changed = true;
      }
      for (int j = 0; j < m; ++j) {  // columns of M
        detail::ExponentRange r;
        for (int i = 0; i < m; ++i)
          if (int(ex(i, j)) != none) r.add(int(ex(i, j)) + a.get(i) + b.get(j));
        const int k = r.shift(geometric);
        if (k != 0) b.set(j, b.get(j) - k), changed = true;
      }
      detail::ExponentRange r;  // q's column
      for (int i = 0; i < m; ++i)
        if (int(eq[i]) != none) r.add(int(eq[i]) + a.get(i) + c);
      const int k = r.shift(geometric);
      if (k != 0) c -= k, changed = true;
      if (!changed) break;
    }
  }
}

// Runs solve(M', q', z', w', arena) on the equilibrated problem (L2) when (L4) asks for it,
// else solve(M, q, z, w, arena) itself; see the header comment. z and w receive the answer of
// the original problem, `residual` is recomputed from the original data and an "ok" of the
// scaled solve stands only when the original certificate accepts z (else no_convergence).
// The arena needs equilibration_workspace<T>(m) on top of what solve takes (too small:
// Status::bad_shape).
template <class T, class Solve>
OBLIQ_HD Result<T> solve_equilibrated(MatView<const T> M, VecView<const T> q, VecView<T> z, VecView<T> w,
                                      Arena<T>& arena, Solve solve) {
  const int m = q.size;
  // Shapes and finiteness are judged by the solver on the data as given.
  bool input_finite = false;
  if (!lcp_shape_ok(M, q, z, w) || !needs_equilibration(M, q, &input_finite) || !input_finite)
    return solve(M, q, z, w, arena);
  const std::size_t mark = arena.mark();
  MatView<T> Ms = arena.mat(m, m);                              // (m x m) e(|M_ij|), then M' = E^-1 M D
  VecView<T> qs = arena.vec(m);                                 // (m) e(|q_i|), then q' = 2^c E^-1 q
  IndexView<T> a{arena.take(std::size_t(m)), m, arena.stride};  // (m) row exponents
  IndexView<T> b{arena.take(std::size_t(m)), m, arena.stride};  // (m) column exponents, then D's diagonal
  if (arena.overflow || b.slots == nullptr) {
    arena.release(mark);
    Result<T> res{Status::bad_shape, 0, T(0)};
    for (int i = 0; i < m; ++i) z[i] = T(0), w[i] = q[i];
    return res;
  }
  int c = 0;
  equilibrate(M, q, Ms, qs, a, b, c);
  bool finite = true;
  for (int i = 0; i < m; ++i) {
    qs[i] = std::ldexp(q[i], a.get(i) + c);
    finite = finite && is_finite_(qs[i]);
    for (int j = 0; j < m; ++j) Ms(i, j) = std::ldexp(M(i, j), a.get(i) + b.get(j));
  }
  if (!finite) {  // cannot happen (the rows of [M' q'] end near 1); kept as a guard
    arena.release(mark);
    return solve(M, q, z, w, arena);
  }
  Result<T> res = solve(Ms.as_const(), qs.as_const(), z, w, arena);
  // Back to the original unknowns, z = D z' / 2^c, and the certificate on the original data.
  VecView<T> unit{b.slots, m, b.inc};  // the columns' units 2^(b_j - c), in place of b
  for (int j = 0; j < m; ++j) {
    const int e = b.get(j) - c;
    z[j] = std::ldexp(z[j], e);
    unit[j] = std::ldexp(T(1), e);
  }
  if (res.status == Status::non_finite || res.status == Status::bad_shape) {
    arena.release(mark);
    return res;
  }
  res.residual = lcp_residual(M, q, z.as_const(), w);
  if (res.status == Status::ok && !lcp_accept_in_units(M, q, z.as_const(), unit.as_const()))
    res.status = Status::no_convergence;
  if (res.status == Status::ok) {
    arena.release(mark);
    return res;
  }
  // (L5): the equilibrated solve failed. The gate (L4) opened on a spread of 2^G, where the
  // problem as given may still be solvable (a rank-deficient float dynamics LCP at 18 rows is):
  // solve it as given, and keep that answer only when it is "ok" (its own certificate on the
  // original data). Otherwise the equilibrated verdict stands (infeasibility is only reported as
  // proven on the scaled problem), with its z, kept in qs's place meanwhile.
  for (int j = 0; j < m; ++j) qs[j] = z[j];
  Result<T> given = solve(M, q, z, w, arena);
  if (given.status == Status::ok && lcp_accept(M, q, z.as_const())) {
    arena.release(mark);
    return given;
  }
  for (int j = 0; j < m; ++j) z[j] = qs[j];
  res.residual = lcp_residual(M, q, z.as_const(), w);
  arena.release(mark);
  return res;
}

}  // namespace obliq::lcp

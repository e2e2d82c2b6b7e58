// obliq/core/mechanics/certificate.hpp: the a-posteriori certificate of one answer, checked from
// the scenario's input data alone (docs/certificate.md).
//
// An answer x (qdot_plus or qddot) with multipliers lambda (bilateral rows first) is certified
// when it meets the optimality conditions of the law (docs/format.md "What the laws mean"; docs/math.md 5,
// 7), each row against its own scale:
//   balance     M (x - x_0) - r = A^T lambda                 per coordinate j, scale
//               sum_k |M_jk| (|x_k| + |x_0,k| + f) + |r_j| + |(A^T lambda)_j|
//                 + rho (sum_i |A_ij lambda_i| + G),
//               f = min(1024 eps, tol_T / 16) max(|x|, |x_0|) / tol_T (x's rounding floor,
//               config.hpp rounding_floor_over_tol; also in every s_i),
//               G = max_i max_k |A_ik lambda_i| (the largest impulse of one row),
//               rho = rounding_floor_over_tol(tol_T): the impulses of single rows count only
//               at the rounding floor (they may cancel: the corner forces of a resting box
//               give no net torque, and the torque's rounding is of their size), the net
//               impulse (A^T lambda)_j at full weight, so that multipliers that cancel (rows
//               nearly opposing carrying 1e17 each for a net impulse of 1) widen the scales
//               only by their rounding
//               (impact: x_0 = qdot, r = i_u; dynamics: x_0 = 0, r = u - h);
//   rows        slack_i = a_i x - t_i, scale s_i = sum_j |a_ij| (|x_j| + |x_0,j| + c_j + f) + |t|_i with
//               c_j = (|r_j| + |(A^T lambda)_j| + rho sum_k |A_kj lambda_k|) / M_jj (the size of
//               the free and the constraint motion of coordinate j),
//               |t|_i the magnitude of the target's own terms (impact: e_i sum_j |a_ij qdot_j|,
//               t_i = -e_i a_i qdot; dynamics: |Adot_qdot_i|, t_i = -Adot_qdot_i);
//               bilateral rows: |slack_i| <= tol s_i;
//   complementarity law, candidate rows: slack_i >= -tol s_i, lambda_i >= -tol l_i and
//               min(slack_i / s_i, lambda_i / l_i) <= tol, where l_i = F / max_j |a_ij| is the
//               size of a multiplier of row i that moves the balance by its scale F (the largest
//               coordinate scale above);
//   projection law, candidate rows: equalities like the bilateral rows, or, when the targets are
//               inconsistent and met in least squares (docs/format.md "Fine print"), A^T (A x - t) = 0
//               per coordinate j against sum_i |A_ij| s_i;
//   rows that do not take part: lambda_i = 0 exactly; `active` is the candidate rule's verdict.
// The residual is the largest violation / scale over every test (0 for an exact answer; NaN or
// Inf outputs give +Inf). The answer is certified when the residual is at most tol_T
// (certificate_tolerance below). Every scale is a sum of absolute values of products of input
// and output numbers, never a square, so no test overflows or underflows before its data does,
// and every test is invariant under a scaling of a row, of M or of the units of x.
#pragma once

#include "obliq/core/dense/ops.hpp"
#include "obliq/core/mechanics/candidates.hpp"
#include "obliq/core/scenario_view.hpp"

namespace obliq {

// tol_T: 1e-6 in double (room for cond(M) up to 1e8 amplifying the rounding of the solve: the
// reference's projection-law answers at cond(M) = 1e8 miss their rows by more than 1e-8; never
// room for a wrong active set, a broken row or a pulling contact, which miss by O(1)); 1e-3 in
// float.
template <class T> struct certificate_tolerance;
template <> struct certificate_tolerance<double> { static constexpr double rel = 1e-6; };
template <> struct certificate_tolerance<float> { static constexpr float rel = 1e-3f; };

template <class T> OBLIQ_HD OBLIQ_FORCEINLINE bool certified(T residual) {
  return residual <= certificate_tolerance<T>::rel;  // false on NaN
}

// Arena elements the certificates below take when given an arena (law_certificate's scratch):
// three per coordinate and three per row, m = m_b + m_u.
template <class T> OBLIQ_HD std::size_t certificate_workspace(int n, int m) {
  return 3 * std::size_t(n) + 3 * std::size_t(m);
}

namespace detail {

// violation / scale: 0 when there is no violation (violation <= 0), +Inf for a violation on a
// zero scale or a NaN.
template <class T> OBLIQ_HD OBLIQ_FORCEINLINE T cert_ratio(T violation, T scale) {
  if (!(violation > T(0))) return violation <= T(0) ? T(0) : T(1) / T(0);
  return scale > T(0) ? violation / scale : T(1) / T(0);
}

// Per-coordinate and per-row pieces of the certificate, for the frictional answer certificate
// (friction/answer_certificate.hpp), which adds the tangent rows; law_certificate below computes
// the same quantities from arena scratch.
// The rows of an answer's constraint impulse, the rows A_b then A_u with their multipliers
// lambda (bilateral first). The frictional certificate (friction/answer_certificate.hpp) adds the
// tangent rows; the helpers below take any type with count(), row(i) and mult(i).
template <class T> struct ScenarioRows {
  const ScenarioView<T>& in;
  VecView<const T> lambda;
  OBLIQ_HD int count() const { return in.m_b + in.m_u; }
  OBLIQ_HD VecView<const T> row(int i) const { return i < in.m_b ? in.A_b.row(i) : in.A_u.row(i - in.m_b); }
  OBLIQ_HD T mult(int i) const { return lambda[i]; }
};

// The constraint impulse on coordinate j: net (A^T lambda)_j and sum_i |A_ij lambda_i|.
template <class T, class Rows> OBLIQ_HD void coordinate_impulse(const Rows& R, int j, T& net, T& single) {
  net = single = T(0);
  for (int i = 0; i < R.count(); ++i) {
    const T p = R.row(i)[j] * R.mult(i);
    net += p;
    single += abs_(p);
  }
}

// G = max_i max_k |A_ik lambda_i|, the largest impulse one row carries.
template <class T, class Rows> OBLIQ_HD T largest_row_impulse(const Rows& R) {
  T G = T(0);
  for (int i = 0; i < R.count(); ++i) G = max_(G, dense::max_abs(R.row(i)) * abs_(R.mult(i)));
  return G;
}

// Balance M (x - x_0) - r = A^T lambda, coordinate by coordinate (r = r_plus - r_minus): returns
// the worst violation / scale and sets F, the largest coordinate scale (header comment).
template <class T, class Rows>
OBLIQ_HD T balance_residual(const ScenarioView<T>& in, VecView<const T> x, VecView<const T> x0, VecView<const T> r_plus,
                            VecView<const T> r_minus, const Rows& R, T rho, T G, T xfloor, T& F) {
  T worst = T(0);
  F = T(0);
  for (int j = 0; j < in.n; ++j) {
    T net, single;
    coordinate_impulse(R, j, net, single);
    T res = -r_plus[j] + r_minus[j] - net, scale = abs_(r_plus[j]) + abs_(r_minus[j]) + abs_(net);
    for (int k = 0; k < in.n; ++k) {
      res += in.M(j, k) * (x[k] - x0[k]);
      scale += abs_(in.M(j, k)) * (abs_(x[k]) + abs_(x0[k]) + xfloor);
    }
    scale += rho * (single + G);  // the rounding of impulses that cancel
    worst = max_(worst, cert_ratio(abs_(res), scale));
    F = max_(F, scale);
  }
  return worst;
}

// The size of the free and the constraint motion of coordinate j (header comment, c_j).
template <class T, class Rows>
OBLIQ_HD T free_motion(const ScenarioView<T>& in, VecView<const T> r_plus, VecView<const T> r_minus, const Rows& R,
                       T rho, int j) {
  T net, single;
  coordinate_impulse(R, j, net, single);
  return (abs_(r_plus[j]) + abs_(r_minus[j]) + abs_(net) + rho * single) / in.M(j, j);
}

// Row a's slack a x - t and its scale s = |t| + sum_j |a_j| (|x_j| + |x_0,j| + free(j) + xfloor)
// (tmag: the magnitude of the target's own terms).
template <class T, class Free>
OBLIQ_HD void row_slack(VecView<const T> a, VecView<const T> x, VecView<const T> x0, const Free& free, T xfloor, T t,
                        T tmag, T& slack, T& s) {
  T v = T(0);
  s = tmag;
  for (int j = 0; j < a.size; ++j) {
    v += a[j] * x[j];
    s += abs_(a[j]) * (abs_(x[j]) + abs_(x0[j]) + free(j) + xfloor);
  }
  slack = v - t;
}

// What the impact and dynamics certificates share once the kind-specific data is fixed:
// x_0 and r = r_plus - r_minus of the balance, targets t_i and their magnitudes.
//
// Cost (docs/design.md "Cost model of one answer"): with `arena` holding
// certificate_workspace(n, m) free elements, each coordinate's impulse sums and weights and each
// row's largest entry, slack and scale are computed once: O(m n + n^2). Without (arena null or
// too small: nothing is taken from it), each is recomputed where it is used, O(m^2 n) (and
// O(m^2 n^2) for the projection law's least-squares test), with the same values in the same
// order of operations, so the residual is the same to the bit either way.
template <class T, class Target>
OBLIQ_HD T law_certificate(const ScenarioView<T>& in, VecView<const T> x, VecView<const T> lambda,
                           VecView<const std::uint8_t> active, VecView<const T> x0, VecView<const T> r_plus,
                           VecView<const T> r_minus, Target target, bool dynamics, Arena<T>* arena) {
  const int n = in.n, m_b = in.m_b, m_u = in.m_u, m = m_b + m_u;
  const T inf = T(1) / T(0);
  if (!dense::all_finite(x) || !dense::all_finite(lambda)) return inf;
  const auto row = [&](int i) { return i < m_b ? in.A_b.row(i) : in.A_u.row(i - m_b); };
  T worst = T(0);
  // Candidates: the kinematic rule of candidates.hpp; rows outside it carry no multiplier.
  for (int i = 0; i < m_u; ++i) {
    const bool c = dynamics ? is_dynamics_candidate(in, i) : is_impact_candidate(in, i);
    if ((active[i] != 0) != c) return inf;
    if (!c && lambda[m_b + i] != T(0)) return inf;
  }
  // Scratch, when the arena has room: dx (n) x - x_0, xw (n) coordinate k's weight in the
  // balance scales, cw (n) coordinate j's weight in the row scales, amax (m) each row's largest
  // |A_ik|, slack_of and scale_of (m) each candidate row's slack and scale.
  const std::size_t mark = arena != nullptr ? arena->mark() : 0;
  const bool cached = arena != nullptr && !arena->overflow && arena->used + certificate_workspace<T>(n, m) <= arena->capacity;
  VecView<T> dx, xw, cw, amax, slack_of, scale_of;
  if (cached) {
    dx = arena->vec(n), xw = arena->vec(n), cw = arena->vec(n);
    amax = arena->vec(m), slack_of = arena->vec(m), scale_of = arena->vec(m);
  }
  // Balance M (x - x_0) - r = A^T lambda, coordinate by coordinate; F = the largest scale. The
  // net impulse (A^T lambda)_j counts at full weight; the impulses of single rows, sum_i
  // |A_ij lambda_i|, and G, the largest impulse one row carries (max_i max_k |A_ik lambda_i|: the
  // rounding of dependent rows' multipliers is of that size in every coordinate), count at the
  // rounding floor rho only: huge multipliers that cancel carry their rounding, never more.
  const T rho = rounding_floor_over_tol(certificate_tolerance<T>::rel);
  T G = T(0);
  for (int i = 0; i < m; ++i) {
    const T a = dense::max_abs(row(i));
    if (cached) amax[i] = a;
    G = max_(G, a * abs_(lambda[i]));
  }
  const auto row_max = [&](int i) { return cached ? T(amax[i]) : dense::max_abs(row(i)); };
  // The rounding floor of x: a computed x is known only to the rounding of its largest entry
  // (1024 ulps of max(|x|, |x_0|), at most tol_T / 16), so a coordinate whose true terms are all 0 is judged with that
  // floor beside its own terms (as the LCP's z, lcp/certificate.hpp).
  const T xfloor = max_(dense::max_abs(x), dense::max_abs(x0)) * rho;
  const auto x_step = [&](int k) { return x[k] - x0[k]; };
  const auto x_weight = [&](int k) { return T(fabs(x[k])) + T(fabs(x0[k])) + xfloor; };
  if (cached)
    for (int k = 0; k < n; ++k) dx[k] = x_step(k), xw[k] = x_weight(k);
  // The loops over M and A below read a coordinate's data through an accessor, either the
  // scratch or the expression itself: each loop is one source, compiled once for each way.
  const auto from = [](VecView<T> v) { return [v](int k) { return T(v[k]); }; };
  // The constraint impulse on coordinate j: net (A^T lambda)_j and sum_i |A_ij lambda_i|.
  const auto impulse = [&](int j, T& net, T& single) {
    net = single = T(0);
    for (int i = 0; i < m; ++i) {
      const T p = row(i)[j] * lambda[i];
      net += p;
      single += T(fabs(p));
    }
  };
  // The size of the free motion in each coordinate, (|r_plus_j| + |r_minus_j|) / M_jj (the
  // Jacobi estimate of |M^-1 r|): an answer x near 0 computed from a large free motion carries
  // that motion's rounding (a box resting under gravity: qdd = 0 from M^-1 h = -g).
  // With it, the size of the constraint impulse's motion, |(A^T lambda)_j| / M_jj (single rows'
  // impulses at the rounding floor): a coordinate that ends near 0 because the impulse cancels
  // its motion carries the rounding of that motion through the coupling in M (a bilateral row
  // x_1 = 0 with M_12 != 0). Coordinate j's weight in the row scales: |x_j| + |x_0,j| + that
  // size + x's rounding floor.
  const auto coordinate_weight = [&](int j, T net, T single) {
    const T free = (T(fabs(r_plus[j])) + T(fabs(r_minus[j])) + T(fabs(net)) + rho * single) / in.M(j, j);
    return T(fabs(x[j])) + T(fabs(x0[j])) + free + xfloor;
  };
  // (fabs, one instruction, where abs_ would give -0 for -0: every sum and maximum below comes
  // out the same, as the sign of a zero term never survives the +0 it is added to.)
  T F = T(0);
  const auto balance = [&](auto step, auto weight) {
    for (int j = 0; j < n; ++j) {
      T net, single;
      impulse(j, net, single);
      T res = -r_plus[j] + r_minus[j] - net, scale = abs_(r_plus[j]) + abs_(r_minus[j]) + abs_(net);
      for (int k = 0; k < n; ++k) {
        const T Mjk = in.M(j, k);
        res += Mjk * step(k);
        scale += T(fabs(Mjk)) * weight(k);
      }
      scale += rho * (single + G);  // the rounding of impulses that cancel
      worst = max_(worst, cert_ratio(abs_(res), scale));
      F = max_(F, scale);
      if (cached) cw[j] = coordinate_weight(j, net, single);
    }
  };
  if (cached) balance(from(dx), from(xw));
  else balance(x_step, x_weight);
  const auto row_weight = [&](int j) {
    T net, single;
    impulse(j, net, single);
    return coordinate_weight(j, net, single);
  };
  // Row i's slack a_i x - t_i and its scale (the target's magnitude, then each term with x, x_0,
  // the free motion and x's rounding floor); computed once per row when cached.
  const auto slack_with = [&](int i, T& slack, T& s, auto weight) {
    const VecView<const T> a = row(i);
    T t = T(0), v = T(0);
    s = T(0);
    target(i, t, s);
    for (int j = 0; j < n; ++j) {
      const T aij = a[j];
      v += aij * x[j];
      s += T(fabs(aij)) * weight(j);
    }
    slack = v - t;
  };
  const auto compute_slack = [&](int i, T& slack, T& s) {
    if (cached) slack_with(i, slack, s, from(cw));
    else slack_with(i, slack, s, row_weight);
  };
  const auto row_slack = [&](int i, T& slack, T& s) {
    if (cached) slack = slack_of[i], s = scale_of[i];
    else compute_slack(i, slack, s);
  };
  // Rows, and the least-squares condition of the projection law on inconsistent targets.
  const bool projection = in.law == Law::projection;
  T worst_equal = T(0);  // projection law: the worst candidate-row equality
  for (int i = 0; i < m; ++i) {
    const bool candidate = i < m_b || active[i - m_b] != 0;
    if (!candidate) continue;
    T slack, s;
    compute_slack(i, slack, s);
    if (cached) slack_of[i] = slack, scale_of[i] = s;
    if (i < m_b || projection) {
      const T r = cert_ratio(abs_(slack), s);
      if (projection) worst_equal = max_(worst_equal, r);
      else worst = max_(worst, r);
      continue;
    }
    const T l = F / row_max(i);  // +Inf for a zero row: its multiplier is free
    const T lam = lambda[i];
    worst = max_(worst, cert_ratio(-slack, s));
    worst = max_(worst, cert_ratio(-lam, l));
    if (slack > T(0) && lam > T(0)) worst = max_(worst, min_(cert_ratio(slack, s), cert_ratio(lam, l)));
  }
  if (projection && !certified(worst_equal)) {
    // Least squares: A^T (A x - t) = 0 over the rows taking part.
    T ls = T(0);
    for (int j = 0; j < n; ++j) {
      T res = T(0), scale = T(0);
      for (int i = 0; i < m; ++i) {
        if (i >= m_b && active[i - m_b] == 0) continue;
        T slack, s;
        row_slack(i, slack, s);
        res += row(i)[j] * slack;
        scale += abs_(row(i)[j]) * s;
      }
      ls = max_(ls, cert_ratio(abs_(res), scale));
    }
    worst_equal = ls;
  }
  if (arena != nullptr) arena->release(mark);
  return max_(worst, worst_equal);
}

}  // namespace detail

// The certificate residual of an impact answer (qdot_plus, lambda, active of `out`). With an
// arena holding certificate_workspace(n, m_b + m_u) free elements it costs O(m n + n^2); without
// one (or with too little room) O(m^2 n), with the same residual (law_certificate above).
template <class T>
OBLIQ_HD T impact_certificate(const ScenarioView<T>& in, const ImpactView<T>& out, Arena<T>* arena = nullptr) {
  const int m_b = in.m_b;
  const auto target = [&](int i, T& t, T& tmag) {
    if (i < m_b) return;  // bilateral rows: t = 0 (eq 21)
    const VecView<const T> a = in.A_u.row(i - m_b);
    const T e = in.e[i - m_b];
    T v = T(0), s = T(0);
    for (int j = 0; j < in.n; ++j) {
      v += a[j] * in.qdot[j];
      s += T(fabs(a[j] * in.qdot[j]));
    }
    t = -e * v;  // Newton's law, eq 22, 42
    tmag = e * s;
  };
  T zero = T(0);  // r_minus = 0, a broadcast view of one zero
  return detail::law_certificate(in, out.qdot_plus.as_const(), out.lambda.as_const(), out.active.as_const(), in.qdot,
                                 in.i_u, VecView<const T>{&zero, in.n, 0}, target, false, arena);
}
template <class T> OBLIQ_HD T impact_certificate(const ScenarioView<T>& in, const ImpactView<T>& out, Arena<T>& arena) {
  return impact_certificate(in, out, &arena);
}

// The certificate residual of a dynamics answer (qddot, lambda, active of `out`); the arena as
// for impact_certificate.
template <class T>
OBLIQ_HD T dynamics_certificate(const ScenarioView<T>& in, const DynamicsView<T>& out, Arena<T>* arena = nullptr) {
  const auto target = [&](int i, T& t, T& tmag) {  // A qdd + Adot qdot = 0 (docs/math.md 4)
    t = -in.Adot_qdot[i];
    tmag = abs_(t);
  };
  T zero = T(0);
  return detail::law_certificate(in, out.qddot.as_const(), out.lambda.as_const(), out.active.as_const(),
                                 VecView<const T>{&zero, in.n, 0}, in.u, in.h, target, true, arena);
}
template <class T>
OBLIQ_HD T dynamics_certificate(const ScenarioView<T>& in, const DynamicsView<T>& out, Arena<T>& arena) {
  return dynamics_certificate(in, out, &arena);
}

}  // namespace obliq

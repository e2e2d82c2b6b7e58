// obliq/core/friction/one_contact.hpp: one contact's Coulomb problem solved by cases, the local
// solver of the Gauss-Seidel sweep (cone_solver.hpp). docs/friction.md (F6).
//
// Given the contact's block W_cc (dim x dim, PSD) and its velocity offset q (the rest of the rows
// held fixed), find r with u = W_cc r + q obeying (F2). The cases, tried in this order, each
// checked exactly:
//   separating: r = 0 when q_N >= 0;
//   sticking:   u = 0, r = -W_cc^-1 q when W_cc is invertible and |r_T| <= mu r_N, r_N >= 0;
//   sliding:    r = r_N (1, -mu s) with |s| = 1, u_N = 0, u_T = gamma s, gamma >= 0. For a
//               direction s: r_N = -q_N / (W_NN - mu W_NT s) (>= 0 with a positive denominator)
//               and u_T(s) = q_T + r_N (W_TN - mu W_TT s). In the plane s = +1, -1; in space the
//               angle a of s = (cos a, sin a) solves g(a) = u_T(s) x s = 0 with u_T . s >= 0: g is
//               sampled at 64 angles and each sign change refined by bisection to rounding.
// The first case that holds is returned (a one-contact problem can have several solutions for
// large mu); if none does, `false` and r is left unchanged.
#pragma once

#include <cmath>

#include "obliq/core/config.hpp"

namespace obliq::friction {

namespace detail {
// Sliding along direction s (dim - 1 entries): 0 when no r_N >= 0 gives u_N = 0; otherwise
// fills r and `g` = u_T x s (space) and returns 2 when u_T . s >= 0 (a solution), else 1.
template <class T>
OBLIQ_HD int slide_along(const T* W, const T* q, int d, T mu, const T* s, T* r, T& g) {
  T den = W[0];
  for (int j = 1; j < d; ++j) den -= mu * W[j] * s[j - 1];
  g = T(0);
  if (!(den > T(0))) return 0;
  const T rN = -q[0] / den;
  if (rN < T(0)) return 0;
  T ut[2] = {T(0), T(0)};
  for (int a = 1; a < d; ++a) {
    T v = q[a] + rN * W[a * d];
    for (int j = 1; j < d; ++j) v -= rN * mu * W[a * d + j] * s[j - 1];
    ut[a - 1] = v;
  }
  T dot = T(0);
  for (int j = 0; j < d - 1; ++j) dot += ut[j] * s[j];
  if (d == 3) g = ut[0] * s[1] - ut[1] * s[0];
  r[0] = rN;
  for (int j = 1; j < d; ++j) r[j] = -mu * rN * s[j - 1];
  return dot >= T(0) ? 2 : 1;
}
}  // namespace detail

// W: dim x dim row-major, q: dim, r: dim (in: unchanged on failure; out: the solution).
template <class T> OBLIQ_HD bool solve_one_contact(const T* W, const T* q, int d, T mu, T* r) {
  if (q[0] >= T(0)) {
    for (int j = 0; j < d; ++j) r[j] = T(0);
    return true;
  }
  // Sticking: solve W x = -q by Cramer's rule (d <= 3).
  {
    T det, x[3];
    if (d == 2) {
      det = W[0] * W[3] - W[1] * W[2];
      x[0] = (-q[0] * W[3] + q[1] * W[1]) / det;
      x[1] = (-q[1] * W[0] + q[0] * W[2]) / det;
    } else {
      const T c00 = W[4] * W[8] - W[5] * W[7], c01 = W[5] * W[6] - W[3] * W[8], c02 = W[3] * W[7] - W[4] * W[6];
      det = W[0] * c00 + W[1] * c01 + W[2] * c02;
      const T b0 = -q[0], b1 = -q[1], b2 = -q[2];
      x[0] = (b0 * c00 + b1 * (W[2] * W[7] - W[1] * W[8]) + b2 * (W[1] * W[5] - W[2] * W[4])) / det;
      x[1] = (b0 * c01 + b1 * (W[0] * W[8] - W[2] * W[6]) + b2 * (W[2] * W[3] - W[0] * W[5])) / det;
      x[2] = (b0 * c02 + b1 * (W[1] * W[6] - W[0] * W[7]) + b2 * (W[0] * W[4] - W[1] * W[3])) / det;
    }
    T t2 = T(0);
    for (int j = 1; j < d; ++j) t2 += x[j] * x[j];
    if (det != T(0) && det - det == T(0) && x[0] >= T(0) && std::sqrt(t2) <= mu * x[0]) {
      for (int j = 0; j < d; ++j) r[j] = x[j];
      return true;
    }
  }
  T rs[3], g;
  if (d == 2) {
    for (T sign : {T(1), T(-1)})
      if (detail::slide_along(W, q, d, mu, &sign, rs, g) == 2) {
        for (int j = 0; j < d; ++j) r[j] = rs[j];
        return true;
      }
    return false;
  }
  const int K = 64;
  const T two_pi = T(6.283185307179586);
  T a0 = T(0), g0 = T(0);
  bool v0 = false;
  for (int k = 0; k <= K; ++k) {
    const T a1 = two_pi * T(k) / T(K);
    T s[2] = {std::cos(a1), std::sin(a1)};
    T g1;
    const bool valid1 = detail::slide_along(W, q, d, mu, s, rs, g1) > 0;  // r_N admissible, g computed
    if (k > 0 && v0 && valid1 && ((g0 <= T(0)) != (g1 <= T(0)))) {
      T lo = a0, hi = a1, glo = g0;
      for (int it = 0; it < 60; ++it) {
        const T mid = T(0.5) * (lo + hi);
        T sm[2] = {std::cos(mid), std::sin(mid)}, gm;
        detail::slide_along(W, q, d, mu, sm, rs, gm);
        if ((gm <= T(0)) == (glo <= T(0))) lo = mid, glo = gm;
        else hi = mid;
      }
      const T am = T(0.5) * (lo + hi);
      T sm[2] = {std::cos(am), std::sin(am)};
      if (detail::slide_along(W, q, d, mu, sm, rs, g) == 2) {
        for (int j = 0; j < d; ++j) r[j] = rs[j];
        return true;
      }
    }
    a0 = a1, g0 = g1, v0 = valid1;
  }
  return false;
}

}  // namespace obliq::friction

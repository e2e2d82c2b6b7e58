// obliq/core/friction/one_contact.hpp: one contact's Coulomb problem solved by cases, the local
// solver of the Gauss-Seidel sweep (cone_solver.hpp). docs/friction.md (F6).
//
// Given the contact's block W_cc (dim x dim, PSD) and its velocity offset q (the rest of the rows
// held fixed), find r with u = W_cc r + q obeying (F2). The cases, tried in this order, each
// checked exactly:
//   separating: r = 0 when q_N >= 0;
//   sticking:   u = 0, r = -W_cc^-1 q when W_cc is invertible and |r_T| <= mu r_N, r_N >= 0;
//               when W_cc is singular (det exactly 0: a zero tangent row, as a planar model's
//               out-of-plane tangent), a solution of W_cc r = -q by elimination with complete
//               pivoting (free unknowns 0), kept when it satisfies the equations to
//               tolerance<T>::rel of their scale;
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
#include "obliq/core/friction/problem.hpp"

namespace obliq::friction {

namespace detail {
// A solution x of the singular system W x = b (d <= 3, row-major) by Gaussian elimination with
// complete pivoting, pivots below 64 eps max|W| taken as zero and their unknowns set to 0; false
// when the equations are inconsistent (residual above tolerance<T>::rel of the scale
// max(|b|, max|W| |x|)).
template <class T> OBLIQ_HD bool solve_singular(const T* W, const T* b, int d, T* x) {
  T A[9], c[3];
  int row[3] = {0, 1, 2}, col[3] = {0, 1, 2};
  T wmax = T(0), bmax = T(0);
  for (int i = 0; i < d; ++i) {
    c[i] = b[i];
    x[i] = T(0);
    bmax = max_(bmax, abs_(b[i]));
    for (int j = 0; j < d; ++j) A[i * 3 + j] = W[i * d + j], wmax = max_(wmax, abs_(W[i * d + j]));
  }
  const T small = T(64) * scalar_traits<T>::eps * wmax;
  int rank = 0;
  for (int k = 0; k < d; ++k) {
    int pi = k, pj = k;
    for (int i = k; i < d; ++i)
      for (int j = k; j < d; ++j)
        if (abs_(A[row[i] * 3 + col[j]]) > abs_(A[row[pi] * 3 + col[pj]])) pi = i, pj = j;
    if (!(abs_(A[row[pi] * 3 + col[pj]]) > small)) break;
    const int tr = row[k], tc = col[k];
    row[k] = row[pi], row[pi] = tr;
    col[k] = col[pj], col[pj] = tc;
    for (int i = k + 1; i < d; ++i) {
      const T f = A[row[i] * 3 + col[k]] / A[row[k] * 3 + col[k]];
      for (int j = k; j < d; ++j) A[row[i] * 3 + col[j]] -= f * A[row[k] * 3 + col[j]];
      c[row[i]] -= f * c[row[k]];
    }
    ++rank;
  }
  for (int k = rank - 1; k >= 0; --k) {
    T v = c[row[k]];
    for (int j = k + 1; j < rank; ++j) v -= A[row[k] * 3 + col[j]] * x[col[j]];
    x[col[k]] = v / A[row[k] * 3 + col[k]];
  }
  T xmax = T(0), res = T(0);
  for (int i = 0; i < d; ++i) xmax = max_(xmax, abs_(x[i]));
  for (int i = 0; i < d; ++i) {
    T v = -b[i];
    for (int j = 0; j < d; ++j) v += W[i * d + j] * x[j];
    res = max_(res, abs_(v));
  }
  return res <= tolerance<T>::rel * max_(bmax, wmax * xmax);
}

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
    bool solved = det != T(0) && det - det == T(0);
    if (det == T(0)) {
      const T b[3] = {-q[0], -q[1], d == 3 ? -q[2] : T(0)};
      solved = detail::solve_singular(W, b, d, x);
    }
    T t2 = T(0);
    for (int j = 1; j < d; ++j) t2 += x[j] * x[j];
    if (solved && x[0] >= T(0) && std::sqrt(t2) <= mu * x[0]) {
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

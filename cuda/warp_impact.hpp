// cuda/warp_impact.hpp: the projection-law impact with one warp per scenario and the
// scenario's matrices in shared memory (Method::warp; kernels in cuda/warp_kernels.cu).
//
// Why: the fused kernels run the whole core in one thread, with every matrix of the scratch
// arena in global memory (about 57 KB of L2 traffic per (12, 4) impact against 2 KB of input)
// and 218 registers (8 resident warps per SM): latency-bound on L2. Here a warp loads its
// scenario once (contiguous layout: coalesced), keeps M's factor, the rows, Y = L^-1 A'^T and
// the Delassus matrix in shared memory, splits each step over its 32 lanes, and writes the
// outputs once: global traffic is the compulsory bytes. bench/gpu_model.py gives the
// expected throughput of each design.
//
// The steps (whitened form of docs/math.md (4)-(5); rows taking part as in docs/format.md):
//   load, check        exact symmetry, finite values, e in [0, 1], projection law; else hand over
//   candidates         t_r = -e_r (A q)_r (0 on bilateral rows), rows not taking part zeroed
//   M = L L^T          warp Cholesky (column j: pivot on lane 0, the column below over lanes)
//   [Y | z]            = L^-1 [A'^T | i_u], one column per lane
//   W = Y^T Y + D      D = 1 on rows not taking part; r0 = t - A' q - Y^T z
//   W = L_W L_W^T      warp Cholesky, then the squared-pivot rank test of the library path
//                      (library_steps.hpp: delassus_full_rank); doubtful -> hand over
//   lambda = W^-1 r0,  v = q + L^-T (z + Y lambda),  impulse = A'^T lambda
//   energies           1/2 |L^T q|^2, 1/2 |L^T v|^2
//   certificate        core/mechanics/certificate.hpp on the outputs; failed -> hand over
//   energy test        docs/math.md (6) with the bracket of energy.hpp (max Q_ii <= lambda_max(Q)
//                      <= tr Q, decided by two Cholesky factorizations); the band between
//                      the two -> hand over
// A scenario handed over gets mask[s] = 1 and nothing else; the fused kernel then solves it
// (exact statuses, SVD rank decisions, the complementarity law). So Method::warp gives the
// fused kernel's statuses and its results up to rounding.
//
// Lanes: every step is a loop `for (i = w.lane; i < count; i += w.width)` followed by
// w.sync(), or a step for lane 0 alone; w.all(p) is a warp vote. The device runs it with
// width 32; the CPU emulation (tests/cuda_emulation) runs the same code with one lane of
// width 1, a valid serial schedule of the same arithmetic.
#pragma once

#include <cstddef>
#include <cstdint>

#include "library_steps.hpp"
#include "obliq/core/dense/cholesky.hpp"
#include "views.hpp"

namespace obliq::cuda::detail {

// Offsets (in elements of T) of one scenario's shared memory.
struct WarpLayout {
  int n, m, mu;
  std::size_t L, A, Y, W, Q, X, q, v, lam, rhs, take, tmp, flag, total;
};
OBLIQ_HD inline WarpLayout warp_layout(int n, int m_b, int m_u) {
  WarpLayout o{};
  o.n = n;
  o.m = m_b + m_u;
  o.mu = m_u;
  const std::size_t N = n, M = o.m, U = m_u;
  std::size_t p = 0;
  o.L = p, p += N * N;        // M, then L (row-major, lower)
  o.A = p, p += M * N;        // A' (row-major)
  o.Y = p, p += N * (M + 1);  // [Y | z] (column-major, column m = z)
  o.W = p, p += M * M;        // W, then L_W (column-major)
  o.Q = p, p += M * M;        // W^-1 (column-major), energy test
  o.X = p, p += U * U;        // tau I - (E Q E - Q), energy test
  o.q = p, p += N;            // qdot
  o.v = p, p += N;            // z + Y lambda, then x = M^-1 (i_u + A'^T lambda)
  o.lam = p, p += M;          // lambda
  o.rhs = p, p += M;          // r0
  o.take = p, p += M;         // 1 where the row takes part
  o.tmp = p, p += 2 * N;      // energy terms
  o.flag = p, p += 2;         // lane 0's verdicts
  o.total = p;
  return o;
}

// Shapes the warp kernel takes (others go to the fused kernel whole): at most 32 rows (one
// lane per column of [Y | z] but one) and a shared-memory footprint under 48 KiB per warp.
template <class T> bool warp_impact_takes(int n, int m_b, int m_u) {
  return n >= 1 && m_b + m_u >= 1 && m_b + m_u <= 31 && warp_layout(n, m_b, m_u).total * sizeof(T) <= (std::size_t(48) << 10);
}

// A (dim x dim) at p[i * rs + j * cs]: lower Cholesky factor in place by the warp, the same
// arithmetic as dense::cholesky. Returns false (on every lane) when a pivot is not positive.
template <class T, class Warp> OBLIQ_HD bool warp_cholesky(T* p, int dim, int rs, int cs, T* flag, const Warp& w) {
  if (w.lane == 0) *flag = T(1);
  w.sync();
  for (int j = 0; j < dim; ++j) {
    if (w.lane == 0) {
      T d = p[j * rs + j * cs];
      for (int k = 0; k < j; ++k) d -= p[j * rs + k * cs] * p[j * rs + k * cs];
      const bool good = d > T(0) && d - d == T(0);
      if (!good) *flag = T(0);
      p[j * rs + j * cs] = good ? std::sqrt(d) : T(1);
    }
    w.sync();
    const T inv = T(1) / p[j * rs + j * cs];
    for (int i = j + 1 + w.lane; i < dim; i += w.width) {
      T s = p[i * rs + j * cs];
      for (int k = 0; k < j; ++k) s -= p[i * rs + k * cs] * p[j * rs + k * cs];
      p[i * rs + j * cs] = s * inv;
    }
    w.sync();
  }
  return *flag != T(0);
}

// Whether the energy test (docs/math.md (6)) is decided by the bracket of energy.hpp, and how.
// Q: W^-1 (column-major m x m); the k unilateral rows taking part are `rows`.
template <class T>
OBLIQ_HD bool energy_bracket(const T* Q, int m, const int* rows, const T* e, int k, T* X, bool& consistent) {
  consistent = true;
  bool global = true;
  for (int a = 1; a < k; ++a) global = global && e[a] == e[0];
  if (k == 0 || global) return true;
  T qmax = T(0), tr = T(0);
  for (int a = 0; a < k; ++a) {
    const T qaa = Q[rows[a] * m + rows[a]];
    qmax = max_(qmax, qaa);
    tr += qaa;
  }
  const MatView<T> Xv{X, k, k, k, 1};
  for (int pass = 0; pass < 2; ++pass) {
    const T tau = scalar_traits<T>::energy_tol * (pass == 0 ? qmax : tr);
    for (int a = 0; a < k; ++a)
      for (int b = 0; b < k; ++b) {
        const T q = Q[rows[b] * m + rows[a]];
        Xv(a, b) = (a == b ? tau : T(0)) - (e[a] * q * e[b] - q);
      }
    const bool pd = dense::cholesky(Xv);
    if (pass == 0 && pd) return true;  // lambda_max(X) < tol max Q_ii <= tol lambda_max(Q)
    if (pass == 1 && !pd) {            // lambda_max(X) > tol tr Q >= tol lambda_max(Q)
      consistent = false;
      return true;
    }
  }
  return false;
}

// Scenario s by one warp with its shared memory sm (warp_layout(n, m_b, m_u).total elements).
// Writes every output of s and mask[s] = 0, or only mask[s] = 1 (handed over).
template <class T, class Warp>
OBLIQ_HD void warp_impact(const Inputs<T>& in, const ImpactOutputs<T>& out, std::uint8_t* mask, std::size_t s, T* sm,
                          const Warp& w) {
  const int n = in.n, mb = in.m_b, mu = in.m_u, m = mb + mu;
  const WarpLayout o = warp_layout(n, mb, mu);
  T *L = sm + o.L, *A = sm + o.A, *Y = sm + o.Y, *W = sm + o.W, *Q = sm + o.Q, *X = sm + o.X;
  T *q = sm + o.q, *v = sm + o.v, *lam = sm + o.lam, *rhs = sm + o.rhs, *take = sm + o.take, *tmp = sm + o.tmp;
  T* flag = sm + o.flag;
  auto hand_over = [&]() {
    if (w.lane == 0) mask[s] = 1;
  };

  // Load and check (the fused kernel gives the exact status of anything unusual).
  const T gap_tol = in.gap_tol(s, 0), vel_tol = in.vel_tol(s, 0);
  bool ok = in.law(s, 0) == std::uint8_t(Law::projection) && finite_(gap_tol) && finite_(vel_tol) && gap_tol >= T(0) &&
            vel_tol >= T(0);
  for (int k = w.lane; k < n * n; k += w.width) {
    const T x = in.M(s, k);
    ok = ok && finite_(x) && x == in.M(s, (k % n) * n + k / n);
    L[k] = x;
  }
  for (int k = w.lane; k < m * n; k += w.width) {
    const T a = k < mb * n ? in.A_b(s, k) : in.A_u(s, k - mb * n);
    ok = ok && finite_(a);
    A[k] = a;
  }
  for (int i = w.lane; i < n; i += w.width) {
    q[i] = in.qdot(s, i);
    Y[m * n + i] = in.i_u(s, i);
    ok = ok && finite_(q[i]) && finite_(Y[m * n + i]);
  }
  for (int r = w.lane; r < mu; r += w.width) {
    const T e = in.e(s, r);
    ok = ok && finite_(in.phi_u(s, r)) && finite_(e) && e >= T(0) && e <= T(1);
  }
  if (!w.all(ok)) return hand_over();
  w.sync();

  // Candidates, targets, r0 = t - A' q.
  for (int r = w.lane; r < m; r += w.width) {
    T Aq = T(0);
    for (int k = 0; k < n; ++k) Aq += A[r * n + k] * q[k];
    const bool t_part = r < mb || (in.phi_u(s, r - mb) <= gap_tol && Aq <= vel_tol);
    const T t = r < mb ? T(0) : -in.e(s, r - mb) * Aq;
    take[r] = t_part ? T(1) : T(0);
    rhs[r] = t_part ? t - Aq : T(0);
  }
  w.sync();
  for (int k = w.lane; k < m * n; k += w.width)
    if (take[k / n] == T(0)) A[k] = T(0);
  w.sync();

  // M = L L^T;  [Y | z] = L^-1 [A'^T | i_u].
  if (!warp_cholesky(L, n, n, 1, flag, w)) return hand_over();
  for (int c = w.lane; c <= m; c += w.width)
    for (int i = 0; i < n; ++i) {
      T x = c < m ? A[c * n + i] : Y[m * n + i];
      for (int k = 0; k < i; ++k) x -= L[i * n + k] * Y[c * n + k];
      Y[c * n + i] = x / L[i * n + i];
    }
  w.sync();

  // W = Y^T Y + D;  r0 -= Y^T z (= A' M^-1 i_u).
  for (int p = w.lane; p < m * m; p += w.width) {
    const int r = p % m, c = p / m;
    T x = T(0);
    if (take[r] != T(0) && take[c] != T(0))
      for (int i = 0; i < n; ++i) x += Y[r * n + i] * Y[c * n + i];
    else if (r == c)
      x = T(1);
    W[c * m + r] = x;
  }
  for (int r = w.lane; r < m; r += w.width)
    if (take[r] != T(0))
      for (int i = 0; i < n; ++i) rhs[r] -= Y[r * n + i] * Y[m * n + i];
  w.sync();
  if (!warp_cholesky(W, m, 1, m, flag, w)) return hand_over();
  if (w.lane == 0) flag[1] = delassus_full_rank(W, m, n, [&](int r) { return take[r] != T(0); }) ? T(1) : T(0);
  w.sync();
  if (flag[1] == T(0)) return hand_over();

  // lambda = W^-1 r0 (lane 0: m is small), then v = z + Y lambda.
  if (w.lane == 0) {
    for (int r = 0; r < m; ++r) {
      T x = rhs[r];
      for (int k = 0; k < r; ++k) x -= W[k * m + r] * lam[k];
      lam[r] = x / W[r * m + r];
    }
    for (int r = m - 1; r >= 0; --r) {
      T x = lam[r];
      for (int k = r + 1; k < m; ++k) x -= W[r * m + k] * lam[k];
      lam[r] = x / W[r * m + r];
    }
  }
  w.sync();
  for (int i = w.lane; i < n; i += w.width) {
    T x = Y[m * n + i];
    for (int r = 0; r < m; ++r) x += Y[r * n + i] * lam[r];
    v[i] = x;
  }
  w.sync();
  // x = L^-T v (column by column: x_i on lane 0, then the rows above it over the lanes); v = q + x.
  for (int i = n - 1; i >= 0; --i) {
    if (w.lane == 0) v[i] /= L[i * n + i];
    w.sync();
    for (int k = w.lane; k < i; k += w.width) v[k] -= L[i * n + k] * v[i];
    w.sync();
  }

  // Energy test: W^-1 (one column per lane), then lane 0 on the bracket.
  bool decided = true, consistent = true;
  if (mu > 0) {
    for (int c = w.lane; c < m; c += w.width) {
      T* x = Q + std::size_t(c) * m;
      for (int r = 0; r < m; ++r) {
        T y = r == c ? T(1) : T(0);
        for (int k = 0; k < r; ++k) y -= W[k * m + r] * x[k];
        x[r] = y / W[r * m + r];
      }
      for (int r = m - 1; r >= 0; --r) {
        T y = x[r];
        for (int k = r + 1; k < m; ++k) y -= W[r * m + k] * x[k];
        x[r] = y / W[r * m + r];
      }
    }
    w.sync();
    if (w.lane == 0) {
      int rows[32];
      T e[32];
      int k = 0;
      for (int r = 0; r < mu; ++r)
        if (take[mb + r] != T(0)) {
          rows[k] = mb + r;
          e[k] = in.e(s, r);
          ++k;
        }
      bool c = true;
      flag[0] = energy_bracket(Q, m, rows, e, k, X, c) ? T(1) : T(0);
      flag[1] = c ? T(1) : T(0);
    }
    w.sync();
    decided = flag[0] != T(0);
    consistent = flag[1] != T(0);
  }
  if (!decided) return hand_over();

  // Outputs.
  for (int i = w.lane; i < n; i += w.width) {
    T imp = T(0);
    for (int r = 0; r < m; ++r) imp += A[r * n + i] * lam[r];
    out.impulse(s, i) = imp;  // A'^T lambda
    v[i] += q[i];
    out.qdot_plus(s, i) = v[i];
  }
  for (int r = w.lane; r < m; r += w.width) out.lambda(s, r) = lam[r];
  for (int r = w.lane; r < mu; r += w.width) out.active(s, r) = take[mb + r] != T(0) ? 1 : 0;
  w.sync();
  for (int i = w.lane; i < n; i += w.width) {  // (L^T q)_i^2 and (L^T v)_i^2
    T a = T(0), b = T(0);
    for (int k = i; k < n; ++k) {
      a += L[k * n + i] * q[k];
      b += L[k * n + i] * v[k];
    }
    tmp[i] = a * a;
    tmp[n + i] = b * b;
  }
  w.sync();
  if (w.lane == 0) {
    T pre = T(0), post = T(0);
    for (int i = 0; i < n; ++i) {
      pre += tmp[i];
      post += tmp[n + i];
    }
    *out.kinetic_energy_pre.at(s) = T(0.5) * pre;
    *out.kinetic_energy_post.at(s) = T(0.5) * post;
    *out.energy_consistent.at(s) = consistent ? 1 : 0;
    // The certificate from the input alone (core/mechanics/certificate.hpp): an answer that
    // fails it is handed over like any other doubtful case.
    const bool ok = certified(impact_certificate(scenario_at(in, s), impact_view_at(out, s, n, m, mu)));
    out.status(s, 0) = int(Status::ok);
    mask[s] = ok ? 0 : 1;
  }
}

}  // namespace obliq::cuda::detail

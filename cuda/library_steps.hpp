// cuda/library_steps.hpp: the library path (cuBLAS/cuSOLVER batched, projection law) as one
// sequence of steps over chunks, written against an `Ops` object that performs each batched
// step. cuda/library_path.cu supplies the device Ops (kernels, cuSOLVER, cuBLAS); the CPU
// emulation (tests/cuda_emulation) supplies host loops with the same column-major semantics,
// so CI runs this file's buffers, chunking, per-scenario kernels and acceptance tests.
//
// Per chunk of C scenarios, every matrix column-major and scenario-contiguous:
//
//   prep           L = M, A' = A with non-candidate rows zeroed (n x m, stored as A'^T),
//                  XY = [A'^T | g], C = [D | -r0]        (g = i_u or u - h; D = diag(1 on rows
//                  not taking part); r0 = t - A' q; q = qdot for impact, 0 for dynamics)
//   potrf          M = L L^T
//   trsm x2        XY <- M^-1 XY = [X | y],  X = M^-1 A'^T,  y = M^-1 g
//   gemm           C <- A' XY + C = [W | -(t - A' (q + y))],  W = A' M^-1 A'^T + D
//   potrf          W = L_W L_W^T
//   trsm x2        z = W^-1 C_last,  lambda = -z  (docs/math.md (4)-(5): lambda = W^+ (t - A v_f))
//   gemm           y <- y - X z  (= M^-1 g + M^-1 A'^T lambda; x = q + y)
//   impact only:   W^-1 by two trsm on I, then syevj on E_u Q_uu E_u - Q_uu and Q_uu
//                  (docs/math.md (6): the energy-consistency test)
//   finalize       outputs and their certificate, or hand the scenario to the fused kernel.
// After the last chunk, the handed-back scenarios are compacted (ops.select, Thrust:
// cuda/compaction.hpp) and the fused kernel runs on them alone.
//
// Everything the library path does not take (complementarity law, bad input, a closed row
// approaching in dynamics, a failed factorization, rows whose Delassus pivots do not prove
// full rank, m_u > 32 for syevj) is marked in a mask and solved afterwards by the fused
// kernel, which gives the exact statuses.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>

#include "launch.hpp"
#include "obliq/core/config.hpp"
#include "obliq/core/mechanics/certificate.hpp"
#include "views.hpp"

namespace obliq::cuda::detail {

// Per-chunk buffers carved out of the scratch, each 256-byte aligned.
template <class T> struct LibraryBuffers {
  int n, m, m_u, C;
  bool impact;
  T* L;       // (C x n x n)      M, then its Cholesky factor
  T* AT;      // (C x n x m)      A'^T
  T* XY;      // (C x n x (m+1))  [A'^T | g] -> [X | y]
  T* Cm;      // (C x m x (m+1))  [D | -r0] -> [W | .] -> [L_W | z]
  T* Winv;    // (C x m x m)      I -> W^-1                         (impact)
  T* Eig;     // (2C x m_u x m_u) E Q E - Q and Q                    (impact)
  T* eigval;  // (2C x m_u)                                           (impact)
  T** pL;     // (C) pointers into L
  T** pXY;    // (C)
  T** pC;     // (C)
  T** pZ;     // (C) last column of Cm
  T** pWinv;  // (C)
  int* infoM;   // (C)
  int* infoW;   // (C)
  int* infoE;   // (2C)
};

inline std::size_t align_up(std::size_t b) { return (b + 255) / 256 * 256; }

template <class T> std::size_t library_bytes_per_scenario(int n, int m, int m_u, bool impact) {
  std::size_t b = 0;
  b += sizeof(T) * (std::size_t(n) * n + std::size_t(n) * m + std::size_t(n) * (m + 1) + std::size_t(m) * (m + 1));
  if (impact) b += sizeof(T) * (std::size_t(m) * m + 2 * std::size_t(m_u) * m_u + 2 * std::size_t(m_u));
  b += 5 * sizeof(T*) + 4 * sizeof(int);
  return b;
}

template <class T> LibraryBuffers<T> carve(void* scratch, int n, int m, int m_u, int C, bool impact) {
  LibraryBuffers<T> b{};
  b.n = n;
  b.m = m;
  b.m_u = m_u;
  b.C = C;
  b.impact = impact;
  char* p = static_cast<char*>(scratch);
  auto take = [&](std::size_t bytes) {
    char* q = p;
    p += align_up(bytes);
    return q;
  };
  const std::size_t c = C;
  b.L = reinterpret_cast<T*>(take(sizeof(T) * c * n * n));
  b.AT = reinterpret_cast<T*>(take(sizeof(T) * c * n * m));
  b.XY = reinterpret_cast<T*>(take(sizeof(T) * c * n * (m + 1)));
  b.Cm = reinterpret_cast<T*>(take(sizeof(T) * c * m * (m + 1)));
  if (impact) {
    b.Winv = reinterpret_cast<T*>(take(sizeof(T) * c * m * m));
    b.Eig = reinterpret_cast<T*>(take(sizeof(T) * 2 * c * m_u * m_u));
    b.eigval = reinterpret_cast<T*>(take(sizeof(T) * 2 * c * m_u));
  }
  b.pL = reinterpret_cast<T**>(take(sizeof(T*) * c));
  b.pXY = reinterpret_cast<T**>(take(sizeof(T*) * c));
  b.pC = reinterpret_cast<T**>(take(sizeof(T*) * c));
  b.pZ = reinterpret_cast<T**>(take(sizeof(T*) * c));
  b.pWinv = reinterpret_cast<T**>(take(sizeof(T*) * c));
  b.infoM = reinterpret_cast<int*>(take(sizeof(int) * c));
  b.infoW = reinterpret_cast<int*>(take(sizeof(int) * c));
  b.infoE = reinterpret_cast<int*>(take(sizeof(int) * 2 * c));
  return b;
}
// Bytes carve() uses for C scenarios (the alignment padding included).
template <class T> std::size_t carve_bytes(int n, int m, int m_u, std::size_t C, bool impact) {
  std::size_t b = align_up(sizeof(T) * C * n * n) + align_up(sizeof(T) * C * n * m) +
                  align_up(sizeof(T) * C * n * (m + 1)) + align_up(sizeof(T) * C * m * (m + 1));
  if (impact)
    b += align_up(sizeof(T) * C * m * m) + align_up(sizeof(T) * 2 * C * m_u * m_u) + align_up(sizeof(T) * 2 * C * m_u);
  b += 5 * align_up(sizeof(T*) * C) + 2 * align_up(sizeof(int) * C) + align_up(sizeof(int) * 2 * C);
  return b;
}

// Scenarios per chunk: as many as the scratch holds (at most 2^20), at least one.
template <class T> std::size_t library_chunk(std::size_t count, std::size_t scratch_bytes, int n, int m, int m_u, bool impact) {
  std::size_t C = std::min<std::size_t>(count, scratch_bytes / library_bytes_per_scenario<T>(n, m, m_u, impact));
  while (C > 1 && carve_bytes<T>(n, m, m_u, C, impact) > scratch_bytes) C = C * 15 / 16;
  C = std::min<std::size_t>(C, std::size_t(1) << 20);
  if (C == 0 || carve_bytes<T>(n, m, m_u, C, impact) > scratch_bytes)
    throw std::runtime_error("obliq cuda: scratch too small for the library path");
  return C;
}

template <class T> OBLIQ_HD OBLIQ_FORCEINLINE bool finite_(T x) { return x - x == T(0); }  // false on NaN and Inf

// Data in -> the library's column-major buffers for scenario i of the chunk at s0, or a mark
// for the fused kernel. Candidates (docs/format.md): closed (phi <= gap_tol) and, for impact,
// (A_u q)_i <= vel_tol; for dynamics |(A_u q)_i| <= vel_tol (a closed row with
// (A_u q)_i < -vel_tol goes to the fused kernel, which reports unresolved_impact).
template <class T>
OBLIQ_HD void library_prep(const Inputs<T>& in, const Strided<std::uint8_t>& active, std::uint8_t* mask, std::size_t s0,
                           const LibraryBuffers<T>& b, std::size_t i) {
  if (i >= std::size_t(b.C)) return;
  const std::size_t s = s0 + i;
  const int n = in.n, mb = in.m_b, mu = in.m_u, m = b.m;
  T* L = b.L + i * n * n;
  T* AT = b.AT + i * n * m;
  T* XY = b.XY + i * n * (m + 1);
  T* Cm = b.Cm + i * m * (m + 1);
  b.pL[i] = L;
  b.pXY[i] = XY;
  b.pC[i] = Cm;
  b.pZ[i] = Cm + std::size_t(m) * m;
  if (b.impact) b.pWinv[i] = b.Winv + i * m * m;

  // Checks: the fused kernel gives the exact status of anything unusual.
  bool ok = in.law(s, 0) == std::uint8_t(Law::projection);
  const T gap_tol = in.gap_tol(s, 0), vel_tol = in.vel_tol(s, 0);
  ok = ok && finite_(gap_tol) && finite_(vel_tol) && gap_tol >= T(0) && vel_tol >= T(0);
  for (int r = 0; r < n && ok; ++r)
    for (int c = 0; c < n; ++c) {
      const T x = in.M(s, r * n + c);
      if (!finite_(x) || x != in.M(s, c * n + r)) ok = false;
    }
  for (int k = 0; k < n && ok; ++k) {
    const T g = b.impact ? in.i_u(s, k) : in.u(s, k) - in.h(s, k);
    if (!finite_(in.qdot(s, k)) || !finite_(g)) ok = false;
  }
  for (int k = 0; k < mb * n && ok; ++k) ok = finite_(in.A_b(s, k));
  for (int k = 0; k < mu * n && ok; ++k) ok = finite_(in.A_u(s, k));
  for (int r = 0; r < mu && ok; ++r) {
    ok = finite_(in.phi_u(s, r));
    if (b.impact) ok = ok && finite_(in.e(s, r)) && in.e(s, r) >= T(0) && in.e(s, r) <= T(1);
  }
  if (!b.impact)
    for (int r = 0; r < m && ok; ++r) ok = finite_(in.Adot_qdot(s, r));

  // Candidates and the masked Jacobian A' (rows: bilateral, then unilateral).
  for (int r = 0; r < m && ok; ++r) {
    bool take = true;
    T Aq = 0;
    if (r >= mb) {
      for (int k = 0; k < n; ++k) Aq += in.A_u(s, (r - mb) * n + k) * in.qdot(s, k);
      const bool closed = in.phi_u(s, r - mb) <= gap_tol;
      if (b.impact) {
        take = closed && Aq <= vel_tol;
      } else {
        if (closed && Aq < -vel_tol) ok = false;  // unresolved impact: the fused kernel reports it
        take = closed && (Aq <= vel_tol && Aq >= -vel_tol);
      }
      if (active.data) active(s, r - mb) = take ? 1 : 0;
    }
    // target t_r and r0 = t_r - A'_r q (q = 0 for dynamics)
    T r0 = 0;
    if (take) {
      if (b.impact) {
        T Arq = 0;
        for (int k = 0; k < n; ++k) Arq += (r < mb ? in.A_b(s, r * n + k) : in.A_u(s, (r - mb) * n + k)) * in.qdot(s, k);
        const T t = r < mb ? T(0) : -in.e(s, r - mb) * Aq;
        r0 = t - Arq;
      } else {
        r0 = -in.Adot_qdot(s, r);
      }
    }
    for (int k = 0; k < n; ++k) {
      const T a = take ? (r < mb ? in.A_b(s, r * n + k) : in.A_u(s, (r - mb) * n + k)) : T(0);
      AT[r * n + k] = a;
      XY[r * n + k] = a;
    }
    for (int c = 0; c < m; ++c) Cm[c * m + r] = (c == r && !take) ? T(1) : T(0);
    Cm[m * m + r] = -r0;
  }
  mask[s] = ok ? 0 : 1;
  if (!ok) {  // harmless identity data so the batched routines stay finite
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) L[c * n + r] = r == c ? T(1) : T(0);
    for (int k = 0; k < n * (m + 1); ++k) XY[k] = 0;
    for (int k = 0; k < n * m; ++k) AT[k] = 0;
    for (int r = 0; r < m; ++r)
      for (int c = 0; c <= m; ++c) Cm[c * m + r] = (c == r) ? T(1) : T(0);
  } else {
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) L[c * n + r] = in.M(s, r * n + c);
    for (int k = 0; k < n; ++k) XY[m * n + k] = b.impact ? in.i_u(s, k) : in.u(s, k) - in.h(s, k);
  }
  if (b.impact) {
    T* Wi = b.Winv + i * m * m;
    for (int r = 0; r < m; ++r)
      for (int c = 0; c < m; ++c) Wi[c * m + r] = r == c ? T(1) : T(0);
  }
}

// Q = W^-1 -> the two symmetric m_u x m_u matrices of the energy test (docs/math.md (6)), zero
// on the rows and columns of non-candidate rows: E_u Q_uu E_u - Q_uu and Q_uu.
template <class T>
OBLIQ_HD void library_energy_prep(const Inputs<T>& in, const Strided<std::uint8_t>& active, std::size_t s0,
                                  const LibraryBuffers<T>& b, std::size_t i) {
  if (i >= std::size_t(b.C)) return;
  const std::size_t s = s0 + i;
  const int mb = in.m_b, mu = in.m_u, m = b.m;
  const T* Q = b.Winv + i * m * m;
  T* X = b.Eig + (2 * i) * mu * mu;
  T* Y = b.Eig + (2 * i + 1) * mu * mu;
  for (int r = 0; r < mu; ++r)
    for (int c = 0; c < mu; ++c) {
      const bool on = active(s, r) && active(s, c);
      const T q = on ? Q[(mb + c) * m + (mb + r)] : T(0);
      const T er = in.e(s, r), ec = in.e(s, c);
      X[c * mu + r] = er * q * ec - q;
      Y[c * mu + r] = q;
    }
}

// Whether the Cholesky factor L_W (column-major m x m, leading dimension m) of the Delassus
// matrix W = A' M^-1 A'^T proves that the rows taking part are independent, so that W^-1 is
// the W^+ of docs/math.md (4). Row by row against the row's own scale: the pivot of row r,
// d_r = L_rr^2, is the part of W_rr = |L_r,0..r|^2 (the squared M^-1-norm of row r) that is
// not explained by the rows before it, d_r / W_rr = sin^2 of the angle between row r and their
// span. Dependent rows leave a pivot of rounding size (d_r ~ eps W_rr, L_rr ~ sqrt(eps) of the
// row's scale), so the test is on the squared pivot, with a tolerance well above rounding:
// d_r > max(m, n) sqrt(eps) W_rr. Anything closer to dependent goes to the fused kernel,
// which decides the rank on A itself (docs/math.md (1)); NaN fails the test.
template <class T> OBLIQ_HD T delassus_pivot_tolerance(int m, int n) {
  return T(m > n ? m : n) * std::sqrt(scalar_traits<T>::eps);
}
template <class T, class Take> OBLIQ_HD bool delassus_full_rank(const T* LW, int m, int n, Take take) {
  const T tau = delassus_pivot_tolerance<T>(m, n);
  for (int r = 0; r < m; ++r) {
    if (!take(r)) continue;
    T w_rr = T(0);
    for (int k = 0; k <= r; ++k) w_rr += LW[k * m + r] * LW[k * m + r];
    const T d_r = LW[r * m + r] * LW[r * m + r];
    if (!(d_r > tau * w_rr)) return false;
  }
  return true;
}

// Outputs of scenario i of the chunk from [X | y] and z, or a mark for the fused kernel.
template <class T>
OBLIQ_HD void library_finalize(const Inputs<T>& in, const ImpactOutputs<T>& io, const DynamicsOutputs<T>& dout,
                               std::uint8_t* mask, std::size_t s0, const LibraryBuffers<T>& b, std::size_t i) {
  if (i >= std::size_t(b.C)) return;
  const std::size_t s = s0 + i;
  if (mask[s]) return;
  const int n = in.n, mb = in.m_b, mu = in.m_u, m = b.m;
  const T* XY = b.XY + i * n * (m + 1);
  const T* Cm = b.Cm + i * m * (m + 1);
  const Strided<std::uint8_t> active = b.impact ? io.active : dout.active;
  auto take = [&](int r) { return r < mb || active(s, r - mb) != 0; };

  // Factorizations must have succeeded, and W must be provably non-singular on the rows taking
  // part (otherwise the fused kernel decides the rank of A as docs/math.md (1) says).
  bool ok = b.infoM[i] == 0 && b.infoW[i] == 0 && delassus_full_rank(Cm, m, n, take);
  if (ok && b.impact) ok = b.infoE[2 * i] == 0 && b.infoE[2 * i + 1] == 0;
  if (!ok) {
    mask[s] = 1;
    return;
  }

  const T* y = XY + std::size_t(n) * m;  // M^-1 g + M^-1 A'^T lambda
  const T* z = Cm + std::size_t(m) * m;  // -lambda
  if (b.impact) {
    // v = q + y;  impulse = M (v - q) - i_u;  energies 1/2 q^T M q, 1/2 v^T M v
    T ke_pre = 0, ke_post = 0;
    for (int r = 0; r < n; ++r) {
      T My = 0, Mq = 0, Mv = 0;
      for (int c = 0; c < n; ++c) {
        const T Mrc = in.M(s, r * n + c);
        const T qc = in.qdot(s, c);
        My += Mrc * y[c];
        Mq += Mrc * qc;
        Mv += Mrc * (qc + y[c]);
      }
      const T qr = in.qdot(s, r);
      io.qdot_plus(s, r) = qr + y[r];
      io.impulse(s, r) = My - in.i_u(s, r);
      ke_pre += qr * Mq;
      ke_post += (qr + y[r]) * Mv;
    }
    *io.kinetic_energy_pre.at(s) = ke_pre / T(2);
    *io.kinetic_energy_post.at(s) = ke_post / T(2);
    for (int r = 0; r < m; ++r) io.lambda(s, r) = take(r) ? -z[r] : T(0);
    bool consistent = true;
    if (mu > 0) {
      const T lmax_x = b.eigval[(2 * i) * mu + mu - 1];  // ascending order
      const T lmax_q = b.eigval[(2 * i + 1) * mu + mu - 1];
      consistent = lmax_x <= scalar_traits<T>::energy_tol * lmax_q;
    }
    *io.energy_consistent.at(s) = consistent ? 1 : 0;
    io.status(s, 0) = int(Status::ok);
  } else {
    for (int r = 0; r < n; ++r) dout.qddot(s, r) = y[r];
    for (int r = 0; r < m; ++r) dout.lambda(s, r) = take(r) ? -z[r] : T(0);
    dout.status(s, 0) = int(Status::ok);
  }
  // The certificate from the input alone (core/mechanics/certificate.hpp, docs/certificate.md):
  // an answer that fails it is handed to the fused kernel, which solves the scenario by the
  // core's exact path and certifies that answer in turn (its status says if it fails too).
  const ScenarioView<T> sv = scenario_at(in, s);
  const T residual = b.impact ? impact_certificate(sv, impact_view_at(io, s, n, m, mu))
                              : dynamics_certificate(sv, dynamics_view_at(dout, s, n, m, mu));
  if (!certified(residual)) mask[s] = 1;
}

// The whole library path over a batch (either io or dout is set), each batched step done by
// ops (see the top of this file). Scenarios it does not finish are marked in l.mask_buffer,
// compacted into l.select_buffer and solved by ops.fused on that selection.
template <class T, class Ops>
void library_run(const Inputs<T>& in, const ImpactOutputs<T>* io, const DynamicsOutputs<T>* dout, const Launch& l, Ops& ops) {
  if (in.count == 0) return;
  const bool impact = io != nullptr;
  const int n = in.n, mb = in.m_b, mu = in.m_u, m = mb + mu;
  std::uint8_t* mask = l.mask_buffer;

  // Shapes the library path does not take: everything to the fused kernel.
  if (m == 0 || (impact && mu > 32)) {
    ops.fused(in, io, dout, l);
    return;
  }

  const std::size_t C = library_chunk<T>(in.count, l.scratch_bytes, n, m, mu, impact);
  if (impact && mu > 0) {
    const LibraryBuffers<T> probe = carve<T>(l.scratch, n, m, mu, int(C), impact);
    ops.reserve_syevj(mu, probe.Eig, probe.eigval, int(2 * C));
  }
  const ImpactOutputs<T> io0 = impact ? *io : ImpactOutputs<T>{};
  const DynamicsOutputs<T> dout0 = impact ? DynamicsOutputs<T>{} : *dout;
  const Strided<std::uint8_t> active = impact ? io->active : dout->active;
  for (std::size_t s0 = 0; s0 < in.count; s0 += C) {
    const int c = int(std::min(C, in.count - s0));
    const LibraryBuffers<T> b = carve<T>(l.scratch, n, m, mu, c, impact);
    ops.prep(in, active, mask, s0, b);
    ops.potrf(n, b.pL, n, b.infoM, c);
    ops.trsm(false, n, m + 1, b.pL, n, b.pXY, n, c);
    ops.trsm(true, n, m + 1, b.pL, n, b.pXY, n, c);
    ops.gemm(true, m, m + 1, n, T(1), b.AT, n, (long long)n * m, b.XY, n, (long long)n * (m + 1), T(1), b.Cm, m,
             (long long)m * (m + 1), c);
    ops.potrf(m, b.pC, m, b.infoW, c);
    ops.trsm(false, m, 1, b.pC, m, b.pZ, m, c);
    ops.trsm(true, m, 1, b.pC, m, b.pZ, m, c);
    ops.gemm(false, n, 1, m, T(-1), b.XY, n, (long long)n * (m + 1), b.Cm + std::size_t(m) * m, m, (long long)m * (m + 1),
             T(1), b.XY + std::size_t(n) * m, n, (long long)n * (m + 1), c);
    if (impact && mu > 0) {
      ops.trsm(false, m, m, b.pC, m, b.pWinv, m, c);
      ops.trsm(true, m, m, b.pC, m, b.pWinv, m, c);
      ops.energy_prep(in, active, s0, b);
      ops.syevj(mu, b.Eig, b.eigval, b.infoE, 2 * c);
    } else if (impact) {
      ops.zero(b.infoE, std::size_t(2) * c);
    }
    ops.finalize(in, io0, dout0, mask, s0, b);
  }
  // Whatever the library path did not take: the fused kernel on those scenarios, compacted
  // (ops.select: cuda/compaction.hpp).
  Launch fallback = l;
  fallback.only = ops.select(mask, in.count, l.select_buffer);
  ops.fused(in, io, dout, fallback);
}

}  // namespace obliq::cuda::detail

// tests/cuda_emulation/host_glue.hpp: the CUDA backend's glue run on the host.
//
// A host batch is laid out as the device arrays would be (interleaved or contiguous, through
// obliq::cuda::strided, the function DeviceBatch uses), the kernels' per-thread bodies run in a
// host loop over each chunk (cuda/chunks.hpp), and the library path's batched steps are host
// loops with the column-major semantics of cuSOLVER potrfBatched / syevjBatched and cuBLAS
// trsmBatched / gemmStridedBatched (HostOps). The compaction of the scenarios handed back to the
// fused kernel is cuda/compaction.hpp's Thrust code itself, on Thrust's CPP system
// (thrust::cpp::par). Only the launches themselves are not emulated.
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

#include <thrust/system/cpp/execution_policy.h>

#include "batch_checks.hpp"
#include "compaction.hpp"
#include "fused_body.hpp"
#include "host_layout.hpp"
#include "launch.hpp"
#include "library_steps.hpp"
#include "obliq/batch.hpp"
#include "obliq/cuda.hpp"
#include "warp_impact.hpp"

namespace obliq::emulation {

namespace cu = obliq::cuda;
using cu::detail::Strided;

// One host array in a device layout.
template <class U> struct Array {
  std::vector<U> data;
  Strided<U> view;
  Array() = default;
  Array(std::vector<U> host, cu::Layout layout, std::size_t count, std::size_t block) {
    data = layout == cu::Layout::interleaved ? cu::detail::to_interleaved(host, count, block) : std::move(host);
    const cu::DeviceArray<U> a = cu::strided<U>(block ? data.data() : nullptr, layout, count, block);
    view = {a.data, a.scenario_stride, a.element_stride};
  }
  Strided<const U> in() const { return {view.data, view.ss, view.es}; }
  std::vector<U> host(cu::Layout layout, std::size_t count, std::size_t block) const {
    return layout == cu::Layout::interleaved ? cu::detail::from_interleaved(data, count, block) : data;
  }
};

// Inputs and outputs of a batch in host memory, in one layout.
template <class T> struct HostBatch {
  Shape shape;
  std::size_t count;
  cu::Layout layout;
  Array<T> M, qdot, h, u, i_u, A_b, A_u, phi_u, Adot_qdot, e, gap_tol, vel_tol;
  Array<std::uint8_t> law;
  Array<T> qdot_plus, impulse, lambda, ke_pre, ke_post, qddot;
  Array<std::uint8_t> active, energy_consistent;
  Array<int> status;

  HostBatch(const Batch<T>& b, cu::Layout l) : shape(b.shape), count(b.count), layout(l) {
    const std::size_t n = shape.n, mb = shape.m_b, mu = shape.m_u, m = mb + mu, c = count;
    M = {b.M, l, c, n * n};
    qdot = {b.qdot, l, c, n};
    h = {b.h, l, c, n};
    u = {b.u, l, c, n};
    i_u = {b.i_u, l, c, n};
    A_b = {b.A_b, l, c, mb * n};
    A_u = {b.A_u, l, c, mu * n};
    phi_u = {b.phi_u, l, c, mu};
    Adot_qdot = {b.Adot_qdot, l, c, m};
    e = {b.e, l, c, mu};
    law = {b.law, l, c, 1};
    gap_tol = {b.gap_tol, l, c, 1};
    vel_tol = {b.vel_tol, l, c, 1};
    // Outputs start as NaN / 0xff so that an entry never written shows.
    qdot_plus = {std::vector<T>(c * n, NAN), l, c, n};
    impulse = {std::vector<T>(c * n, NAN), l, c, n};
    qddot = {std::vector<T>(c * n, NAN), l, c, n};
    lambda = {std::vector<T>(c * m, NAN), l, c, m};
    ke_pre = {std::vector<T>(c, NAN), l, c, 1};
    ke_post = {std::vector<T>(c, NAN), l, c, 1};
    active = {std::vector<std::uint8_t>(c * mu, 0xff), l, c, mu};
    energy_consistent = {std::vector<std::uint8_t>(c, 0xff), l, c, 1};
    status = {std::vector<int>(c, -1), l, c, 1};
  }

  cu::detail::Inputs<T> inputs() const {
    cu::detail::Inputs<T> in;
    in.n = shape.n;
    in.m_b = shape.m_b;
    in.m_u = shape.m_u;
    in.count = count;
    in.M = M.in();
    in.qdot = qdot.in();
    in.h = h.in();
    in.u = u.in();
    in.i_u = i_u.in();
    in.A_b = A_b.in();
    in.A_u = A_u.in();
    in.phi_u = phi_u.in();
    in.Adot_qdot = Adot_qdot.in();
    in.e = e.in();
    in.law = law.in();
    in.gap_tol = gap_tol.in();
    in.vel_tol = vel_tol.in();
    return in;
  }
  cu::detail::ImpactOutputs<T> impact_outputs() {
    return {qdot_plus.view, impulse.view, lambda.view, active.view, ke_pre.view, ke_post.view, energy_consistent.view,
            status.view};
  }
  cu::detail::DynamicsOutputs<T> dynamics_outputs() { return {qddot.view, lambda.view, active.view, status.view}; }

  ImpactResults<T> impact_results() const {
    const std::size_t n = shape.n, mu = shape.m_u, m = shape.m_b + mu, c = count;
    ImpactResults<T> r;
    r.shape = shape;
    r.count = c;
    r.qdot_plus = qdot_plus.host(layout, c, n);
    r.impulse = impulse.host(layout, c, n);
    r.lambda = lambda.host(layout, c, m);
    r.active = active.host(layout, c, mu);
    r.kinetic_energy_pre = ke_pre.host(layout, c, 1);
    r.kinetic_energy_post = ke_post.host(layout, c, 1);
    r.energy_consistent = energy_consistent.host(layout, c, 1);
    for (int st : status.host(layout, c, 1)) r.status.push_back(Status(st));
    return r;
  }
  DynamicsResults<T> dynamics_results() const {
    const std::size_t n = shape.n, mu = shape.m_u, m = shape.m_b + mu, c = count;
    DynamicsResults<T> r;
    r.shape = shape;
    r.count = c;
    r.qddot = qddot.host(layout, c, n);
    r.lambda = lambda.host(layout, c, m);
    r.active = active.host(layout, c, mu);
    for (int st : status.host(layout, c, 1)) r.status.push_back(Status(st));
    return r;
  }
};

// A Launch over host scratch of `bytes` (plus the hand-back mask of count bytes and its
// compaction's buffer, filled with a value no compaction writes so that a stale entry shows).
struct HostLaunch {
  std::vector<char> scratch, mask;
  std::vector<std::size_t> select;
  cu::detail::Launch l;
  HostLaunch(std::size_t bytes, std::size_t count, bool interleaved)
      : scratch(bytes), mask(count, 0), select(cu::detail::selection_buffer_size(count), ~std::size_t(0)) {
    l.scratch = scratch.data();
    l.scratch_bytes = bytes;
    l.interleaved_scratch = interleaved;
    l.mask_buffer = reinterpret_cast<std::uint8_t*>(mask.data());
    l.select_buffer = select.data();
  }
};

// The fused kernels' launches, as host loops over each chunk's threads. Returns the chunks.
template <class T>
std::size_t fused(const cu::detail::Inputs<T>& in, const cu::detail::ImpactOutputs<T>* io,
                  const cu::detail::DynamicsOutputs<T>* dout, const cu::detail::Launch& l) {
  const std::size_t ws = io ? cu::detail::fused_impact_scratch<T>(in.n, in.m_b, in.m_u)
                            : cu::detail::fused_dynamics_scratch<T>(in.n, in.m_b, in.m_u);
  std::size_t chunks = 0;
  cu::detail::for_each_chunk<T>(in.count, ws, l.scratch_bytes, [&](std::size_t s0, std::size_t c) {
    ++chunks;
    for (std::size_t i = 0; i < c; ++i) {
      if (io) cu::detail::impact_body(in, *io, l.only, s0, c, i, static_cast<T*>(l.scratch), ws, l.interleaved_scratch);
      else cu::detail::dynamics_body(in, *dout, l.only, s0, c, i, static_cast<T*>(l.scratch), ws, l.interleaved_scratch);
    }
  });
  return chunks;
}

// The library path's batched steps on the host (column-major, lower triangular factors).
template <class T> struct HostOps {
  std::size_t chunks = 0;     // chunks the library path ran
  std::size_t fallbacks = 0;  // scenarios handed to the fused kernel

  void fused(const cu::detail::Inputs<T>& in, const cu::detail::ImpactOutputs<T>* io,
             const cu::detail::DynamicsOutputs<T>* dout, const cu::detail::Launch& l) {
    if (l.only.index) fallbacks += *l.only.count;
    emulation::fused<T>(in, io, dout, l);
  }
  cu::detail::Selection select(const std::uint8_t* mask, std::size_t count, std::size_t* buffer) {
    return cu::detail::select_handed_back(thrust::cpp::par, mask, count, buffer);
  }
  void reserve_syevj(int, T*, T*, int) {}
  void prep(const cu::detail::Inputs<T>& in, const Strided<std::uint8_t>& active, std::uint8_t* mask, std::size_t s0,
            const cu::detail::LibraryBuffers<T>& b) {
    ++chunks;
    for (int i = 0; i < b.C; ++i) cu::detail::library_prep(in, active, mask, s0, b, i);
  }
  void energy_prep(const cu::detail::Inputs<T>& in, const Strided<std::uint8_t>& active, std::size_t s0,
                   const cu::detail::LibraryBuffers<T>& b) {
    for (int i = 0; i < b.C; ++i) cu::detail::library_energy_prep(in, active, s0, b, i);
  }
  void finalize(const cu::detail::Inputs<T>& in, const cu::detail::ImpactOutputs<T>& io,
                const cu::detail::DynamicsOutputs<T>& dout, std::uint8_t* mask, std::size_t s0,
                const cu::detail::LibraryBuffers<T>& b) {
    for (int i = 0; i < b.C; ++i) cu::detail::library_finalize(in, io, dout, mask, s0, b, i);
  }
  // potrfBatched (lower): A = L L^T in place; info = j + 1 where the pivot of column j is not
  // positive (the leading minor of order j + 1 is not positive definite), else 0.
  void potrf(int n, T** a, int lda, int* info, int count) {
    for (int b = 0; b < count; ++b) {
      T* A = a[b];
      info[b] = 0;
      for (int j = 0; j < n && !info[b]; ++j) {
        T d = A[j * lda + j];
        for (int k = 0; k < j; ++k) d -= A[k * lda + j] * A[k * lda + j];
        if (!(d > T(0))) {
          info[b] = j + 1;
          break;
        }
        d = std::sqrt(d);
        A[j * lda + j] = d;
        for (int i = j + 1; i < n; ++i) {
          T x = A[j * lda + i];
          for (int k = 0; k < j; ++k) x -= A[k * lda + i] * A[k * lda + j];
          A[j * lda + i] = x / d;
        }
      }
    }
  }
  // trsmBatched, left side, lower, non-unit: B <- L^-1 B (trans = false) or L^-T B.
  void trsm(bool trans, int m, int nrhs, T** a, int lda, T** bb, int ldb, int count) {
    for (int b = 0; b < count; ++b) {
      const T* L = a[b];
      T* B = bb[b];
      for (int c = 0; c < nrhs; ++c) {
        T* x = B + std::size_t(c) * ldb;
        if (!trans) {
          for (int i = 0; i < m; ++i) {
            T v = x[i];
            for (int k = 0; k < i; ++k) v -= L[k * lda + i] * x[k];
            x[i] = v / L[i * lda + i];
          }
        } else {
          for (int i = m - 1; i >= 0; --i) {
            T v = x[i];
            for (int k = i + 1; k < m; ++k) v -= L[i * lda + k] * x[k];
            x[i] = v / L[i * lda + i];
          }
        }
      }
    }
  }
  // gemmStridedBatched with B not transposed: C <- alpha op(A) B + beta C (op(A) is m x k).
  void gemm(bool trans_a, int m, int n, int k, T alpha, const T* a, int lda, long long sa, const T* b, int ldb, long long sb,
            T beta, T* c, int ldc, long long sc, int count) {
    for (int p = 0; p < count; ++p) {
      const T* A = a + p * sa;
      const T* B = b + p * sb;
      T* C = c + p * sc;
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
          T s = T(0);
          for (int q = 0; q < k; ++q) s += (trans_a ? A[i * lda + q] : A[q * lda + i]) * B[j * ldb + q];
          C[j * ldc + i] = alpha * s + beta * C[j * ldc + i];
        }
    }
  }
  // syevjBatched, eigenvalues only, ascending, of the lower triangles.
  void syevj(int n, T* a, T* w, int* info, int count) {
    using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
    for (int p = 0; p < count; ++p) {
      Mat A = Eigen::Map<Mat>(a + std::size_t(p) * n * n, n, n);
      Eigen::SelfAdjointEigenSolver<Mat> es(A, Eigen::EigenvaluesOnly);
      info[p] = es.info() == Eigen::Success ? 0 : 1;
      for (int i = 0; i < n; ++i) w[std::size_t(p) * n + i] = es.eigenvalues()(i);
    }
  }
  void zero(int* p, std::size_t count) { std::memset(p, 0, sizeof(int) * count); }
};

// Tolerances of a GPU answer against the cpu backend's (another order of operations).
template <class T> double tolerance() { return std::is_same_v<T, double> ? 1e-7 : 3e-3; }

// Largest difference of block s (`size` entries) of a and b, relative to 1 + |b|'s largest.
template <class T> double max_rel_diff(const std::vector<T>& a, const std::vector<T>& b, std::size_t s, std::size_t size) {
  double scale = 1, err = 0;
  for (std::size_t k = s * size; k < (s + 1) * size; ++k) {
    scale = std::max(scale, 1 + std::abs(double(b[k])));
    err = std::max(err, std::abs(double(a[k]) - double(b[k])));
  }
  return err / scale;
}

// One lane doing every lane's share in order: a serial schedule of a warp step.
struct HostWarp {
  int lane = 0;
  static constexpr int width = 1;
  void sync() const {}
  bool all(bool p) const { return p; }
};

// Method::warp on the host: the warp body per scenario (each with its own shared memory),
// then the fused kernel on what it handed over. Returns how many scenarios it kept.
template <class T>
std::size_t warp_impact(const cu::detail::Inputs<T>& in, const cu::detail::ImpactOutputs<T>& out, const cu::detail::Launch& l) {
  if (!cu::detail::warp_impact_takes<T>(in.n, in.m_b, in.m_u)) {
    fused<T>(in, &out, nullptr, l);
    return 0;
  }
  std::vector<T> shared(cu::detail::warp_layout(in.n, in.m_b, in.m_u).total);
  for (std::size_t s = 0; s < in.count; ++s) {
    std::fill(shared.begin(), shared.end(), T(NAN));  // nothing carries over from the last scenario
    cu::detail::warp_impact(in, out, l.mask_buffer, s, shared.data(), HostWarp{});
  }
  cu::detail::Launch fallback = l;
  fallback.only = cu::detail::select_handed_back(thrust::cpp::par, l.mask_buffer, in.count, l.select_buffer);
  fused<T>(in, &out, nullptr, fallback);
  std::size_t kept = 0;
  for (std::size_t s = 0; s < in.count; ++s) kept += l.mask_buffer[s] ? 0 : 1;
  return kept;
}

}  // namespace obliq::emulation

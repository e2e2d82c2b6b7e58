// cuda/library_path.cu: the projection law through cuBLAS/cuSOLVER batched routines.
//
// For the scenarios it can take (projection law, valid input, M and the Delassus matrix W of
// the rows taking part numerically non-singular) the library path solves, per chunk of C
// scenarios, with every matrix column-major and scenario-contiguous:
//
//   prep kernel    L = M, A' = A with non-candidate rows zeroed (n x m, stored as A'^T),
//                  XY = [A'^T | g], C = [D | -r0]        (g = i_u or u - h; D = diag(1 on rows
//                  not taking part); r0 = t - A' q; q = qdot for impact, 0 for dynamics)
//   potrfBatched   M = L L^T
//   trsmBatched x2 XY <- M^-1 XY = [X | y],  X = M^-1 A'^T,  y = M^-1 g
//   gemmStrided    C <- A' XY + C = [W | -(t - A' (q + y))],  W = A' M^-1 A'^T + D
//   potrfBatched   W = L_W L_W^T
//   trsmBatched x2 z = W^-1 C_last,  lambda = -z  (docs/math.md 4-5: lambda = W^+ (t - A v_f))
//   gemmStrided    y <- y - X z  (= M^-1 g + M^-1 A'^T lambda; x = q + y)
//   impact only:   W^-1 by two trsm on I, then syevjBatched on E_u Q_uu E_u - Q_uu and Q_uu
//                  (docs/math.md 6: the energy-consistency test)
//   finalize       outputs, or hand the scenario to the fused kernel.
//
// Everything the library path does not take (complementarity law, bad input, a closed row
// approaching in dynamics, a failed or near-singular factorization, m_u > 32 for syevj) is
// marked in a mask and solved afterwards by the fused kernel, which gives the exact statuses.
#include <cublas_v2.h>
#include <cusolverDn.h>

#include <algorithm>
#include <cmath>

#include "common.cuh"
#include "obliq/core/config.hpp"

namespace obliq::cuda::detail {

namespace {

#define OBLIQ_CUBLAS_CHECK(expr)                                                                       \
  do {                                                                                                 \
    cublasStatus_t st_ = (expr);                                                                       \
    if (st_ != CUBLAS_STATUS_SUCCESS)                                                                  \
      throw std::runtime_error(std::string("obliq cuda: ") + #expr + " failed, cublas status " +       \
                               std::to_string(int(st_)));                                              \
  } while (0)
#define OBLIQ_CUSOLVER_CHECK(expr)                                                                     \
  do {                                                                                                 \
    cusolverStatus_t st_ = (expr);                                                                     \
    if (st_ != CUSOLVER_STATUS_SUCCESS)                                                                \
      throw std::runtime_error(std::string("obliq cuda: ") + #expr + " failed, cusolver status " +     \
                               std::to_string(int(st_)));                                              \
  } while (0)

// One cuBLAS and one cuSOLVER handle per host thread, created on first use.
struct Handles {
  cublasHandle_t blas = nullptr;
  cusolverDnHandle_t solver = nullptr;
  syevjInfo_t syevj = nullptr;
  Handles() {
    OBLIQ_CUBLAS_CHECK(cublasCreate(&blas));
    OBLIQ_CUSOLVER_CHECK(cusolverDnCreate(&solver));
    OBLIQ_CUSOLVER_CHECK(cusolverDnCreateSyevjInfo(&syevj));
  }
  ~Handles() {
    if (syevj) cusolverDnDestroySyevjInfo(syevj);
    if (solver) cusolverDnDestroy(solver);
    if (blas) cublasDestroy(blas);
  }
};
Handles& handles(cudaStream_t stream) {
  thread_local Handles h;
  OBLIQ_CUBLAS_CHECK(cublasSetStream(h.blas, stream));
  OBLIQ_CUSOLVER_CHECK(cusolverDnSetStream(h.solver, stream));
  return h;
}

// Type-generic wrappers of the batched routines.
cusolverStatus_t potrf_batched(cusolverDnHandle_t h, int n, double* a[], int lda, int* info, int b) {
  return cusolverDnDpotrfBatched(h, CUBLAS_FILL_MODE_LOWER, n, a, lda, info, b);
}
cusolverStatus_t potrf_batched(cusolverDnHandle_t h, int n, float* a[], int lda, int* info, int b) {
  return cusolverDnSpotrfBatched(h, CUBLAS_FILL_MODE_LOWER, n, a, lda, info, b);
}
cublasStatus_t trsm_batched(cublasHandle_t h, cublasOperation_t op, int m, int n, const double* alpha,
                            const double* const a[], int lda, double* const b[], int ldb, int count) {
  return cublasDtrsmBatched(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, op, CUBLAS_DIAG_NON_UNIT, m, n, alpha, a, lda, b,
                            ldb, count);
}
cublasStatus_t trsm_batched(cublasHandle_t h, cublasOperation_t op, int m, int n, const float* alpha,
                            const float* const a[], int lda, float* const b[], int ldb, int count) {
  return cublasStrsmBatched(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, op, CUBLAS_DIAG_NON_UNIT, m, n, alpha, a, lda, b,
                            ldb, count);
}
cublasStatus_t gemm_strided(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                            const double* alpha, const double* a, int lda, long long sa, const double* b, int ldb,
                            long long sb, const double* beta, double* c, int ldc, long long sc, int count) {
  return cublasDgemmStridedBatched(h, ta, tb, m, n, k, alpha, a, lda, sa, b, ldb, sb, beta, c, ldc, sc, count);
}
cublasStatus_t gemm_strided(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                            const float* alpha, const float* a, int lda, long long sa, const float* b, int ldb,
                            long long sb, const float* beta, float* c, int ldc, long long sc, int count) {
  return cublasSgemmStridedBatched(h, ta, tb, m, n, k, alpha, a, lda, sa, b, ldb, sb, beta, c, ldc, sc, count);
}
cusolverStatus_t syevj_buffer(cusolverDnHandle_t h, int n, const double* a, const double* w, int* lwork, syevjInfo_t p,
                              int b) {
  return cusolverDnDsyevjBatched_bufferSize(h, CUSOLVER_EIG_MODE_NOVECTOR, CUBLAS_FILL_MODE_LOWER, n, a, n, w, lwork, p, b);
}
cusolverStatus_t syevj_buffer(cusolverDnHandle_t h, int n, const float* a, const float* w, int* lwork, syevjInfo_t p,
                              int b) {
  return cusolverDnSsyevjBatched_bufferSize(h, CUSOLVER_EIG_MODE_NOVECTOR, CUBLAS_FILL_MODE_LOWER, n, a, n, w, lwork, p, b);
}
cusolverStatus_t syevj(cusolverDnHandle_t h, int n, double* a, double* w, double* work, int lwork, int* info,
                       syevjInfo_t p, int b) {
  return cusolverDnDsyevjBatched(h, CUSOLVER_EIG_MODE_NOVECTOR, CUBLAS_FILL_MODE_LOWER, n, a, n, w, work, lwork, info, p, b);
}
cusolverStatus_t syevj(cusolverDnHandle_t h, int n, float* a, float* w, float* work, int lwork, int* info,
                       syevjInfo_t p, int b) {
  return cusolverDnSsyevjBatched(h, CUSOLVER_EIG_MODE_NOVECTOR, CUBLAS_FILL_MODE_LOWER, n, a, n, w, work, lwork, info, p, b);
}

// Per-chunk buffers carved out of the scratch, each 256-byte aligned.
template <class T> struct Buffers {
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

std::size_t align_up(std::size_t b) { return (b + 255) / 256 * 256; }

template <class T> std::size_t per_scenario_bytes(int n, int m, int m_u, bool impact) {
  std::size_t b = 0;
  b += sizeof(T) * (std::size_t(n) * n + std::size_t(n) * m + std::size_t(n) * (m + 1) + std::size_t(m) * (m + 1));
  if (impact) b += sizeof(T) * (std::size_t(m) * m + 2 * std::size_t(m_u) * m_u + 2 * std::size_t(m_u));
  b += 5 * sizeof(T*) + 4 * sizeof(int);
  return b;
}

template <class T> Buffers<T> carve(void* scratch, int n, int m, int m_u, int C, bool impact) {
  Buffers<T> b{};
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

template <class T> __device__ bool finite_(T x) { return isfinite(x); }

// Data in -> the library's column-major buffers, or mark the scenario for the fused kernel.
// Candidates (docs/format.md): closed (phi <= gap_tol) and, for impact, (A_u q)_i <= vel_tol; for
// dynamics |(A_u q)_i| <= vel_tol (a closed row with (A_u q)_i < -vel_tol goes to the fused
// kernel, which reports unresolved_impact).
template <class T>
__global__ void prep_kernel(Inputs<T> in, Strided<std::uint8_t> active, std::uint8_t* mask, std::size_t s0, Buffers<T> b) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
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

// Q = W^-1 -> the two symmetric m_u x m_u matrices of the energy test (docs/math.md 6), zero on the
// rows and columns of non-candidate rows: E_u Q_uu E_u - Q_uu and Q_uu.
template <class T>
__global__ void energy_prep_kernel(Inputs<T> in, Strided<std::uint8_t> active, std::size_t s0, Buffers<T> b) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
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

// Outputs from [X | y] and z, or a mark for the fused kernel.
template <class T>
__global__ void finalize_kernel(Inputs<T> in, ImpactOutputs<T> io, DynamicsOutputs<T> dout, std::uint8_t* mask,
                                std::size_t s0, Buffers<T> b) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= std::size_t(b.C)) return;
  const std::size_t s = s0 + i;
  if (mask[s]) return;
  const int n = in.n, mb = in.m_b, mu = in.m_u, m = b.m;
  const T* XY = b.XY + i * n * (m + 1);
  const T* Cm = b.Cm + i * m * (m + 1);
  const Strided<std::uint8_t> active = b.impact ? io.active : dout.active;

  // Factorizations must have succeeded, and W must be well away from singular on the rows
  // taking part (the fused kernel decides the rank of A exactly as docs/math.md 1 says).
  bool ok = b.infoM[i] == 0 && b.infoW[i] == 0;
  T dmin = T(0), dmax = T(0);
  bool any = false;
  for (int r = 0; r < m && ok; ++r) {
    const bool take = r < mb || active(s, r - mb);
    if (!take) continue;
    const T d = Cm[r * m + r];
    if (!any) dmin = dmax = d;
    dmin = min_(dmin, d);
    dmax = max_(dmax, d);
    any = true;
  }
  const T eps = scalar_traits<T>::eps;
  if (ok && any && !(dmin > T(100) * T(n > m ? n : m) * eps * dmax)) ok = false;
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
    for (int r = 0; r < m; ++r) {
      const bool take = r < mb || active(s, r - mb);
      io.lambda(s, r) = take ? -z[r] : T(0);
    }
    bool consistent = true;
    if (mu > 0) {
      const T lmax_x = b.eigval[(2 * i) * mu + mu - 1];      // ascending order
      const T lmax_q = b.eigval[(2 * i + 1) * mu + mu - 1];
      consistent = lmax_x <= scalar_traits<T>::energy_tol * lmax_q;
    }
    *io.energy_consistent.at(s) = consistent ? 1 : 0;
    io.status(s, 0) = int(Status::ok);
  } else {
    for (int r = 0; r < n; ++r) dout.qddot(s, r) = y[r];
    for (int r = 0; r < m; ++r) {
      const bool take = r < mb || active(s, r - mb);
      dout.lambda(s, r) = take ? -z[r] : T(0);
    }
    dout.status(s, 0) = int(Status::ok);
  }
}

template <class T>
void run_library(const Inputs<T>& in, const ImpactOutputs<T>* io, const DynamicsOutputs<T>* dout, const Launch& l) {
  const bool impact = io != nullptr;
  const int n = in.n, mb = in.m_b, mu = in.m_u, m = mb + mu;
  cudaStream_t stream = stream_of(l);
  std::uint8_t* mask = l.mask_buffer;
  Launch fallback = l;
  fallback.only = mask;

  // Shapes the library path does not take: everything to the fused kernel.
  if (m == 0 || (impact && mu > 32)) {
    if (impact) fused_impact(in, *io, l);
    else fused_dynamics(in, *dout, l);
    return;
  }

  Handles& h = handles(stream);
  std::size_t C = std::min<std::size_t>(in.count, l.scratch_bytes / per_scenario_bytes<T>(n, m, mu, impact));
  while (C > 1 && carve_bytes<T>(n, m, mu, C, impact) > l.scratch_bytes) C = C * 15 / 16;
  C = std::min<std::size_t>(C, 1 << 20);
  if (C == 0 || carve_bytes<T>(n, m, mu, C, impact) > l.scratch_bytes)
    throw std::runtime_error("obliq cuda: scratch too small for the library path");

  // syevj workspace for 2C matrices of m_u x m_u.
  TempMemory work;
  int lwork = 0;
  if (impact && mu > 0) {
    Buffers<T> probe = carve<T>(l.scratch, n, m, mu, int(C), impact);
    OBLIQ_CUSOLVER_CHECK(syevj_buffer(h.solver, mu, probe.Eig, probe.eigval, &lwork, h.syevj, int(2 * C)));
    work.reset(std::size_t(lwork) * sizeof(T));
  }

  const T one = 1, minus_one = -1;
  const Strided<std::uint8_t> active = impact ? io->active : dout->active;
  for (std::size_t s0 = 0; s0 < in.count; s0 += C) {
    const int c = int(std::min(C, in.count - s0));
    Buffers<T> b = carve<T>(l.scratch, n, m, mu, c, impact);
    const unsigned grid = blocks_for(c, l.block_size);
    prep_kernel<T><<<grid, l.block_size, 0, stream>>>(in, active, mask, s0, b);
    OBLIQ_CUDA_CHECK(cudaGetLastError());
    OBLIQ_CUSOLVER_CHECK(potrf_batched(h.solver, n, b.pL, n, b.infoM, c));
    OBLIQ_CUBLAS_CHECK(trsm_batched(h.blas, CUBLAS_OP_N, n, m + 1, &one, b.pL, n, b.pXY, n, c));
    OBLIQ_CUBLAS_CHECK(trsm_batched(h.blas, CUBLAS_OP_T, n, m + 1, &one, b.pL, n, b.pXY, n, c));
    OBLIQ_CUBLAS_CHECK(gemm_strided(h.blas, CUBLAS_OP_T, CUBLAS_OP_N, m, m + 1, n, &one, b.AT, n, (long long)n * m, b.XY, n,
                                    (long long)n * (m + 1), &one, b.Cm, m, (long long)m * (m + 1), c));
    OBLIQ_CUSOLVER_CHECK(potrf_batched(h.solver, m, b.pC, m, b.infoW, c));
    OBLIQ_CUBLAS_CHECK(trsm_batched(h.blas, CUBLAS_OP_N, m, 1, &one, b.pC, m, b.pZ, m, c));
    OBLIQ_CUBLAS_CHECK(trsm_batched(h.blas, CUBLAS_OP_T, m, 1, &one, b.pC, m, b.pZ, m, c));
    OBLIQ_CUBLAS_CHECK(gemm_strided(h.blas, CUBLAS_OP_N, CUBLAS_OP_N, n, 1, m, &minus_one, b.XY, n, (long long)n * (m + 1),
                                    b.Cm + std::size_t(m) * m, m, (long long)m * (m + 1), &one,
                                    b.XY + std::size_t(n) * m, n, (long long)n * (m + 1), c));
    if (impact && mu > 0) {
      OBLIQ_CUBLAS_CHECK(trsm_batched(h.blas, CUBLAS_OP_N, m, m, &one, b.pC, m, b.pWinv, m, c));
      OBLIQ_CUBLAS_CHECK(trsm_batched(h.blas, CUBLAS_OP_T, m, m, &one, b.pC, m, b.pWinv, m, c));
      energy_prep_kernel<T><<<grid, l.block_size, 0, stream>>>(in, active, s0, b);
      OBLIQ_CUDA_CHECK(cudaGetLastError());
      OBLIQ_CUSOLVER_CHECK(syevj(h.solver, mu, b.Eig, b.eigval, static_cast<T*>(work.get()), lwork, b.infoE, h.syevj, 2 * c));
    } else if (impact) {
      OBLIQ_CUDA_CHECK(cudaMemsetAsync(b.infoE, 0, sizeof(int) * 2 * c, stream));
    }
    finalize_kernel<T><<<grid, l.block_size, 0, stream>>>(in, impact ? *io : ImpactOutputs<T>{},
                                                          impact ? DynamicsOutputs<T>{} : *dout, mask, s0, b);
    OBLIQ_CUDA_CHECK(cudaGetLastError());
  }
  // Whatever the library path did not take: the fused kernel, masked.
  if (impact) fused_impact(in, *io, fallback);
  else fused_dynamics(in, *dout, fallback);
}

}  // namespace

template <class T> std::size_t library_scratch_per_scenario(int n, int m_b, int m_u) {
  return per_scenario_bytes<T>(n, m_b + m_u, m_u, true);
}

template <class T> void library_impact(const Inputs<T>& in, const ImpactOutputs<T>& out, const Launch& l) {
  if (in.count == 0) return;
  run_library<T>(in, &out, nullptr, l);
}
template <class T> void library_dynamics(const Inputs<T>& in, const DynamicsOutputs<T>& out, const Launch& l) {
  if (in.count == 0) return;
  run_library<T>(in, nullptr, &out, l);
}

#define OBLIQ_INSTANTIATE(T)                                                                        \
  template std::size_t library_scratch_per_scenario<T>(int, int, int);                             \
  template void library_impact<T>(const Inputs<T>&, const ImpactOutputs<T>&, const Launch&);       \
  template void library_dynamics<T>(const Inputs<T>&, const DynamicsOutputs<T>&, const Launch&);
OBLIQ_INSTANTIATE(double)
OBLIQ_INSTANTIATE(float)
#undef OBLIQ_INSTANTIATE

}  // namespace obliq::cuda::detail

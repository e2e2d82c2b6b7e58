// cuda/library_path.cu: the library path's device steps (cuda/library_steps.hpp runs them):
// kernels around cuSOLVER potrfBatched / syevjBatched and cuBLAS trsmBatched /
// gemmStridedBatched.
#include <cublas_v2.h>
#include <cusolverDn.h>

#include "common.cuh"
#include "compaction.hpp"
#include "library_steps.hpp"
#include "thrust.cuh"

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

template <class T>
__global__ void prep_kernel(Inputs<T> in, Strided<std::uint8_t> active, std::uint8_t* mask, std::size_t s0,
                            LibraryBuffers<T> b) {
  library_prep(in, active, mask, s0, b, std::size_t(blockIdx.x) * blockDim.x + threadIdx.x);
}
template <class T>
__global__ void energy_prep_kernel(Inputs<T> in, Strided<std::uint8_t> active, std::size_t s0, LibraryBuffers<T> b) {
  library_energy_prep(in, active, s0, b, std::size_t(blockIdx.x) * blockDim.x + threadIdx.x);
}
template <class T>
__global__ void finalize_kernel(Inputs<T> in, ImpactOutputs<T> io, DynamicsOutputs<T> dout, std::uint8_t* mask,
                                std::size_t s0, LibraryBuffers<T> b) {
  library_finalize(in, io, dout, mask, s0, b, std::size_t(blockIdx.x) * blockDim.x + threadIdx.x);
}

// The device steps of library_run (cuda/library_steps.hpp) on one stream.
template <class T> struct DeviceOps {
  cudaStream_t stream;
  int block;
  Handles& h;
  StreamBuffer work;  // syevj workspace, stream-ordered
  int lwork = 0;

  DeviceOps(const Launch& l) : stream(stream_of(l)), block(l.block_size), h(handles(stream_of(l))), work(stream_of(l)) {}

  void fused(const Inputs<T>& in, const ImpactOutputs<T>* io, const DynamicsOutputs<T>* dout, const Launch& l) {
    if (io) fused_impact(in, *io, l);
    else fused_dynamics(in, *dout, l);
  }
  void reserve_syevj(int n, T* a, T* w, int count) {
    OBLIQ_CUSOLVER_CHECK(syevj_buffer(h.solver, n, a, w, &lwork, h.syevj, count));
    work.reset(std::size_t(lwork) * sizeof(T));
  }
  void prep(const Inputs<T>& in, const Strided<std::uint8_t>& active, std::uint8_t* mask, std::size_t s0,
            const LibraryBuffers<T>& b) {
    prep_kernel<T><<<blocks_for(b.C, block), block, 0, stream>>>(in, active, mask, s0, b);
    OBLIQ_CUDA_CHECK(cudaGetLastError());
  }
  void energy_prep(const Inputs<T>& in, const Strided<std::uint8_t>& active, std::size_t s0, const LibraryBuffers<T>& b) {
    energy_prep_kernel<T><<<blocks_for(b.C, block), block, 0, stream>>>(in, active, s0, b);
    OBLIQ_CUDA_CHECK(cudaGetLastError());
  }
  void finalize(const Inputs<T>& in, const ImpactOutputs<T>& io, const DynamicsOutputs<T>& dout, std::uint8_t* mask,
                std::size_t s0, const LibraryBuffers<T>& b) {
    finalize_kernel<T><<<blocks_for(b.C, block), block, 0, stream>>>(in, io, dout, mask, s0, b);
    OBLIQ_CUDA_CHECK(cudaGetLastError());
  }
  void potrf(int n, T** a, int lda, int* info, int count) {
    OBLIQ_CUSOLVER_CHECK(potrf_batched(h.solver, n, a, lda, info, count));
  }
  void trsm(bool trans, int m, int nrhs, T** a, int lda, T** b, int ldb, int count) {
    const T one = 1;
    OBLIQ_CUBLAS_CHECK(trsm_batched(h.blas, trans ? CUBLAS_OP_T : CUBLAS_OP_N, m, nrhs, &one, a, lda, b, ldb, count));
  }
  void gemm(bool trans_a, int m, int n, int k, T alpha, const T* a, int lda, long long sa, const T* b, int ldb, long long sb,
            T beta, T* c, int ldc, long long sc, int count) {
    OBLIQ_CUBLAS_CHECK(gemm_strided(h.blas, trans_a ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, a, lda, sa,
                                    b, ldb, sb, &beta, c, ldc, sc, count));
  }
  void syevj(int n, T* a, T* w, int* info, int count) {
    OBLIQ_CUSOLVER_CHECK(
        detail::syevj(h.solver, n, a, w, static_cast<T*>(work.get()), lwork, info, h.syevj, count));
  }
  void zero(int* p, std::size_t count) { OBLIQ_CUDA_CHECK(cudaMemsetAsync(p, 0, sizeof(int) * count, stream)); }
  Selection select(const std::uint8_t* mask, std::size_t count, std::size_t* buffer) {
    PoolAllocator alloc(stream);
    return select_handed_back(thrust_on(alloc), mask, count, buffer);
  }
};

}  // namespace

template <class T> int library_max_block_size() {
  int most = fused_max_block_size<T>();
  cudaFuncAttributes a{};
  OBLIQ_CUDA_CHECK(cudaFuncGetAttributes(&a, prep_kernel<T>));
  most = std::min(most, a.maxThreadsPerBlock);
  OBLIQ_CUDA_CHECK(cudaFuncGetAttributes(&a, energy_prep_kernel<T>));
  most = std::min(most, a.maxThreadsPerBlock);
  OBLIQ_CUDA_CHECK(cudaFuncGetAttributes(&a, finalize_kernel<T>));
  return std::min(most, a.maxThreadsPerBlock);
}

template <class T> std::size_t library_scratch_per_scenario(int n, int m_b, int m_u) {
  return library_bytes_per_scenario<T>(n, m_b + m_u, m_u, true);
}

template <class T> void library_impact(const Inputs<T>& in, const ImpactOutputs<T>& out, const Launch& l) {
  if (in.count == 0) return;
  DeviceOps<T> ops(l);
  library_run<T>(in, &out, nullptr, l, ops);
}
template <class T> void library_dynamics(const Inputs<T>& in, const DynamicsOutputs<T>& out, const Launch& l) {
  if (in.count == 0) return;
  DeviceOps<T> ops(l);
  library_run<T>(in, nullptr, &out, l, ops);
}

#define OBLIQ_INSTANTIATE(T)                                                                        \
  template std::size_t library_scratch_per_scenario<T>(int, int, int);                             \
  template int library_max_block_size<T>();                                                        \
  template void library_impact<T>(const Inputs<T>&, const ImpactOutputs<T>&, const Launch&);       \
  template void library_dynamics<T>(const Inputs<T>&, const DynamicsOutputs<T>&, const Launch&);
OBLIQ_INSTANTIATE(double)
OBLIQ_INSTANTIATE(float)
#undef OBLIQ_INSTANTIATE

}  // namespace obliq::cuda::detail

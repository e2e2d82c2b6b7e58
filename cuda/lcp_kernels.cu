// cuda/lcp_kernels.cu: LCPs of one size m over all problems, one thread per problem, running the
// core's solvers (include/obliq/core/lcp/select.hpp: lemke, pivot, pgs, enum, auto), the same
// function obliq::solve_lcp_batch runs on the CPU. Inputs scenario-contiguous (problem p's M at
// p * m * m, row-major), scratch interleaved (stride = chunk) for coalescing.
#include <algorithm>

#include "batch_checks.hpp"
#include "chunks.hpp"
#include "common.cuh"
#include "lcp_launch.hpp"
#include "obliq/core/lcp/select.hpp"

namespace obliq::cuda::detail {

template <class T>
__global__ void lcp_kernel(LcpArrays<T> a, std::size_t s0, std::size_t chunk, T* scratch, std::size_t ws, bool interleaved) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= chunk) return;
  const std::size_t s = s0 + i;
  const int m = a.m;
  const MatView<const T> M{a.M + s * m * m, m, m, m, 1};
  const VecView<const T> q{a.q + s * m, m, 1};
  const VecView<T> z{a.z + s * m, m, 1}, w{a.w + s * m, m, 1};
  Arena<T> arena = arena_at(scratch, i, chunk, ws, interleaved);
  const auto solver = static_cast<lcp::Solver>(a.solver[s]);
  lcp::Solver used = solver == lcp::Solver::automatic ? lcp::Solver::lemke : solver;
  const lcp::Result<T> r = lcp::solve<T>(M, q, z, w, arena, solver, a.max_iterations, &used, a.omega);
  a.status[s] = static_cast<int>(r.status);
  a.iterations[s] = r.iterations;
  a.residual[s] = r.residual;
  a.used[s] = static_cast<int>(used);
}

template <class T> std::size_t lcp_scratch(int m) { return std::max<std::size_t>(1, lcp::solve_workspace<T>(m)); }

template <class T> void fused_lcp(const LcpArrays<T>& a, const Launch& l) {
  if (a.count == 0) return;
  cudaFuncAttributes attr{};
  OBLIQ_CUDA_CHECK(cudaFuncGetAttributes(&attr, lcp_kernel<T>));
  const std::string err = check_block_size(l.block_size, attr.maxThreadsPerBlock);
  if (!err.empty()) throw std::runtime_error("obliq cuda: lcp: " + err);
  const std::size_t ws = lcp_scratch<T>(a.m);
  for_each_chunk<T>(a.count, ws, l.scratch_bytes, [&](std::size_t s0, std::size_t c) {
    lcp_kernel<T><<<blocks_for(c, l.block_size), l.block_size, 0, stream_of(l)>>>(a, s0, c, static_cast<T*>(l.scratch), ws,
                                                                                   l.interleaved_scratch);
    OBLIQ_CUDA_CHECK(cudaGetLastError());
  });
}

template void fused_lcp<double>(const LcpArrays<double>&, const Launch&);
template void fused_lcp<float>(const LcpArrays<float>&, const Launch&);
template std::size_t lcp_scratch<double>(int);
template std::size_t lcp_scratch<float>(int);

}  // namespace obliq::cuda::detail

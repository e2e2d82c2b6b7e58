// cuda/fused_kernels.cu: the per-scenario core over all scenarios, one thread per scenario.
//
// Each kernel runs the body of cuda/fused_body.hpp for thread s = blockIdx.x * blockDim.x +
// threadIdx.x of a chunk: the core's views built from the strided arrays, and the same function
// the CPU backend calls. Scratch is one device buffer per chunk of scenarios; interleaved
// scratch (stride = chunk) keeps a warp's scratch accesses coalesced.
#include "common.cuh"
#include "fused_body.hpp"

namespace obliq::cuda::detail {

template <class T>
__global__ void impact_kernel(Inputs<T> in, ImpactOutputs<T> out, Selection only, std::size_t s0,
                              std::size_t chunk, T* scratch, std::size_t ws, bool interleaved) {
  impact_body(in, out, only, s0, chunk, std::size_t(blockIdx.x) * blockDim.x + threadIdx.x, scratch, ws, interleaved);
}

template <class T>
__global__ void dynamics_kernel(Inputs<T> in, DynamicsOutputs<T> out, Selection only, std::size_t s0,
                                std::size_t chunk, T* scratch, std::size_t ws, bool interleaved) {
  dynamics_body(in, out, only, s0, chunk, std::size_t(blockIdx.x) * blockDim.x + threadIdx.x, scratch, ws, interleaved);
}

template <class T> void fused_impact(const Inputs<T>& in, const ImpactOutputs<T>& out, const Launch& l) {
  const std::size_t ws = fused_impact_scratch<T>(in.n, in.m_b, in.m_u);
  for_each_chunk<T>(in.count, ws, l.scratch_bytes, [&](std::size_t s0, std::size_t c) {
    impact_kernel<T><<<blocks_for(c, l.block_size), l.block_size, 0, stream_of(l)>>>(
        in, out, l.only, s0, c, static_cast<T*>(l.scratch), ws, l.interleaved_scratch);
    OBLIQ_CUDA_CHECK(cudaGetLastError());
  });
}

template <class T> void fused_dynamics(const Inputs<T>& in, const DynamicsOutputs<T>& out, const Launch& l) {
  const std::size_t ws = fused_dynamics_scratch<T>(in.n, in.m_b, in.m_u);
  for_each_chunk<T>(in.count, ws, l.scratch_bytes, [&](std::size_t s0, std::size_t c) {
    dynamics_kernel<T><<<blocks_for(c, l.block_size), l.block_size, 0, stream_of(l)>>>(
        in, out, l.only, s0, c, static_cast<T*>(l.scratch), ws, l.interleaved_scratch);
    OBLIQ_CUDA_CHECK(cudaGetLastError());
  });
}

// Threads per block the fused kernels can launch with (their register use decides it).
template <class T> int fused_max_block_size() {
  cudaFuncAttributes a{}, b{};
  OBLIQ_CUDA_CHECK(cudaFuncGetAttributes(&a, impact_kernel<T>));
  OBLIQ_CUDA_CHECK(cudaFuncGetAttributes(&b, dynamics_kernel<T>));
  return a.maxThreadsPerBlock < b.maxThreadsPerBlock ? a.maxThreadsPerBlock : b.maxThreadsPerBlock;
}

#define OBLIQ_INSTANTIATE(T)                                                                 \
  template void fused_impact<T>(const Inputs<T>&, const ImpactOutputs<T>&, const Launch&);  \
  template void fused_dynamics<T>(const Inputs<T>&, const DynamicsOutputs<T>&, const Launch&); \
  template int fused_max_block_size<T>();
OBLIQ_INSTANTIATE(double)
OBLIQ_INSTANTIATE(float)
#undef OBLIQ_INSTANTIATE

}  // namespace obliq::cuda::detail

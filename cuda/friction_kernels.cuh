// cuda/friction_kernels.cuh: frictional scenarios on the device, one thread per scenario;
// instantiated once per scalar type in friction_kernels_double.cu and friction_kernels_float.cu
// (two files, compiled at once by a parallel build). The kernel is a one-line wrapper around
// cuda/friction_body.hpp (the core's frictional impact / dynamics, as on the cpu); the call
// sequence is cuda/friction_glue.hpp's (cuda/friction_glue.cpp). Both are emulated on the host in
// CI (tests/cuda_emulation/friction_glue_test.cpp).
#pragma once

#include <algorithm>

#include "common.cuh"
#include "friction_body.hpp"

namespace obliq::cuda::detail {

template <class T>
__global__ void friction_kernel(FrictionArrays<T> a, std::size_t s0, std::size_t chunk, T* scratch, std::size_t ws) {
  friction_body(a, s0, chunk, std::size_t(blockIdx.x) * blockDim.x + threadIdx.x, scratch, ws);
}

template <class T> void friction_chunk(const FrictionArrays<T>& a, std::size_t s0, std::size_t chunk, T* scratch, std::size_t ws) {
  static const int block = [] {
    cudaFuncAttributes attributes{};
    OBLIQ_CUDA_CHECK(cudaFuncGetAttributes(&attributes, friction_kernel<T>));
    return std::min(64, attributes.maxThreadsPerBlock);
  }();
  friction_kernel<T><<<blocks_for(chunk, block), block>>>(a, s0, chunk, scratch, ws);
  OBLIQ_CUDA_CHECK(cudaGetLastError());
}

}  // namespace obliq::cuda::detail

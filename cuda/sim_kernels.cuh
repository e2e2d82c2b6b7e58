// cuda/sim_kernels.cuh: the Simulator's step on the device (SimOptions::backend = cuda), one
// thread per scenario; instantiated once per scalar type in sim_kernels_double.cu and
// sim_kernels_float.cu (two files, so that a parallel build compiles and assembles them at once:
// each takes minutes). The kernel is a one-line wrapper around cuda/sim_body.hpp (the same
// advance() as the cpu Simulator); the call sequence (copies, chunks, copy back) is
// cuda/sim_glue.hpp's, run here with device memory (cuda/device_memory.hpp). Both are emulated on the host in CI
// (tests/cuda_emulation/simulator_glue_test.cpp).
#pragma once

#include <vector>

#include "common.cuh"
#include "device_memory.hpp"
#include "sim_glue.hpp"
#include "sim_launch.hpp"

namespace obliq::cuda::detail {

template <class T>
__global__ void sim_step_kernel(sim::BatchArrays<T> b, sim::StepParams<T> p, T dt, int steps, std::size_t s0,
                                std::size_t chunk, T* scratch, std::size_t ws) {
  sim_step_body(b, p, dt, steps, s0, chunk, std::size_t(blockIdx.x) * blockDim.x + threadIdx.x, scratch, ws);
}

template <class T>
void simulate(const sim::BatchArrays<T>& h, const sim::StepParams<T>& p, T dt, int steps, std::size_t scratch_bytes) {
  if (scratch_bytes == 0) scratch_bytes = default_scratch_bytes();
  cudaFuncAttributes attributes{};
  OBLIQ_CUDA_CHECK(cudaFuncGetAttributes(&attributes, sim_step_kernel<T>));
  const int block = std::min(64, attributes.maxThreadsPerBlock);
  DeviceMemory<T> mem;
  run_simulation(h, p, scratch_bytes, mem,
                 [&](const sim::BatchArrays<T>& d, std::size_t s0, std::size_t n, T* scratch, std::size_t ws) {
                   sim_step_kernel<T><<<blocks_for(n, block), block>>>(d, p, dt, steps, s0, n, scratch, ws);
                   OBLIQ_CUDA_CHECK(cudaGetLastError());
                 });
  OBLIQ_CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace obliq::cuda::detail

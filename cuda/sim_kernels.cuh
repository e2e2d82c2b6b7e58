// cuda/sim_kernels.cuh: the Simulator's step on the device (SimOptions::backend = cuda), one
// thread per scenario, one kernel per configuration of a batch (model or raw systems,
// Moreau-Jean or event-driven, frictional or not: cuda/sim_body.hpp), each instantiated for one
// scalar type in its own file of cuda/sim_kernels/ (so that ptxas sees one configuration's code
// at a time and a parallel build assembles several at once). The kernel is a one-line wrapper
// around sim_step_body (the same advance_with() as the cpu Simulator); the call sequence
// (copies, chunks, copy back) is cuda/sim_glue.hpp's, run here with device memory
// (cuda/device_memory.hpp). The PD-tracked step (Simulator::step_pd) is cuda/sim_pd.hpp's
// sequence: an actuator kernel, then the step kernel, frame_skip times. All of it is emulated
// on the host in CI (tests/cuda_emulation/simulator_glue_test.cpp, simulator_pd_test.cpp).
#pragma once

#include <stdexcept>
#include <vector>

#include "common.cuh"
#include "device_memory.hpp"
#include "sim_glue.hpp"
#include "sim_launch.hpp"
#include "sim_pd.hpp"

namespace obliq::cuda::detail {

template <class T, SimSystems K, sim::Integrator I, bool Frictional>
__global__ void sim_step_kernel(sim::BatchArrays<T> b, sim::StepParams<T> p, T dt, int steps, std::size_t s0,
                                std::size_t chunk, T* scratch, std::size_t ws) {
  sim_step_body<T, K, I, Frictional>(b, p, dt, steps, s0, chunk, std::size_t(blockIdx.x) * blockDim.x + threadIdx.x,
                                     scratch, ws);
}

template <class T>
__global__ void pd_actuate_kernel(sim::BatchArrays<T> d, PdDeviceArrays<T> a) {
  pd_actuate_body(d, a, std::size_t(blockIdx.x) * blockDim.x + threadIdx.x);
}

// The step kernel of configuration (K, I, Frictional) as run_simulation's launch: `steps` steps
// of the chunk's scenarios. Throws std::logic_error when the batch is not of that configuration.
template <class T, SimSystems K, sim::Integrator I, bool Frictional> struct StepLaunch {
  sim::StepParams<T> p;
  T dt;
  int steps;
  int block = 64;
  StepLaunch(const sim::BatchArrays<T>& h, const sim::StepParams<T>& p, T dt, int steps) : p(p), dt(dt), steps(steps) {
    if (!(sim_configuration(h, p) == SimConfiguration{K, I, Frictional}))
      throw std::logic_error("backend cuda: the Simulator's kernel is not the batch's configuration");
    cudaFuncAttributes attributes{};
    OBLIQ_CUDA_CHECK(cudaFuncGetAttributes(&attributes, sim_step_kernel<T, K, I, Frictional>));
    block = std::min(block, attributes.maxThreadsPerBlock);
  }
  void operator()(const sim::BatchArrays<T>& d, std::size_t s0, std::size_t n, T* scratch, std::size_t ws) const {
    sim_step_kernel<T, K, I, Frictional><<<blocks_for(n, block), block>>>(d, p, dt, steps, s0, n, scratch, ws);
    OBLIQ_CUDA_CHECK(cudaGetLastError());
  }
};

template <class T, SimSystems K, sim::Integrator I, bool Frictional>
void simulate_configuration(const sim::BatchArrays<T>& h, const sim::StepParams<T>& p, T dt, int steps,
                            std::size_t scratch_bytes) {
  const StepLaunch<T, K, I, Frictional> launch(h, p, dt, steps);
  if (scratch_bytes == 0) scratch_bytes = default_scratch_bytes();
  DeviceMemory<T> mem;
  run_simulation(h, p, scratch_bytes, mem, launch);
  OBLIQ_CUDA_CHECK(cudaDeviceSynchronize());
}

template <class T, SimSystems K, sim::Integrator I, bool Frictional>
void simulate_pd_configuration(const sim::BatchArrays<T>& h, const sim::StepParams<T>& p, const sim::PdArrays<T>& pd,
                               T dt, int frame_skip, std::size_t scratch_bytes) {
  const StepLaunch<T, K, I, Frictional> launch(h, p, dt, 1);
  if (scratch_bytes == 0) scratch_bytes = default_scratch_bytes();
  DeviceMemory<T> mem;
  const auto actuate = [&](const sim::BatchArrays<T>& d, const PdDeviceArrays<T>& a) {
    constexpr int block = 128;  // a few registers per thread: any block size fits
    pd_actuate_kernel<T><<<blocks_for(d.count, block), block>>>(d, a);
    OBLIQ_CUDA_CHECK(cudaGetLastError());
  };
  run_pd_simulation(h, p, pd, frame_skip, scratch_bytes, mem, actuate, launch);
  OBLIQ_CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace obliq::cuda::detail

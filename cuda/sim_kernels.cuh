// cuda/sim_kernels.cuh: the Simulator's step on the device (SimOptions::backend = cuda), one
// thread per scenario, one kernel per configuration of a batch (model or raw systems,
// Moreau-Jean or event-driven, frictional or not: cuda/sim_body.hpp), each instantiated for one
// scalar type in its own file of cuda/sim_kernels/ (so that ptxas sees one configuration's code
// at a time and a parallel build assembles several at once). Moreau-Jean is one kernel per
// phase of the step (sim_phase_kernel: evaluate, contact solve, finish, and with friction the
// contact solve's five stages in place of its one kernel; the phases of the cpu step,
// sim::moreau_jean_phase), launched per step in sim_chunk_launches' order over the chunk's
// persisting scratch; event-driven one kernel per part of the advance (begin, control and its
// three services: sim::event_driven_phase, the parts of the cpu advance). The call sequence
// (copies, chunks, copy back) is cuda/sim_glue.hpp's, run here with device memory
// (cuda/device_memory.hpp). The PD-tracked step (Simulator::step_pd) is cuda/sim_pd.hpp's
// sequence: an actuator kernel, then one step's kernels, frame_skip times. All of it is
// emulated on the host in CI (tests/cuda_emulation: simulator_glue_test.cpp,
// simulator_phases_test.cpp, simulator_pd_test.cpp).
#pragma once

#include <memory>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "common.cuh"
#include "device_memory.hpp"
#include "sim_glue.hpp"
#include "sim_launch.hpp"
#include "sim_pd.hpp"
#include "sim_resident.hpp"

namespace obliq::cuda::detail {

template <class T>
__global__ void pd_actuate_kernel(sim::BatchArrays<T> d, PdDeviceArrays<T> a) {
  pd_actuate_body(d, a, std::size_t(blockIdx.x) * blockDim.x + threadIdx.x);
}

template <class T>
__global__ void pd_effort_kernel(std::size_t count, PdDeviceArrays<T> a, int frame_skip) {
  pd_effort_body(count, a, frame_skip, std::size_t(blockIdx.x) * blockDim.x + threadIdx.x);
}

// Phase P over a chunk: Moreau-Jean's (one launch per phase and step) or the event-driven
// advance's (sim_chunk_launches). Two kernels with typed phases (nvcc's host stubs cannot name
// an `auto` phase taken from a std::array); sim_phase_kernel_of picks one.
template <class T, SimSystems K, bool Frictional, sim::MoreauJeanPhase P>
__global__ void sim_phase_kernel(sim::BatchArrays<T> b, sim::StepParams<T> p, T dt, std::size_t s0, std::size_t chunk,
                                 T* scratch, std::size_t ws, unsigned* requested) {
  sim_phase_body<T, K, Frictional, P>(b, p, dt, s0, chunk, std::size_t(blockIdx.x) * blockDim.x + threadIdx.x, scratch,
                                      ws, requested);
}

template <class T, SimSystems K, bool Frictional, sim::EventDrivenPhase P>
__global__ void sim_event_kernel(sim::BatchArrays<T> b, sim::StepParams<T> p, T dt, std::size_t s0, std::size_t chunk,
                                 T* scratch, std::size_t ws, unsigned* requested) {
  sim_phase_body<T, K, Frictional, P>(b, p, dt, s0, chunk, std::size_t(blockIdx.x) * blockDim.x + threadIdx.x, scratch,
                                      ws, requested);
}

template <class T, SimSystems K, bool Frictional, auto P> constexpr auto sim_phase_kernel_of() {
  if constexpr (std::is_same_v<decltype(P), sim::MoreauJeanPhase>)
    return sim_phase_kernel<T, K, Frictional, sim::MoreauJeanPhase(P)>;
  else
    return sim_event_kernel<T, K, Frictional, sim::EventDrivenPhase(P)>;
}

// The actuator kernel over every scenario of the copy d (pd_rounds' actuate).
template <class T> void pd_actuate_launch(const sim::BatchArrays<T>& d, const PdDeviceArrays<T>& a) {
  constexpr int block = 128;  // a few registers per thread: any block size fits
  pd_actuate_kernel<T><<<blocks_for(d.count, block), block>>>(d, a);
  OBLIQ_CUDA_CHECK(cudaGetLastError());
}

// Threads per block of a kernel: 64, at most what its registers allow.
template <class Kernel> int sim_block_size(Kernel kernel) {
  cudaFuncAttributes attributes{};
  OBLIQ_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
  return std::min(64, attributes.maxThreadsPerBlock);
}

// The kernels of configuration (K, I, Frictional) as run_simulation's launch: `steps` steps of
// the chunk's scenarios, in sim_chunk_launches' order (Moreau-Jean: its phase kernels per step,
// moreau_jean_launch_order; event-driven: begin, then rounds of control and the services until
// the round's flag, one word of device memory read back after each round, says no control
// requested a service). Throws std::logic_error when the batch's configuration `k` is not that one.
template <class T, SimSystems K, sim::Integrator I, bool Frictional> struct StepLaunch {
  sim::StepParams<T> p;
  T dt;
  int steps;
  // Threads per block of each phase kernel launched (by the phase's value).
  int phase_block[sim::event_driven_phases] = {};
  std::unique_ptr<unsigned, void (*)(unsigned*)> requested{nullptr, [](unsigned* f) { cudaFree(f); }};
  StepLaunch(const SimConfiguration& k, const sim::StepParams<T>& p, T dt, int steps) : p(p), dt(dt), steps(steps) {
    if (!(k == SimConfiguration{K, I, Frictional}))
      throw std::logic_error("backend cuda: the Simulator's kernel is not the batch's configuration");
    for_each_phase<I, Frictional>(
        [&]<auto P>() { phase_block[int(P)] = sim_block_size(sim_phase_kernel_of<T, K, Frictional, P>()); });
    if constexpr (I == sim::Integrator::event_driven) {
      unsigned* flag = nullptr;
      OBLIQ_CUDA_CHECK(cudaMalloc(&flag, sizeof(unsigned)));
      requested.reset(flag);
      OBLIQ_CUDA_CHECK(cudaMemset(flag, 0, sizeof(unsigned)));
    }
  }
  void operator()(const sim::BatchArrays<T>& d, std::size_t s0, std::size_t n, T* scratch, std::size_t ws) const {
    sim_chunk_launches<I, Frictional>(
        steps,
        [&]<auto P>() {
          const int block = phase_block[int(P)];
          sim_phase_kernel_of<T, K, Frictional, P>()<<<blocks_for(n, block), block>>>(d, p, dt, s0, n, scratch, ws,
                                                                                       requested.get());
          OBLIQ_CUDA_CHECK(cudaGetLastError());
        },
        [&] {
          unsigned flag = 0;
          OBLIQ_CUDA_CHECK(cudaMemcpy(&flag, requested.get(), sizeof flag, cudaMemcpyDeviceToHost));
          if (flag != 0) OBLIQ_CUDA_CHECK(cudaMemset(requested.get(), 0, sizeof flag));
          return flag != 0;
        });
  }
};

template <class T, SimSystems K, sim::Integrator I, bool Frictional>
void simulate_configuration(const sim::BatchArrays<T>& h, const sim::StepParams<T>& p, T dt, int steps,
                            std::size_t scratch_bytes) {
  const StepLaunch<T, K, I, Frictional> launch(sim_configuration(h, p), p, dt, steps);
  if (scratch_bytes == 0) scratch_bytes = default_scratch_bytes();
  DeviceMemory<T> mem;
  run_simulation(h, p, scratch_bytes, mem, launch);
  OBLIQ_CUDA_CHECK(cudaDeviceSynchronize());
}

template <class T, SimSystems K, sim::Integrator I, bool Frictional>
void simulate_pd_configuration(const sim::BatchArrays<T>& h, const sim::StepParams<T>& p, const sim::PdArrays<T>& pd,
                               T dt, int frame_skip, std::size_t scratch_bytes) {
  const StepLaunch<T, K, I, Frictional> launch(sim_configuration(h, p), p, dt, 1);
  if (scratch_bytes == 0) scratch_bytes = default_scratch_bytes();
  DeviceMemory<T> mem;
  run_pd_simulation(h, p, pd, frame_skip, scratch_bytes, mem, pd_actuate_launch<T>, launch);
  OBLIQ_CUDA_CHECK(cudaDeviceSynchronize());
}

template <class T, SimSystems K, sim::Integrator I, bool Frictional>
void resident_step_configuration(ResidentBatch<T, DeviceMemory<T>>& r, const sim::StepParams<T>& p, T dt, int steps) {
  const StepLaunch<T, K, I, Frictional> launch(r.configuration(p), p, dt, steps);
  r.step(p, launch);
  OBLIQ_CUDA_CHECK(cudaDeviceSynchronize());
}

template <class T, SimSystems K, sim::Integrator I, bool Frictional>
void resident_step_pd_configuration(ResidentBatch<T, DeviceMemory<T>>& r, const sim::StepParams<T>& p,
                                    const sim::PdArrays<T>& pd, T dt, int frame_skip) {
  const StepLaunch<T, K, I, Frictional> launch(r.configuration(p), p, dt, 1);
  const auto effort = [&](std::size_t count, const PdDeviceArrays<T>& a) {
    constexpr int block = 128;
    pd_effort_kernel<T><<<blocks_for(count, block), block>>>(count, a, frame_skip);
    OBLIQ_CUDA_CHECK(cudaGetLastError());
  };
  r.step_pd(p, pd, frame_skip, pd_actuate_launch<T>, effort, launch);
  OBLIQ_CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace obliq::cuda::detail

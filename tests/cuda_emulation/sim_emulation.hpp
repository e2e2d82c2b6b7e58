// tests/cuda_emulation/sim_emulation.hpp: the cuda backend's Simulator step and PD-tracked step
// on the host: what cuda/sim_dispatch.cpp and cuda/sim_kernels.cuh do (the kernel of the batch's
// configuration, cuda/sim_glue.hpp's and cuda/sim_pd.hpp's sequences), with host vectors as the
// memory and, in place of each launch, a host loop over the kernel's body (cuda/sim_body.hpp's
// for the configuration, cuda/sim_pd.hpp's actuators), scenarios in reverse order.
#pragma once

#include <cstddef>

#include "host_memory.hpp"
#include "sim_glue.hpp"
#include "sim_pd.hpp"

namespace obliq::emulation {

// One step of batch h with scratch_bytes of scratch; returns the number of chunks run, and the
// configuration of the body that ran (its template arguments) in `ran` when given.
template <class T>
int emulated_simulate(const sim::BatchArrays<T>& h, const sim::StepParams<T>& p, T dt, int steps,
                      std::size_t scratch_bytes, cuda::detail::SimConfiguration* ran = nullptr) {
  namespace cu = obliq::cuda::detail;
  HostMemory<T> mem;
  int chunks = 0;
  cu::with_configuration(cu::sim_configuration(h, p), [&]<cu::SimSystems K, sim::Integrator I, bool Frictional>() {
    if (ran != nullptr) *ran = cu::SimConfiguration{K, I, Frictional};
    cu::run_simulation(h, p, scratch_bytes, mem,
                       [&](const sim::BatchArrays<T>& d, std::size_t s0, std::size_t n, T* scratch, std::size_t ws) {
                         ++chunks;
                         for (std::size_t i = n; i-- > 0;)
                           cu::sim_step_body<T, K, I, Frictional>(d, p, dt, steps, s0, n, i, scratch, ws);
                       });
  });
  return chunks;
}

// One step_pd of batch h (the actuators pd, host arrays) with scratch_bytes of scratch; returns
// the number of step launches (chunks times frame_skip).
template <class T>
int emulated_simulate_pd(const sim::BatchArrays<T>& h, const sim::StepParams<T>& p, const sim::PdArrays<T>& pd, T dt,
                         int frame_skip, std::size_t scratch_bytes) {
  namespace cu = obliq::cuda::detail;
  HostMemory<T> mem;
  int launches = 0;
  cu::with_configuration(cu::sim_configuration(h, p), [&]<cu::SimSystems K, sim::Integrator I, bool Frictional>() {
    cu::run_pd_simulation(
        h, p, pd, frame_skip, scratch_bytes, mem,
        [&](const sim::BatchArrays<T>& d, const cu::PdDeviceArrays<T>& a) {
          for (std::size_t i = d.count; i-- > 0;) cu::pd_actuate_body(d, a, i);
        },
        [&](const sim::BatchArrays<T>& d, std::size_t s0, std::size_t n, T* scratch, std::size_t ws) {
          ++launches;
          for (std::size_t i = n; i-- > 0;) cu::sim_step_body<T, K, I, Frictional>(d, p, dt, 1, s0, n, i, scratch, ws);
        });
  });
  return launches;
}

}  // namespace obliq::emulation

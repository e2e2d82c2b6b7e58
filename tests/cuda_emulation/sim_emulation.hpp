// tests/cuda_emulation/sim_emulation.hpp: the cuda backend's Simulator step on the host: what
// cuda/sim_dispatch.cpp and cuda/sim_kernels.cuh do (the kernel of the batch's configuration,
// cuda/sim_glue.hpp's sequence), with host vectors as the memory and, in place of each chunk's
// launch, a host loop over that configuration's body (cuda/sim_body.hpp), scenarios in
// reverse order.
#pragma once

#include <cstddef>

#include "host_memory.hpp"
#include "sim_glue.hpp"

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

}  // namespace obliq::emulation

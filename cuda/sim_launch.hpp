// cuda/sim_launch.hpp: the Simulator's step on the device (cuda/sim_kernels.cuh), as the backend
// table (cuda/backend_table.cpp, host compiler) sees it. No CUDA headers.
#pragma once

#include <cstddef>

namespace obliq::sim {
template <class T> struct BatchArrays;
template <class T> struct StepParams;
}  // namespace obliq::sim

namespace obliq::cuda::detail {

// Host arrays in (the Simulator's own buffers), the state copied back; scratch_bytes 0: 256 MiB
// (at most half the free device memory).
template <class T>
void simulate(const sim::BatchArrays<T>& b, const sim::StepParams<T>& p, T dt, int steps, std::size_t scratch_bytes);

}  // namespace obliq::cuda::detail

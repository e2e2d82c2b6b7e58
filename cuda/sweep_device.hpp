// cuda/sweep_device.hpp: the device entry points of cuda/sweep_reduce.hpp's reductions, for a
// sweep's cuda path (host code; the definitions are nvcc's, cuda/sweep_reduce.cu). Arrays are
// device memory; stream is a cudaStream_t (null: the default stream); each call returns when
// its result is on the host.
#pragma once

#include <cstddef>

#include "sweep/moments.hpp"

namespace obliq::cuda::detail {

sweep::Moments device_moments(const double* values, std::size_t count, std::ptrdiff_t stride, void* stream);
sweep::Moments device_moments(const float* values, std::size_t count, std::ptrdiff_t stride, void* stream);
sweep::StatusCounts device_status_counts(const int* status, std::size_t count, std::ptrdiff_t stride, void* stream);

}  // namespace obliq::cuda::detail

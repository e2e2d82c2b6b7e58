// cuda/sweep_reduce.cu: cuda/sweep_reduce.hpp's reductions on the device (cuda/sweep_device.hpp).
#include "sweep_device.hpp"
#include "sweep_reduce.hpp"
#include "thrust.cuh"

namespace obliq::cuda::detail {

namespace {
template <class U> sweep::Moments moments_on(const U* values, std::size_t count, std::ptrdiff_t stride, void* stream) {
  PoolAllocator alloc(static_cast<cudaStream_t>(stream));
  return reduce_moments(thrust_on(alloc), values, count, stride);
}
}  // namespace

sweep::Moments device_moments(const double* values, std::size_t count, std::ptrdiff_t stride, void* stream) {
  return moments_on(values, count, stride, stream);
}
sweep::Moments device_moments(const float* values, std::size_t count, std::ptrdiff_t stride, void* stream) {
  return moments_on(values, count, stride, stream);
}
sweep::StatusCounts device_status_counts(const int* status, std::size_t count, std::ptrdiff_t stride, void* stream) {
  PoolAllocator alloc(static_cast<cudaStream_t>(stream));
  return count_statuses(thrust_on(alloc), status, count, stride);
}

}  // namespace obliq::cuda::detail

// cuda/thrust.cuh: the Thrust execution policy of the kernels' files (*.cu, nvcc only).
//
// par_nosync on the call's stream: Thrust enqueues its kernels there and waits only where an
// algorithm returns a value to the host (a reduction's result). Its temporary storage (CUB's
// scan and reduce scratch) comes from obliq's stream-ordered pool (common.cuh's
// workspace_pool) through PoolAllocator, so no cudaMalloc / cudaFree synchronizes the device.
// The algorithms themselves are written against any policy (cuda/compaction.hpp, cuda/tile.hpp,
// cuda/sweep_reduce.hpp) and run on the CPU in CI (tests/cuda_emulation/thrust_test.cpp).
#pragma once

#include <thrust/execution_policy.h>

#include <cstddef>

#include "common.cuh"

namespace obliq::cuda::detail {

// Thrust's temporary storage, allocated and freed in stream order from workspace_pool().
struct PoolAllocator {
  using value_type = char;
  cudaStream_t stream;
  explicit PoolAllocator(cudaStream_t s) : stream(s) {}
  char* allocate(std::ptrdiff_t bytes) {
    void* p = nullptr;
    if (bytes > 0) OBLIQ_CUDA_CHECK(cudaMallocFromPoolAsync(&p, std::size_t(bytes), workspace_pool(), stream));
    return static_cast<char*>(p);
  }
  void deallocate(char* p, std::size_t) {
    if (p) cudaFreeAsync(p, stream);  // no throw: Thrust calls this while unwinding too
  }
};

// The policy: `PoolAllocator alloc(stream); thrust_on(alloc)` (the policy keeps a reference to
// the allocator, which must outlive the Thrust calls).
inline auto thrust_on(PoolAllocator& alloc) { return thrust::cuda::par_nosync(alloc).on(alloc.stream); }

}  // namespace obliq::cuda::detail

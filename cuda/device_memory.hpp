// cuda/device_memory.hpp: the device memory of one call of a host-array entry point (the
// Simulator's step, frictional batches) or of a resident batch (cuda/sim_resident.hpp): the Mem
// of cuda/sim_glue.hpp and cuda/friction_glue.hpp with cudaMalloc / cudaMemcpy, every buffer
// freed when the object goes; and the default scratch cap of those calls. Host code (g++ or nvcc).
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "common.cuh"

namespace obliq::cuda::detail {

template <class T> struct DeviceMemory {
  std::vector<void*> buffers;
  DeviceMemory() = default;
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;
  ~DeviceMemory() {
    for (void* p : buffers) cudaFree(p);
  }
  void* alloc(std::size_t bytes) {
    if (bytes == 0) return nullptr;
    void* p = nullptr;
    OBLIQ_CUDA_CHECK(cudaMalloc(&p, bytes));
    buffers.push_back(p);
    return p;
  }
  template <class U> U* up(const U* host, std::size_t n) {
    U* d = static_cast<U*>(alloc(n * sizeof(U)));
    if (n) OBLIQ_CUDA_CHECK(cudaMemcpy(d, host, n * sizeof(U), cudaMemcpyHostToDevice));
    return d;
  }
  template <class U> void down(U* host, const U* copy, std::size_t n) {
    if (n) OBLIQ_CUDA_CHECK(cudaMemcpy(host, copy, n * sizeof(U), cudaMemcpyDeviceToHost));
  }
  template <class U> void to(U* copy, const U* host, std::size_t n) {
    if (n) OBLIQ_CUDA_CHECK(cudaMemcpy(copy, host, n * sizeof(U), cudaMemcpyHostToDevice));
  }
  template <class U> void zero(U* copy, std::size_t n) {  // all bits 0: 0.0 for T
    if (n) OBLIQ_CUDA_CHECK(cudaMemset(copy, 0, n * sizeof(U)));
  }
  T* scratch(std::size_t n) { return static_cast<T*>(alloc(n * sizeof(T))); }
};

// Scratch of one call when the caller gives none: 256 MiB, at most half of the free device memory.
inline std::size_t default_scratch_bytes() {
  std::size_t free_bytes = 0, total = 0;
  OBLIQ_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
  return std::min<std::size_t>(std::size_t(256) << 20, free_bytes / 2);
}

}  // namespace obliq::cuda::detail

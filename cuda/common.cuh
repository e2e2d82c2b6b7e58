// cuda/common.cuh: error checks, stream-ordered buffers and launch helpers of the kernels.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

#include "launch.hpp"
#include "views.hpp"

#define OBLIQ_CUDA_CHECK(expr)                                                              \
  do {                                                                                      \
    cudaError_t obliq_err_ = (expr);                                                        \
    if (obliq_err_ != cudaSuccess)                                                          \
      throw std::runtime_error(std::string("obliq cuda: ") + #expr + ": " +                 \
                               cudaGetErrorString(obliq_err_));                             \
  } while (0)

namespace obliq::cuda::detail {

inline cudaStream_t stream_of(const Launch& l) { return static_cast<cudaStream_t>(l.stream); }

// obliq's stream-ordered memory pool on the current device, created on first use. It keeps
// freed memory (release threshold: unlimited) so that a workspace of the same size in the next
// call is served from the pool, without cudaMalloc and without synchronizing; the
// application's default pool is left as it is.
inline cudaMemPool_t workspace_pool() {
  static std::mutex mutex;
  static std::map<int, cudaMemPool_t> pools;
  int device = 0;
  OBLIQ_CUDA_CHECK(cudaGetDevice(&device));
  std::lock_guard<std::mutex> lock(mutex);
  auto it = pools.find(device);
  if (it != pools.end()) return it->second;
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  cudaMemPool_t pool;
  OBLIQ_CUDA_CHECK(cudaMemPoolCreate(&pool, &props));
  std::uint64_t keep = ~std::uint64_t(0);
  OBLIQ_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
  pools[device] = pool;
  return pool;
}

// A workspace owned by one call, allocated and freed in stream order from workspace_pool().
struct StreamBuffer {
  cudaStream_t stream;
  void* ptr = nullptr;
  explicit StreamBuffer(cudaStream_t s) : stream(s) {}
  StreamBuffer(const StreamBuffer&) = delete;
  StreamBuffer& operator=(const StreamBuffer&) = delete;
  ~StreamBuffer() {
    if (ptr) cudaFreeAsync(ptr, stream);
  }
  void reset(std::size_t bytes) {
    if (ptr) OBLIQ_CUDA_CHECK(cudaFreeAsync(ptr, stream));
    ptr = nullptr;
    if (bytes) OBLIQ_CUDA_CHECK(cudaMallocFromPoolAsync(&ptr, bytes, workspace_pool(), stream));
  }
  void* get() const { return ptr; }
};

inline unsigned blocks_for(std::size_t count, int block) { return unsigned((count + block - 1) / block); }

}  // namespace obliq::cuda::detail

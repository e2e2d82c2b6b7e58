// cuda/common.cuh: error checks and view builders shared by the kernels.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "launch.hpp"
#include "obliq/core/scenario_view.hpp"

#define OBLIQ_CUDA_CHECK(expr)                                                              \
  do {                                                                                      \
    cudaError_t obliq_err_ = (expr);                                                        \
    if (obliq_err_ != cudaSuccess)                                                          \
      throw std::runtime_error(std::string("obliq cuda: ") + #expr + ": " +                 \
                               cudaGetErrorString(obliq_err_));                             \
  } while (0)

namespace obliq::cuda::detail {

// A temporary device allocation owned by one call.
struct TempMemory {
  void* ptr = nullptr;
  TempMemory() = default;
  TempMemory(const TempMemory&) = delete;
  TempMemory& operator=(const TempMemory&) = delete;
  ~TempMemory() { if (ptr) cudaFree(ptr); }
  void reset(std::size_t bytes) {
    if (ptr) cudaFree(ptr);
    ptr = nullptr;
    if (bytes) OBLIQ_CUDA_CHECK(cudaMalloc(&ptr, bytes));
  }
  void* get() const { return ptr; }
};

inline cudaStream_t stream_of(const Launch& l) { return static_cast<cudaStream_t>(l.stream); }

// Scenario s of a strided array as a core view.
template <class T> __device__ __forceinline__ MatView<const T> mat_at(const Strided<const T>& a, std::size_t s, int rows, int cols) {
  return {a.at(s), rows, cols, std::ptrdiff_t(cols) * a.es, a.es};
}
template <class T> __device__ __forceinline__ VecView<T> vec_at(const Strided<T>& a, std::size_t s, int size) {
  return {a.at(s), size, a.es};
}

// Data in: scenario s of the batch as the core's argument struct.
template <class T> __device__ __forceinline__ ScenarioView<T> scenario_at(const Inputs<T>& in, std::size_t s) {
  ScenarioView<T> v;
  v.n = in.n;
  v.m_b = in.m_b;
  v.m_u = in.m_u;
  v.M = mat_at(in.M, s, in.n, in.n);
  v.qdot = vec_at(in.qdot, s, in.n);
  v.h = vec_at(in.h, s, in.n);
  v.u = vec_at(in.u, s, in.n);
  v.i_u = vec_at(in.i_u, s, in.n);
  v.A_b = mat_at(in.A_b, s, in.m_b, in.n);
  v.A_u = mat_at(in.A_u, s, in.m_u, in.n);
  v.phi_u = vec_at(in.phi_u, s, in.m_u);
  v.Adot_qdot = vec_at(in.Adot_qdot, s, in.m_b + in.m_u);
  v.e = vec_at(in.e, s, in.m_u);
  v.law = static_cast<Law>(in.law(s, 0));
  v.gap_tol = in.gap_tol(s, 0);
  v.vel_tol = in.vel_tol(s, 0);
  return v;
}

// Scratch arena of scenario i of a chunk of `chunk` scenarios, `ws` elements each.
template <class T> __device__ __forceinline__ Arena<T> arena_at(T* scratch, std::size_t i, std::size_t chunk, std::size_t ws, bool interleaved) {
  Arena<T> a;
  a.capacity = ws;
  if (interleaved) {
    a.base = scratch + i;
    a.stride = std::ptrdiff_t(chunk);
  } else {
    a.base = scratch + i * ws;
    a.stride = 1;
  }
  return a;
}

inline unsigned blocks_for(std::size_t count, int block) { return unsigned((count + block - 1) / block); }

}  // namespace obliq::cuda::detail

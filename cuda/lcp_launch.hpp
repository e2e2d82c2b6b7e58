// cuda/lcp_launch.hpp: the LCP batch handed from the host glue (lcp_glue.cpp) to lcp_kernels.cu.
#pragma once

#include <cstddef>

#include "launch.hpp"

namespace obliq::cuda::detail {

// count problems of one size m, contiguous per problem, in device memory.
template <class T> struct LcpArrays {
  int m = 0;
  std::size_t count = 0;
  const T* M = nullptr;   // (count x m x m) row-major
  const T* q = nullptr;   // (count x m)
  const int* solver = nullptr;  // (count) lcp::Solver
  T* z = nullptr;         // (count x m)
  T* w = nullptr;         // (count x m)
  int* status = nullptr;  // (count) Status
  int* iterations = nullptr;  // (count)
  T* residual = nullptr;  // (count)
  int* used = nullptr;    // (count) lcp::Solver that answered
  int max_iterations = 0;
  T omega = T(1);
};

template <class T> void fused_lcp(const LcpArrays<T>& a, const Launch& l);
template <class T> std::size_t lcp_scratch(int m);  // arena elements per problem

}  // namespace obliq::cuda::detail

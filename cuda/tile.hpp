// cuda/tile.hpp: a pool of scenarios copied across a batch (obliq::cuda::replicate), as one
// Thrust for_each_n over the batch's entries. One source for the device (cuda/replicate.cu,
// thrust::cuda::par_nosync on the call's stream) and the CPU (tests/cuda_emulation/
// thrust_test.cpp, thrust::cpp::par and thrust::omp::par).
#pragma once

#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

#include <cstddef>
#include <stdexcept>

#include "launch.hpp"

namespace obliq::cuda::detail {

// Entry idx of the copy: dst(s, k) = src(s % pool, k) with s = idx % count, k = idx / count
// (s fastest, so that an interleaved dst is written coalesced).
template <class U> struct TileEntry {
  Strided<U> dst;
  Strided<const U> src;
  std::size_t count, pool;
  OBLIQ_HD void operator()(std::size_t idx) const {
    const std::size_t s = idx % count, k = idx / count;
    dst(s, int(k)) = src(s % pool, int(k));
  }
};

// dst(s, k) = src(s % pool, k) for s < count, k < block (any strides).
template <class Policy, class U>
void tile_with(Policy&& policy, Strided<U> dst, Strided<const U> src, std::size_t count, std::size_t pool,
               std::size_t block) {
  if (count == 0 || block == 0) return;
  if (!dst.data || !src.data || pool == 0) throw std::runtime_error("obliq cuda: replicate: unset array");
  thrust::for_each_n(policy, thrust::counting_iterator<std::size_t>(0), count * block, TileEntry<U>{dst, src, count, pool});
}

}  // namespace obliq::cuda::detail

// cuda/sweep_reduce.hpp: a GPU sweep's summaries reduced where its outputs are, with Thrust:
// the moments of one output column (count, mean, sum of squared deviations, min, max; NaN left
// out, as the CPU sweep does) and the status counts, each one transform_reduce over a strided
// device range. The per-value summary and the merge are sweep/moments.hpp's, the CPU sweep's own
// (sweep/statistics.cpp), so the GPU's figures differ from the CPU's only by the order of the
// merges (rounding of mean and m2; n, min, max and the counts are exact).
//
// One source for the device and the CPU, as cuda/compaction.hpp: the kernels' files pass
// thrust::cuda::par_nosync on a stream (cuda/sweep_reduce.cu); tests/cuda_emulation passes
// thrust::cpp::par and thrust::omp::par. A reduction returns its value to the host, so the call
// waits for its stream.
#pragma once

#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform_reduce.h>

#include <cstddef>

#include "obliq/core/config.hpp"
#include "sweep/moments.hpp"

namespace obliq::cuda::detail {

// Entry i of a strided range (stride in elements; 0 repeats the first).
template <class U> struct StridedAt {
  const U* data;
  std::ptrdiff_t stride;
  OBLIQ_HD U operator()(std::size_t i) const { return data[std::ptrdiff_t(i) * stride]; }
};

template <class U> struct MomentsAt {
  StridedAt<U> at;
  OBLIQ_HD sweep::Moments operator()(std::size_t i) const { return sweep::Moments::of(double(at(i))); }
};
struct MergeMoments {
  OBLIQ_HD sweep::Moments operator()(const sweep::Moments& a, const sweep::Moments& b) const {
    return sweep::Moments::merge(a, b);
  }
};

struct StatusAt {
  StridedAt<int> at;
  OBLIQ_HD sweep::StatusCounts operator()(std::size_t i) const { return sweep::StatusCounts::of(at(i)); }
};
struct MergeStatusCounts {
  OBLIQ_HD sweep::StatusCounts operator()(const sweep::StatusCounts& a, const sweep::StatusCounts& b) const {
    return sweep::StatusCounts::merge(a, b);
  }
};

// The moments of data[i * stride], i < count (double or float values, summarized in double).
template <class Policy, class U>
sweep::Moments reduce_moments(Policy&& policy, const U* data, std::size_t count, std::ptrdiff_t stride = 1) {
  const thrust::counting_iterator<std::size_t> first(0);
  return thrust::transform_reduce(policy, first, first + count, MomentsAt<U>{{data, stride}}, sweep::Moments{},
                                  MergeMoments{});
}

// How many of status[i * stride], i < count, hold each Status value.
template <class Policy>
sweep::StatusCounts count_statuses(Policy&& policy, const int* status, std::size_t count, std::ptrdiff_t stride = 1) {
  const thrust::counting_iterator<std::size_t> first(0);
  return thrust::transform_reduce(policy, first, first + count, StatusAt{{status, stride}}, sweep::StatusCounts{},
                                  MergeStatusCounts{});
}

}  // namespace obliq::cuda::detail

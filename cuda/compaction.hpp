// cuda/compaction.hpp: the scenarios the warp and library paths hand back to the fused kernel,
// compacted with Thrust (stream compaction: an exclusive scan of the hand-back mask, then a
// scatter of the marked indices).
//
// One source for the device and the CPU: the functions take a Thrust execution policy. The
// kernels' files (*.cu) pass thrust::cuda::par_nosync on the call's stream (cuda/thrust.cuh);
// the CPU emulation (tests/cuda_emulation) passes thrust::cpp::par or thrust::omp::par, so every
// Thrust call here runs in CI without a GPU.
//
// Why a scan and a scatter rather than thrust::copy_if: copy_if returns the end of its output,
// that is the number of selected scenarios, on the host, so it waits for the stream; with
// `Options::stream` set, `impact` must only enqueue. The scan leaves the count in device memory
// (pos[count]), where the fused kernel reads it (launch.hpp's Selection): the host launches the
// fused kernel over the whole batch as before, and the threads past the count return at once.
#pragma once

#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/scatter.h>
#include <thrust/transform_scan.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "launch.hpp"

namespace obliq::cuda::detail {

// 1 where scenario s (< count) is marked in the mask, 0 otherwise (and for s == count).
struct MarkedAt {
  const std::uint8_t* mask;
  std::size_t count;
  OBLIQ_HD std::size_t operator()(std::size_t s) const { return s < count && mask[s] != 0 ? 1 : 0; }
};
struct Marked {
  OBLIQ_HD bool operator()(std::uint8_t m) const { return m != 0; }
};

// The scenarios s < count with mask[s] != 0, in increasing order, as a Selection over
// `buffer` (selection_buffer_size(count) entries, launch.hpp, of device memory for the policy):
//   pos[s] = the number of marked scenarios before s   (buffer[0, count], pos[count]: all of them)
//   index[pos[s]] = s for each marked s                (buffer[count + 1, 2 count + 1))
// Nothing is returned to the host, so nothing waits (see the top of this file). A missing
// buffer (a Launch made without one) is an error here rather than a bad address on the device.
template <class Policy>
Selection select_handed_back(Policy&& policy, const std::uint8_t* mask, std::size_t count, std::size_t* buffer) {
  if (!buffer || (count > 0 && !mask)) throw std::logic_error("obliq cuda: hand-back compaction without its buffers");
  std::size_t* pos = buffer;
  std::size_t* index = buffer + count + 1;
  const thrust::counting_iterator<std::size_t> first(0);
  thrust::transform_exclusive_scan(policy, first, first + (count + 1), pos, MarkedAt{mask, count}, std::size_t(0),
                                   thrust::plus<std::size_t>());
  thrust::scatter_if(policy, first, first + count, pos, mask, index, Marked{});
  return {index, pos + count};
}

}  // namespace obliq::cuda::detail

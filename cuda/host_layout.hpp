// cuda/host_layout.hpp: host buffers between the host Batch's layout (scenario-contiguous,
// count x block) and the interleaved device layout (block x count, scenario index fastest).
// Used by the uploads and downloads of device_batch.cpp and by the CPU emulation of the glue.
#pragma once

#include <cstddef>
#include <vector>

namespace obliq::cuda::detail {

// (count x block) -> (block x count)
template <class U> std::vector<U> to_interleaved(const std::vector<U>& src, std::size_t count, std::size_t block) {
  std::vector<U> dst(count * block);
  for (std::size_t s = 0; s < count; ++s)
    for (std::size_t k = 0; k < block; ++k) dst[k * count + s] = src[s * block + k];
  return dst;
}

// (block x count) -> (count x block)
template <class U> std::vector<U> from_interleaved(const std::vector<U>& src, std::size_t count, std::size_t block) {
  std::vector<U> dst(count * block);
  for (std::size_t s = 0; s < count; ++s)
    for (std::size_t k = 0; k < block; ++k) dst[s * block + k] = src[k * count + s];
  return dst;
}

}  // namespace obliq::cuda::detail

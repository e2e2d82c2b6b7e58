// cuda/chunks.hpp: a batch cut into chunks whose per-scenario scratch fits in one buffer (one
// kernel launch per chunk). Host code shared by the kernels' launchers and the CPU emulation.
#pragma once

#include <algorithm>
#include <cstddef>
#include <stdexcept>

namespace obliq::cuda::detail {

// Chunks of scenarios whose scratch (ws elements of T each) fits in scratch_bytes: calls
// launch(s0, c) for consecutive chunks covering [0, count).
template <class T, class F> void for_each_chunk(std::size_t count, std::size_t ws, std::size_t scratch_bytes, F&& launch) {
  const std::size_t per = ws * sizeof(T);
  const std::size_t chunk = std::min<std::size_t>(count, scratch_bytes / per);
  if (count > 0 && chunk == 0) throw std::runtime_error("obliq cuda: scratch too small for one scenario");
  for (std::size_t s0 = 0; s0 < count; s0 += chunk) launch(s0, std::min(chunk, count - s0));
}

// One scratch buffer for the largest of for_each_chunk's chunks, taken from a call's memory
// (mem.scratch(elements), cuda/sim_glue.hpp's Mem); null when count is 0. `elements`, when
// given, receives the buffer's size in elements.
template <class T, class Mem>
T* chunk_scratch(std::size_t count, std::size_t ws, std::size_t scratch_bytes, Mem& mem,
                 std::size_t* elements = nullptr) {
  if (count == 0) return nullptr;
  const std::size_t per_chunk = std::min(count, scratch_bytes / (ws * sizeof(T)));
  if (per_chunk == 0) throw std::runtime_error("obliq cuda: scratch too small for one scenario");
  if (elements != nullptr) *elements = per_chunk * ws;
  return mem.scratch(per_chunk * ws);
}

// The chunks over that one buffer: calls launch(s0, c, scratch).
template <class T, class Mem, class F>
void for_each_chunk_with_scratch(std::size_t count, std::size_t ws, std::size_t scratch_bytes, Mem& mem, F&& launch) {
  T* scratch = chunk_scratch<T>(count, ws, scratch_bytes, mem);
  for_each_chunk<T>(count, ws, scratch_bytes, [&](std::size_t s0, std::size_t c) { launch(s0, c, scratch); });
}

}  // namespace obliq::cuda::detail

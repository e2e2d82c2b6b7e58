// cuda/fused_body.hpp: what one thread of a fused kernel does (cuda/fused_kernels.cu launches
// these; tests/cuda_emulation runs the same bodies in a host loop).
#pragma once

#include <algorithm>
#include <cstddef>

#include "obliq/core/mechanics/dynamics.hpp"
#include "obliq/core/mechanics/impact.hpp"
#include "chunks.hpp"
#include "views.hpp"

namespace obliq::cuda::detail {

// Thread i of the chunk starting at thread s0 (chunk threads, ws scratch elements each).
// Returns early past the end; with a selection (`only`, the scenarios another path handed back,
// compacted by cuda/compaction.hpp) thread j = s0 + i solves scenario index[j] and returns early
// past the selection's count.
template <class T>
OBLIQ_HD void impact_body(const Inputs<T>& in, const ImpactOutputs<T>& out, const Selection& only, std::size_t s0,
                          std::size_t chunk, std::size_t i, T* scratch, std::size_t ws, bool interleaved) {
  if (i >= chunk) return;
  std::size_t s = 0;
  if (!only.scenario(s0 + i, s)) return;
  const ScenarioView<T> sv = scenario_at(in, s);
  const ImpactView<T> ov = impact_view_at(out, s, in.n, in.m_b + in.m_u, in.m_u);
  Arena<T> arena = arena_at(scratch, i, chunk, ws, interleaved);
  out.status(s, 0) = static_cast<int>(obliq::detail::impact_inline(sv, ov, arena));  // nothing else here: inlined
}

template <class T>
OBLIQ_HD void dynamics_body(const Inputs<T>& in, const DynamicsOutputs<T>& out, const Selection& only, std::size_t s0,
                            std::size_t chunk, std::size_t i, T* scratch, std::size_t ws, bool interleaved) {
  if (i >= chunk) return;
  std::size_t s = 0;
  if (!only.scenario(s0 + i, s)) return;
  const ScenarioView<T> sv = scenario_at(in, s);
  const DynamicsView<T> ov = dynamics_view_at(out, s, in.n, in.m_b + in.m_u, in.m_u);
  Arena<T> arena = arena_at(scratch, i, chunk, ws, interleaved);
  out.status(s, 0) = static_cast<int>(obliq::dynamics(sv, ov, arena));
}

// Scratch elements of one scenario (the core's workspace size, at least 1).
template <class T> std::size_t fused_impact_scratch(int n, int m_b, int m_u) {
  return std::max<std::size_t>(1, obliq::impact_workspace_size<T>(n, m_b, m_u));
}
template <class T> std::size_t fused_dynamics_scratch(int n, int m_b, int m_u) {
  return std::max<std::size_t>(1, obliq::dynamics_workspace_size<T>(n, m_b, m_u));
}

}  // namespace obliq::cuda::detail

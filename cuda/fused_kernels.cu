// cuda/fused_kernels.cu: the per-scenario core over all scenarios, one thread per scenario.
//
// Each kernel takes the scenario index first (s = blockIdx.x * blockDim.x + threadIdx.x),
// returns early past the end (or where the `only` mask says another path already solved the
// scenario), builds the core's views from the strided arrays, and calls the same function the
// CPU backend calls. Scratch is one device buffer per chunk of scenarios; interleaved scratch
// (stride = chunk) keeps a warp's scratch accesses coalesced.
#include <algorithm>

#include "common.cuh"
#include "obliq/core/mechanics/dynamics.hpp"
#include "obliq/core/mechanics/impact.hpp"

namespace obliq::cuda::detail {

template <class T>
__global__ void impact_kernel(Inputs<T> in, ImpactOutputs<T> out, const std::uint8_t* only, std::size_t s0,
                              std::size_t chunk, T* scratch, std::size_t ws, bool interleaved) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= chunk) return;
  const std::size_t s = s0 + i;
  if (only && !only[s]) return;

  const ScenarioView<T> sv = scenario_at(in, s);
  ImpactView<T> ov;
  ov.qdot_plus = vec_at(out.qdot_plus, s, in.n);
  ov.impulse = vec_at(out.impulse, s, in.n);
  ov.lambda = vec_at(out.lambda, s, in.m_b + in.m_u);
  ov.active = vec_at(out.active, s, in.m_u);
  ov.kinetic_energy_pre = out.kinetic_energy_pre.at(s);
  ov.kinetic_energy_post = out.kinetic_energy_post.at(s);
  ov.energy_consistent = out.energy_consistent.at(s);
  Arena<T> arena = arena_at(scratch, i, chunk, ws, interleaved);
  out.status(s, 0) = static_cast<int>(obliq::impact(sv, ov, arena));
}

template <class T>
__global__ void dynamics_kernel(Inputs<T> in, DynamicsOutputs<T> out, const std::uint8_t* only, std::size_t s0,
                                std::size_t chunk, T* scratch, std::size_t ws, bool interleaved) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= chunk) return;
  const std::size_t s = s0 + i;
  if (only && !only[s]) return;

  const ScenarioView<T> sv = scenario_at(in, s);
  DynamicsView<T> ov;
  ov.qddot = vec_at(out.qddot, s, in.n);
  ov.lambda = vec_at(out.lambda, s, in.m_b + in.m_u);
  ov.active = vec_at(out.active, s, in.m_u);
  Arena<T> arena = arena_at(scratch, i, chunk, ws, interleaved);
  out.status(s, 0) = static_cast<int>(obliq::dynamics(sv, ov, arena));
}

template <class T> std::size_t fused_impact_scratch(int n, int m_b, int m_u) {
  return std::max<std::size_t>(1, obliq::impact_workspace_size<T>(n, m_b, m_u));
}
template <class T> std::size_t fused_dynamics_scratch(int n, int m_b, int m_u) {
  return std::max<std::size_t>(1, obliq::dynamics_workspace_size<T>(n, m_b, m_u));
}

// Chunks of scenarios whose scratch fits in l.scratch_bytes; one launch per chunk.
template <class T, class F> void for_each_chunk(std::size_t count, std::size_t ws, const Launch& l, F&& launch) {
  const std::size_t per = ws * sizeof(T);
  std::size_t chunk = std::min<std::size_t>(count, l.scratch_bytes / per);
  if (chunk == 0) throw std::runtime_error("obliq cuda: scratch too small for one scenario");
  for (std::size_t s0 = 0; s0 < count; s0 += chunk) {
    const std::size_t c = std::min(chunk, count - s0);
    launch(s0, c);
    OBLIQ_CUDA_CHECK(cudaGetLastError());
  }
}

template <class T> void fused_impact(const Inputs<T>& in, const ImpactOutputs<T>& out, const Launch& l) {
  if (in.count == 0) return;
  const std::size_t ws = fused_impact_scratch<T>(in.n, in.m_b, in.m_u);
  for_each_chunk<T>(in.count, ws, l, [&](std::size_t s0, std::size_t c) {
    impact_kernel<T><<<blocks_for(c, l.block_size), l.block_size, 0, stream_of(l)>>>(
        in, out, l.only, s0, c, static_cast<T*>(l.scratch), ws, l.interleaved_scratch);
  });
}

template <class T> void fused_dynamics(const Inputs<T>& in, const DynamicsOutputs<T>& out, const Launch& l) {
  if (in.count == 0) return;
  const std::size_t ws = fused_dynamics_scratch<T>(in.n, in.m_b, in.m_u);
  for_each_chunk<T>(in.count, ws, l, [&](std::size_t s0, std::size_t c) {
    dynamics_kernel<T><<<blocks_for(c, l.block_size), l.block_size, 0, stream_of(l)>>>(
        in, out, l.only, s0, c, static_cast<T*>(l.scratch), ws, l.interleaved_scratch);
  });
}

#define OBLIQ_INSTANTIATE(T)                                                                 \
  template std::size_t fused_impact_scratch<T>(int, int, int);                              \
  template std::size_t fused_dynamics_scratch<T>(int, int, int);                            \
  template void fused_impact<T>(const Inputs<T>&, const ImpactOutputs<T>&, const Launch&);  \
  template void fused_dynamics<T>(const Inputs<T>&, const DynamicsOutputs<T>&, const Launch&);
OBLIQ_INSTANTIATE(double)
OBLIQ_INSTANTIATE(float)
#undef OBLIQ_INSTANTIATE

}  // namespace obliq::cuda::detail

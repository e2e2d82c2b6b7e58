// cuda/sim_body.hpp: what one thread of the Simulator's kernel does (cuda/sim_kernels.cuh launches
// it; tests/cuda_emulation runs the same body in a host loop): scenario s0 + i of the batch
// advanced by `steps` steps with the per-scenario steppers of include/obliq/sim, through the
// same views and the same advance() as the cpu Simulator (include/obliq/sim/batch_views.hpp).
//
// Scratch is contiguous per scenario (arena stride 1): the model layer carves its per-state data
// (model::data_view) out of one stride-1 block, so an interleaved arena would need a strided
// DataView first.
#pragma once

#include <algorithm>
#include <cstddef>

#include "obliq/sim/batch_views.hpp"
#include "views.hpp"

namespace obliq::cuda::detail {

template <class T>
OBLIQ_HD void sim_step_body(const sim::BatchArrays<T>& b, const sim::StepParams<T>& p, T dt, int steps, std::size_t s0,
                            std::size_t chunk, std::size_t i, T* scratch, std::size_t ws) {
  if (i >= chunk) return;
  const std::size_t s = s0 + i;
  Arena<T> arena = arena_at(scratch, i, chunk, ws, false);
  const sim::ControlView<T> c = sim::controls_at(b.controls, s);
  const sim::StateView<T> st = sim::state_at(b.state, s);
  if (b.is_model)
    sim::advance(sim::model_system_at(b.model, b.gravity, s), p, c, dt, steps, st, arena);
  else
    sim::advance(sim::linear_system_at(b.raw, s), p, c, dt, steps, st, arena);
}

// Scratch elements of one scenario: the larger of the frictionless and (when some mu is not 0)
// the frictional step's workspace, so that one chunk size serves every scenario.
template <class T> std::size_t sim_scratch(const sim::BatchArrays<T>& b, const sim::StepParams<T>& p, bool frictional) {
  auto ws = [&](const auto& sys) {
    const std::size_t plain = sim::step_workspace(sys, p, 0);
    return std::max<std::size_t>(1, frictional ? std::max(plain, sim::step_workspace(sys, p, sys.dim())) : plain);
  };
  return b.is_model ? ws(sim::ModelSystem<T>{b.model}) : ws(sim::linear_system_at(b.raw, 0));
}

}  // namespace obliq::cuda::detail

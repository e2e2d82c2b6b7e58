// cuda/friction_body.hpp: what one thread of the frictional kernel does (cuda/friction_kernels.cuh
// launches it; tests/cuda_emulation runs the same body in a host loop): scenario s0 + i of a
// group solved by the core's per-scenario frictional impact or dynamics
// (include/obliq/core/friction), the function obliq::impact / dynamics with a Friction run on the
// cpu, on the views of the strided arrays.
#pragma once

#include <algorithm>
#include <cstddef>

#include "friction_launch.hpp"
#include "obliq/core/friction/dynamics.hpp"
#include "obliq/core/friction/impact.hpp"
#include "views.hpp"

namespace obliq::cuda::detail {

template <class T>
OBLIQ_HD void friction_body(const FrictionArrays<T>& a, std::size_t s0, std::size_t chunk, std::size_t i, T* scratch,
                            std::size_t ws) {
  if (i >= chunk) return;
  const std::size_t s = s0 + i;
  const Inputs<T>& in = a.in;
  const int t = a.dim - 1, m = in.m_b + in.m_u;
  const ScenarioView<T> sv = scenario_at(in, s);
  friction::FrictionView<T> fr;
  fr.dim = a.dim;
  fr.A_t = mat_at(a.A_t, s, a.A_t_rows, a.A_t_cols);
  fr.mu = vec_at(a.mu, s, in.m_u);
  if (a.Adot_qdot_t.data) fr.Adot_qdot_t = vec_at(a.Adot_qdot_t, s, t * in.m_u);
  if (a.e_t.data) fr.e_t = vec_at(a.e_t, s, in.m_u);
  fr.formulation = a.formulation;
  fr.directions = a.directions;
  fr.lcp_solver = a.lcp_solver;
  friction::FrictionOutView<T> fo{vec_at(a.lambda_t, s, t * in.m_u), {}, a.report + s};
  Arena<T> arena = arena_at(scratch, i, chunk, ws, true);
  if (a.dynamics) {
    fo.sliding = vec_at(a.sliding, s, in.m_u);
    a.dout.status(s, 0) = static_cast<int>(friction::dynamics(sv, fr, dynamics_view_at(a.dout, s, in.n, m, in.m_u), fo, arena));
  } else {
    a.io.status(s, 0) = static_cast<int>(friction::impact(sv, fr, impact_view_at(a.io, s, in.n, m, in.m_u), fo, arena));
  }
}

// Scratch elements of one scenario of the group: the workspace obliq::impact / dynamics with a
// Friction gives the same scenario on the cpu.
template <class T> std::size_t friction_scratch(const FrictionArrays<T>& a) {
  const Inputs<T>& in = a.in;
  return std::max<std::size_t>(1, a.dynamics ? friction::dynamics_workspace_size<T>(in.n, in.m_b, in.m_u, a.dim, a.directions)
                                             : friction::impact_workspace_size<T>(in.n, in.m_b, in.m_u, a.dim, a.directions));
}

}  // namespace obliq::cuda::detail

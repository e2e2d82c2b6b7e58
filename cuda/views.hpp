// cuda/views.hpp: scenario s of the strided device arrays as the core's views (the view
// builders of every kernel), and the scratch arena of one scenario of a chunk.
//
// Plain OBLIQ_HD code without CUDA headers: the kernels (*.cu) call it on the device, and the
// CPU emulation of the glue (tests/cuda_emulation) calls the same functions in a host loop.
#pragma once

#include <cstddef>

#include "launch.hpp"
#include "obliq/core/scenario_view.hpp"

namespace obliq::cuda::detail {

// Rows x cols matrix of scenario s (row-major within the scenario, element stride es).
template <class T> OBLIQ_HD OBLIQ_FORCEINLINE MatView<const T> mat_at(const Strided<const T>& a, std::size_t s, int rows, int cols) {
  return {a.at(s), rows, cols, std::ptrdiff_t(cols) * a.es, a.es};
}
template <class T> OBLIQ_HD OBLIQ_FORCEINLINE VecView<T> vec_at(const Strided<T>& a, std::size_t s, int size) {
  return {a.at(s), size, a.es};
}

// Data in: scenario s of the batch as the core's argument struct.
template <class T> OBLIQ_HD OBLIQ_FORCEINLINE ScenarioView<T> scenario_at(const Inputs<T>& in, std::size_t s) {
  ScenarioView<T> v;
  v.n = in.n;
  v.m_b = in.m_b;
  v.m_u = in.m_u;
  v.M = mat_at(in.M, s, in.n, in.n);
  v.qdot = vec_at(in.qdot, s, in.n);
  v.h = vec_at(in.h, s, in.n);
  v.u = vec_at(in.u, s, in.n);
  v.i_u = vec_at(in.i_u, s, in.n);
  v.A_b = mat_at(in.A_b, s, in.m_b, in.n);
  v.A_u = mat_at(in.A_u, s, in.m_u, in.n);
  v.phi_u = vec_at(in.phi_u, s, in.m_u);
  v.Adot_qdot = vec_at(in.Adot_qdot, s, in.m_b + in.m_u);
  v.e = vec_at(in.e, s, in.m_u);
  v.law = static_cast<Law>(in.law(s, 0));
  v.gap_tol = in.gap_tol(s, 0);
  v.vel_tol = in.vel_tol(s, 0);
  v.lcp_solver = in.lcp_solver;
  return v;
}

// Data out: scenario s of the output arrays.
template <class T> OBLIQ_HD OBLIQ_FORCEINLINE ImpactView<T> impact_view_at(const ImpactOutputs<T>& out, std::size_t s, int n, int m, int m_u) {
  ImpactView<T> v;
  v.qdot_plus = vec_at(out.qdot_plus, s, n);
  v.impulse = vec_at(out.impulse, s, n);
  v.lambda = vec_at(out.lambda, s, m);
  v.active = vec_at(out.active, s, m_u);
  v.kinetic_energy_pre = out.kinetic_energy_pre.at(s);
  v.kinetic_energy_post = out.kinetic_energy_post.at(s);
  v.energy_consistent = out.energy_consistent.at(s);
  return v;
}
template <class T> OBLIQ_HD OBLIQ_FORCEINLINE DynamicsView<T> dynamics_view_at(const DynamicsOutputs<T>& out, std::size_t s, int n, int m, int m_u) {
  DynamicsView<T> v;
  v.qddot = vec_at(out.qddot, s, n);
  v.lambda = vec_at(out.lambda, s, m);
  v.active = vec_at(out.active, s, m_u);
  return v;
}

// Scratch arena of scenario i of a chunk of `chunk` scenarios, `ws` elements each:
// interleaved (stride = chunk: neighbouring threads touch neighbouring addresses) or
// contiguous (scenario i owns elements [i ws, (i + 1) ws)).
template <class T> OBLIQ_HD OBLIQ_FORCEINLINE Arena<T> arena_at(T* scratch, std::size_t i, std::size_t chunk, std::size_t ws, bool interleaved) {
  Arena<T> a;
  a.capacity = ws;
  if (interleaved) {
    a.base = scratch + i;
    a.stride = std::ptrdiff_t(chunk);
  } else {
    a.base = scratch + i * ws;
    a.stride = 1;
  }
  return a;
}

}  // namespace obliq::cuda::detail

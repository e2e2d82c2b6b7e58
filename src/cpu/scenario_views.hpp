// src/cpu/scenario_views.hpp: views of scenario s of a host batch (scenario-contiguous,
// row-major blocks) for the per-scenario core.
#pragma once

#include "obliq/batch.hpp"
#include "obliq/core/scenario_view.hpp"

namespace obliq::cpu {

template <class T> ScenarioView<T> scenario_view(const Batch<T>& b, std::size_t s, lcp::Solver lcp_solver = lcp::Solver::lemke) {
  const int n = b.shape.n, mb = b.shape.m_b, mu = b.shape.m_u, m = mb + mu;
  ScenarioView<T> v;
  v.n = n;
  v.m_b = mb;
  v.m_u = mu;
  v.M = mat_view(b.M.data() + s * n * n, n, n);
  v.qdot = vec_view(b.qdot.data() + s * n, n);
  v.h = vec_view(b.h.data() + s * n, n);
  v.u = vec_view(b.u.data() + s * n, n);
  v.i_u = vec_view(b.i_u.data() + s * n, n);
  v.A_b = mat_view(b.A_b.data() + s * mb * n, mb, n);
  v.A_u = mat_view(b.A_u.data() + s * mu * n, mu, n);
  v.phi_u = vec_view(b.phi_u.data() + s * mu, mu);
  v.Adot_qdot = vec_view(b.Adot_qdot.data() + s * m, m);
  v.e = vec_view(b.e.data() + s * mu, mu);
  v.law = Law(b.law[s]);
  v.gap_tol = b.gap_tol[s];
  v.vel_tol = b.vel_tol[s];
  v.lcp_solver = lcp_solver;
  return v;
}

template <class T> ImpactView<T> impact_view(ImpactResults<T>& r, std::size_t s) {
  const int n = r.shape.n, m = r.shape.m_b + r.shape.m_u, mu = r.shape.m_u;
  ImpactView<T> v;
  v.qdot_plus = vec_view(r.qdot_plus.data() + s * n, n);
  v.impulse = vec_view(r.impulse.data() + s * n, n);
  v.lambda = vec_view(r.lambda.data() + s * m, m);
  v.active = vec_view(r.active.data() + s * mu, mu);
  v.kinetic_energy_pre = &r.kinetic_energy_pre[s];
  v.kinetic_energy_post = &r.kinetic_energy_post[s];
  v.energy_consistent = &r.energy_consistent[s];
  return v;
}

template <class T> DynamicsView<T> dynamics_view(DynamicsResults<T>& r, std::size_t s) {
  const int n = r.shape.n, m = r.shape.m_b + r.shape.m_u, mu = r.shape.m_u;
  DynamicsView<T> v;
  v.qddot = vec_view(r.qddot.data() + s * n, n);
  v.lambda = vec_view(r.lambda.data() + s * m, m);
  v.active = vec_view(r.active.data() + s * mu, mu);
  return v;
}

}  // namespace obliq::cpu

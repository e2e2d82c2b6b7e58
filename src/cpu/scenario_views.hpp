// src/cpu/scenario_views.hpp: scenario s of a HostBatchView as the per-scenario core's views
// (ScenarioView in, ImpactView / DynamicsView out), and the conversions the reference backend
// needs (a Scenario in double, a result written back through the views).
#pragma once

#include "obliq/core/scenario_view.hpp"
#include "obliq/host_views.hpp"
#include "obliq/scenario.hpp"

namespace obliq::cpu {

// The value a null optional input reads as: zero, or its documented default.
template <class T> inline const T kZero = T(0);
template <class T> inline const T kDefaultTol = T(1e-9);
inline const std::uint8_t kDefaultLaw = std::uint8_t(Law::complementarity);

template <class T> HostArray<const T> or_value(HostArray<const T> a, const T* value) {
  return a.data ? a : HostArray<const T>{value, 0, 0};
}

template <class T> MatView<T> mat_at(HostArray<T> a, std::size_t s, int rows, int cols) {
  return {a.data + std::ptrdiff_t(s) * a.scenario_stride, rows, cols, cols * a.element_stride, a.element_stride};
}
template <class T> VecView<T> vec_at(HostArray<T> a, std::size_t s, int size) {
  return {a.data + std::ptrdiff_t(s) * a.scenario_stride, size, a.element_stride};
}
template <class T> T* scalar_at(HostArray<T> a, std::size_t s) { return a.data + std::ptrdiff_t(s) * a.scenario_stride; }

template <class T> ScenarioView<T> scenario_view(const HostBatchView<T>& b, std::size_t s, lcp::Solver lcp_solver = lcp::Solver::lemke) {
  const int n = b.shape.n, mb = b.shape.m_b, mu = b.shape.m_u, m = mb + mu;
  const T* zero = &kZero<T>;
  ScenarioView<T> v;
  v.n = n;
  v.m_b = mb;
  v.m_u = mu;
  v.M = mat_at(b.M, s, n, n);
  v.parent = b.parent;
  v.qdot = vec_at(b.qdot, s, n);
  v.h = vec_at(or_value(b.h, zero), s, n);
  v.u = vec_at(or_value(b.u, zero), s, n);
  v.i_u = vec_at(or_value(b.i_u, zero), s, n);
  v.A_b = mat_at(or_value(b.A_b, zero), s, mb, n);
  v.A_u = mat_at(or_value(b.A_u, zero), s, mu, n);
  v.phi_u = vec_at(or_value(b.phi_u, zero), s, mu);
  v.Adot_qdot = vec_at(or_value(b.Adot_qdot, zero), s, m);
  v.e = vec_at(or_value(b.e, zero), s, mu);
  v.law = Law(*scalar_at(or_value(b.law, &kDefaultLaw), s));
  v.gap_tol = *scalar_at(or_value(b.gap_tol, &kDefaultTol<T>), s);
  v.vel_tol = *scalar_at(or_value(b.vel_tol, &kDefaultTol<T>), s);
  v.lcp_solver = lcp_solver;
  return v;
}

template <class T> ImpactView<T> impact_view(const HostBatchView<T>& b, std::size_t s) {
  const int n = b.shape.n, m = b.shape.m_b + b.shape.m_u, mu = b.shape.m_u;
  ImpactView<T> v;
  v.qdot_plus = vec_at(b.qdot_plus, s, n);
  v.impulse = vec_at(b.impulse, s, n);
  v.lambda = vec_at(b.lambda, s, m);
  v.active = vec_at(b.active, s, mu);
  v.kinetic_energy_pre = scalar_at(b.kinetic_energy_pre, s);
  v.kinetic_energy_post = scalar_at(b.kinetic_energy_post, s);
  v.energy_consistent = scalar_at(b.energy_consistent, s);
  return v;
}

template <class T> DynamicsView<T> dynamics_view(const HostBatchView<T>& b, std::size_t s) {
  const int n = b.shape.n, m = b.shape.m_b + b.shape.m_u, mu = b.shape.m_u;
  DynamicsView<T> v;
  v.qddot = vec_at(b.qddot, s, n);
  v.lambda = vec_at(b.lambda, s, m);
  v.active = vec_at(b.active, s, mu);
  return v;
}

// A view's entries as a host Eigen object in double (allocates).
template <class T> Eigen::MatrixXd to_matrix(MatView<const T> a) {
  Eigen::MatrixXd r(a.rows, a.cols);
  for (int i = 0; i < a.rows; ++i)
    for (int j = 0; j < a.cols; ++j) r(i, j) = double(a(i, j));
  return r;
}
template <class T> Eigen::VectorXd to_vector(VecView<const T> a) {
  Eigen::VectorXd r(a.size);
  for (int i = 0; i < a.size; ++i) r[i] = double(a[i]);
  return r;
}

// One scenario as host Eigen objects in double (the reference backend's input; allocates).
template <class T> Scenario to_scenario(const ScenarioView<T>& v) {
  const auto mat = [](MatView<const T> a) { return to_matrix(a); };
  const auto vec = [](VecView<const T> a) { return to_vector(a); };
  Scenario sc;
  sc.M = mat(v.M);
  sc.qdot = vec(v.qdot);
  sc.h = vec(v.h);
  sc.u = vec(v.u);
  sc.i_u = vec(v.i_u);
  sc.A_b = mat(v.A_b);
  sc.A_u = mat(v.A_u);
  sc.phi_u = vec(v.phi_u);
  sc.Adot_qdot = vec(v.Adot_qdot);
  sc.e = vec(v.e);
  sc.law = v.law;
  sc.gap_tol = double(v.gap_tol);
  sc.vel_tol = double(v.vel_tol);
  if (v.parent) sc.parent.assign(v.parent, v.parent + v.n);
  return sc;
}

// A result in double written through one scenario's output views (converted to T; entries
// the result does not have are written as zero).
template <class T, class V> void put(VecView<T> dst, const V& v) {
  for (int i = 0; i < dst.size; ++i) dst[i] = i < v.size() ? T(v[i]) : T(0);
}

template <class T> Status store(const ImpactResult& r, const ImpactView<T>& v) {
  put(v.qdot_plus, r.qdot_plus);
  put(v.impulse, r.impulse);
  put(v.lambda, r.lambda);
  put(v.active, r.active);
  *v.kinetic_energy_pre = T(r.kinetic_energy_pre);
  *v.kinetic_energy_post = T(r.kinetic_energy_post);
  *v.energy_consistent = r.energy_consistent ? 1 : 0;
  return r.status;
}

template <class T> Status store(const DynamicsResult& r, const DynamicsView<T>& v) {
  put(v.qddot, r.qddot);
  put(v.lambda, r.lambda);
  put(v.active, r.active);
  return r.status;
}

}  // namespace obliq::cpu

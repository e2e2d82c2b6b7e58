// src/cpu/batch.cpp: storage of the host batches and the per-scenario copy in and out.
#include "obliq/batch.hpp"

namespace obliq {

const char* backend_name(Backend b) {
  switch (b) {
    case Backend::cpu: return "cpu";
    case Backend::reference: return "reference";
    case Backend::cuda: return "cuda";
  }
  return "unknown";
}

bool parse_backend(const std::string& name, Backend& out) {
  if (name == "cpu") out = Backend::cpu;
  else if (name == "reference") out = Backend::reference;
  else if (name == "cuda") out = Backend::cuda;
  else return false;
  return true;
}

template <class T> Batch<T>::Batch(Shape s, std::size_t c) : shape(s), count(c) {
  const std::size_t n = s.n, mb = s.m_b, mu = s.m_u;
  M.assign(c * n * n, T(0));
  for (std::size_t k = 0; k < c; ++k)
    for (std::size_t i = 0; i < n; ++i) M[k * n * n + i * n + i] = T(1);
  qdot.assign(c * n, T(0));
  h.assign(c * n, T(0));
  u.assign(c * n, T(0));
  i_u.assign(c * n, T(0));
  A_b.assign(c * mb * n, T(0));
  A_u.assign(c * mu * n, T(0));
  phi_u.assign(c * mu, T(0));
  Adot_qdot.assign(c * (mb + mu), T(0));
  e.assign(c * mu, T(0));
  law.assign(c, std::uint8_t(Law::complementarity));
  gap_tol.assign(c, T(1e-9));
  vel_tol.assign(c, T(1e-9));
}

template <class T> void Batch<T>::set(std::size_t s, const Scenario& sc) {
  M_of(s) = sc.M.cast<T>();
  qdot_of(s) = sc.qdot.cast<T>();
  h_of(s) = sc.h.cast<T>();
  u_of(s) = sc.u.cast<T>();
  i_u_of(s) = sc.i_u.cast<T>();
  A_b_of(s) = sc.A_b.cast<T>();
  A_u_of(s) = sc.A_u.cast<T>();
  phi_u_of(s) = sc.phi_u.cast<T>();
  Adot_qdot_of(s) = sc.Adot_qdot.cast<T>();
  e_of(s) = sc.e.cast<T>();
  law[s] = std::uint8_t(sc.law);
  gap_tol[s] = T(sc.gap_tol);
  vel_tol[s] = T(sc.vel_tol);
}

template <class T> Scenario Batch<T>::get(std::size_t s) const {
  auto& self = const_cast<Batch<T>&>(*this);
  Scenario sc;
  sc.M = self.M_of(s).template cast<double>();
  sc.qdot = self.qdot_of(s).template cast<double>();
  sc.h = self.h_of(s).template cast<double>();
  sc.u = self.u_of(s).template cast<double>();
  sc.i_u = self.i_u_of(s).template cast<double>();
  sc.A_b = self.A_b_of(s).template cast<double>();
  sc.A_u = self.A_u_of(s).template cast<double>();
  sc.phi_u = self.phi_u_of(s).template cast<double>();
  sc.Adot_qdot = self.Adot_qdot_of(s).template cast<double>();
  sc.e = self.e_of(s).template cast<double>();
  sc.law = Law(law[s]);
  sc.gap_tol = double(gap_tol[s]);
  sc.vel_tol = double(vel_tol[s]);
  return sc;
}

template <class T> void ImpactResults<T>::resize(Shape s, std::size_t c) {
  shape = s;
  count = c;
  qdot_plus.assign(c * s.n, T(0));
  impulse.assign(c * s.n, T(0));
  lambda.assign(c * (s.m_b + s.m_u), T(0));
  active.assign(c * s.m_u, 0);
  kinetic_energy_pre.assign(c, T(0));
  kinetic_energy_post.assign(c, T(0));
  energy_consistent.assign(c, 0);
  status.assign(c, Status::ok);
}

template <class T> ImpactResult ImpactResults<T>::get(std::size_t s) const {
  const int n = shape.n, m = shape.m_b + shape.m_u, mu = shape.m_u;
  ImpactResult r;
  r.status = status[s];
  r.qdot_plus = ConstVecMap<T>(qdot_plus.data() + s * n, n).template cast<double>();
  r.impulse = ConstVecMap<T>(impulse.data() + s * n, n).template cast<double>();
  r.lambda = ConstVecMap<T>(lambda.data() + s * m, m).template cast<double>();
  r.active.resize(mu);
  for (int i = 0; i < mu; ++i) r.active[i] = active[s * mu + i];
  r.kinetic_energy_pre = double(kinetic_energy_pre[s]);
  r.kinetic_energy_post = double(kinetic_energy_post[s]);
  r.energy_consistent = energy_consistent[s] != 0;
  return r;
}

template <class T> void ImpactResults<T>::set(std::size_t s, const ImpactResult& r) {
  const int n = shape.n, m = shape.m_b + shape.m_u, mu = shape.m_u;
  status[s] = r.status;
  auto put = [](std::vector<T>& dst, std::size_t off, const Eigen::VectorXd& v, int len) {
    for (int i = 0; i < len; ++i) dst[off + i] = i < v.size() ? T(v[i]) : T(0);
  };
  put(qdot_plus, s * n, r.qdot_plus, n);
  put(impulse, s * n, r.impulse, n);
  put(lambda, s * m, r.lambda, m);
  for (int i = 0; i < mu; ++i) active[s * mu + i] = i < r.active.size() ? std::uint8_t(r.active[i]) : 0;
  kinetic_energy_pre[s] = T(r.kinetic_energy_pre);
  kinetic_energy_post[s] = T(r.kinetic_energy_post);
  energy_consistent[s] = r.energy_consistent ? 1 : 0;
}

template <class T> void DynamicsResults<T>::resize(Shape s, std::size_t c) {
  shape = s;
  count = c;
  qddot.assign(c * s.n, T(0));
  lambda.assign(c * (s.m_b + s.m_u), T(0));
  active.assign(c * s.m_u, 0);
  status.assign(c, Status::ok);
}

template <class T> DynamicsResult DynamicsResults<T>::get(std::size_t s) const {
  const int n = shape.n, m = shape.m_b + shape.m_u, mu = shape.m_u;
  DynamicsResult r;
  r.status = status[s];
  r.qddot = ConstVecMap<T>(qddot.data() + s * n, n).template cast<double>();
  r.lambda = ConstVecMap<T>(lambda.data() + s * m, m).template cast<double>();
  r.active.resize(mu);
  for (int i = 0; i < mu; ++i) r.active[i] = active[s * mu + i];
  return r;
}

template <class T> void DynamicsResults<T>::set(std::size_t s, const DynamicsResult& r) {
  const int n = shape.n, m = shape.m_b + shape.m_u, mu = shape.m_u;
  status[s] = r.status;
  for (int i = 0; i < n; ++i) qddot[s * n + i] = i < r.qddot.size() ? T(r.qddot[i]) : T(0);
  for (int i = 0; i < m; ++i) lambda[s * m + i] = i < r.lambda.size() ? T(r.lambda[i]) : T(0);
  for (int i = 0; i < mu; ++i) active[s * mu + i] = i < r.active.size() ? std::uint8_t(r.active[i]) : 0;
}

template struct Batch<double>;
template struct Batch<float>;
template struct ImpactResults<double>;
template struct ImpactResults<float>;
template struct DynamicsResults<double>;
template struct DynamicsResults<float>;

}  // namespace obliq

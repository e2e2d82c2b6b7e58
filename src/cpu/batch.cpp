// src/cpu/batch.cpp: storage of the host batches, their shape checks, views of them, and the
// per-scenario copy in and out.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "cpu/scenario_views.hpp"
#include "obliq/batch.hpp"
#include "obliq/host_views.hpp"

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

namespace {

std::string shape_text(Shape s) {
  return "(n = " + std::to_string(s.n) + ", m_b = " + std::to_string(s.m_b) + ", m_u = " + std::to_string(s.m_u) + ")";
}

void check_shape(Shape s, std::size_t count, const char* what) {
  if (s.n < 0 || s.m_b < 0 || s.m_u < 0 || (s.n == 0 && count > 0))
    throw std::invalid_argument(std::string(what) + ": bad shape " + shape_text(s) +
                                " (n must be at least 1, m_b and m_u at least 0)");
}

template <class V> void check_size(const V& buffer, const char* name, std::size_t count, std::size_t block, Shape s) {
  if (buffer.size() != count * block)
    throw std::invalid_argument("obliq::Batch: buffer " + std::string(name) + " has " + std::to_string(buffer.size()) +
                                " entries, expected count x block = " + std::to_string(count) + " x " +
                                std::to_string(block) + " for shape " + shape_text(s) +
                                " (were shape, count or a buffer changed after construction?)");
}

}  // namespace

template <class T> Batch<T>::Batch(Shape s, std::size_t c) { reset(s, c); }

template <class T> void Batch<T>::reset(Shape s, std::size_t c, Refill refill) {
  check_shape(s, c, "obliq::Batch");
  shape = s;
  count = c;
  parent.clear();
  const std::size_t n = s.n, mb = s.m_b, mu = s.m_u;
  for (auto [v, size] : {std::pair{&M, c * n * n}, {&qdot, c * n}, {&h, c * n}, {&A_b, c * mb * n}, {&A_u, c * mu * n},
                         {&phi_u, c * mu}, {&Adot_qdot, c * (mb + mu)}})
    v->resize(size);
  if (refill == Refill::all)
    for (std::size_t k = 0; k < c; ++k) clear_state(k);
  u.assign(c * n, T(0));
  i_u.assign(c * n, T(0));
  e.assign(c * mu, T(0));
  law.assign(c, std::uint8_t(Law::complementarity));
  gap_tol.assign(c, T(1e-9));
  vel_tol.assign(c, T(1e-9));
}

template <class T> void Batch<T>::clear_state(std::size_t k) {
  const std::size_t n = shape.n, mb = shape.m_b, mu = shape.m_u;
  std::fill_n(M.begin() + k * n * n, n * n, T(0));
  for (std::size_t i = 0; i < n; ++i) M[k * n * n + i * n + i] = T(1);
  std::fill_n(qdot.begin() + k * n, n, T(0));
  std::fill_n(h.begin() + k * n, n, T(0));
  std::fill_n(A_b.begin() + k * mb * n, mb * n, T(0));
  std::fill_n(A_u.begin() + k * mu * n, mu * n, T(0));
  std::fill_n(phi_u.begin() + k * mu, mu, T(0));
  std::fill_n(Adot_qdot.begin() + k * (mb + mu), mb + mu, T(0));
}

template <class T> void Batch<T>::check() const {
  check_shape(shape, count, "obliq::Batch");
  const std::size_t n = shape.n, mb = shape.m_b, mu = shape.m_u;
  check_size(M, "M", count, n * n, shape);
  check_size(qdot, "qdot", count, n, shape);
  check_size(h, "h", count, n, shape);
  check_size(u, "u", count, n, shape);
  check_size(i_u, "i_u", count, n, shape);
  check_size(A_b, "A_b", count, mb * n, shape);
  check_size(A_u, "A_u", count, mu * n, shape);
  check_size(phi_u, "phi_u", count, mu, shape);
  check_size(Adot_qdot, "Adot_qdot", count, mb + mu, shape);
  check_size(e, "e", count, mu, shape);
  check_size(law, "law", count, 1, shape);
  check_size(gap_tol, "gap_tol", count, 1, shape);
  check_size(vel_tol, "vel_tol", count, 1, shape);
  if (!parent.empty()) check_tree(parent.data(), parent.size(), shape.n, "obliq::Batch: parent");
}

void check_tree(const int* parent, std::size_t size, int n, const char* what) {
  if (parent == nullptr) return;
  if (size != std::size_t(n))
    throw std::invalid_argument(std::string(what) + " has " + std::to_string(size) + " entries, expected n = " +
                                std::to_string(n));
  for (int i = 0; i < n; ++i)
    if (parent[i] < -1 || parent[i] >= i)
      throw std::invalid_argument(std::string(what) + "[" + std::to_string(i) + "] = " + std::to_string(parent[i]) +
                                  ": a tree numbered parents first needs -1 <= parent[i] < i");
}

template <class T> void Batch<T>::set(std::size_t s, const Scenario& sc) {
  if (sc.shape() != shape || sc.qdot.size() != shape.n || sc.h.size() != shape.n || sc.u.size() != shape.n ||
      sc.i_u.size() != shape.n || sc.phi_u.size() != shape.m_u || sc.Adot_qdot.size() != m() || sc.e.size() != shape.m_u)
    throw std::invalid_argument("obliq::Batch::set: the scenario's shape " + shape_text(sc.shape()) +
                                " or one of its vector sizes does not match the batch's " + shape_text(shape) +
                                " (Scenario::zeros(shape) gives every vector its size)");
  if (s >= count)
    throw std::invalid_argument("obliq::Batch::set: scenario " + std::to_string(s) + " of a batch of " + std::to_string(count));
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

template <class T> Scenario Batch<T>::get(std::size_t s) const { return cpu::to_scenario(cpu::scenario_view(host_view(*this), s)); }

template <class T> HostBatchView<T> host_view(const Batch<T>& b) {
  const std::ptrdiff_t n = b.shape.n, mb = b.shape.m_b, mu = b.shape.m_u;
  HostBatchView<T> v;
  v.shape = b.shape;
  v.count = b.count;
  v.M = {b.M.data(), n * n, 1};
  v.qdot = {b.qdot.data(), n, 1};
  v.h = {b.h.data(), n, 1};
  v.u = {b.u.data(), n, 1};
  v.i_u = {b.i_u.data(), n, 1};
  v.A_b = {b.A_b.data(), mb * n, 1};
  v.A_u = {b.A_u.data(), mu * n, 1};
  v.phi_u = {b.phi_u.data(), mu, 1};
  v.Adot_qdot = {b.Adot_qdot.data(), mb + mu, 1};
  v.e = {b.e.data(), mu, 1};
  v.law = {b.law.data(), 1, 1};
  v.gap_tol = {b.gap_tol.data(), 1, 1};
  v.vel_tol = {b.vel_tol.data(), 1, 1};
  v.parent = b.parent.empty() ? nullptr : b.parent.data();
  return v;
}

template <class T> void set_outputs(HostBatchView<T>& v, ImpactResults<T>& r) {
  const std::ptrdiff_t n = r.shape.n, m = r.m(), mu = r.shape.m_u;
  v.qdot_plus = {r.qdot_plus.data(), n, 1};
  v.impulse = {r.impulse.data(), n, 1};
  v.lambda = {r.lambda.data(), m, 1};
  v.active = {r.active.data(), mu, 1};
  v.kinetic_energy_pre = {r.kinetic_energy_pre.data(), 1, 1};
  v.kinetic_energy_post = {r.kinetic_energy_post.data(), 1, 1};
  v.energy_consistent = {r.energy_consistent.data(), 1, 1};
  v.status = {r.status.data(), 1, 1};
}

template <class T> void set_outputs(HostBatchView<T>& v, DynamicsResults<T>& r) {
  const std::ptrdiff_t n = r.shape.n, m = r.m(), mu = r.shape.m_u;
  v.qddot = {r.qddot.data(), n, 1};
  v.lambda = {r.lambda.data(), m, 1};
  v.active = {r.active.data(), mu, 1};
  v.status = {r.status.data(), 1, 1};
}

// Sizing keeps the contents when nothing changes (no allocation across steps; a masked solve
// leaves the skipped scenarios' results as they were).
template <class T> void ImpactResults<T>::resize(Shape s, std::size_t c) {
  if (s == shape && c == count && status.size() == c) return;
  shape = s;
  count = c;
  qdot_plus.assign(c * s.n, T(0));
  impulse.assign(c * s.n, T(0));
  lambda.assign(c * (s.m_b + s.m_u), T(0));
  active.assign(c * s.m_u, 0);
  kinetic_energy_pre.assign(c, T(0));
  kinetic_energy_post.assign(c, T(0));
  energy_consistent.assign(c, 0);
  status.assign(c, Status::not_solved);
}

template <class T> ImpactResult ImpactResults<T>::get(std::size_t s) const {
  ImpactResult r;
  r.status = status[s];
  r.qdot_plus = qdot_plus_of(s).template cast<double>();
  r.impulse = impulse_of(s).template cast<double>();
  r.lambda = lambda_of(s).template cast<double>();
  r.active = active_of(s).template cast<int>();
  r.kinetic_energy_pre = double(kinetic_energy_pre[s]);
  r.kinetic_energy_post = double(kinetic_energy_post[s]);
  r.energy_consistent = energy_consistent[s] != 0;
  return r;
}

template <class T> void ImpactResults<T>::set(std::size_t s, const ImpactResult& r) {
  HostBatchView<T> v;
  v.shape = shape;
  set_outputs(v, *this);
  status[s] = cpu::store(r, cpu::impact_view(v, s));
}

template <class T> void DynamicsResults<T>::resize(Shape s, std::size_t c) {
  if (s == shape && c == count && status.size() == c) return;
  shape = s;
  count = c;
  qddot.assign(c * s.n, T(0));
  lambda.assign(c * (s.m_b + s.m_u), T(0));
  active.assign(c * s.m_u, 0);
  status.assign(c, Status::not_solved);
}

template <class T> DynamicsResult DynamicsResults<T>::get(std::size_t s) const {
  DynamicsResult r;
  r.status = status[s];
  r.qddot = qddot_of(s).template cast<double>();
  r.lambda = lambda_of(s).template cast<double>();
  r.active = active_of(s).template cast<int>();
  return r;
}

template <class T> void DynamicsResults<T>::set(std::size_t s, const DynamicsResult& r) {
  HostBatchView<T> v;
  v.shape = shape;
  set_outputs(v, *this);
  status[s] = cpu::store(r, cpu::dynamics_view(v, s));
}

#define OBLIQ_INSTANTIATE(T)                                                  \
  template struct Batch<T>;                                                   \
  template struct ImpactResults<T>;                                           \
  template struct DynamicsResults<T>;                                         \
  template HostBatchView<T> host_view<T>(const Batch<T>&);                    \
  template void set_outputs<T>(HostBatchView<T>&, ImpactResults<T>&);         \
  template void set_outputs<T>(HostBatchView<T>&, DynamicsResults<T>&);
OBLIQ_INSTANTIATE(double)
OBLIQ_INSTANTIATE(float)
#undef OBLIQ_INSTANTIATE

}  // namespace obliq

// tests/support/core_runner.hpp: run the per-scenario core directly on one obliq::Scenario
// (converted to scalar T in row-major buffers), for unit tests that bypass the batches.
#pragma once

#include <vector>

#include "obliq/core/mechanics/certificate.hpp"
#include "obliq/core/mechanics/dynamics.hpp"
#include "obliq/core/mechanics/impact.hpp"
#include "obliq/scenario.hpp"

namespace obliq::test {

template <class T> struct CoreScenario {
  using RowMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using Vec = Eigen::Matrix<T, Eigen::Dynamic, 1>;
  RowMat M, A_b, A_u;
  Vec qdot, h, u, i_u, phi_u, Adot_qdot, e;
  ScenarioView<T> view;

  explicit CoreScenario(const Scenario& s)
      : M(s.M.cast<T>()), A_b(s.A_b.cast<T>()), A_u(s.A_u.cast<T>()), qdot(s.qdot.cast<T>()), h(s.h.cast<T>()),
        u(s.u.cast<T>()), i_u(s.i_u.cast<T>()), phi_u(s.phi_u.cast<T>()), Adot_qdot(s.Adot_qdot.cast<T>()),
        e(s.e.cast<T>()) {
    const int n = int(M.rows()), mb = int(A_b.rows()), mu = int(A_u.rows());
    view.n = n;
    view.m_b = mb;
    view.m_u = mu;
    view.M = mat_view<const T>(M.data(), n, n);
    view.A_b = mat_view<const T>(A_b.data(), mb, n);
    view.A_u = mat_view<const T>(A_u.data(), mu, n);
    view.qdot = vec_view<const T>(qdot.data(), n);
    view.h = vec_view<const T>(h.data(), n);
    view.u = vec_view<const T>(u.data(), n);
    view.i_u = vec_view<const T>(i_u.data(), n);
    view.phi_u = vec_view<const T>(phi_u.data(), mu);
    view.Adot_qdot = vec_view<const T>(Adot_qdot.data(), mb + mu);
    view.e = vec_view<const T>(e.data(), mu);
    view.law = s.law;
    view.gap_tol = T(s.gap_tol);
    view.vel_tol = T(s.vel_tol);
  }
};

// Runs obliq::impact<T>; reports the arena's high-water mark through `used` when given.
template <class T> ImpactResult core_impact(const Scenario& s, std::size_t* used = nullptr) {
  CoreScenario<T> c(s);
  const int n = c.view.n, mb = c.view.m_b, mu = c.view.m_u;
  std::vector<T> qp(n), imp(n), lam(mb + mu);
  std::vector<std::uint8_t> act(mu);
  T ke0 = 0, ke1 = 0;
  std::uint8_t ec = 0;
  ImpactView<T> out{vec_view(qp.data(), n), vec_view(imp.data(), n), vec_view(lam.data(), mb + mu),
                    vec_view(act.data(), mu), &ke0, &ke1, &ec};
  const std::size_t ws = impact_workspace_size<T>(n, mb, mu);
  std::vector<T> scratch(ws);
  Arena<T> arena{scratch.data(), ws};
  ImpactResult r;
  r.status = impact(c.view, out, arena);
  if (used) *used = arena.peak;
  r.qdot_plus = Eigen::Map<Eigen::Matrix<T, -1, 1>>(qp.data(), n).template cast<double>();
  r.impulse = Eigen::Map<Eigen::Matrix<T, -1, 1>>(imp.data(), n).template cast<double>();
  r.lambda = Eigen::Map<Eigen::Matrix<T, -1, 1>>(lam.data(), mb + mu).template cast<double>();
  r.active.resize(mu);
  for (int i = 0; i < mu; ++i) r.active[i] = act[i];
  r.kinetic_energy_pre = double(ke0);
  r.kinetic_energy_post = double(ke1);
  r.energy_consistent = ec != 0;
  return r;
}

template <class T> DynamicsResult core_dynamics(const Scenario& s, std::size_t* used = nullptr) {
  CoreScenario<T> c(s);
  const int n = c.view.n, mb = c.view.m_b, mu = c.view.m_u;
  std::vector<T> qdd(n), lam(mb + mu);
  std::vector<std::uint8_t> act(mu);
  DynamicsView<T> out{vec_view(qdd.data(), n), vec_view(lam.data(), mb + mu), vec_view(act.data(), mu)};
  const std::size_t ws = dynamics_workspace_size<T>(n, mb, mu);
  std::vector<T> scratch(ws);
  Arena<T> arena{scratch.data(), ws};
  DynamicsResult r;
  r.status = dynamics(c.view, out, arena);
  if (used) *used = arena.peak;
  r.qddot = Eigen::Map<Eigen::Matrix<T, -1, 1>>(qdd.data(), n).template cast<double>();
  r.lambda = Eigen::Map<Eigen::Matrix<T, -1, 1>>(lam.data(), mb + mu).template cast<double>();
  r.active.resize(mu);
  for (int i = 0; i < mu; ++i) r.active[i] = act[i];
  return r;
}

// The certificate residual (certificate.hpp) of a given answer to s, in scalar T: lets a test
// hand the certificate an answer worked out on paper, or a deliberately perturbed one.
template <class T> T impact_residual(const Scenario& s, const ImpactResult& r) {
  CoreScenario<T> c(s);
  const int n = c.view.n, mb = c.view.m_b, mu = c.view.m_u;
  std::vector<T> qp(n), imp(n), lam(mb + mu);
  std::vector<std::uint8_t> act(mu);
  for (int i = 0; i < n; ++i) qp[i] = T(r.qdot_plus[i]), imp[i] = T(r.impulse.size() ? r.impulse[i] : 0);
  for (int i = 0; i < mb + mu; ++i) lam[i] = T(r.lambda[i]);
  for (int i = 0; i < mu; ++i) act[i] = std::uint8_t(r.active[i]);
  T ke0 = 0, ke1 = 0;
  std::uint8_t ec = 0;
  ImpactView<T> out{vec_view(qp.data(), n), vec_view(imp.data(), n), vec_view(lam.data(), mb + mu),
                    vec_view(act.data(), mu), &ke0, &ke1, &ec};
  return impact_certificate(c.view, out);
}

template <class T> T dynamics_residual(const Scenario& s, const DynamicsResult& r) {
  CoreScenario<T> c(s);
  const int n = c.view.n, mb = c.view.m_b, mu = c.view.m_u;
  std::vector<T> qdd(n), lam(mb + mu);
  std::vector<std::uint8_t> act(mu);
  for (int i = 0; i < n; ++i) qdd[i] = T(r.qddot[i]);
  for (int i = 0; i < mb + mu; ++i) lam[i] = T(r.lambda[i]);
  for (int i = 0; i < mu; ++i) act[i] = std::uint8_t(r.active[i]);
  DynamicsView<T> out{vec_view(qdd.data(), n), vec_view(lam.data(), mb + mu), vec_view(act.data(), mu)};
  return dynamics_certificate(c.view, out);
}

}  // namespace obliq::test

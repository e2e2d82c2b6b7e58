// src/friction/solve.cpp: obliq::impact / obliq::dynamics with friction on one host scenario.
#include <cstdint>
#include <vector>

#include "obliq/core/friction/dynamics.hpp"
#include "obliq/core/friction/impact.hpp"
#include "obliq/friction.hpp"
#include "friction/host_glue.hpp"

namespace obliq {

Friction Friction::none(const Scenario& s, int dim) {
  Friction f;
  f.dim = dim;
  f.A_t = Eigen::MatrixXd::Zero((dim - 1) * s.A_u.rows(), s.M.rows());
  f.mu = Eigen::VectorXd::Zero(s.A_u.rows());
  return f;
}

namespace {

// The scenario and its friction in scalar T, row-major, with views onto them.
template <class T> struct Views {
  RowMat<T> M, A_b, A_u, A_t;
  Vec<T> qdot, h, u, i_u, phi_u, Adot_qdot, e, mu, Adot_qdot_t, e_t;
  ScenarioView<T> in;
  friction::FrictionView<T> fr;
  Views(const Scenario& s, const Friction& f)
      : M(s.M.cast<T>()), A_b(s.A_b.cast<T>()), A_u(s.A_u.cast<T>()), A_t(f.A_t.cast<T>()), qdot(s.qdot.cast<T>()),
        h(s.h.cast<T>()), u(s.u.cast<T>()), i_u(s.i_u.cast<T>()), phi_u(s.phi_u.cast<T>()),
        Adot_qdot(s.Adot_qdot.cast<T>()), e(s.e.cast<T>()), mu(f.mu.cast<T>()), Adot_qdot_t(f.Adot_qdot_t.cast<T>()),
        e_t(f.e_t.cast<T>()) {
    const int n = int(M.rows()), mb = int(A_b.rows()), mu_rows = int(A_u.rows());
    in.n = n, in.m_b = mb, in.m_u = mu_rows;
    in.M = mat_view<const T>(M.data(), n, n);
    in.A_b = mat_view<const T>(A_b.data(), mb, int(A_b.cols()));
    in.A_u = mat_view<const T>(A_u.data(), mu_rows, int(A_u.cols()));
    in.qdot = vec_view<const T>(qdot.data(), int(qdot.size()));
    in.h = vec_view<const T>(h.data(), int(h.size()));
    in.u = vec_view<const T>(u.data(), int(u.size()));
    in.i_u = vec_view<const T>(i_u.data(), int(i_u.size()));
    in.phi_u = vec_view<const T>(phi_u.data(), int(phi_u.size()));
    in.Adot_qdot = vec_view<const T>(Adot_qdot.data(), int(Adot_qdot.size()));
    in.e = vec_view<const T>(e.data(), int(e.size()));
    in.law = s.law;
    in.gap_tol = T(s.gap_tol);
    in.vel_tol = T(s.vel_tol);
    in.parent = s.parent.empty() ? nullptr : s.parent.data();
    fr.dim = f.dim;
    fr.A_t = mat_view<const T>(A_t.data(), int(A_t.rows()), int(A_t.cols()));
    fr.mu = vec_view<const T>(mu.data(), int(mu.size()));
    if (Adot_qdot_t.size() > 0) fr.Adot_qdot_t = vec_view<const T>(Adot_qdot_t.data(), int(Adot_qdot_t.size()));
    if (e_t.size() > 0) fr.e_t = vec_view<const T>(e_t.data(), int(e_t.size()));
    fr.formulation = f.formulation;
    fr.directions = f.directions;
    fr.lcp_solver = f.lcp_solver;
  }
};

}  // namespace

template <class T> ImpactResult impact(const Scenario& s, const Friction& f, FrictionResult* info) {
  ImpactResult r;
  if (!friction::host_inputs_fit(s, f, false)) {
    r.status = Status::bad_shape;
    return r;
  }
  Views<T> v(s, f);
  const int n = v.in.n, mb = v.in.m_b, mu = v.in.m_u, nt = (f.dim - 1) * mu;
  std::vector<T> qp(n), imp(n), lam(mb + mu), lt(nt);
  std::vector<std::uint8_t> act(mu);
  T ke0 = 0, ke1 = 0;
  std::uint8_t ec = 0;
  ImpactView<T> out{vec_view(qp.data(), n), vec_view(imp.data(), n), vec_view(lam.data(), mb + mu),
                    vec_view(act.data(), mu), &ke0, &ke1, &ec};
  friction::Report<T> rep;
  friction::FrictionOutView<T> fo{vec_view(lt.data(), nt), {}, &rep};
  std::vector<T> scratch(friction::impact_workspace_size<T>(n, mb, mu, f.dim, f.directions));
  Arena<T> arena{scratch.data(), scratch.size()};
  r.status = friction::impact(v.in, v.fr, out, fo, arena);
  r.qdot_plus = Eigen::Map<Vec<T>>(qp.data(), n).template cast<double>();
  r.impulse = Eigen::Map<Vec<T>>(imp.data(), n).template cast<double>();
  r.lambda = Eigen::Map<Vec<T>>(lam.data(), mb + mu).template cast<double>();
  r.active.resize(mu);
  for (int i = 0; i < mu; ++i) r.active[i] = act[std::size_t(i)];
  r.kinetic_energy_pre = double(ke0);
  r.kinetic_energy_post = double(ke1);
  r.energy_consistent = ec != 0;
  friction::fill_result(rep, lt.data(), nt, 1, info);
  return r;
}

template <class T> DynamicsResult dynamics(const Scenario& s, const Friction& f, FrictionResult* info) {
  DynamicsResult r;
  if (!friction::host_inputs_fit(s, f, true)) {
    r.status = Status::bad_shape;
    return r;
  }
  Views<T> v(s, f);
  const int n = v.in.n, mb = v.in.m_b, mu = v.in.m_u, nt = (f.dim - 1) * mu;
  std::vector<T> qdd(n), lam(mb + mu), lt(nt);
  std::vector<std::uint8_t> act(mu), sl(mu);
  DynamicsView<T> out{vec_view(qdd.data(), n), vec_view(lam.data(), mb + mu), vec_view(act.data(), mu)};
  friction::Report<T> rep;
  friction::FrictionOutView<T> fo{vec_view(lt.data(), nt), vec_view(sl.data(), mu), &rep};
  std::vector<T> scratch(friction::dynamics_workspace_size<T>(n, mb, mu, f.dim, f.directions));
  Arena<T> arena{scratch.data(), scratch.size()};
  r.status = friction::dynamics(v.in, v.fr, out, fo, arena);
  r.qddot = Eigen::Map<Vec<T>>(qdd.data(), n).template cast<double>();
  r.lambda = Eigen::Map<Vec<T>>(lam.data(), mb + mu).template cast<double>();
  r.active.resize(mu);
  for (int i = 0; i < mu; ++i) r.active[i] = act[std::size_t(i)];
  friction::fill_result(rep, lt.data(), nt, 1, info);
  if (info) {
    info->sliding.resize(mu);
    for (int i = 0; i < mu; ++i) info->sliding[i] = sl[std::size_t(i)];
  }
  return r;
}

template ImpactResult impact<double>(const Scenario&, const Friction&, FrictionResult*);
template ImpactResult impact<float>(const Scenario&, const Friction&, FrictionResult*);
template DynamicsResult dynamics<double>(const Scenario&, const Friction&, FrictionResult*);
template DynamicsResult dynamics<float>(const Scenario&, const Friction&, FrictionResult*);

}  // namespace obliq

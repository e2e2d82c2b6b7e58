// src/sim/simulator.cpp: the host side of the time steppers: state and control buffers, and
// the OpenMP map of the per-scenario steppers (include/obliq/sim) over scenarios.
#include "obliq/simulator.hpp"

#include <omp.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "cpu/omp_guard.hpp"
#include "obliq/sim/event_driven.hpp"
#include "obliq/sim/moreau_jean.hpp"
#include "obliq/sim/system.hpp"

namespace obliq {

// The systems being stepped: one model (its float or double copy), or a batch of raw systems.
template <class T> struct Simulator<T>::Systems {
  bool is_model = false;
  model::ModelT<T> model;
  Batch<T> raw;
  std::vector<T> A_t;  // raw systems with friction: count x (dim - 1) m_u x n, row-major
};

namespace {

template <class T> sim::StepParams<T> step_params(const SimOptions& o) {
  sim::StepParams<T> p;
  p.integrator = o.integrator;
  p.law = o.law;
  p.lcp_solver = o.lcp_solver;
  p.theta = T(o.theta);
  p.gamma = T(o.gamma);
  if (o.gap_tol >= 0) p.gap_tol = T(o.gap_tol);
  if (o.vel_tol >= 0) p.vel_tol = T(o.vel_tol);
  p.max_step = T(o.max_step);
  p.zeno_velocity = T(o.zeno_velocity);
  p.max_impacts = o.max_impacts;
  p.friction = o.friction;
  p.facets = o.facets;
  p.friction_lcp_solver = o.friction_lcp_solver;
  return p;
}

}  // namespace

template <class T> Simulator<T>::~Simulator() = default;
template <class T> Simulator<T>::Simulator(Simulator&&) noexcept = default;
template <class T> Simulator<T>& Simulator<T>::operator=(Simulator&&) noexcept = default;

template <class T>
Simulator<T>::Simulator(const model::Model& m, std::size_t count, const SimOptions& opt)
    : options(opt), systems_(std::make_unique<Systems>()), count_(count) {
  systems_->is_model = true;
  if constexpr (std::is_same_v<T, double>)
    systems_->model = m;
  else
    systems_->model = m.cast<T>();
  nq_ = m.nq;
  nv_ = m.nv;
  m_b_ = m.n_bilateral;
  m_u_ = m.n_unilateral();
  init_state();
  const Eigen::VectorXd q0 = model::neutral(m);
  for (std::size_t s = 0; s < count; ++s) {
    q.row(s) = q0.transpose().cast<T>();
    for (int k = 0; k < 3; ++k) gravity(s, k) = T(m.gravity[k]);
  }
}

template <class T>
Simulator<T>::Simulator(const Batch<T>& systems, const SimOptions& opt)
    : options(opt), systems_(std::make_unique<Systems>()), count_(systems.count) {
  systems_->raw = systems;
  nq_ = nv_ = systems.shape.n;
  m_b_ = systems.shape.m_b;
  m_u_ = systems.shape.m_u;
  init_state();
  for (std::size_t s = 0; s < count_; ++s) {
    v.row(s) = ConstVecMap<T>(systems.qdot.data() + s * nv_, nv_).transpose();
    u.row(s) = ConstVecMap<T>(systems.u.data() + s * nv_, nv_).transpose();
    if (m_u_ > 0) e.row(s) = ConstVecMap<T>(systems.e.data() + s * m_u_, m_u_).transpose();
  }
}

template <class T>
Simulator<T>::Simulator(const Batch<T>& systems, const std::vector<Friction>& friction, const SimOptions& opt)
    : Simulator(systems, opt) {
  if (friction.size() != count_) throw std::invalid_argument("Simulator: one Friction per scenario expected");
  const int dim = friction.empty() ? 3 : friction.front().dim, rows = (dim - 1) * m_u_;
  if (dim != 2 && dim != 3) throw std::invalid_argument("Simulator: friction dim must be 2 or 3");
  dim_ = dim;
  systems_->A_t.assign(count_ * std::size_t(rows) * nv_, T(0));
  for (std::size_t s = 0; s < count_; ++s) {
    const Friction& f = friction[s];
    if (f.dim != dim || f.A_t.rows() != rows || f.A_t.cols() != nv_ || (f.mu.size() != 0 && f.mu.size() != m_u_))
      throw std::invalid_argument("Simulator: Friction " + std::to_string(s) + " does not match the batch's shape");
    for (int i = 0; i < rows; ++i)
      for (int k = 0; k < nv_; ++k) systems_->A_t[(s * rows + i) * nv_ + k] = T(f.A_t(i, k));
    if (f.mu.size() != 0) mu.row(s) = f.mu.transpose().cast<T>();
  }
}

template <class T> bool Simulator<T>::is_model() const { return systems_->is_model; }

template <class T> void Simulator<T>::init_state() {
  q = RowMat<T>::Zero(count_, nq_);
  v = RowMat<T>::Zero(count_, nv_);
  t.assign(count_, T(0));
  active.assign(count_ * m_u_, 0);
  impacts.assign(count_, 0);
  lcp_solves.assign(count_, 0);
  status.assign(count_, Status::ok);
  last_impact_time.assign(count_, std::numeric_limits<T>::quiet_NaN());
  last_impact_v = RowMat<T>::Zero(count_, nv_);
  u = RowMat<T>::Zero(count_, nv_);
  e = RowMat<T>::Zero(count_, m_u_);
  mu = RowMat<T>::Zero(count_, m_u_);
  gravity = RowMat<T>::Zero(count_, 3);
}

namespace {

// Scenario s's system: the model with the scenario's gravity, or raw system s.
template <class T> sim::ModelSystem<T> system_of(const model::ModelT<T>& m, const RowMat<T>& gravity, std::size_t s) {
  sim::ModelSystem<T> sys{m.view()};
  for (int k = 0; k < 3; ++k) sys.model.gravity[k] = gravity(s, k);
  return sys;
}
template <class T> sim::LinearSystem<T> system_of(const Batch<T>& b, const std::vector<T>& A_t, int dim, std::size_t s) {
  const int n = b.shape.n, mb = b.shape.m_b, mu = b.shape.m_u;
  sim::LinearSystem<T> sys;
  sys.n = n;
  sys.mb = mb;
  sys.mu = mu;
  sys.M = mat_view(b.M.data() + s * n * n, n, n);
  sys.h = vec_view(b.h.data() + s * n, n);
  sys.A_b = mat_view(b.A_b.data() + s * mb * n, mb, n);
  sys.A_u = mat_view(b.A_u.data() + s * mu * n, mu, n);
  sys.phi0_u = vec_view(b.phi_u.data() + s * mu, mu);
  sys.tdim = dim;
  if (!A_t.empty()) sys.A_t = mat_view(A_t.data() + s * (dim - 1) * mu * n, (dim - 1) * mu, n);
  return sys;
}

// Runs fn(system, s, arena) for every scenario over OpenMP (static schedule; one arena per thread).
// No exception crosses the region (cpu/omp_guard.hpp): a scratch that cannot be allocated is
// rethrown after it as std::bad_alloc.
template <class T, class Fn>
void for_each_scenario(bool is_model, const model::ModelT<T>& m, const Batch<T>& raw, const std::vector<T>& A_t, int dim,
                       const RowMat<T>& gravity, std::size_t count, int threads, Fn fn) {
  const long long n = static_cast<long long>(count);
  cpu::OmpGuard guard;
#pragma omp parallel num_threads(cpu::thread_count(threads, n))
  {
    std::vector<T> scratch;
#pragma omp for schedule(static)
    for (long long s = 0; s < n; ++s) {
      guard.run([&] {
        if (is_model)
          fn(system_of(m, gravity, s), std::size_t(s), scratch);
        else
          fn(system_of(raw, A_t, dim, s), std::size_t(s), scratch);
      });
    }
  }
  guard.rethrow();
}

}  // namespace

template <class T> void Simulator<T>::step(T dt, int steps) {
  step(dt, steps, HostArray<const T>{u.data(), nv_, 1});
}

template <class T> void Simulator<T>::step(T dt, int steps, HostArray<const T> u_in) {
  if (u_in.data == nullptr && count_ > 0 && nv_ > 0)
    throw std::invalid_argument("Simulator::step: the torques array u has no data");
  const sim::StepParams<T> p = step_params<T>(options);
  const int nq = nq_, nv = nv_, mu = m_u_;
  for_each_scenario<T>(
      systems_->is_model, systems_->model, systems_->raw, systems_->A_t, dim_, gravity, count_, options.threads,
      [&](const auto& sys, std::size_t s, std::vector<T>& scratch) {
        const sim::ControlView<T> c{VecView<const T>{u_in.data + std::ptrdiff_t(s) * u_in.scenario_stride, nv,
                                                     u_in.element_stride},
                                    vec_view(static_cast<const T*>(e.data()) + s * mu, mu),
                                    vec_view(static_cast<const T*>(this->mu.data()) + s * mu, mu)};
        const int dim = sim::frictional(c, mu) ? sys.dim() : 0;
        const std::size_t ws = p.integrator == sim::Integrator::moreau_jean
                                   ? sim::moreau_jean_workspace<T>(nq, nv, m_b_, mu, sys.workspace(), dim, p.facets)
                                   : sim::event_driven_workspace<T>(nq, nv, m_b_, mu, sys.workspace(), dim, p.facets);
        if (scratch.size() < ws) scratch.resize(ws);
        Arena<T> arena{scratch.data(), ws};
        sim::StateView<T> st;
        st.q = vec_view(q.data() + s * nq, nq);
        st.v = vec_view(v.data() + s * nv, nv);
        st.t = &t[s];
        st.active = vec_view(active.data() + s * mu, mu);
        st.impacts = &impacts[s];
        st.lcp_solves = &lcp_solves[s];
        st.status = &status[s];
        st.last_impact_time = &last_impact_time[s];
        st.last_impact_v = vec_view(last_impact_v.data() + s * nv, nv);
        for (int k = 0; k < steps && status[s] == Status::ok; ++k) {
          if (p.integrator == sim::Integrator::moreau_jean)
            sim::moreau_jean_step(sys, p, c, dt, st, arena);
          else
            sim::event_driven_advance(sys, p, c, dt, st, arena);
        }
      });
}

template <class T> void Simulator<T>::energies(std::vector<T>& kinetic, std::vector<T>& potential) const {
  kinetic.assign(count_, T(0));
  potential.assign(count_, T(0));
  for_each_scenario<T>(systems_->is_model, systems_->model, systems_->raw, systems_->A_t, dim_, gravity, count_,
                       options.threads,
                       [&](const auto& sys, std::size_t s, std::vector<T>& scratch) {
                         const std::size_t ws = sys.workspace() + 16;
                         if (scratch.size() < ws) scratch.resize(ws);
                         Arena<T> arena{scratch.data(), ws};
                         sys.energies(vec_view(q.data() + s * nq_, nq_), vec_view(v.data() + s * nv_, nv_),
                                      kinetic[s], potential[s], arena);
                       });
}

template class Simulator<double>;
template class Simulator<float>;

}  // namespace obliq

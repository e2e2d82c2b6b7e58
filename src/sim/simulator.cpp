// src/sim/simulator.cpp: the host side of the time steppers: state and control buffers, and
// the OpenMP map of the per-scenario steppers (include/obliq/sim) over scenarios.
#include "obliq/simulator.hpp"

#include <omp.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "cpu/cuda_backend.hpp"
#include "cpu/omp_guard.hpp"
#include "obliq/sim/batch_views.hpp"
#include "obliq/sim/pd_tracking.hpp"
#include "sim/pd_call.hpp"

namespace obliq {

// The systems being stepped: one model (its float or double copy), or a batch of raw systems.
template <class T> struct Simulator<T>::Systems {
  bool is_model = false;
  model::ModelT<T> model;
  Batch<T> raw;
  std::vector<T> A_t;  // raw systems with friction: count x (dim - 1) m_u x n, row-major
};

namespace {

template <class T> sim::StepParams<T> params_of(const SimOptions& o) {
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
  p.warm_start = o.warm_start;
  return p;
}

}  // namespace

template <class T> sim::StepParams<T> Simulator<T>::step_params() const { return params_of<T>(options); }

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

// Runs fn(system, s, arena) for every scenario over OpenMP (static schedule; one arena per thread).
// No exception crosses the region (cpu/omp_guard.hpp): a scratch that cannot be allocated is
// rethrown after it as std::bad_alloc.
template <class T, class Fn> void for_each_scenario(const sim::BatchArrays<T>& b, int threads, Fn fn) {
  const long long n = static_cast<long long>(b.count);
  cpu::OmpGuard guard;
#pragma omp parallel num_threads(cpu::thread_count(threads, n))
  {
    std::vector<T> scratch;
#pragma omp for schedule(static)
    for (long long s = 0; s < n; ++s) {
      guard.run([&] {
        if (b.is_model)
          fn(sim::model_system_at(b.model, b.gravity, std::size_t(s)), std::size_t(s), scratch);
        else
          fn(sim::linear_system_at(b.raw, std::size_t(s)), std::size_t(s), scratch);
      });
    }
  }
  guard.rethrow();
}

}  // namespace

// The views are written only by step() (energies() reads q and v).
template <class T> sim::BatchArrays<T> Simulator<T>::arrays(HostArray<const T> u_in) const {
  auto* self = const_cast<Simulator*>(this);
  sim::BatchArrays<T> b;
  b.count = count_;
  b.is_model = systems_->is_model;
  if (b.is_model) b.model = systems_->model.view();
  b.gravity = gravity.data();
  const Batch<T>& raw = systems_->raw;
  b.raw = {raw.shape.n, raw.shape.m_b, raw.shape.m_u, dim_, raw.M.data(), raw.h.data(), raw.A_b.data(),
           raw.A_u.data(), raw.phi_u.data(), systems_->A_t.empty() ? nullptr : systems_->A_t.data()};
  b.state = {nq_, nv_, m_u_, self->q.data(), self->v.data(), self->t.data(), self->active.data(),
             self->impacts.data(), self->lcp_solves.data(), self->status.data(), self->last_impact_time.data(),
             self->last_impact_v.data()};
  b.controls = {nv_, m_u_, u_in.data, u_in.scenario_stride, u_in.element_stride, e.data(), mu.data()};
  return b;
}

template <class T> void Simulator<T>::step(T dt, int steps) {
  step(dt, steps, HostArray<const T>{u.data(), nv_, 1});
}

template <class T> void Simulator<T>::step(T dt, int steps, HostArray<const T> u_in) {
  if (u_in.data == nullptr && count_ > 0 && nv_ > 0)
    throw std::invalid_argument("Simulator::step: the torques array u has no data");
  const sim::StepParams<T> p = step_params();
  const sim::BatchArrays<T> b = arrays(u_in);
  if (options.backend == Backend::cuda) {
    cpu::cuda_backend().simulate(b, p, dt, steps, options.cuda_scratch_bytes);
    return;
  }
  if (options.backend != Backend::cpu)
    throw std::invalid_argument(std::string("Simulator: backend ") + backend_name(options.backend) +
                                " has no time stepper (use cpu or cuda)");
  for_each_scenario(b, options.threads, [&](const auto& sys, std::size_t s, std::vector<T>& scratch) {
    const sim::ControlView<T> c = sim::controls_at(b.controls, s);
    const std::size_t ws = sim::step_workspace(sys, p, sim::frictional(c, m_u_) ? sys.dim() : 0);
    if (scratch.size() < ws) scratch.resize(ws);
    Arena<T> arena{scratch.data(), ws};
    sim::advance(sys, p, c, dt, steps, sim::state_at(b.state, s), arena);
  });
}


PdTracking revolute_actuators(const model::Model& model, double kp, double kd, double max_torque) {
  PdTracking pd;
  for (int i = 0; i < model.nbodies(); ++i)
    if (model.joint_type[i] == int(model::JointType::revolute)) {
      pd.v_index.push_back(model.idx_v[i]);
      pd.q_index.push_back(model.idx_q[i]);
    }
  pd.kp = kp;
  pd.kd = kd;
  pd.max_torque = max_torque;
  return pd;
}

template <class T>
void Simulator<T>::step_pd(T dt, int frame_skip, const PdTracking& pd, HostArray<const T> target,
                           HostArray<const std::uint8_t> hold, HostArray<T> effort) {
  if (options.backend != Backend::cpu && options.backend != Backend::cuda)
    throw std::invalid_argument(std::string("Simulator::step_pd: backend ") + backend_name(options.backend) +
                                " has no time stepper (use cpu or cuda)");
  const sim::PdArrays<T> a = sim::pd_call_arrays<T>(pd, frame_skip, count_, nq_, nv_, target, hold, effort);
  const sim::StepParams<T> p = step_params();
  const sim::BatchArrays<T> b = arrays(HostArray<const T>{u.data(), nv_, 1});  // controls' u: not read
  if (options.backend == Backend::cuda) {
    cpu::cuda_backend().simulate_pd(b, p, a, dt, frame_skip, options.cuda_scratch_bytes);
    return;
  }
  for_each_scenario(b, options.threads, [&](const auto& sys, std::size_t s, std::vector<T>& scratch) {
    const sim::ControlView<T> c = sim::controls_at(b.controls, s);
    const std::size_t ws =
        sim::pd_workspace<T>(sim::step_workspace(sys, p, sim::frictional(c, m_u_) ? sys.dim() : 0), nv_);
    if (scratch.size() < ws) scratch.resize(ws);
    Arena<T> arena{scratch.data(), ws};
    sim::pd_tracked_advance(sys, p, a.gains, sim::pd_target_at(a, s), sim::pd_hold_at(a, s), c, dt, frame_skip,
                            sim::state_at(b.state, s), sim::pd_effort_at(a, s), arena);
  });
}

template <class T>
void Simulator<T>::energies(std::vector<T>& kinetic, std::vector<T>& potential, std::vector<Status>* state_status) const {
  kinetic.assign(count_, T(0));
  potential.assign(count_, T(0));
  if (state_status) state_status->assign(count_, Status::ok);
  for_each_scenario(arrays(HostArray<const T>{u.data(), nv_, 1}), options.threads,
                    [&](const auto& sys, std::size_t s, std::vector<T>& scratch) {
                      const std::size_t ws = sys.workspace() + 16;
                      if (scratch.size() < ws) scratch.resize(ws);
                      Arena<T> arena{scratch.data(), ws};
                      const Status st = sys.energies(vec_view(q.data() + s * nq_, nq_),
                                                     vec_view(v.data() + s * nv_, nv_), kinetic[s], potential[s], arena);
                      if (state_status) (*state_status)[s] = st;
                    });
}

template class Simulator<double>;
template class Simulator<float>;

}  // namespace obliq

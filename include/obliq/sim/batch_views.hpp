// obliq/sim/batch_views.hpp: scenario s of a batch's arrays as a stepper's arguments (its
// system, state and controls), and one scenario's advance by `steps` steps. The cpu
// Simulator's OpenMP loop (src/sim/simulator.cpp) and the cuda backend's kernel body
// (cuda/sim_body.hpp) both call these, on host or device pointers: plain structs of pointers,
// OBLIQ_HD, no allocation.
//
// Every array is scenario-contiguous (count x block, row-major within a scenario): the layout
// of the Simulator's own state and control buffers, so a device copy is one memcpy each.
#pragma once

#include <cstddef>
#include <cstdint>

#include "obliq/sim/event_driven.hpp"
#include "obliq/sim/moreau_jean.hpp"
#include "obliq/sim/state.hpp"
#include "obliq/sim/system.hpp"

namespace obliq::sim {

// Raw linear systems (LinearSystem) of a batch: scenario s's M is M + s n n, and so on.
template <class T> struct LinearArrays {
  int n = 0, mb = 0, mu = 0;
  int tdim = 3;              // friction: the contacts' dimension (2 or 3)
  const T* M = nullptr;      // count x n x n
  const T* h = nullptr;      // count x n
  const T* A_b = nullptr;    // count x mb x n
  const T* A_u = nullptr;    // count x mu x n
  const T* phi_u = nullptr;  // count x mu (the unilateral gaps at q = 0)
  const T* A_t = nullptr;    // count x (tdim - 1) mu x n, or null (no tangent rows given)
};

// The state of every scenario.
template <class T> struct StateArrays {
  int nq = 0, nv = 0, m_u = 0;
  T* q = nullptr;                      // count x nq
  T* v = nullptr;                      // count x nv
  T* t = nullptr;                      // count
  std::uint8_t* active = nullptr;      // count x m_u
  std::int64_t* impacts = nullptr;     // count
  std::int64_t* lcp_solves = nullptr;  // count
  Status* status = nullptr;            // count
  T* last_impact_time = nullptr;       // count
  T* last_impact_v = nullptr;          // count x nv
};

// The controls of every scenario: torque k of scenario s is u[s u_ss + k u_es] (u_ss = 0: one
// set of torques for all); e and mu count x m_u (mu null: frictionless).
template <class T> struct ControlArrays {
  int nv = 0, m_u = 0;
  const T* u = nullptr;
  std::ptrdiff_t u_ss = 0, u_es = 1;
  const T* e = nullptr;
  const T* mu = nullptr;
};

// One batch: a model (every scenario with its own gravity, count x 3) or raw linear systems.
template <class T> struct BatchArrays {
  std::size_t count = 0;
  bool is_model = false;
  model::ModelView<T> model;
  const T* gravity = nullptr;
  LinearArrays<T> raw;
  StateArrays<T> state;
  ControlArrays<T> controls;
};

template <class T> OBLIQ_HD ModelSystem<T> model_system_at(const model::ModelView<T>& m, const T* gravity, std::size_t s) {
  ModelSystem<T> sys{m};
  for (int k = 0; k < 3; ++k) sys.model.gravity[k] = gravity[3 * s + k];
  return sys;
}

template <class T> OBLIQ_HD LinearSystem<T> linear_system_at(const LinearArrays<T>& b, std::size_t s) {
  const int n = b.n, mb = b.mb, mu = b.mu, t = (b.tdim - 1) * mu;
  LinearSystem<T> sys;
  sys.n = n;
  sys.mb = mb;
  sys.mu = mu;
  sys.M = mat_view(b.M + s * n * n, n, n);
  sys.h = vec_view(b.h + s * n, n);
  sys.A_b = mat_view(b.A_b + s * mb * n, mb, n);
  sys.A_u = mat_view(b.A_u + s * mu * n, mu, n);
  sys.phi0_u = vec_view(b.phi_u + s * mu, mu);
  sys.tdim = b.tdim;
  if (b.A_t != nullptr) sys.A_t = mat_view(b.A_t + s * std::size_t(t) * n, t, n);
  return sys;
}

template <class T> OBLIQ_HD StateView<T> state_at(const StateArrays<T>& a, std::size_t s) {
  StateView<T> st;
  st.q = vec_view(a.q + s * a.nq, a.nq);
  st.v = vec_view(a.v + s * a.nv, a.nv);
  st.t = a.t + s;
  st.active = vec_view(a.active + s * a.m_u, a.m_u);
  st.impacts = a.impacts + s;
  st.lcp_solves = a.lcp_solves + s;
  st.status = a.status + s;
  st.last_impact_time = a.last_impact_time + s;
  st.last_impact_v = vec_view(a.last_impact_v + s * a.nv, a.nv);
  return st;
}

template <class T> OBLIQ_HD ControlView<T> controls_at(const ControlArrays<T>& a, std::size_t s) {
  ControlView<T> c;
  c.u = VecView<const T>{a.u + std::ptrdiff_t(s) * a.u_ss, a.nv, a.u_es};
  c.e = vec_view(a.e + s * a.m_u, a.m_u);
  if (a.mu != nullptr) c.mu = vec_view(a.mu + s * a.m_u, a.m_u);
  return c;
}

// Scratch of one scenario's step: dim 0 without friction, else the system's dim().
template <class T, class System> OBLIQ_HD std::size_t step_workspace(const System& sys, const StepParams<T>& p, int dim) {
  return p.integrator == Integrator::moreau_jean
             ? moreau_jean_workspace<T>(sys.nq(), sys.nv(), sys.m_b(), sys.m_u(), sys.workspace(), dim, p.facets)
             : event_driven_workspace<T>(sys.nq(), sys.nv(), sys.m_b(), sys.m_u(), sys.workspace(), dim, p.facets);
}

// `steps` steps of length dt (Moreau-Jean) or advances to t + dt (event-driven) of one scenario
// with integrator I; stops at the first status that is not ok. The cuda backend's kernels call
// this with the batch's integrator as a template argument (one kernel per integrator,
// cuda/sim_body.hpp), so that a kernel holds only the stepper it runs.
template <Integrator I, class T, class System, class Controls>
OBLIQ_HD void advance_with(const System& sys, const StepParams<T>& p, const Controls& c, T dt, int steps,
                           const StateView<T>& st, Arena<T>& arena) {
  for (int k = 0; k < steps && *st.status == Status::ok; ++k) {
    if constexpr (I == Integrator::moreau_jean)
      moreau_jean_step(sys, p, c, dt, st, arena);
    else
      event_driven_advance(sys, p, c, dt, st, arena);
  }
}

// The same with p.integrator (the cpu Simulator's call).
template <class T, class System>
OBLIQ_HD void advance(const System& sys, const StepParams<T>& p, const ControlView<T>& c, T dt, int steps,
                      const StateView<T>& st, Arena<T>& arena) {
  if (p.integrator == Integrator::moreau_jean)
    advance_with<Integrator::moreau_jean>(sys, p, c, dt, steps, st, arena);
  else
    advance_with<Integrator::event_driven>(sys, p, c, dt, steps, st, arena);
}

}  // namespace obliq::sim

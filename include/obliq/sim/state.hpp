// obliq/sim/state.hpp: one scenario's simulation state, its controls, and the parameters of a
// run (docs/simulator.md). Plain structs of views, as the core's ScenarioView.
#pragma once

#include <cstdint>

#include "obliq/core/config.hpp"
#include "obliq/core/friction/setup.hpp"
#include "obliq/core/lcp/select.hpp"
#include "obliq/core/scenario_view.hpp"
#include "obliq/core/status.hpp"
#include "obliq/core/view.hpp"

namespace obliq::sim {

enum class Integrator : int { moreau_jean = 0, event_driven = 1 };

inline const char* integrator_name(Integrator i) { return i == Integrator::moreau_jean ? "moreau" : "event"; }

// Parameters shared by every scenario of a run.
template <class T> struct StepParams {
  Integrator integrator = Integrator::moreau_jean;
  Law law = Law::complementarity;  // impact law (Moreau-Jean: every step; event-driven: at events)
  lcp::Solver lcp_solver = lcp::Solver::lemke;
  // Moreau-Jean: q_{k+1} = q_k + h ((1 - theta) v_k + theta v_{k+1}); a unilateral row takes
  // part in step k when its predicted gap phi + gamma h (A v_k) is <= 0 (Siconos's rule).
  T theta = T(0.5);
  T gamma = T(0.5);
  // Closed: phi <= gap_tol; resting: |A v| <= vel_tol; approaching: A v < -vel_tol.
  T gap_tol = scalar_traits<T>::binding_tol;
  T vel_tol = scalar_traits<T>::binding_tol;
  // Event-driven: the smooth integrator's largest step (0: the whole advance interval), and the
  // Zeno guard: approach speeds below zeno_velocity, and every impact after max_impacts in one
  // advance, are plastic (e = 0), so that the contact comes to rest and joins the
  // acceleration-level LCP.
  T max_step = T(0);
  T zeno_velocity = T(0);
  int max_impacts = 100;
  // Friction (a contact with mu != 0): the formulation of the frictional problems (docs/friction.md:
  // exact cone (F6) or pyramid LCP (F8)) and the pyramid's facets.
  friction::Formulation friction = friction::Formulation::cone;
  int facets = 8;
  // The pyramid's LCP method: the auto rule (docs/lcp.md: Lemke, then enumeration or pivoting
  // when Lemke does not certify). Lemke alone ended on a ray on 1 of 20 quadruped landings.
  lcp::Solver friction_lcp_solver = lcp::Solver::automatic;
  // Moreau-Jean, complementarity law: the LCP first tries the rows that took part in the last
  // step as its active set (ScenarioView::warm_active); false: every LCP is solved cold.
  bool warm_start = false;
};

// One scenario's state (views into the caller's buffers).
template <class T> struct StateView {
  VecView<T> q;                  // nq
  VecView<T> v;                  // nv
  T* t = nullptr;                // time
  VecView<std::uint8_t> active;  // m_u: rows in contact after the last step
  std::int64_t* impacts = nullptr;     // impacts so far (approaching rows that took an impulse)
  std::int64_t* lcp_solves = nullptr;  // contact LCPs solved so far
  Status* status = nullptr;            // once not ok, the scenario stops where it is
  T* last_impact_time = nullptr;       // time of the last impact (NaN before the first)
  VecView<T> last_impact_v;            // nv: velocity right after it
};

// One scenario's controls.
template <class T> struct ControlView {
  VecView<const T> u;  // nv joint torques / generalized forces
  VecView<const T> e;  // m_u restitution coefficients (inc = 0: one global e)
  // m_u Coulomb friction coefficients (inc = 0: one global mu). data == nullptr, or every mu
  // exactly 0: no friction, the frictionless step bit for bit (docs/simulator.md "Friction").
  VecView<const T> mu;
};

// True when some unilateral row has mu != 0: the step then solves the frictional impact, which
// checks mu (a negative or non-finite mu is the scenario's status, not a frictionless step).
template <class T> OBLIQ_HD bool frictional(const ControlView<T>& c, int m_u) {
  if (c.mu.data == nullptr) return false;
  for (int i = 0; i < m_u; ++i)
    if (!(c.mu[i] == T(0))) return true;
  return false;
}

// The controls of a configuration known to be without friction (the cuda backend's frictionless
// kernels, cuda/sim_body.hpp): no mu, and frictional() false at compile time, so that the
// steppers instantiated with it hold no frictional solver even where they are compiled as
// functions of their own (the event-driven advance, which takes the controls by reference).
template <class T> struct FrictionlessControlView : ControlView<T> {};
template <class T> OBLIQ_HD constexpr bool frictional(const FrictionlessControlView<T>&, int) { return false; }
// The controls of a scenario without friction (every mu 0 or none) as FrictionlessControlView.
template <class T> OBLIQ_HD FrictionlessControlView<T> without_friction(const ControlView<T>& c) {
  FrictionlessControlView<T> f;
  static_cast<ControlView<T>&>(f) = c;
  return f;
}

// Whether controls of type C are known at compile time to be without friction.
template <class C> inline constexpr bool frictionless_controls = false;
template <class T> inline constexpr bool frictionless_controls<FrictionlessControlView<T>> = true;

// A large finite velocity tolerance: with it every row the caller selected is a candidate of
// the core's impact/dynamics whatever its velocity (the steppers choose the rows themselves).
template <class T> OBLIQ_HD inline T no_velocity_condition() { return T(1e30); }

}  // namespace obliq::sim

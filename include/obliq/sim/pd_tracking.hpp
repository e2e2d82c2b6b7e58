// obliq/sim/pd_tracking.hpp: a PD-tracked step of one scenario (docs/simulator.md "PD-tracked
// step"): joint position targets held by proportional-derivative actuators over `frame_skip`
// sub-steps of the integrator, the actuators of obliq.envs.
//
// On the actuated coordinates j = 0 .. n-1 (velocity index a_j, configuration index c_j), before
// each sub-step k, at the state (q_k, v_k):
//   tau_j = clip(kp (target_j - q_k[c_j]) - kd v_k[a_j], -max_torque, max_torque)      (PD1)
//   u_k[a_j] = tau_j,   u_k[i] = 0 on every other coordinate (a floating base: no actuator)
// and u_k = 0 everywhere for a held scenario (an environment about to be reset); then one step
// of the integrator with u_k (a Moreau-Jean step of length dt, or an event-driven advance by
// dt: advance() of batch_views.hpp with one step). The scenario's effort, the mean over the
// sub-steps of the squared torque norm:
//   effort = (1 / frame_skip) sum_k |u_k|^2,   |u_k|^2 = sum_j tau_j^2 in the order j = 0 .. n-1  (PD2)
//
// (PD1) is evaluated as written, kp (target - q) and kd v rounded before the difference: the
// order of numpy's `kp * (target - q) - kd * v`, bit for bit in the project's build (x86-64
// without an FMA target, so no contraction to a fused multiply-add; a build that contracts,
// -march with FMA under GCC's default -ffp-contract=fast, or nvcc's --fmad=true, may differ in
// the last bit). clip keeps a NaN (as numpy's clip): a NaN target or state becomes a NaN torque,
// which the step reports as the scenario's status. The law is evaluated for a scenario whose
// status is not ok too (its effort is defined); the step then leaves it where it is.
//
// No allocation, no exception: the torques come from the arena (nv more than the step's own
// scratch, pd_workspace), and an arena too small is the scenario's status (bad_shape).
#pragma once

#include <cstddef>
#include <cstdint>

#include "obliq/sim/batch_views.hpp"

namespace obliq::sim {

// The actuators: which coordinates they drive, and the law's constants (shared by every
// scenario). v_index and q_index: n indices each, v_index distinct (the caller checks ranges).
template <class T> struct PdGains {
  int n = 0;
  const int* v_index = nullptr;  // a_j, in [0, nv)
  const int* q_index = nullptr;  // c_j, in [0, nq)
  T kp = T(0);                   // N m / rad (or N / m)
  T kd = T(0);                   // N m s / rad
  T max_torque = T(0);           // >= 0 (may be +inf)
};

// (PD1) for one coordinate.
template <class T> OBLIQ_HD T pd_torque(const PdGains<T>& pd, T target, T q, T v) {
  const T spring = pd.kp * (target - q);
  const T damper = pd.kd * v;
  const T tau = spring - damper;
  return tau < -pd.max_torque ? -pd.max_torque : (tau > pd.max_torque ? pd.max_torque : tau);
}

// u = the torques of (PD1) at q, v (or 0 when held); returns |u|^2 of (PD2).
template <class T>
OBLIQ_HD T pd_torques(const PdGains<T>& pd, VecView<const T> target, bool hold, VecView<const T> q,
                      VecView<const T> v, VecView<T> u) {
  for (int i = 0; i < u.size; ++i) u[i] = T(0);
  if (hold) return T(0);
  T norm2 = T(0);
  for (int j = 0; j < pd.n; ++j) {
    const T tau = pd_torque(pd, target[j], q[pd.q_index[j]], v[pd.v_index[j]]);
    u[pd.v_index[j]] = tau;
    norm2 += tau * tau;
  }
  return norm2;
}

// One sub-step's actuators of a scenario: u = the torques of (PD1) at its state (0 when held),
// and (PD2)'s running sum advanced by |u|^2. Called before each sub-step by pd_tracked_advance
// (the cpu) and by the device's actuator kernel (cuda/sim_pd.hpp), so both sum the same terms in
// the same order.
template <class T>
OBLIQ_HD void pd_actuate(const PdGains<T>& pd, VecView<const T> target, bool hold, const StateView<T>& st, VecView<T> u,
                         T& sum) {
  sum += pd_torques(pd, target, hold, st.q.as_const(), st.v.as_const(), u);
}

// (PD2): the mean of the sub-steps' |u_k|^2 from their sum.
template <class T> OBLIQ_HD T pd_mean_effort(T sum, int frame_skip) { return frame_skip > 0 ? sum / T(frame_skip) : T(0); }

// Scratch of pd_tracked_advance: the step's (step_workspace of batch_views.hpp) plus the torques.
template <class T> OBLIQ_HD std::size_t pd_workspace(std::size_t step_ws, int nv) { return step_ws + std::size_t(nv); }

// frame_skip sub-steps of length dt of one scenario with the torques of (PD1) before each
// (c.u is not read: the actuators replace it); *effort (when not null) receives (PD2). Stops
// stepping at the first status that is not ok (the torques and effort are still evaluated);
// returns the scenario's status.
template <class T, class System>
OBLIQ_HD Status pd_tracked_advance(const System& sys, const StepParams<T>& p, const PdGains<T>& pd,
                                   VecView<const T> target, bool hold, ControlView<T> c, T dt, int frame_skip,
                                   const StateView<T>& st, T* effort, Arena<T>& arena) {
  const std::size_t mark = arena.mark();
  const VecView<T> u = arena.vec(sys.nv());
  if (arena.overflow) return *st.status = Status::bad_shape;
  c.u = u.as_const();
  T sum = T(0);
  for (int k = 0; k < frame_skip; ++k) {
    pd_actuate(pd, target, hold, st, u, sum);
    advance(sys, p, c, dt, 1, st, arena);  // nothing when the status is not ok
  }
  if (effort != nullptr) *effort = pd_mean_effort(sum, frame_skip);
  arena.release(mark);
  return *st.status;
}

// The actuators' inputs and outputs of every scenario (the layout of batch_views.hpp: entry j
// of scenario s at data[s ss + j es]): targets count x n, hold count (null: none held; nonzero:
// held), effort count (null: not written).
template <class T> struct PdArrays {
  PdGains<T> gains;
  const T* target = nullptr;
  std::ptrdiff_t target_ss = 0, target_es = 1;
  const std::uint8_t* hold = nullptr;
  std::ptrdiff_t hold_ss = 1;
  T* effort = nullptr;
  std::ptrdiff_t effort_ss = 1;
};

template <class T> OBLIQ_HD VecView<const T> pd_target_at(const PdArrays<T>& a, std::size_t s) {
  return {a.target + std::ptrdiff_t(s) * a.target_ss, a.gains.n, a.target_es};
}
template <class T> OBLIQ_HD bool pd_hold_at(const PdArrays<T>& a, std::size_t s) {
  return a.hold != nullptr && a.hold[std::ptrdiff_t(s) * a.hold_ss] != 0;
}
template <class T> OBLIQ_HD T* pd_effort_at(const PdArrays<T>& a, std::size_t s) {
  return a.effort == nullptr ? nullptr : a.effort + std::ptrdiff_t(s) * a.effort_ss;
}

}  // namespace obliq::sim

// obliq/sim/event_driven.hpp: the event-driven integrator, one scenario (docs/simulator.md
// "Event-driven").
//
// Between events the motion is smooth: the rows in contact (closed, phi <= gap_tol, or held
// before, and resting, |A v| <= vel_tol) are held by the acceleration-level contact LCP (the core's
// dynamics(), complementarity law: docs/math.md section 4 and section 7, acceleration level),
// the others are free; the set is frozen over a step of the classical fourth-order Runge-Kutta
// method (order 4 in vector-space coordinates; a free flyer's quaternion moves by the
// retraction of model/integrate.hpp along the stage velocities).
// Events: a free unilateral row whose gap crosses zero during a step. The crossing is located on
// the Runge-Kutta map itself, f(tau) = min over free rows of phi_i(Phi_tau(q_0, v_0)), by the
// Illinois method (regula falsi with halving of the retained end) until the bracket is a few
// ulps wide; the state moves to the bracket's closed end. There the impact law acts (the core's
// impact(): projection or complementarity, global or per-contact e, docs/math.md eq 42 targets)
// on every closed row that approaches or rests; rows left resting join the acceleration LCP.
// A row that has just separated sits at phi ~ 0; its next crossing is bracketed by halving the
// step until the gap is positive.
// Zeno guard: an impact whose approach speed is below zeno_velocity, and every impact after
// max_impacts within one advance, is plastic (e = 0): the row comes to rest (its velocity falls
// within vel_tol) and joins the acceleration LCP. A bounce whose rebound speed is at most
// vel_tol is rest by definition. More than 64 + 4 max_impacts + 4 (advance / max_step) loop
// turns in one advance stop the scenario with Status::no_convergence.
// Friction (some mu != 0, docs/simulator.md "Friction"): the held rows' acceleration problem is the
// core's frictional dynamics (include/obliq/core/friction/dynamics.hpp, docs/friction.md (F7)): a
// held contact slides when its slip |A_t v| > vel_tol, otherwise it sticks or starts to slide; the
// impacts are the core's frictional impact ((F9), e_t = 0). Over a step the contact modes are
// frozen as the held set is: a held contact sliding at the step's start (|A_t v| > vel_tol,
// direction s0) slides along s0 at every stage, the others stick or start to slide (the cone
// problem); s0 . (A_t v) joins the event function, so the step ends where the slip stops (or
// would reverse), and the contact sticks or slides anew from there. The Zeno guard's cancelled
// rebounds stay frictionless.
#pragma once

#include "obliq/core/friction/dynamics.hpp"
#include "obliq/core/friction/impact.hpp"
#include "obliq/core/mechanics/dynamics.hpp"
#include "obliq/core/mechanics/impact.hpp"
#include "obliq/sim/moreau_jean.hpp"
#include "obliq/sim/state.hpp"
#include "obliq/sim/system.hpp"

namespace obliq::sim {

// dim: 0 without friction, else the contacts' dimension (2 or 3); facets: the pyramid's.
template <class T>
OBLIQ_HD std::size_t event_driven_workspace(int nq, int nv, int m_b, int m_u, std::size_t system_ws, int dim = 0,
                                            int facets = 8) {
  const int m = m_b + m_u;
  const std::size_t t = dim > 0 ? std::size_t(dim - 1) * m_u : 0;  // tangent rows
  const std::size_t tangents = t * nv + 2 * t + 16;                 // A_t, drift, lambda_t
  const std::size_t dyn = dim > 0 ? friction::dynamics_workspace_size<T>(nv, m_b, m_u, dim, facets) + tangents
                                  : dynamics_workspace_size<T>(nv, m_b, m_u);
  const std::size_t imp = dim > 0 ? friction::impact_workspace_size<T>(nv, m_b, m_u, dim, facets) + tangents
                                  : impact_workspace_size<T>(nv, m_b, m_u);
  const std::size_t acc = system_eval_size<T>(nv, m) + std::size_t(m) + 2 * std::size_t(m_u) + max_(system_ws, dyn) + 16;
  const std::size_t rk4 = 3 * std::size_t(nq) + 5 * std::size_t(nv) + acc;
  const std::size_t impact_ws = std::size_t(2 * nv + m + m_u + 4) + imp;
  // The rest guard (settle_slow_contacts): the acceleration, then the projection on k rows.
  const int k = m_u * max_(dim, 1);
  const std::size_t settle = std::size_t(nv + m_u) + max_(acc, std::size_t(m_b + k) * nv + 2 * std::size_t(nv) + std::size_t(m_b + k) +
                                                             2 * std::size_t(k) + 8 + impact_workspace_size<T>(nv, m_b, k));
  return system_eval_size<T>(nv, m) + tangents + 2 * std::size_t(nq) + 2 * std::size_t(nv) + 6 * std::size_t(m_u) + 16 +
         max_(max_(max_(rk4, impact_ws), system_ws), settle) + 16;
}

// The friction inputs of a step (tangent rows and drift of `ev`, the controls' mu).
template <class T>
OBLIQ_HD friction::FrictionView<T> friction_view(int dim, const SystemEval<T>& ev, const ControlView<T>& c,
                                                 const StepParams<T>& p) {
  friction::FrictionView<T> fr;
  fr.dim = dim;
  fr.A_t = ev.A_t.as_const();
  fr.mu = c.mu;
  if (ev.Adot_qdot_t.size > 0) fr.Adot_qdot_t = ev.Adot_qdot_t.as_const();
  fr.formulation = p.friction;
  fr.directions = p.facets;
  fr.lcp_solver = p.friction_lcp_solver;
  return fr;
}

// Acceleration at (q, v) with the rows of `held` in contact (acceleration LCP) and the others free.
template <class T, class System, class Controls>
OBLIQ_HD Status held_acceleration(const System& sys, const StepParams<T>& p, const Controls& c,
                                  VecView<const T> q, VecView<const T> v, VecView<const std::uint8_t> held,
                                  VecView<T> a, Arena<T>& arena, MatView<const T> slide0 = {}) {
  const int nv = sys.nv(), m_b = sys.m_b(), m_u = sys.m_u(), m = m_b + m_u;
  const bool with_friction = frictional(c, m_u);
  const int t = with_friction ? (sys.dim() - 1) * m_u : 0;
  const std::size_t mark = arena.mark();
  SystemEval<T> ev = take_system_eval(sys, arena);
  if (with_friction) ev.A_t = arena.mat(t, nv), ev.Adot_qdot_t = arena.vec(t);
  VecView<T> lambda = arena.vec(m), held_gap = arena.vec(m_u), lambda_t = arena.vec(t);
  VecView<std::uint8_t> rows = take_flags(m_u, arena);
  if (arena.overflow) return Status::bad_shape;
  Status st = sys.evaluate(q, v, ev, arena);
  if (st == Status::ok) {
    // The core's dynamics() on exactly the held rows: gap -1 (closed) on them, +1 elsewhere.
    for (int i = 0; i < m_u; ++i) held_gap[i] = held[i] ? T(-1) : T(1);
    StepParams<T> rule = p;
    rule.law = Law::complementarity;
    rule.gap_tol = T(0);
    rule.vel_tol = no_velocity_condition<T>();
    ScenarioView<T> in = impact_problem(ev, m_b, m_u, v, held_gap.as_const(), ev.h.as_const(), c.e, rule);
    in.u = c.u;
    if (with_friction) {
      friction::FrictionView<T> fr = friction_view(sys.dim(), ev, c, p);
      fr.slide = slide0;  // the step's sliding directions, frozen (header comment)
      st = friction::dynamics(in, fr, DynamicsView<T>{a, lambda, rows}, friction::FrictionOutView<T>{lambda_t, {}, nullptr},
                              arena);
    }
    else
      st = dynamics(in, DynamicsView<T>{a, lambda, rows}, arena);
  }
  arena.release(mark);
  return st;
}

// One classical Runge-Kutta step of length dt from (q0, v0) with the rows of `held` in contact.
template <class T, class System, class Controls>
OBLIQ_HD Status rk4_step(const System& sys, const StepParams<T>& p, const Controls& c, VecView<const T> q0,
                         VecView<const T> v0, VecView<const std::uint8_t> held, T dt, VecView<T> q1, VecView<T> v1,
                         Arena<T>& arena, MatView<const T> slide0 = {}) {
  const int nq = sys.nq(), nv = sys.nv();
  const std::size_t mark = arena.mark();
  VecView<T> a = arena.vec(nv), a_sum = arena.vec(nv), v_sum = arena.vec(nv), qs = arena.vec(nq), vs = arena.vec(nv);
  if (arena.overflow) return Status::bad_shape;
  const T half = T(0.5) * dt;
  // Stage 1 at (q0, v0); stages 2-4 at q0 (+) c_i dt v_{i-1}, v0 + c_i dt a_{i-1}.
  Status st = held_acceleration(sys, p, c, q0, v0, held, a, arena, slide0);
  dense::copy(a.as_const(), a_sum);
  dense::copy(v0, v_sum);
  const T stage_dt[3] = {half, half, dt};
  const T weight[3] = {T(2), T(2), T(1)};
  for (int k = 0; k < 3 && st == Status::ok; ++k) {
    // vs holds the previous stage's velocity (v0 at the first).
    if (k == 0) dense::copy(v0, vs);
    sys.integrate(q0, vs.as_const(), stage_dt[k], qs);
    for (int i = 0; i < nv; ++i) vs[i] = v0[i] + stage_dt[k] * a[i];
    st = held_acceleration(sys, p, c, qs.as_const(), vs.as_const(), held, a, arena, slide0);
    dense::axpy(weight[k], a.as_const(), a_sum);
    dense::axpy(weight[k], vs.as_const(), v_sum);
  }
  if (st == Status::ok) {
    sys.integrate(q0, v_sum.as_const(), dt / T(6), q1);
    for (int i = 0; i < nv; ++i) v1[i] = v0[i] + dt / T(6) * a_sum[i];
  }
  arena.release(mark);
  return st;
}

// The event function at (q, v): min over the free unilateral rows of phi_i - base_i (+huge when
// no row is free). base_i = min(phi_i at the step's start, 0): a row that starts closed (it has
// just bounced, phi ~ 0 or a round-off below) has its crossing where it comes back to its start.
// With friction (ev.A_t evaluated), also min over the held contacts sliding at the step's start
// (slide0 row i: their unit slip direction s0, zero for the others) of s0 . (A_t v): the slip stops.
template <class T, class System>
OBLIQ_HD Status free_gap(const System& sys, VecView<const T> q, VecView<const T> v, VecView<const std::uint8_t> held,
                         VecView<const T> base, const SystemEval<T>& ev, T& gap, Arena<T>& arena,
                         MatView<const T> slide0 = {}) {
  const Status st = sys.evaluate(q, v, ev, arena);
  gap = no_velocity_condition<T>();
  for (int i = 0; i < sys.m_u(); ++i)
    if (!held[i]) gap = min_(gap, ev.phi[sys.m_b() + i] - base[i]);
  if (slide0.data != nullptr) {
    const int d1 = slide0.cols;
    for (int i = 0; i < sys.m_u(); ++i) {
      if (!held[i]) continue;
      T s = T(0), n2 = T(0);
      for (int j = 0; j < d1; ++j) s += slide0(i, j) * dense::dot(ev.A_t.row(d1 * i + j), v), n2 += slide0(i, j) * slide0(i, j);
      if (n2 > T(0)) gap = min_(gap, s);
    }
  }
  return st;
}

// The plastic projection v+ = argmin 1/2 |v+ - v|_M^2 with A_b v+ = 0 and (A_u v+)_i = 0 on the
// unilateral rows of `ev` whose gap is < 0 (the core's impact(), projection law, e = 0), v <- v+.
template <class T>
OBLIQ_HD Status plastic_projection(const SystemEval<T>& ev, int m_b, int m_u, VecView<const T> gap,
                                   const StepParams<T>& p, const StateView<T>& s, VecView<std::uint8_t> active,
                                   Arena<T>& arena) {
  const int nv = ev.M.rows;
  const std::size_t mark = arena.mark();
  VecView<T> v_plus = arena.vec(nv), impulse = arena.vec(nv), lambda = arena.vec(m_b + m_u);
  T* slots = arena.take(4);
  if (arena.overflow) return Status::bad_shape;
  const T zero = T(0);
  const VecView<const T> none{&zero, nv, 0}, plastic{&zero, m_u, 0};
  StepParams<T> rule = p;
  rule.law = Law::projection;
  rule.gap_tol = T(0);
  rule.vel_tol = no_velocity_condition<T>();
  const ScenarioView<T> in = impact_problem(ev, m_b, m_u, s.v.as_const(), gap, none, plastic, rule);
  std::uint8_t consistent = 0;
  const Status st = impact(in, ImpactView<T>{v_plus, impulse, lambda, active, slots, slots + 1, &consistent}, arena);
  if (st == Status::ok) dense::copy(v_plus.as_const(), s.v);
  arena.release(mark);
  return st;
}

// Cancels the normal velocity of the rows of `rows` (a plastic impact on exactly those rows):
// the Zeno guard for a rebound too slow to reopen its gap within the time resolution. They rest
// afterwards and are held.
template <class T, class System>
OBLIQ_HD Status cancel_rebounds(const System& sys, const StepParams<T>& p, const SystemEval<T>& ev,
                                VecView<const std::uint8_t> rows, const StateView<T>& s, Arena<T>& arena) {
  const int m_u = sys.m_u();
  const std::size_t mark = arena.mark();
  VecView<T> gap = arena.vec(m_u);
  if (arena.overflow) return Status::bad_shape;
  for (int i = 0; i < m_u; ++i) gap[i] = rows[i] ? T(-1) : T(1);
  const Status st = plastic_projection(ev, sys.m_b(), m_u, gap.as_const(), p, s, s.active, arena);
  arena.release(mark);
  return st;
}

// The rest guard (docs/simulator.md "Zeno guard"), used after max_impacts events (gap crossings
// and slip stops) in one advance, and when the acceleration problem with the frozen sliding
// directions has no certified answer. With the scenario's velocity scale at the state
//   V = max_i |(A v)_i| + interval max_i |(A a_f + Adot v)_i|   (normal and tangent rows;
//       a_f = M^-1 (u - h): the acceleration of the applied forces, no contact acting),
// and v_rest = tol_c V (tol_c: the mechanics certificate's relative tolerance, 1e-6 double,
// 1e-3 float), it brings to rest
//   - a free row that is closed (phi <= gap_tol) and grazes, |(A_u v)_i| <= v_rest, and
//   - the slip of a held contact sliding slowly, vel_tol < |A_t v| <= v_rest,
// by the plastic projection (the projection law with target 0) on those rows, on the normal rows
// of the held contacts (which stay at rest) and the bilateral rows: min 1/2 |v+ - v|_M^2 with
// A_b v+ = 0 and those rows' velocities 0. The velocity moves by at most about v_rest: the size
// of a velocity error the certificate accepts. `settled`: the rows brought to rest (0: nothing
// done, v untouched).
template <class T, class System, class Controls>
OBLIQ_HD Status settle_slow_contacts(const System& sys, const StepParams<T>& p, const Controls& c,
                                     const SystemEval<T>& ev, VecView<const std::uint8_t> held, T interval, const StateView<T>& s, int& settled, Arena<T>& arena) {
  const int nv = sys.nv(), m_b = sys.m_b(), m_u = sys.m_u(), m = m_b + m_u;
  const int d1 = ev.A_t.rows > 0 ? ev.A_t.rows / m_u : 0;
  settled = 0;
  const std::size_t mark = arena.mark();
  VecView<T> a = arena.vec(nv);
  VecView<std::uint8_t> none_held = take_flags(m_u, arena);
  if (arena.overflow) return Status::bad_shape;
  for (int i = 0; i < m_u; ++i) none_held[i] = 0;
  Status st = held_acceleration(sys, p, c, s.q.as_const(), s.v.as_const(), none_held.as_const(), a, arena);
  if (st != Status::ok) {
    arena.release(mark);
    return st;
  }
  const VecView<const T> v = s.v.as_const(), av = a.as_const();
  T speed = T(0), accel = T(0);
  for (int i = m_b; i < m; ++i) {
    speed = max_(speed, abs_(dense::dot(ev.A.row(i), v)));
    accel = max_(accel, abs_(dense::dot(ev.A.row(i), av) + ev.Adot_qdot[i]));
  }
  for (int i = 0; i < ev.A_t.rows; ++i) {
    speed = max_(speed, abs_(dense::dot(ev.A_t.row(i), v)));
    accel = max_(accel, abs_(dense::dot(ev.A_t.row(i), av) + (ev.Adot_qdot_t.size > 0 ? ev.Adot_qdot_t[i] : T(0))));
  }
  const T v_rest = certificate_tolerance<T>::rel * (speed + interval * accel);
  // The rows to hold at velocity 0 (after the bilateral rows): grazing rows, the held contacts'
  // normal rows, slow slips' tangent rows; the same system otherwise.
  const int k_max = m_u * (1 + d1);
  SystemEval<T> sel = ev;
  sel.A = arena.mat(m_b + k_max, nv);
  VecView<T> gap = arena.vec(k_max);
  VecView<std::uint8_t> flags = take_flags(k_max, arena);
  if (arena.overflow) {
    arena.release(mark);
    return Status::bad_shape;
  }
  for (int i = 0; i < m_b; ++i) dense::copy(ev.A.row(i), sel.A.row(i));
  int k = m_b;
  for (int i = 0; i < m_u; ++i) {
    const T rate = dense::dot(ev.A.row(m_b + i), v);
    const bool grazing = !held[i] && ev.phi[m_b + i] <= p.gap_tol && abs_(rate) <= v_rest;
    settled += grazing;
    if (held[i] || grazing) dense::copy(ev.A.row(m_b + i), sel.A.row(k++));
    if (!held[i] || d1 == 0 || c.mu[i] == T(0)) continue;
    T slip2 = T(0);
    for (int j = 0; j < d1; ++j) slip2 += dense::dot(ev.A_t.row(d1 * i + j), v) * dense::dot(ev.A_t.row(d1 * i + j), v);
    const T slip = std::sqrt(slip2);
    if (!(slip > p.vel_tol && slip <= v_rest)) continue;
    ++settled;
    for (int j = 0; j < d1; ++j) dense::copy(ev.A_t.row(d1 * i + j), sel.A.row(k++));
  }
  k -= m_b;
  if (settled > 0) {
    sel.A = sel.A.top_rows(m_b + k);
    for (int i = 0; i < k; ++i) gap[i] = T(-1);
    st = plastic_projection(sel, m_b, k, gap.as_const().segment(0, k), p, s, flags.segment(0, k), arena);
  }
  arena.release(mark);
  return st;
}

// Resolves the impacts at the state (closed rows that approach): the core's impact(). Returns
// the number of approaching rows (0: nothing done).
template <class T, class System, class Controls>
OBLIQ_HD Status resolve_impacts(const System& sys, const StepParams<T>& p, const Controls& c,
                                const SystemEval<T>& ev, const StateView<T>& s, int& impacts_here, int& hits,
                                Arena<T>& arena) {
  const int nv = sys.nv(), m_b = sys.m_b(), m_u = sys.m_u(), m = m_b + m_u;
  hits = 0;
  for (int i = 0; i < m_u; ++i)
    hits += ev.phi[m_b + i] <= p.gap_tol && dense::dot(ev.A.row(m_b + i), s.v.as_const()) < -p.vel_tol;
  if (hits == 0) return Status::ok;
  const std::size_t mark = arena.mark();
  VecView<T> v_plus = arena.vec(nv), impulse = arena.vec(nv), lambda = arena.vec(m), e = arena.vec(m_u);
  T* slots = arena.take(4);
  if (arena.overflow) return Status::bad_shape;
  const bool plastic_all = impacts_here >= p.max_impacts;
  for (int i = 0; i < m_u; ++i) {
    const T approach = -dense::dot(ev.A.row(m_b + i), s.v.as_const());
    e[i] = (plastic_all || approach < p.zeno_velocity) ? T(0) : c.e[i];
  }
  const T zero = T(0);
  const VecView<const T> no_impulse{&zero, nv, 0};
  const ScenarioView<T> in =
      impact_problem(ev, m_b, m_u, s.v.as_const(), ev.phi.as_const().segment(m_b, m_u), no_impulse, e.as_const(), p);
  std::uint8_t consistent = 0;
  const ImpactView<T> out{v_plus, impulse, lambda, s.active, slots, slots + 1, &consistent};
  Status st;
  if (frictional(c, m_u) && ev.A_t.rows > 0) {  // A_t is there only with friction
    const VecView<T> lambda_t = arena.vec(ev.A_t.rows);
    st = arena.overflow ? Status::bad_shape
                        : friction::impact(in, friction_view(sys.dim(), ev, c, p), out,
                                           friction::FrictionOutView<T>{lambda_t, {}, nullptr}, arena);
  } else {
    st = impact(in, out, arena);
  }
  if (st == Status::ok) {
    impacts_here += hits;
    *s.impacts += hits;
    *s.lcp_solves += p.law == Law::complementarity ? 1 : 0;
    *s.last_impact_time = *s.t;
    dense::copy(v_plus.as_const(), s.v);
    dense::copy(v_plus.as_const(), s.last_impact_v);
  }
  arena.release(mark);
  return st;
}

// Advances one scenario by `interval` (events in between are resolved where they happen).
template <class T, class System, class Controls>
OBLIQ_HD Status event_driven_advance(const System& sys, const StepParams<T>& p, const Controls& c, T interval,
                                     const StateView<T>& s, Arena<T>& arena) {
  if (*s.status != Status::ok) return *s.status;
  const int nq = sys.nq(), nv = sys.nv(), m_b = sys.m_b(), m_u = sys.m_u();
  const bool with_friction = frictional(c, m_u);
  const int d1 = sys.dim() - 1, t = with_friction ? d1 * m_u : 0;
  const std::size_t mark = arena.mark();
  SystemEval<T> ev = take_system_eval(sys, arena);
  if (with_friction) ev.A_t = arena.mat(t, nv), ev.Adot_qdot_t = arena.vec(t);
  VecView<T> q1 = arena.vec(nq), v1 = arena.vec(nv), qb = arena.vec(nq), vb = arena.vec(nv);
  VecView<T> base = arena.vec(m_u);
  const MatView<T> slide0 = with_friction ? arena.mat(m_u, d1) : MatView<T>{};
  VecView<std::uint8_t> held = take_flags(m_u, arena), slow = take_flags(m_u, arena);
  if (arena.overflow) return *s.status = Status::bad_shape;
  const T t_end = *s.t + interval;
  const T max_step = p.max_step > T(0) ? p.max_step : interval;
  const T eps = scalar_traits<T>::eps;
  const long long budget = 64 + 4LL * p.max_impacts + 4LL * (long long)(interval / max_step + T(1));
  int impacts_here = 0, events_here = 0;  // impacts, and steps ended at an event, in this advance
  Status st = Status::ok;
  for (long long turn = 0; st == Status::ok && *s.t < t_end; ++turn) {
    if (turn > budget) {
      st = Status::no_convergence;
      break;
    }
    st = sys.evaluate(s.q.as_const(), s.v.as_const(), ev, arena);
    if (st != Status::ok) break;
    int hits = 0;
    st = resolve_impacts(sys, p, c, ev, s, impacts_here, hits, arena);
    if (st != Status::ok || hits > 0) continue;
    // Rows in contact: resting, and closed or held before (hysteresis: a held row whose gap
    // drifts above gap_tol stays held while it rests; the LCP lets it go when it should).
    for (int i = 0; i < m_u; ++i) {
      const T rate = dense::dot(ev.A.row(m_b + i), s.v.as_const());
      held[i] = (ev.phi[m_b + i] <= p.gap_tol || s.active[i]) && abs_(rate) <= p.vel_tol;
      s.active[i] = held[i];
    }
    T f0 = no_velocity_condition<T>();
    for (int i = 0; i < m_u; ++i) {
      base[i] = min_(ev.phi[m_b + i], T(0));
      if (!held[i]) f0 = min_(f0, ev.phi[m_b + i] - base[i]);
    }
    // Held contacts sliding now: their slip direction (the event function watches it stop).
    for (int i = 0; with_friction && i < m_u; ++i) {
      T n2 = T(0);
      for (int j = 0; j < d1; ++j) {
        slide0(i, j) = dense::dot(ev.A_t.row(d1 * i + j), s.v.as_const());
        n2 += slide0(i, j) * slide0(i, j);
      }
      const T n = std::sqrt(n2);
      const bool sliding = held[i] && !(c.mu[i] == T(0)) && n > p.vel_tol;
      for (int j = 0; j < d1; ++j) slide0(i, j) = sliding ? slide0(i, j) / n : T(0);
      if (sliding) f0 = min_(f0, n);
    }
    const MatView<const T> sv = slide0.as_const();
    if (events_here >= p.max_impacts) {
      // Rest guard: grazing rows and slow slips come to rest (settle_slow_contacts).
      int settled = 0;
      st = settle_slow_contacts(sys, p, c, ev, held.as_const(), interval, s, settled, arena);
      if (st != Status::ok) break;
      if (settled > 0) continue;
    }
    const T remaining = t_end - *s.t;
    const bool last = remaining <= max_step;
    const T dt = last ? remaining : max_step;
    const VecView<const T> q0 = s.q.as_const(), v0 = s.v.as_const();
    const VecView<const std::uint8_t> hv = held.as_const();
    const VecView<const T> bv = base.as_const();
    st = rk4_step(sys, p, c, q0, v0, hv, dt, q1, v1, arena, sv);
    if (with_friction && (st == Status::no_convergence || st == Status::infeasible || st == Status::ambiguous)) {
      // No certified acceleration with the frozen sliding directions: a slip below v_rest has a
      // direction of rounding noise; bring it to rest and try again (settle_slow_contacts).
      int settled = 0;
      const Status rest = settle_slow_contacts(sys, p, c, ev, hv, interval, s, settled, arena);
      if (rest == Status::ok && settled > 0) {
        st = Status::ok;
        continue;
      }
    }
    T f1 = T(0);
    if (st == Status::ok) st = free_gap(sys, q1.as_const(), v1.as_const(), hv, bv, ev, f1, arena, sv);
    if (st != Status::ok) break;
    T tau = dt;
    // f(tau): the event function at the Runge-Kutta step of length tau from (q0, v0).
    auto event_function = [&](T tau_probe, T& f) {
      const Status r = rk4_step(sys, p, c, q0, v0, hv, tau_probe, qb, vb, arena, sv);
      return r == Status::ok ? free_gap(sys, qb.as_const(), vb.as_const(), hv, bv, ev, f, arena, sv) : r;
    };
    if (!(f1 > T(0))) {
      // Bracket [a, b]: f(a) > 0 >= f(b). A row that has just separated (f0 <= 0) needs a
      // positive point first: halve the step until the gap is open.
      T a = T(0), fa = f0, b = dt, fb = f1;
      for (int k = 0; k < 60 && st == Status::ok && !(fa > T(0)); ++k) {
        const T probe = T(0.5) * b;
        T fp = T(0);
        st = event_function(probe, fp);
        if (fp > T(0)) {
          a = probe;
          fa = fp;
        } else {
          b = probe;
          fb = fp;
        }
      }
      if (st != Status::ok) break;
      if (fa > T(0)) {
        // Illinois: regula falsi, halving the value kept at an end that stays twice.
        int side = 0;
        for (int k = 0; k < 200 && st == Status::ok && b - a > T(4) * eps * b; ++k) {
          T x = b - fb * (b - a) / (fb - fa);
          if (!(x > a && x < b)) x = T(0.5) * (a + b);
          T fx = T(0);
          st = event_function(x, fx);
          if (fx > T(0)) {
            a = x;
            fa = fx;
            if (side == 1) fb *= T(0.5);
            side = 1;
          } else {
            b = x;
            fb = fx;
            if (side == -1) fa *= T(0.5);
            side = -1;
          }
        }
        if (st != Status::ok) break;
        tau = b;
        st = rk4_step(sys, p, c, q0, v0, hv, tau, q1, v1, arena, sv);
        if (st != Status::ok) break;
      }
      if (!(fa > T(0))) {
        // No open point down to dt 2^-60: a rebound below the time resolution. Zeno guard:
        // cancel the normal velocity of the free rows that start closed; they rest next turn.
        st = sys.evaluate(q0, v0, ev, arena);
        for (int i = 0; i < m_u; ++i) slow[i] = !held[i] && ev.phi[m_b + i] <= T(0);
        if (st == Status::ok) st = cancel_rebounds(sys, p, ev, slow.as_const(), s, arena);
        continue;
      }
    }
    dense::copy(q1.as_const(), s.q);
    dense::copy(v1.as_const(), s.v);
    events_here += tau < dt;
    *s.t = (last && tau == dt) ? t_end : *s.t + tau;
  }
  arena.release(mark);
  *s.status = st;
  return st;
}

}  // namespace obliq::sim

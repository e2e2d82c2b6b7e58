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
// The advance runs as a state machine (event_driven_control and its services, below), so that
// the cuda backend can run each part as a kernel of its own.
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

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "obliq/core/friction/dynamics.hpp"
#include "obliq/core/friction/impact.hpp"
#include "obliq/core/mechanics/dynamics.hpp"
#include "obliq/core/mechanics/impact.hpp"
#include "obliq/sim/moreau_jean.hpp"
#include "obliq/sim/state.hpp"
#include "obliq/sim/system.hpp"

namespace obliq::sim {

template <class T> OBLIQ_HD std::size_t event_driven_frame_size(int nq, int nv, int m_b, int m_u, int dim);

// dim: 0 without friction, else the contacts' dimension (2 or 3); facets: the pyramid's. The
// advance's frame, then the largest scratch of its parts: control (the system's evaluation), the
// acceleration (held_acceleration, with room for a held set), the impact (resolve_impacts), the
// guards' projection (guard_projection: the rows to hold, then the plastic projection).
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
  const std::size_t acceleration = system_eval_size<T>(nv, m) + std::size_t(m) + 3 * std::size_t(m_u) + max_(system_ws, dyn) + 16;
  const std::size_t impact_ws = 2 * std::size_t(nv) + std::size_t(m) + 4 + imp;
  const int k = m_u * max_(dim, 1);  // the rest guard's rows to hold
  const std::size_t settle = std::size_t(m_b + k) * nv + 2 * std::size_t(k) + 2 * std::size_t(nv) + std::size_t(m_b + k) + 8 +
                             impact_workspace_size<T>(nv, m_b, k);
  return event_driven_frame_size<T>(nq, nv, m_b, m_u, dim) + max_(max_(acceleration, impact_ws), max_(settle, system_ws)) + 16;
}

// The advance's progress: integers (the state to resume at, counters; each in one scalar slot,
// bit for bit: std::int64_t in a double, std::int32_t in a float) and the loop's scalars.
template <class T> struct EventDrivenProgress {
  enum Slot : int {
    at,          // the control state to resume at (EventDrivenProgress::At)
    back,        // the control state after the Runge-Kutta step in progress
    service,     // the service requested (EventDrivenService)
    status,      // the last service's, or the Runge-Kutta step's, status
    failure,     // the Runge-Kutta step's failure that the rest guard may excuse
    after_rk,    // 1: the rest guard runs after a Runge-Kutta step failed (else at the turn's start)
    none_held,   // 1: the acceleration service holds no row (the rest guard's scale)
    rebounds,    // 1: the projection cancels rebounds (Zeno guard), 0: it settles slow rows
    to_probe,    // 1: the Runge-Kutta step ends in (qb, vb), 0: in (q1, v1)
    stage,       // the Runge-Kutta stage whose acceleration is requested (0..3)
    turn,        // the loop's turns so far in this advance
    impacts,     // impacts in this advance
    events,      // steps ended at an event in this advance
    hits,        // rows taking an impact at the requested impact
    k,           // the bracket's or the Illinois iteration's count
    side,        // Illinois: the end kept last (-1: a, 1: b, 0: none yet)
    last,        // 1: the step reaches the interval's end
    law_state,   // the contact law's call, when a service runs it apart (EventDrivenLaw)
    law_status,  // its status once answered
    law_mark,    // the arena's mark its prepare part left (the law and the conclude part resume there)
    slots
  };
  enum Value : int { t_end, dt, tau, h, a, fa, b, fb, f0, x, v_rest, values };
  enum At : int {
    turn_start,       // a turn: evaluate; impacts, or the held set and the step
    settle_scale,     // the rest guard's acceleration is in: v_rest, the rows to settle
    settled,          // the rest guard's projection is done
    step,             // the step of length dt from the state
    rk_stage,         // a Runge-Kutta stage's acceleration is in
    after_step,       // the step is in (q1, v1): the event function there
    bracket,          // the bracket's halving
    after_probe,      // a halving's probe is in (qb, vb)
    illinois,         // the Illinois iterations
    after_illinois,   // an Illinois probe is in (qb, vb)
    after_final,      // the step to the event is in (q1, v1)
    commit,           // the state takes (q1, v1) at t + tau
    zeno,             // Zeno guard: the rows to stop
    resumed,          // the impact or the Zeno guard's projection is done: the next turn
    finished,         // the advance is over; its status is the scenario's
  };
  using Count = std::conditional_t<sizeof(T) == sizeof(std::int64_t), std::int64_t, std::int32_t>;
  static_assert(sizeof(Count) == sizeof(T), "a count fills one scalar slot");
  T* slot_data = nullptr;
  T* value_data = nullptr;
  std::ptrdiff_t stride = 1;
  OBLIQ_HD long long get(Slot i) const {
    Count c;
    std::memcpy(&c, slot_data + i * stride, sizeof c);
    return c;
  }
  OBLIQ_HD void set(Slot i, long long v) const {
    const Count c = Count(v);
    std::memcpy(slot_data + i * stride, &c, sizeof c);
  }
  OBLIQ_HD T& operator[](Value i) const { return value_data[i * stride]; }
};

// How a service runs the core's contact law (impact() or dynamics()): whole (the cpu advance), or
// apart as the cuda backend's kernels run it (docs/cuda.md "The contact law apart"): the service's
// prepare pass runs up to the core's prepare part, stores the call in the frame and stops
// (law_state due); the contact-law kernel solves it (answered); the service's conclude pass runs
// the service again from its start, without what it has done already (the system's evaluation),
// through the core's conclude part to its end. What the prepare pass carved before the law's
// mark is still there, at the same places (the same carving); nothing after it is read.
enum class LawPass : int { whole, prepare, conclude };
enum class EventDrivenLaw : int { idle = 0, due = 1, answered = 2 };

// The call as scalar slots of the frame, bit for bit (a kernel stores it, the next loads it).
template <class T> constexpr std::size_t law_call_elements() {
  return (sizeof(ContactLawCall<T>) + sizeof(T) - 1) / sizeof(T);
}
template <class T> OBLIQ_HD void store_law_call(const ContactLawCall<T>& call, T* at, std::ptrdiff_t stride) {
  const unsigned char* bytes = reinterpret_cast<const unsigned char*>(&call);
  for (std::size_t k = 0; k < law_call_elements<T>(); ++k)
    std::memcpy(at + std::ptrdiff_t(k) * stride, bytes + k * sizeof(T), min_(sizeof(T), sizeof call - k * sizeof(T)));
}
template <class T> OBLIQ_HD ContactLawCall<T> load_law_call(const T* at, std::ptrdiff_t stride) {
  ContactLawCall<T> call;
  unsigned char* bytes = reinterpret_cast<unsigned char*>(&call);
  for (std::size_t k = 0; k < law_call_elements<T>(); ++k)
    std::memcpy(bytes + k * sizeof(T), at + std::ptrdiff_t(k) * stride, min_(sizeof(T), sizeof call - k * sizeof(T)));
  return call;
}

// The advance's frame: the progress, the contact law's call, the system at the turn's start (or at the event function's
// last probe), the step's ends (q1, v1) and probes (qb, vb), the free rows' bases and the held
// contacts' sliding directions, the held set, the impact's restitution, the Runge-Kutta stages.
template <class T> struct EventDrivenFrame {
  EventDrivenProgress<T> progress;
  T* law_call = nullptr;  // the contact law's call, as bytes (EventDrivenLaw)
  SystemEval<T> ev;
  VecView<T> q1, v1, qb, vb, base, e;
  MatView<T> slide0;  // with friction: m_u x (dim - 1)
  VecView<std::uint8_t> held, slow;
  VecView<T> a, a_sum, v_sum, qs, vs;  // Runge-Kutta: the stage's acceleration, the sums, its point
};

template <class T> OBLIQ_HD std::size_t event_driven_frame_size(int nq, int nv, int m_b, int m_u, int dim) {
  const std::size_t t = dim > 0 ? std::size_t(dim - 1) * m_u : 0;
  return std::size_t(EventDrivenProgress<T>::slots) + std::size_t(EventDrivenProgress<T>::values) +
         law_call_elements<T>() + system_eval_size<T>(nv, m_b + m_u) + t * nv + 2 * t + 3 * std::size_t(nq) +
         6 * std::size_t(nv) +
         4 * std::size_t(m_u);
}

// The progress alone, the frame's first elements (at the arena's mark).
template <class T> OBLIQ_HD EventDrivenProgress<T> take_event_driven_progress(Arena<T>& arena) {
  EventDrivenProgress<T> pr;
  pr.stride = arena.stride;
  pr.slot_data = arena.take(std::size_t(EventDrivenProgress<T>::slots));
  pr.value_data = arena.take(std::size_t(EventDrivenProgress<T>::values));
  return pr;
}

template <class T, class System>
OBLIQ_HD EventDrivenFrame<T> take_event_driven_frame(const System& sys, bool with_friction, Arena<T>& arena) {
  const int nq = sys.nq(), nv = sys.nv(), m_u = sys.m_u(), d1 = sys.dim() - 1;
  EventDrivenFrame<T> f;
  f.progress = take_event_driven_progress(arena);
  f.law_call = arena.take(law_call_elements<T>());
  f.ev = take_system_eval(sys, arena);
  if (with_friction) f.ev.A_t = arena.mat(d1 * m_u, nv), f.ev.Adot_qdot_t = arena.vec(d1 * m_u);
  f.q1 = arena.vec(nq), f.v1 = arena.vec(nv), f.qb = arena.vec(nq), f.vb = arena.vec(nv);
  f.base = arena.vec(m_u), f.e = arena.vec(m_u);
  if (with_friction) f.slide0 = arena.mat(m_u, d1);
  f.held = take_flags(m_u, arena), f.slow = take_flags(m_u, arena);
  f.a = arena.vec(nv), f.a_sum = arena.vec(nv), f.v_sum = arena.vec(nv), f.qs = arena.vec(nq), f.vs = arena.vec(nv);
  return f;
}

// The core's frictionless impact() (Out = ImpactView) or dynamics() (DynamicsView) at pass Pass
// (LawPass), with the frame's call slot: the status, or pending (after a prepare pass that
// stored the call; the service then stops, to run again at its conclude pass).
struct LawAnswer {
  Status status = Status::ok;
  bool pending = false;
};
template <LawPass Pass, class T, class Out>
OBLIQ_HD LawAnswer contact_law_pass(const ScenarioView<T>& in, const Out& out, const EventDrivenFrame<T>* f,
                                    Arena<T>& arena) {
  using P = EventDrivenProgress<T>;
  constexpr bool is_impact = std::is_same_v<Out, ImpactView<T>>;
  if constexpr (Pass == LawPass::whole) {
    if constexpr (is_impact)
      return {detail::impact_inline(in, out, arena), false};  // the impact kernel solves nothing else (docs/cuda.md)
    else
      return {dynamics(in, out, arena), false};
  } else {
    const P& pr = f->progress;
    const std::size_t mark = arena.mark();
    Status st = Status::ok;
    if constexpr (Pass == LawPass::prepare) {
      ContactLawCall<T> call;
      if constexpr (is_impact)
        st = detail::impact_prepare(in, out, call, arena);
      else
        st = detail::dynamics_prepare(in, out, call, arena);
      if (st == Status::ok) {
        store_law_call(call, f->law_call, pr.stride);
        pr.set(P::law_mark, (long long)arena.mark());
        pr.set(P::law_state, int(EventDrivenLaw::due));
        arena.release(mark);
        return {Status::ok, true};
      }
    } else {
      st = Status(pr.get(P::law_status));
      pr.set(P::law_state, int(EventDrivenLaw::idle));
      if (st == Status::ok) {
        const ContactLawCall<T> call = load_law_call(f->law_call, pr.stride);
        arena.release(std::size_t(pr.get(P::law_mark)));  // after what the prepare part carved
        if constexpr (is_impact)
          st = detail::impact_conclude(in, out, call, arena);
        else
          st = detail::dynamics_conclude(in, out, call, arena);
      }
    }
    arena.release(mark);
    if (st != Status::ok) {
      if constexpr (is_impact)
        clear_impact(out);
      else
        clear_dynamics(out);
    }
    return {st, false};
  }
}

// A prepare pass has stored the call and its conclude pass has not taken the answer yet.
template <class T> OBLIQ_HD bool law_pending(const EventDrivenFrame<T>& f) {
  return EventDrivenLaw(f.progress.get(EventDrivenProgress<T>::law_state)) != EventDrivenLaw::idle;
}

// The contact-law kernel's part: the call a service's prepare pass stored, solved (nothing for a
// scenario with none due).
template <class T, class System, class Controls>
OBLIQ_HD void event_driven_contact_law(const System& sys, const Controls& c, Arena<T>& arena) {
  using P = EventDrivenProgress<T>;
  const std::size_t mark = arena.mark();
  const EventDrivenFrame<T> f = take_event_driven_frame(sys, frictional(c, sys.m_u()), arena);
  const P& pr = f.progress;
  if (!arena.overflow && EventDrivenLaw(pr.get(P::law_state)) == EventDrivenLaw::due) {
    const ContactLawCall<T> call = load_law_call(f.law_call, pr.stride);
    arena.release(std::size_t(pr.get(P::law_mark)));
    pr.set(P::law_status, int(solve_contact_law(law_scenario(call), call, arena)));
    pr.set(P::law_state, int(EventDrivenLaw::answered));
  }
  arena.release(mark);
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
// Pass (LawPass): the whole solve, or apart with the frame's call slot (`f`; the conclude pass
// does not evaluate the system again: the prepare pass's evaluation is still in place). Returns
// ok when pending.
template <LawPass Pass = LawPass::whole, class T, class System, class Controls>
OBLIQ_HD Status held_acceleration(const System& sys, const StepParams<T>& p, const Controls& c,
                                  VecView<const T> q, VecView<const T> v, VecView<const std::uint8_t> held,
                                  VecView<T> a, Arena<T>& arena, MatView<const T> slide0 = {},
                                  const EventDrivenFrame<T>* f = nullptr) {
  const int nv = sys.nv(), m_b = sys.m_b(), m_u = sys.m_u(), m = m_b + m_u;
  const bool with_friction = frictional(c, m_u);
  const int t = with_friction ? (sys.dim() - 1) * m_u : 0;
  const std::size_t mark = arena.mark();
  SystemEval<T> ev = take_system_eval(sys, arena);
  if (with_friction) ev.A_t = arena.mat(t, nv), ev.Adot_qdot_t = arena.vec(t);
  VecView<T> lambda = arena.vec(m), held_gap = arena.vec(m_u), lambda_t = arena.vec(t);
  VecView<std::uint8_t> rows = take_flags(m_u, arena);
  if (arena.overflow) return Status::bad_shape;
  Status st = Pass == LawPass::conclude ? Status::ok : sys.evaluate(q, v, ev, arena);
  if (st == Status::ok) {
    // The core's dynamics() on exactly the held rows: gap -1 (closed) on them, +1 elsewhere.
    for (int i = 0; i < m_u; ++i) held_gap[i] = held[i] ? T(-1) : T(1);
    StepParams<T> rule = p;
    rule.law = Law::complementarity;
    rule.gap_tol = T(0);
    rule.vel_tol = no_velocity_condition<T>();
    ScenarioView<T> in = impact_problem(ev, m_b, m_u, v, held_gap.as_const(), ev.h.as_const(), c.e, rule);
    in.u = c.u;
    if constexpr (Pass == LawPass::whole) {
      if (with_friction) {
        friction::FrictionView<T> fr = friction_view(sys.dim(), ev, c, p);
        fr.slide = slide0;  // the step's sliding directions, frozen (header comment)
        st = friction::dynamics(in, fr, DynamicsView<T>{a, lambda, rows},
                                friction::FrictionOutView<T>{lambda_t, {}, nullptr}, arena);
      } else {
        st = dynamics(in, DynamicsView<T>{a, lambda, rows}, arena);
      }
    } else {  // apart: frictionless only (a frictional scenario's acceleration runs in stages)
      static_assert(frictionless_controls<Controls>, "the contact law apart is the frictionless core's");
      st = contact_law_pass<Pass>(in, DynamicsView<T>{a, lambda, rows}, f, arena).status;
    }
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
// Pass and `f`: as held_acceleration's.
template <LawPass Pass = LawPass::whole, class T>
OBLIQ_HD Status plastic_projection(const SystemEval<T>& ev, int m_b, int m_u, VecView<const T> gap,
                                   const StepParams<T>& p, const StateView<T>& s, VecView<std::uint8_t> active,
                                   Arena<T>& arena, const EventDrivenFrame<T>* f = nullptr) {
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
  const LawAnswer answer =
      contact_law_pass<Pass>(in, ImpactView<T>{v_plus, impulse, lambda, active, slots, slots + 1, &consistent}, f,
                             arena);
  const Status st = answer.status;
  if (st == Status::ok && !answer.pending) dense::copy(v_plus.as_const(), s.v);
  arena.release(mark);
  return st;
}

// The rest guard's velocity scale (docs/simulator.md "Zeno guard"): with `a_free` the acceleration
// at the state with no contact acting (a_f = M^-1 (u - h) on the constraints' rows, held by
// none), V = max_i |(A v)_i| + interval max_i |(A a_f + Adot v)_i| over the normal and tangent
// rows, and v_rest = tol_c V (tol_c: the mechanics certificate's relative tolerance, 1e-6
// double, 1e-3 float).
template <class T>
OBLIQ_HD T rest_velocity(const SystemEval<T>& ev, int m_b, int m_u, VecView<const T> v, VecView<const T> a_free,
                         T interval) {
  T speed = T(0), accel = T(0);
  for (int i = m_b; i < m_b + m_u; ++i) {
    speed = max_(speed, abs_(dense::dot(ev.A.row(i), v)));
    accel = max_(accel, abs_(dense::dot(ev.A.row(i), a_free) + ev.Adot_qdot[i]));
  }
  for (int i = 0; i < ev.A_t.rows; ++i) {
    speed = max_(speed, abs_(dense::dot(ev.A_t.row(i), v)));
    accel = max_(accel, abs_(dense::dot(ev.A_t.row(i), a_free) + (ev.Adot_qdot_t.size > 0 ? ev.Adot_qdot_t[i] : T(0))));
  }
  return certificate_tolerance<T>::rel * (speed + interval * accel);
}

// The rows the rest guard brings to rest at the state (ev at (q, v)), given v_rest:
//   - a free row that is closed (phi <= gap_tol) and grazes, |(A_u v)_i| <= v_rest, and
//   - the slip of a held contact sliding slowly, vel_tol < |A_t v| <= v_rest.
// Returns how many (grazing rows and slow slips: 0, nothing to do). With `rows` (room for the
// bilateral rows and m_u (1 + d1) more), also the rows to hold at velocity 0 in order: the
// bilateral rows, then per contact its normal row when it is held or grazes and its tangent rows
// when its slip is slow; `k`: how many after the bilateral ones.
template <class T, class System, class Controls>
OBLIQ_HD int slow_rows(const System& sys, const StepParams<T>& p, const Controls& c, const SystemEval<T>& ev,
                       VecView<const std::uint8_t> held, VecView<const T> v, T v_rest, MatView<T> rows = {},
                       int* k = nullptr) {
  const int m_b = sys.m_b(), m_u = sys.m_u();
  const int d1 = ev.A_t.rows > 0 ? ev.A_t.rows / m_u : 0;
  const bool copy = rows.data != nullptr;
  for (int i = 0; copy && i < m_b; ++i) dense::copy(ev.A.row(i), rows.row(i));
  int settled = 0, at = m_b;
  for (int i = 0; i < m_u; ++i) {
    const T rate = dense::dot(ev.A.row(m_b + i), v);
    const bool grazing = !held[i] && ev.phi[m_b + i] <= p.gap_tol && abs_(rate) <= v_rest;
    settled += grazing;
    if (held[i] || grazing) {
      if (copy) dense::copy(ev.A.row(m_b + i), rows.row(at));
      ++at;
    }
    if (!held[i] || d1 == 0 || c.mu[i] == T(0)) continue;
    T slip2 = T(0);
    for (int j = 0; j < d1; ++j) slip2 += dense::dot(ev.A_t.row(d1 * i + j), v) * dense::dot(ev.A_t.row(d1 * i + j), v);
    const T slip = std::sqrt(slip2);
    if (!(slip > p.vel_tol && slip <= v_rest)) continue;
    ++settled;
    for (int j = 0; j < d1; ++j) {
      if (copy) dense::copy(ev.A_t.row(d1 * i + j), rows.row(at));
      ++at;
    }
  }
  if (k != nullptr) *k = at - m_b;
  return settled;
}

// The guards' plastic projection (the projection law with target 0, plastic_projection): the
// Zeno guard's (`rebounds`) on the rows of `slow`, which come to rest and are held afterwards (the
// rows taking part go to s.active); or the rest guard's on the rows of slow_rows at v_rest: min
// 1/2 |v+ - v|_M^2 with A_b v+ = 0 and those rows' velocities 0, by which the velocity moves by
// at most about v_rest, the size of a velocity error the certificate accepts.
// Pass and `f`: as held_acceleration's (the rows are chosen again at the conclude pass, from the
// same state: the same rows).
template <LawPass Pass = LawPass::whole, class T, class System, class Controls>
OBLIQ_HD Status guard_projection(const System& sys, const StepParams<T>& p, const Controls& c, const SystemEval<T>& ev,
                                 bool rebounds, VecView<const std::uint8_t> slow, VecView<const std::uint8_t> held,
                                 T v_rest, const StateView<T>& s, Arena<T>& arena,
                                 const EventDrivenFrame<T>* f = nullptr) {
  const int nv = sys.nv(), m_b = sys.m_b(), m_u = sys.m_u();
  const int d1 = ev.A_t.rows > 0 ? ev.A_t.rows / m_u : 0;
  const int k_max = rebounds ? m_u : m_u * (1 + d1);
  const std::size_t mark = arena.mark();
  SystemEval<T> sel = ev;  // the same system; for the rest guard with the rows to hold at velocity 0
  if (!rebounds) sel.A = arena.mat(m_b + k_max, nv);
  VecView<T> gap = arena.vec(k_max);
  VecView<std::uint8_t> active = rebounds ? s.active : take_flags(k_max, arena);
  if (arena.overflow) {
    arena.release(mark);
    return Status::bad_shape;
  }
  int k = m_u;
  if (rebounds) {
    for (int i = 0; i < m_u; ++i) gap[i] = slow[i] ? T(-1) : T(1);
  } else {
    slow_rows(sys, p, c, ev, held, s.v.as_const(), v_rest, sel.A, &k);
    sel.A = sel.A.top_rows(m_b + k);
    for (int i = 0; i < k; ++i) gap[i] = T(-1);
  }
  const Status st =
      plastic_projection<Pass>(sel, m_b, k, gap.as_const().segment(0, k), p, s, active.segment(0, k), arena, f);
  arena.release(mark);
  return st;
}

// The impacts at the state (ev at (q, v)): the rows that are closed and approach,
// (A_u v)_i < -vel_tol, and their restitution: plastic (e = 0) below the Zeno velocity or after
// max_impacts impacts in this advance (`impacts_here`), else the controls' e. Returns how many.
template <class T, class System, class Controls>
OBLIQ_HD int impact_targets(const System& sys, const StepParams<T>& p, const Controls& c, const SystemEval<T>& ev,
                            VecView<const T> v, long long impacts_here, VecView<T> e) {
  const int m_b = sys.m_b(), m_u = sys.m_u();
  int hits = 0;
  for (int i = 0; i < m_u; ++i) hits += ev.phi[m_b + i] <= p.gap_tol && dense::dot(ev.A.row(m_b + i), v) < -p.vel_tol;
  const bool plastic_all = impacts_here >= p.max_impacts;
  for (int i = 0; hits > 0 && i < m_u; ++i) {
    const T approach = -dense::dot(ev.A.row(m_b + i), v);
    e[i] = (plastic_all || approach < p.zeno_velocity) ? T(0) : c.e[i];
  }
  return hits;
}

// An impact's answer v+ taken: v and the last impact's velocity and time, the counters (`hits`
// impacts, and the LCP).
template <class T>
OBLIQ_HD void accept_impact(const StepParams<T>& p, VecView<const T> v_plus, int hits, const StateView<T>& s) {
  *s.impacts += hits;
  *s.lcp_solves += p.law == Law::complementarity ? 1 : 0;
  *s.last_impact_time = *s.t;
  dense::copy(v_plus, s.v);
  dense::copy(v_plus, s.last_impact_v);
}

// The impact at the state with restitution `e` (impact_targets): the core's impact(), or with
// friction its frictional impact; on success v and the last impact's velocity and time take the
// answer, and the counters count `hits` impacts and the LCP.
// Pass and `f`: as held_acceleration's (apart: frictionless controls only).
template <LawPass Pass = LawPass::whole, class T, class System, class Controls>
OBLIQ_HD Status resolve_impacts(const System& sys, const StepParams<T>& p, const Controls& c, const SystemEval<T>& ev,
                                VecView<const T> e, int hits, const StateView<T>& s, Arena<T>& arena,
                                const EventDrivenFrame<T>* f = nullptr) {
  static_assert(Pass == LawPass::whole || frictionless_controls<Controls>,
                "the contact law apart is the frictionless core's");
  const int nv = sys.nv(), m_b = sys.m_b(), m_u = sys.m_u(), m = m_b + m_u;
  const std::size_t mark = arena.mark();
  VecView<T> v_plus = arena.vec(nv), impulse = arena.vec(nv), lambda = arena.vec(m);
  T* slots = arena.take(4);
  if (arena.overflow) return Status::bad_shape;
  const T zero = T(0);
  const VecView<const T> no_impulse{&zero, nv, 0};
  const ScenarioView<T> in = impact_problem(ev, m_b, m_u, s.v.as_const(), ev.phi.as_const().segment(m_b, m_u), no_impulse, e, p);
  std::uint8_t consistent = 0;
  const ImpactView<T> out{v_plus, impulse, lambda, s.active, slots, slots + 1, &consistent};
  Status st;
  bool pending = false;
  if constexpr (frictionless_controls<Controls>) {
    const LawAnswer answer = contact_law_pass<Pass>(in, out, f, arena);
    st = answer.status, pending = answer.pending;
  } else if (frictional(c, m_u) && ev.A_t.rows > 0) {  // A_t is there only with friction
    const VecView<T> lambda_t = arena.vec(ev.A_t.rows);
    st = arena.overflow ? Status::bad_shape
                        : friction::impact(in, friction_view(sys.dim(), ev, c, p), out,
                                           friction::FrictionOutView<T>{lambda_t, {}, nullptr}, arena);
  } else {
    st = impact(in, out, arena);
  }
  if (st == Status::ok && !pending) accept_impact(p, v_plus.as_const(), hits, s);
  arena.release(mark);
  return st;
}

// ---------------------------------------------------------------------------------------------
// The advance as a state machine (the cuda backend runs each part as a kernel of its own,
// cuda/sim_body.hpp, so that ptxas allocates registers for each alone and no kernel keeps
// values across a call to a solver: docs/cuda.md "The event-driven advance in kernels").
//
// event_driven_begin starts an advance; event_driven_control then runs the advance's logic (the
// loop's turns, the Runge-Kutta stages' sums, the bracket and the Illinois iterations, the rest
// guard's and the Zeno guard's decisions, with the system evaluated where the event function
// needs it) until it needs one of three services, which it requests:
//   acceleration  the held contacts' acceleration LCP at a Runge-Kutta stage (held_acceleration),
//                 or with none held for the rest guard's velocity scale
//   impact        the impact law at an event (resolve_impacts)
//   projection    the rest guard's or the Zeno guard's plastic projection
// A service runs only for a scenario that requested it, and hands its answer back to the next
// control. The parts communicate only through the advance's frame, the first elements of the
// scenario's arena (take_event_driven_frame); whatever a part takes after it is its own scratch.
// event_driven_advance is begin, then control and the service it requests, until control
// requests none; the answers are the same whichever way the parts are run.

enum class EventDrivenService : int { none = 0, acceleration = 1, impact = 2, projection = 3 };

// The parts as the cuda backend's kernels (cuda/sim_body.hpp): begin once per advance, then
// rounds of control and the three services until no control requests one.
// With friction the acceleration and the impact run as the stages of their frictional solvers
// (friction::ImpactStage: setup, frictionless, Newton, other solvers, finish; the dynamics' are
// friction::dynamics_setup .. dynamics_finish), each a kernel: acceleration_setup ..
// impact_finish in place of acceleration and impact.
// The frictionless core's contact law runs apart (LawPass): the phases acceleration, impact,
// projection (with friction: acceleration_frictionless, impact_frictionless, projection) are
// the prepare passes, contact_law solves what they stored, and the three conclude phases answer.
enum class EventDrivenPhase : int {
  begin = 0,
  control = 1,
  acceleration = 2,
  impact = 3,
  projection = 4,
  acceleration_setup = 5,  // .. acceleration_finish = 9: friction::ImpactStage's order
  acceleration_frictionless = 6,
  acceleration_newton = 7,
  acceleration_other_solvers = 8,
  acceleration_finish = 9,
  impact_setup = 10,  // .. impact_finish = 14
  impact_frictionless = 11,
  impact_newton = 12,
  impact_other_solvers = 13,
  impact_finish = 14,
  contact_law = 15,             // the law of every scenario whose prepare pass stored its call
  acceleration_conclude = 16,   // the conclude pass of acceleration (with friction: acceleration_frictionless)
  impact_conclude = 17,         // of impact (with friction: impact_frictionless)
  projection_conclude = 18,     // of projection
};
inline constexpr int event_driven_phases = 19;

// The service of a service's phase (none for contact_law), the solver's stage of a staged one,
// and whether a phase is a conclude pass.
constexpr bool staged(EventDrivenPhase P) {
  return int(P) >= int(EventDrivenPhase::acceleration_setup) && int(P) <= int(EventDrivenPhase::impact_finish);
}
constexpr bool concludes(EventDrivenPhase P) { return int(P) >= int(EventDrivenPhase::acceleration_conclude); }
constexpr EventDrivenService service_of(EventDrivenPhase P) {
  return P == EventDrivenPhase::contact_law                    ? EventDrivenService::none
         : concludes(P) ? EventDrivenService(int(P) - int(EventDrivenPhase::contact_law))
         : int(P) >= int(EventDrivenPhase::impact_setup)       ? EventDrivenService::impact
         : int(P) >= int(EventDrivenPhase::acceleration_setup) ? EventDrivenService::acceleration
                                                               : EventDrivenService(int(P) - 1);
}
constexpr friction::ImpactStage stage_of(EventDrivenPhase P) {
  return friction::ImpactStage((int(P) - int(EventDrivenPhase::acceleration_setup)) % 5);
}

// Starts an advance of one scenario by `interval` (nothing to do when its status is not ok).
template <class T, class System, class Controls>
OBLIQ_HD void event_driven_begin(const System& sys, const Controls& c, T interval, const StateView<T>& s,
                                 Arena<T>& arena) {
  using P = EventDrivenProgress<T>;
  const std::size_t mark = arena.mark();
  const EventDrivenFrame<T> f = take_event_driven_frame(sys, frictional(c, sys.m_u()), arena);
  arena.release(mark);
  if (arena.overflow) {
    if (*s.status == Status::ok) *s.status = Status::bad_shape;
    return;  // a frame that does not fit cannot say it is finished: the status says it
  }
  const P& pr = f.progress;
  pr.set(P::at, *s.status == Status::ok ? P::turn_start : P::finished);
  pr.set(P::service, int(EventDrivenService::none));
  pr.set(P::turn, 0);
  pr.set(P::impacts, 0);
  pr.set(P::events, 0);
  pr.set(P::law_state, int(EventDrivenLaw::idle));
  pr[P::t_end] = *s.t + interval;
}

// The advance's logic until it requests a service (returns true) or is over (false: the
// scenario's status is the advance's). Each request names the control state that takes the
// answer (EventDrivenProgress::At). `carved`: the frame, when the caller has carved it already
// (the arena's mark then after it: event_driven_advance).
template <class T, class System, class Controls>
OBLIQ_HD bool event_driven_control(const System& sys, const StepParams<T>& p, const Controls& c, T interval,
                                   const StateView<T>& s, Arena<T>& arena,
                                   const EventDrivenFrame<T>* carved = nullptr) {
  using P = EventDrivenProgress<T>;
  const std::size_t mark = arena.mark();
  const bool with_friction = frictional(c, sys.m_u());
  const EventDrivenFrame<T> f = carved != nullptr ? *carved : take_event_driven_frame(sys, with_friction, arena);
  if (arena.overflow) {
    arena.release(mark);
    return false;  // event_driven_begin has set bad_shape
  }
  const int nv = sys.nv(), m_b = sys.m_b(), m_u = sys.m_u(), d1 = sys.dim() - 1;
  const P& pr = f.progress;
  int at = int(pr.get(P::at));
  if (at == P::finished) {
    arena.release(mark);
    return false;
  }
  const T eps = scalar_traits<T>::eps;
  const T max_step = p.max_step > T(0) ? p.max_step : interval;
  // More turns than this stop the advance with no_convergence (kept within a count's range).
  long long budget = 64 + 4LL * p.max_impacts + 4LL * (long long)(interval / max_step + T(1));
  budget = min_(budget, (long long)(std::numeric_limits<typename P::Count>::max()) - 2);
  const VecView<const T> q0 = s.q.as_const(), v0 = s.v.as_const();
  const VecView<const std::uint8_t> held = f.held.as_const();
  const MatView<const T> sv = f.slide0.as_const();
  const auto request = [&](EventDrivenService service, int then) {
    pr.set(P::service, int(service));
    pr.set(P::at, then);
  };
  // A Runge-Kutta step of length h from (q0, v0) with the held set, into (q1, v1) or (qb, vb);
  // control resumes at `then` with its status.
  const auto runge_kutta = [&](T h, bool to_probe, int then) {
    pr[P::h] = h;
    pr.set(P::to_probe, to_probe ? 1 : 0);
    pr.set(P::back, then);
    pr.set(P::stage, 0);
    pr.set(P::none_held, 0);
    request(EventDrivenService::acceleration, P::rk_stage);
  };
  Status st = Status::ok;
  pr.set(P::service, int(EventDrivenService::none));
  while (at != P::finished && EventDrivenService(pr.get(P::service)) == EventDrivenService::none) {
    switch (at) {
      case P::turn_start: {
        if (!(*s.t < pr[P::t_end])) {
          at = P::finished;
          break;
        }
        const long long turn = pr.get(P::turn);
        if (turn > budget) {
          st = Status::no_convergence;
          at = P::finished;
          break;
        }
        pr.set(P::turn, turn + 1);
        st = sys.evaluate(q0, v0, f.ev, arena);
        if (st != Status::ok) {
          at = P::finished;
          break;
        }
        const int hits = impact_targets(sys, p, c, f.ev, v0, pr.get(P::impacts), f.e);
        if (hits > 0) {
          pr.set(P::hits, hits);
          request(EventDrivenService::impact, P::resumed);
          break;
        }
        // Rows in contact: resting, and closed or held before (hysteresis: a held row whose gap
        // drifts above gap_tol stays held while it rests; the LCP lets it go when it should).
        for (int i = 0; i < m_u; ++i) {
          const T rate = dense::dot(f.ev.A.row(m_b + i), v0);
          f.held[i] = (f.ev.phi[m_b + i] <= p.gap_tol || s.active[i]) && abs_(rate) <= p.vel_tol;
          s.active[i] = f.held[i];
        }
        T f0 = no_velocity_condition<T>();
        for (int i = 0; i < m_u; ++i) {
          f.base[i] = min_(f.ev.phi[m_b + i], T(0));
          if (!f.held[i]) f0 = min_(f0, f.ev.phi[m_b + i] - f.base[i]);
        }
        // Held contacts sliding now: their slip direction (the event function watches it stop).
        for (int i = 0; with_friction && i < m_u; ++i) {
          T n2 = T(0);
          for (int j = 0; j < d1; ++j) {
            f.slide0(i, j) = dense::dot(f.ev.A_t.row(d1 * i + j), v0);
            n2 += f.slide0(i, j) * f.slide0(i, j);
          }
          const T n = std::sqrt(n2);
          const bool sliding = f.held[i] && !(c.mu[i] == T(0)) && n > p.vel_tol;
          for (int j = 0; j < d1; ++j) f.slide0(i, j) = sliding ? f.slide0(i, j) / n : T(0);
          if (sliding) f0 = min_(f0, n);
        }
        pr[P::f0] = f0;
        if (pr.get(P::events) >= p.max_impacts) {
          // Rest guard: grazing rows and slow slips come to rest (rest_velocity, slow_rows).
          pr.set(P::after_rk, 0);
          pr.set(P::none_held, 1);
          pr.set(P::stage, 0);
          request(EventDrivenService::acceleration, P::settle_scale);
          break;
        }
        at = P::step;
        break;
      }
      case P::settle_scale: {  // the acceleration with none held is in f.a
        const Status scale = Status(pr.get(P::status));
        const bool after_rk = pr.get(P::after_rk) != 0;
        int settled = 0;
        if (scale == Status::ok) {
          pr[P::v_rest] = rest_velocity(f.ev, m_b, m_u, v0, f.a.as_const(), interval);
          settled = slow_rows(sys, p, c, f.ev, held, v0, pr[P::v_rest]);
        }
        if (settled > 0) {
          request(EventDrivenService::projection, P::settled);
          pr.set(P::rebounds, 0);
        } else if (after_rk) {  // nothing to settle: the step's failure stands
          st = Status(pr.get(P::failure));
          at = P::finished;
        } else if (scale != Status::ok) {
          st = scale;
          at = P::finished;
        } else {
          at = P::step;
        }
        break;
      }
      case P::settled: {
        const Status done = Status(pr.get(P::status));
        if (done == Status::ok) {
          at = P::turn_start;
        } else {
          st = pr.get(P::after_rk) != 0 ? Status(pr.get(P::failure)) : done;
          at = P::finished;
        }
        break;
      }
      case P::step: {
        const T remaining = pr[P::t_end] - *s.t;
        const bool last = remaining <= max_step;
        pr.set(P::last, last ? 1 : 0);
        pr[P::dt] = last ? remaining : max_step;
        runge_kutta(pr[P::dt], false, P::after_step);
        break;
      }
      case P::rk_stage: {  // stage `stage`'s acceleration is in f.a
        // Stage 1 at (q0, v0); stages 2-4 at q0 (+) c_i h v_{i-1}, v0 + c_i h a_{i-1}.
        const int stage = int(pr.get(P::stage));
        const Status rk = Status(pr.get(P::status));
        const T h = pr[P::h], half = T(0.5) * h;
        const T stage_dt[3] = {half, half, h};
        const T weight[3] = {T(2), T(2), T(1)};
        if (stage == 0) {
          dense::copy(f.a.as_const(), f.a_sum);
          dense::copy(v0, f.v_sum);
        } else {
          dense::axpy(weight[stage - 1], f.a.as_const(), f.a_sum);
          dense::axpy(weight[stage - 1], f.vs.as_const(), f.v_sum);
        }
        if (rk == Status::ok && stage < 3) {
          // f.vs holds the previous stage's velocity (v0 at the first).
          if (stage == 0) dense::copy(v0, f.vs);
          sys.integrate(q0, f.vs.as_const(), stage_dt[stage], f.qs);
          for (int i = 0; i < nv; ++i) f.vs[i] = v0[i] + stage_dt[stage] * f.a[i];
          pr.set(P::stage, stage + 1);
          request(EventDrivenService::acceleration, P::rk_stage);
          break;
        }
        if (rk == Status::ok) {
          const bool to_probe = pr.get(P::to_probe) != 0;
          sys.integrate(q0, f.v_sum.as_const(), h / T(6), to_probe ? f.qb : f.q1);
          const VecView<T> v1 = to_probe ? f.vb : f.v1;
          for (int i = 0; i < nv; ++i) v1[i] = v0[i] + h / T(6) * f.a_sum[i];
        }
        at = int(pr.get(P::back));  // with the step's status in P::status
        break;
      }
      case P::after_step: {
        st = Status(pr.get(P::status));
        if (with_friction && (st == Status::no_convergence || st == Status::infeasible || st == Status::ambiguous)) {
          // No certified acceleration with the frozen sliding directions: a slip below v_rest
          // has a direction of rounding noise; bring it to rest and try again (the rest guard).
          pr.set(P::after_rk, 1);
          pr.set(P::failure, int(st));
          pr.set(P::none_held, 1);
          pr.set(P::stage, 0);
          st = Status::ok;
          request(EventDrivenService::acceleration, P::settle_scale);
          break;
        }
        T f1 = T(0);
        if (st == Status::ok) st = free_gap(sys, f.q1.as_const(), f.v1.as_const(), held, f.base.as_const(), f.ev, f1, arena, sv);
        if (st != Status::ok) {
          at = P::finished;
          break;
        }
        pr[P::tau] = pr[P::dt];
        if (f1 > T(0)) {
          at = P::commit;
          break;
        }
        // Bracket [a, b]: f(a) > 0 >= f(b). A row that has just separated (f0 <= 0) needs a
        // positive point first: halve the step until the gap is open.
        pr[P::a] = T(0), pr[P::fa] = pr[P::f0], pr[P::b] = pr[P::dt], pr[P::fb] = f1;
        pr.set(P::k, 0);
        at = P::bracket;
        break;
      }
      case P::bracket: {
        if (pr.get(P::k) < 60 && !(pr[P::fa] > T(0))) {
          pr[P::x] = T(0.5) * pr[P::b];
          runge_kutta(pr[P::x], true, P::after_probe);
        } else if (pr[P::fa] > T(0)) {
          pr.set(P::side, 0);
          pr.set(P::k, 0);
          at = P::illinois;
        } else {
          at = P::zeno;
        }
        break;
      }
      case P::after_probe:
      case P::after_illinois: {
        // f(x): the event function at the Runge-Kutta step of length x from (q0, v0).
        st = Status(pr.get(P::status));
        T fx = T(0);
        if (st == Status::ok) st = free_gap(sys, f.qb.as_const(), f.vb.as_const(), held, f.base.as_const(), f.ev, fx, arena, sv);
        if (st != Status::ok) {
          at = P::finished;
          break;
        }
        const T x = pr[P::x];
        if (at == P::after_probe) {
          if (fx > T(0))
            pr[P::a] = x, pr[P::fa] = fx;
          else
            pr[P::b] = x, pr[P::fb] = fx;
        } else {
          // Illinois: regula falsi, halving the value kept at an end that stays twice.
          const long long side = pr.get(P::side);
          if (fx > T(0)) {
            pr[P::a] = x, pr[P::fa] = fx;
            if (side == 1) pr[P::fb] *= T(0.5);
            pr.set(P::side, 1);
          } else {
            pr[P::b] = x, pr[P::fb] = fx;
            if (side == -1) pr[P::fa] *= T(0.5);
            pr.set(P::side, -1);
          }
        }
        pr.set(P::k, pr.get(P::k) + 1);
        at = at == P::after_probe ? P::bracket : P::illinois;
        break;
      }
      case P::illinois: {
        const T a = pr[P::a], fa = pr[P::fa], b = pr[P::b], fb = pr[P::fb];
        if (pr.get(P::k) < 200 && b - a > T(4) * eps * b) {
          T x = b - fb * (b - a) / (fb - fa);
          if (!(x > a && x < b)) x = T(0.5) * (a + b);
          pr[P::x] = x;
          runge_kutta(x, true, P::after_illinois);
        } else {
          pr[P::tau] = b;
          runge_kutta(b, false, P::after_final);
        }
        break;
      }
      case P::after_final: {
        st = Status(pr.get(P::status));
        // fa > 0 still, unless the Illinois halvings took it to zero: then the Zeno guard.
        at = st != Status::ok ? P::finished : (pr[P::fa] > T(0) ? P::commit : P::zeno);
        break;
      }
      case P::commit: {
        const T tau = pr[P::tau], dt = pr[P::dt];
        dense::copy(f.q1.as_const(), s.q);
        dense::copy(f.v1.as_const(), s.v);
        pr.set(P::events, pr.get(P::events) + (tau < dt ? 1 : 0));
        *s.t = (pr.get(P::last) != 0 && tau == dt) ? pr[P::t_end] : *s.t + tau;
        at = P::turn_start;
        break;
      }
      case P::zeno: {
        // No open point down to dt 2^-60: a rebound below the time resolution. Zeno guard:
        // cancel the normal velocity of the free rows that start closed; they rest next turn.
        st = sys.evaluate(q0, v0, f.ev, arena);
        for (int i = 0; i < m_u; ++i) f.slow[i] = !f.held[i] && f.ev.phi[m_b + i] <= T(0);
        if (st != Status::ok) {
          at = P::finished;
          break;
        }
        pr.set(P::rebounds, 1);
        request(EventDrivenService::projection, P::resumed);
        break;
      }
      case P::resumed: {  // after an impact or the Zeno guard's projection
        st = Status(pr.get(P::status));
        at = st == Status::ok ? P::turn_start : P::finished;
        break;
      }
      default:
        st = Status::bad_shape;  // not a state: a damaged frame
        at = P::finished;
    }
  }
  const bool requested = at != P::finished;
  if (!requested) {
    pr.set(P::at, P::finished);
    *s.status = st;
  }
  arena.release(mark);
  return requested;
}

// Service `S` for a scenario that requested it (nothing otherwise): its status into the
// progress for the control that takes the answer. `carved`: as event_driven_control's. Pass
// (LawPass): whole, or apart (frictionless controls): the prepare pass stops where the call is
// stored (the service stays requested), the conclude pass answers.
template <EventDrivenService S, LawPass Pass = LawPass::whole, class T, class System, class Controls>
OBLIQ_HD void event_driven_service(const System& sys, const StepParams<T>& p, const Controls& c, const StateView<T>& s,
                                   Arena<T>& arena, const EventDrivenFrame<T>* carved = nullptr) {
  using P = EventDrivenProgress<T>;
  const std::size_t mark = arena.mark();
  const bool with_friction = frictional(c, sys.m_u());
  const EventDrivenFrame<T> f = carved != nullptr ? *carved : take_event_driven_frame(sys, with_friction, arena);
  if (arena.overflow || EventDrivenService(f.progress.get(P::service)) != S) {
    arena.release(mark);
    return;
  }
  const P& pr = f.progress;
  Status st = Status::ok;
  if constexpr (S == EventDrivenService::acceleration) {
    // At the state for stage 0 (and the rest guard), else at the stage's point (qs, vs); the
    // held set and the frozen sliding directions, or none held for the rest guard.
    const bool none_held = pr.get(P::none_held) != 0;
    const bool at_state = none_held || pr.get(P::stage) == 0;
    VecView<std::uint8_t> held = f.held;
    if (none_held) {
      held = take_flags(sys.m_u(), arena);
      for (int i = 0; !arena.overflow && i < sys.m_u(); ++i) held[i] = 0;
    }
    st = arena.overflow ? Status::bad_shape
                        : held_acceleration<Pass>(sys, p, c, at_state ? s.q.as_const() : f.qs.as_const(),
                                                  at_state ? s.v.as_const() : f.vs.as_const(), held.as_const(), f.a,
                                                  arena, none_held ? MatView<const T>{} : f.slide0.as_const(), &f);
  } else if constexpr (S == EventDrivenService::impact) {
    st = resolve_impacts<Pass>(sys, p, c, f.ev, f.e.as_const(), int(pr.get(P::hits)), s, arena, &f);
    if (st == Status::ok && !law_pending(f)) pr.set(P::impacts, pr.get(P::impacts) + pr.get(P::hits));
  } else {
    st = guard_projection<Pass>(sys, p, c, f.ev, pr.get(P::rebounds) != 0, f.slow.as_const(), f.held.as_const(),
                                pr[P::v_rest], s, arena, &f);
  }
  if (law_pending(f)) {  // the prepare pass stored the call: the conclude pass answers
    arena.release(mark);
    return;
  }
  pr.set(P::status, int(st));
  pr.set(P::service, int(EventDrivenService::none));
  arena.release(mark);
}

// The staged services' frames, after the advance's frame. The acceleration's: held_acceleration's
// system at the stage's point and outputs, the dynamics' sliding directions; then the
// dynamics' frame (friction::take_impact_frame). The impact's: its outputs; then the impact's
// frame.
template <class T> struct AccelerationFrame {
  SystemEval<T> ev;  // with A_t and Adot_t
  VecView<T> lambda, held_gap, lambda_t;
  VecView<std::uint8_t> rows;
  MatView<T> slide;
};
template <class T> struct ImpactOutFrame {
  VecView<T> v_plus, impulse, lambda, lambda_t;
  T* energies = nullptr;
  VecView<std::uint8_t> consistent;
};

template <class T, class System> OBLIQ_HD AccelerationFrame<T> take_acceleration_frame(const System& sys, Arena<T>& arena) {
  const int nv = sys.nv(), m_u = sys.m_u(), d1 = sys.dim() - 1;
  AccelerationFrame<T> f;
  f.ev = take_system_eval(sys, arena);
  f.ev.A_t = arena.mat(d1 * m_u, nv), f.ev.Adot_qdot_t = arena.vec(d1 * m_u);
  f.lambda = arena.vec(sys.m_b() + m_u), f.held_gap = arena.vec(m_u), f.lambda_t = arena.vec(d1 * m_u);
  f.rows = take_flags(m_u, arena);
  f.slide = arena.mat(m_u, d1);
  return f;
}
template <class T, class System> OBLIQ_HD ImpactOutFrame<T> take_impact_out_frame(const System& sys, Arena<T>& arena) {
  const int nv = sys.nv(), m_u = sys.m_u();
  ImpactOutFrame<T> f;
  f.v_plus = arena.vec(nv), f.impulse = arena.vec(nv), f.lambda = arena.vec(sys.m_b() + m_u);
  f.lambda_t = arena.vec((sys.dim() - 1) * m_u);
  f.energies = arena.take(2);
  f.consistent = take_flags(1, arena);
  return f;
}

// What a scenario's parts hand each other after any of them, read from its frame (`arena` at
// the frame's start, as the parts carve it): the advance's frame; while a staged service is
// requested (with friction, dim > 0: from its setup stage to its finish) also the service's frame
// and the solver's; while a contact law's call is pending (from a prepare pass to its conclude
// pass) everything up to the mark its prepare part left.
template <class T, class System>
OBLIQ_HD std::size_t event_driven_handoff(const System& sys, int dim, Arena<T> arena) {
  const int nq = sys.nq(), nv = sys.nv(), m_b = sys.m_b(), m_u = sys.m_u();
  std::size_t size = event_driven_frame_size<T>(nq, nv, m_b, m_u, dim);
  const EventDrivenFrame<T> f = take_event_driven_frame(sys, dim > 0, arena);
  if (arena.overflow) return size;
  const EventDrivenService requested = EventDrivenService(f.progress.get(EventDrivenProgress<T>::service));
  if (dim > 0 && (requested == EventDrivenService::acceleration || requested == EventDrivenService::impact)) {
    const std::size_t t = std::size_t(dim - 1) * m_u, m = std::size_t(m_b + m_u);
    const std::size_t own = requested == EventDrivenService::acceleration
                                ? system_eval_size<T>(nv, m_b + m_u) + t * nv + t + m + m_u + t + m_u + t
                                : 2 * std::size_t(nv) + m + t + 2 + 1;
    size += own +
            friction::impact_frame_size<T>(nv, m_b, m_u, dim);
  }
  if (law_pending(f)) size = max_(size, std::size_t(f.progress.get(EventDrivenProgress<T>::law_mark)));
  return size;
}

// Stage S of the acceleration service with friction (the frictional configurations' kernels):
// held_acceleration in stages, the system evaluated at the stage's point in setup. A scenario
// without friction is served whole in the frictionless stage. The frictionless stage runs the
// core's contact law apart (Pass: its prepare or its conclude pass, LawPass).
template <friction::ImpactStage S, LawPass Pass = LawPass::prepare, class T, class System, class Controls>
OBLIQ_HD void event_driven_acceleration_stage(const System& sys, const StepParams<T>& p, const Controls& c,
                                              const StateView<T>& s, Arena<T>& arena) {
  using P = EventDrivenProgress<T>;
  using friction::ImpactStage;
  const std::size_t mark = arena.mark();
  const bool with_friction = frictional(c, sys.m_u());
  const EventDrivenFrame<T> f = take_event_driven_frame(sys, with_friction, arena);
  const P& pr = f.progress;
  if (arena.overflow || EventDrivenService(pr.get(P::service)) != EventDrivenService::acceleration ||
      (!with_friction && S != ImpactStage::frictionless)) {
    arena.release(mark);
    return;
  }
  if (!with_friction) {  // served whole, with controls that hold no frictional solver
    arena.release(mark);
    event_driven_service<EventDrivenService::acceleration, Pass>(sys, p, without_friction(c), s, arena);
    return;
  }
  const int m_b = sys.m_b(), m_u = sys.m_u();
  const bool none_held = pr.get(P::none_held) != 0;
  const bool at_state = none_held || pr.get(P::stage) == 0;
  const VecView<const T> q = at_state ? s.q.as_const() : f.qs.as_const(), v = at_state ? s.v.as_const() : f.vs.as_const();
  const AccelerationFrame<T> af = take_acceleration_frame(sys, arena);
  if (arena.overflow) {
    arena.release(mark);
    return;  // the finish stage says bad_shape
  }
  Status st = Status::ok;
  if constexpr (S == ImpactStage::setup) {
    st = sys.evaluate(q, v, af.ev, arena);
    // The core's dynamics() on exactly the held rows: gap -1 (closed) on them, +1 elsewhere.
    for (int i = 0; i < m_u; ++i) af.held_gap[i] = (!none_held && f.held[i]) ? T(-1) : T(1);
  }
  StepParams<T> rule = p;
  rule.law = Law::complementarity;
  rule.gap_tol = T(0);
  rule.vel_tol = no_velocity_condition<T>();
  ScenarioView<T> in = impact_problem(af.ev, m_b, m_u, v, af.held_gap.as_const(), af.ev.h.as_const(), c.e, rule);
  in.u = c.u;
  friction::FrictionView<T> fr = friction_view(sys.dim(), af.ev, c, p);
  if (!none_held) fr.slide = f.slide0.as_const();  // the step's sliding directions, frozen
  const DynamicsView<T> out{f.a, af.lambda, af.rows};
  const friction::FrictionOutView<T> fo{af.lambda_t, {}, nullptr};
  if constexpr (S == ImpactStage::setup) {
    if (st == Status::ok) {
      friction::dynamics_setup(in, fr, out, fo, af.slide, arena);
    } else {
      const friction::ImpactProgress<T> dp = friction::take_impact_progress(arena);
      if (!arena.overflow) {
        dp.slots.set(friction::ImpactProgress<T>::solved, 0);
        dp.next(ImpactStage::finish, st);
      }
    }
  } else if constexpr (S == ImpactStage::frictionless) {
    // friction::dynamics_frictionless with the core's dynamics() apart
    const friction::ImpactProgress<T> dp = friction::take_impact_progress(arena);
    if (!arena.overflow && dp.stage_due() == ImpactStage::frictionless) {
      const LawAnswer answer = contact_law_pass<Pass>(in, out, &f, arena);
      if (!answer.pending) dp.next(ImpactStage::finish, answer.status);
    }
  } else if constexpr (S == ImpactStage::newton) {
    friction::impact_newton(in, fr, arena, af.slide.as_const());
  } else if constexpr (S == ImpactStage::other_solvers) {
    friction::impact_other_solvers(in, fr, arena, af.slide.as_const());
  } else {
    pr.set(P::status, int(friction::dynamics_finish(in, fr, out, fo, arena)));
    pr.set(P::service, int(EventDrivenService::none));
  }
  arena.release(mark);
}

// Stage S of the impact service with friction: resolve_impacts in stages (the frictional
// impact's). A scenario without friction is served whole in the frictionless stage, which runs
// the core's contact law apart (Pass, as the acceleration's).
template <friction::ImpactStage S, LawPass Pass = LawPass::prepare, class T, class System, class Controls>
OBLIQ_HD void event_driven_impact_stage(const System& sys, const StepParams<T>& p, const Controls& c,
                                        const StateView<T>& s, Arena<T>& arena) {
  using P = EventDrivenProgress<T>;
  using friction::ImpactStage;
  const std::size_t mark = arena.mark();
  const bool with_friction = frictional(c, sys.m_u());
  const EventDrivenFrame<T> f = take_event_driven_frame(sys, with_friction, arena);
  const P& pr = f.progress;
  if (arena.overflow || EventDrivenService(pr.get(P::service)) != EventDrivenService::impact ||
      (!with_friction && S != ImpactStage::frictionless)) {
    arena.release(mark);
    return;
  }
  const int nv = sys.nv(), m_b = sys.m_b(), m_u = sys.m_u();
  const int hits = int(pr.get(P::hits));
  const ImpactOutFrame<T> of = take_impact_out_frame(sys, arena);
  if (arena.overflow) {
    arena.release(mark);
    return;
  }
  const T zero = T(0);
  const VecView<const T> no_impulse{&zero, nv, 0};
  const ScenarioView<T> in =
      impact_problem(f.ev, m_b, m_u, s.v.as_const(), f.ev.phi.as_const().segment(m_b, m_u), no_impulse, f.e.as_const(), p);
  const ImpactView<T> out{of.v_plus, of.impulse, of.lambda, s.active, of.energies, of.energies + 1, of.consistent.data};
  const auto done = [&](Status st) {
    if (st == Status::ok) {
      accept_impact(p, of.v_plus.as_const(), hits, s);
      pr.set(P::impacts, pr.get(P::impacts) + hits);
    }
    pr.set(P::status, int(st));
    pr.set(P::service, int(EventDrivenService::none));
  };
  const friction::FrictionView<T> fr = friction_view(sys.dim(), f.ev, c, p);
  const friction::FrictionOutView<T> fo{of.lambda_t, {}, nullptr};
  if constexpr (S == ImpactStage::setup) {
    friction::impact_setup(in, fr, out, fo, arena);
  } else if constexpr (S == ImpactStage::frictionless) {
    // The frictionless core's impact apart (its prepare or its conclude pass): the whole impact
    // of a scenario without friction, or the frictional impact's frictionless stage.
    const friction::ImpactProgress<T> ip =
        with_friction ? friction::take_impact_progress(arena) : friction::ImpactProgress<T>{};
    if (!with_friction || (!arena.overflow && ip.stage_due() == ImpactStage::frictionless)) {
      const LawAnswer answer = contact_law_pass<Pass>(in, out, &f, arena);
      if (!answer.pending) {  // else the conclude pass answers
        if (with_friction)
          ip.next(ImpactStage::finish, answer.status);
        else
          done(answer.status);
      }
    }
  } else if constexpr (S == ImpactStage::newton) {
    friction::impact_newton(in, fr, arena);
  } else if constexpr (S == ImpactStage::other_solvers) {
    friction::impact_other_solvers(in, fr, arena);
  } else {
    done(friction::impact_finish(in, fr, out, fo, arena));
  }
  arena.release(mark);
}

// Part P of an advance (the cuda backend's kernels call this): begin, control (true when it
// requested a service), or a service.
template <EventDrivenPhase Part, class T, class System, class Controls>
OBLIQ_HD bool event_driven_phase(const System& sys, const StepParams<T>& p, const Controls& c, T interval,
                                 const StateView<T>& s, Arena<T>& arena) {
  if constexpr (Part == EventDrivenPhase::begin) {
    event_driven_begin(sys, c, interval, s, arena);
    return false;
  } else if constexpr (Part == EventDrivenPhase::control) {
    return event_driven_control(sys, p, c, interval, s, arena);
  } else if constexpr (Part == EventDrivenPhase::contact_law) {
    event_driven_contact_law(sys, c, arena);
    return false;
  } else if constexpr (staged(Part)) {
    if constexpr (service_of(Part) == EventDrivenService::acceleration)
      event_driven_acceleration_stage<stage_of(Part)>(sys, p, c, s, arena);
    else
      event_driven_impact_stage<stage_of(Part)>(sys, p, c, s, arena);
    return false;
  } else {
    constexpr EventDrivenService S = service_of(Part);
    constexpr LawPass pass = concludes(Part) ? LawPass::conclude : LawPass::prepare;
    using friction::ImpactStage;
    // With friction (the frictional configurations' controls) the acceleration's and the impact's
    // conclude passes are those of their frictionless stages.
    if constexpr (!frictionless_controls<Controls> && concludes(Part) && S == EventDrivenService::acceleration)
      event_driven_acceleration_stage<ImpactStage::frictionless, pass>(sys, p, c, s, arena);
    else if constexpr (!frictionless_controls<Controls> && concludes(Part) && S == EventDrivenService::impact)
      event_driven_impact_stage<ImpactStage::frictionless, pass>(sys, p, c, s, arena);
    else
      event_driven_service<S, pass>(sys, p, c, s, arena);
    return false;
  }
}

// Advances one scenario by `interval` (events in between are resolved where they happen): begin,
// then control and the service it requests, until control requests none.
template <class T, class System, class Controls>
OBLIQ_HD Status event_driven_advance(const System& sys, const StepParams<T>& p, const Controls& c, T interval,
                                     const StateView<T>& s, Arena<T>& arena) {
  using P = EventDrivenProgress<T>;
  event_driven_begin(sys, c, interval, s, arena);
  // The frame carved once for the whole advance (the parts carve it each on the device).
  const std::size_t mark = arena.mark();
  const EventDrivenFrame<T> f = take_event_driven_frame(sys, frictional(c, sys.m_u()), arena);
  while (!arena.overflow && event_driven_control(sys, p, c, interval, s, arena, &f)) {
    switch (EventDrivenService(f.progress.get(P::service))) {
      case EventDrivenService::acceleration:
        event_driven_service<EventDrivenService::acceleration>(sys, p, c, s, arena, &f);
        break;
      case EventDrivenService::impact:
        event_driven_service<EventDrivenService::impact>(sys, p, c, s, arena, &f);
        break;
      default:
        event_driven_service<EventDrivenService::projection>(sys, p, c, s, arena, &f);
    }
  }
  arena.release(mark);
  return *s.status;
}

}  // namespace obliq::sim

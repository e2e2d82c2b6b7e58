// obliq/sim/moreau_jean.hpp: one step of Moreau-Jean's time stepping (theta method), one
// scenario (docs/simulator.md "Moreau-Jean").
//
// At (q_k, v_k), with M, h, A, phi evaluated there and step h:
//   predicted gaps     g_i = phi_i + gamma h (A_u v_k)_i; row i takes part iff g_i <= 0
//   free velocity      v_f = v_k + M^-1 h (u - h(q_k, v_k))       (the applied impulse h (u - h))
//   impact law         v_{k+1} = the core's impact (docs/math.md (42) targets, (55) energy
//                      test): min 1/2 |v - v_f|_M^2 with A_b v = 0 and, on the rows taking part,
//                      A_u v = -e A_u v_k (projection law) or A_u v >= -e A_u v_k with
//                      complementary impulses (complementarity law: the velocity-level LCP)
//   position           q_{k+1} = q_k (+) h ((1 - theta) v_k + theta v_{k+1})
//
// The contact problem is one call, impact() of include/obliq/core/mechanics/impact.hpp, with the
// predicted gaps as its gaps (gap_tol 0) and no velocity condition on the candidates; the
// complementarity law's LCP first tries the rows that took part in the last step as its active
// set (ScenarioView::warm_active: no pivot when they still carry the impulses). With
// friction (some mu != 0, docs/simulator.md "Friction") it is the core's frictional impact
// instead, include/obliq/core/friction/impact.hpp, on the same rows plus their tangent rows:
// Coulomb's law between the impulses and u_N = A_u v_{k+1} + e A_u v_k, u_T = A_t v_{k+1}
// (docs/friction.md (F9) with e_t = 0: Siconos's MoreauJeanOSI with NewtonImpactFrictionNSL),
// solved and certified per contact (docs/friction.md (F5)); a failed certificate is the
// scenario's status. mu exactly 0 everywhere: the frictionless call, bit for bit. No
// allocation: scratch from the arena, released on return.
#pragma once

#include <cstdint>

#include "obliq/core/friction/impact.hpp"
#include "obliq/core/mechanics/impact.hpp"
#include "obliq/sim/state.hpp"
#include "obliq/sim/system.hpp"

namespace obliq::sim {

// dim: 0 without friction, else the contacts' dimension (2 or 3); facets: the pyramid's.
template <class T>
OBLIQ_HD std::size_t moreau_jean_workspace(int nq, int nv, int m_b, int m_u, std::size_t system_ws, int dim = 0,
                                           int facets = 8) {
  const int m = m_b + m_u;
  const std::size_t t = dim > 0 ? std::size_t(dim - 1) * m_u : 0;  // tangent rows
  const std::size_t contact = dim > 0 ? friction::impact_workspace_size<T>(nv, m_b, m_u, dim, facets) + t + 8
                                      : impact_workspace_size<T>(nv, m_b, m_u);
  return system_eval_size<T>(nv, m) + t * nv + 4 * std::size_t(nv) + std::size_t(nq) + 2 * std::size_t(m) + m_u + 8 +
         max_(system_ws, contact) + 16;
}

// The scenario's view of the impact problem at (q_k, v_k): the system's rows split bilateral /
// unilateral, `phi_u` and `i_u` given by the caller.
template <class T>
OBLIQ_HD ScenarioView<T> impact_problem(const SystemEval<T>& ev, int m_b, int m_u, VecView<const T> v,
                                        VecView<const T> phi_u, VecView<const T> i_u, VecView<const T> e,
                                        const StepParams<T>& p) {
  ScenarioView<T> in;
  in.n = ev.M.rows;
  in.m_b = m_b;
  in.m_u = m_u;
  in.M = ev.M.as_const();
  in.parent = ev.parent;
  in.qdot = v;
  in.h = ev.h.as_const();
  in.i_u = i_u;
  in.A_b = ev.A.as_const().top_rows(m_b);
  in.A_u = ev.A.as_const().block(m_b, 0, m_u, in.n);
  in.phi_u = phi_u;
  in.Adot_qdot = ev.Adot_qdot.as_const();
  in.e = e;
  in.law = p.law;
  in.lcp_solver = p.lcp_solver;
  in.gap_tol = p.gap_tol;
  in.vel_tol = p.vel_tol;
  return in;
}

// Counts the rows of `active` that approach, (A_u v)_i < -vel_tol.
template <class T>
OBLIQ_HD int approaching_rows(MatView<const T> A_u, VecView<const T> v, VecView<const std::uint8_t> active, T vel_tol) {
  int c = 0;
  for (int i = 0; i < A_u.rows; ++i) c += active[i] && dense::dot(A_u.row(i), v) < -vel_tol;
  return c;
}

// The step in three phases, each a per-scenario function of its own (the cuda backend runs each
// as its own kernel over a chunk, cuda/sim_body.hpp, so that ptxas allocates registers per
// phase), which communicate only through the scenario's frame: the first elements of its arena,
// carved the same way by every phase (take_moreau_jean_frame). Anything a phase takes after the
// frame is its own scratch, released on return; a later phase must not read it. A phase that
// fails records the scenario's status; a phase does nothing for a scenario whose status is not
// ok. moreau_jean_step is the three in sequence.
// The contact solve is itself a sequence of stages, the frictional impact's
// (friction::ImpactStage: setup, frictionless, newton, other solvers, finish), which the cuda
// backend's frictional configurations run as kernels of their own (contact_setup ..
// contact_finish): between them the contact solve's frame (take_contact_frame) and the impact's
// (friction::take_impact_frame) follow the step's frame; moreau_jean_contact_solve runs the
// same stages in one call (friction::impact), the frames carved once.
enum class MoreauJeanPhase : int {
  evaluate = 0,       // (a) the system at (q_k, v_k), the free impulse, the predicted gaps
  contact_solve = 1,  // (b) the impact law: v_{k+1}, the rows taking part (all its stages)
  finish = 2,         // (c) the counters, q_{k+1}, v_{k+1}, t_{k+1}
  contact_setup = 3,          // (b), friction::ImpactStage::setup
  contact_frictionless = 4,   // (b), friction::ImpactStage::frictionless (and scenarios without friction)
  contact_newton = 5,         // (b), friction::ImpactStage::newton
  contact_other_solvers = 6,  // (b), friction::ImpactStage::other_solvers
  contact_finish = 7,         // (b), friction::ImpactStage::finish
};

// The impact stage of a contact_* phase.
constexpr friction::ImpactStage impact_stage_of(MoreauJeanPhase P) {
  return friction::ImpactStage(int(P) - int(MoreauJeanPhase::contact_setup));
}

// What the phases hand each other, at the start of the scenario's arena.
template <class T> struct MoreauJeanFrame {
  SystemEval<T> ev;   // (a) -> (b), (c): M, h, A, phi, Adot v at (q_k, v_k); A_t with friction
  VecView<T> i_u;     // (a) -> (b): the applied impulse h (u - h(q_k, v_k))
  VecView<T> g_u;     // (a) -> (b): the predicted gaps g_i = phi_i + gamma h (A_u v_k)_i
  VecView<T> v_plus;  // (b) -> (c): v_{k+1}
};

// The frame's elements (friction: with the tangent rows A_t, (dim - 1) m_u x nv).
template <class T> OBLIQ_HD std::size_t moreau_jean_frame_size(int nv, int m_b, int m_u, int dim) {
  const std::size_t t = dim > 0 ? std::size_t(dim - 1) * m_u : 0;
  return system_eval_size<T>(nv, m_b + m_u) + t * nv + 2 * std::size_t(nv) + std::size_t(m_u);
}

// The frame, carved from the arena's current mark (the same views for every phase of a step;
// the tangent rows only when the scenario is frictional). arena.overflow when it does not fit.
template <class T, class System>
OBLIQ_HD MoreauJeanFrame<T> take_moreau_jean_frame(const System& sys, bool with_friction, Arena<T>& arena) {
  const int nv = sys.nv(), m_u = sys.m_u();
  MoreauJeanFrame<T> f;
  f.ev = take_system_eval(sys, arena);
  if (with_friction) f.ev.A_t = arena.mat((sys.dim() - 1) * m_u, nv);
  f.i_u = arena.vec(nv);
  f.g_u = arena.vec(m_u);
  f.v_plus = arena.vec(nv);
  return f;
}

// (a) Evaluate: M, h, A, phi (and A_t with friction) at (q_k, v_k) by the system, then
//   free impulse     i_u = h (u - h(q_k, v_k))           (v_f = v_k + M^-1 i_u)
//   predicted gaps   g_i = phi_i + gamma h (A_u v_k)_i;  row i takes part iff g_i <= 0
template <class T, class System>
OBLIQ_HD Status moreau_jean_evaluate(const System& sys, const StepParams<T>& p, const ControlView<T>& c, T h,
                                     const StateView<T>& s, Arena<T>& arena) {
  if (*s.status != Status::ok) return *s.status;
  const int nv = sys.nv(), m_b = sys.m_b(), m_u = sys.m_u();
  const bool with_friction = frictional(c, m_u);
  const std::size_t mark = arena.mark();
  const MoreauJeanFrame<T> f = take_moreau_jean_frame(sys, with_friction, arena);
  if (arena.overflow) return *s.status = Status::bad_shape;
  const VecView<const T> v = s.v.as_const();
  const Status st = sys.evaluate(s.q.as_const(), v, f.ev, arena);
  if (st == Status::ok) {
    for (int i = 0; i < nv; ++i) f.i_u[i] = h * (c.u[i] - f.ev.h[i]);
    for (int i = 0; i < m_u; ++i) {
      T w = dense::dot(f.ev.A.row(m_b + i), v);
      // With friction a resting row (|A v| <= vel_tol) predicts its gap as phi: the frictional
      // solver returns a held contact's normal velocity as zero to round-off only, of either sign.
      if (with_friction && abs_(w) <= p.vel_tol) w = T(0);
      f.g_u[i] = f.ev.phi[m_b + i] + p.gamma * h * w;
    }
  }
  arena.release(mark);
  return *s.status = st;
}

// What the contact solve's stages share after the step's frame: the impact's outputs beside
// v_{k+1} (the impulse, the multipliers, the energies; with friction the tangential reactions)
// and the rows that took part in the last step (the warm start's guess).
template <class T> struct ContactFrame {
  VecView<T> impulse, lambda, lambda_t;
  VecView<std::uint8_t> last_active;
  T* energies = nullptr;
};

template <class T>
OBLIQ_HD ContactFrame<T> take_contact_frame(int nv, int m_b, int m_u, int dim, bool with_friction, Arena<T>& arena) {
  ContactFrame<T> f;
  f.impulse = arena.vec(nv);
  f.lambda = arena.vec(m_b + m_u);
  f.last_active = take_flags(m_u, arena);
  f.energies = arena.take(3);
  if (with_friction) f.lambda_t = arena.vec((dim - 1) * m_u);
  return f;
}

// The elements of the contact solve's frame (and, with friction, the impact's frame after it).
template <class T> OBLIQ_HD std::size_t contact_frame_size(int nv, int m_b, int m_u, int dim) {
  const std::size_t base = std::size_t(nv) + std::size_t(m_b + m_u) + std::size_t(m_u) + 3;  // flags: a slot a row
  return dim > 0 ? base + std::size_t(dim - 1) * m_u + friction::impact_frame_size<T>(nv, m_b, m_u, dim) : base;
}

// The elements a phase hands the later ones: the step's frame; within the frictional contact
// solve's stages (after contact_setup .. contact_other_solvers) also the contact solve's frame
// and the impact's (dim: 0 without friction, else the contacts' dimension).
template <class T>
OBLIQ_HD std::size_t moreau_jean_handoff_size(int nv, int m_b, int m_u, int dim, MoreauJeanPhase after) {
  const std::size_t frame = moreau_jean_frame_size<T>(nv, m_b, m_u, dim);
  const bool within = int(after) >= int(MoreauJeanPhase::contact_setup) && after != MoreauJeanPhase::contact_finish;
  return within && dim > 0 ? frame + contact_frame_size<T>(nv, m_b, m_u, dim) : frame;
}

// The contact solve's problem, from the step's frame and the contact solve's (both carved from
// the arena's mark; arena.overflow when they do not fit): the impact problem at (q_k, v_k) with
// the predicted gaps as its gaps (gap_tol 0, no velocity condition), its outputs (v_{k+1} into
// the step's frame, the rows taking part into s.active; `consistent`: the caller's flag), and
// with friction the friction inputs and outputs. With the warm start, `keep_active` first copies
// s.active, the last step's rows, into the frame (the first stage that runs does).
template <class T> struct ContactProblem {
  ScenarioView<T> in;
  ImpactView<T> out;
  friction::FrictionView<T> fr;
  friction::FrictionOutView<T> fo;
};

template <class T, class System, class Controls>
OBLIQ_HD ContactProblem<T> contact_problem(const System& sys, const StepParams<T>& p, const Controls& c,
                                           const StateView<T>& s, bool with_friction, bool keep_active,
                                           std::uint8_t* consistent, Arena<T>& arena) {
  const int nv = sys.nv(), m_b = sys.m_b(), m_u = sys.m_u();
  const MoreauJeanFrame<T> f = take_moreau_jean_frame(sys, with_friction, arena);
  const ContactFrame<T> cf = take_contact_frame(nv, m_b, m_u, sys.dim(), with_friction, arena);
  ContactProblem<T> cp;
  if (arena.overflow) return cp;
  StepParams<T> rule = p;  // rows: predicted gap <= 0, whatever their velocity
  rule.gap_tol = T(0);
  rule.vel_tol = no_velocity_condition<T>();
  cp.in = impact_problem(f.ev, m_b, m_u, s.v.as_const(), f.g_u.as_const(), f.i_u.as_const(), c.e, rule);
  if (p.warm_start) {
    if (keep_active) dense::copy(s.active.as_const(), cf.last_active);  // s.active is the impact's output
    cp.in.warm_active = cf.last_active.as_const();                      // the rows that took part in the last step
  }
  cp.out = ImpactView<T>{f.v_plus, cf.impulse, cf.lambda, s.active, cf.energies, cf.energies + 1, consistent};
  cp.fr.dim = sys.dim();
  cp.fr.A_t = f.ev.A_t.as_const();
  cp.fr.mu = c.mu;
  cp.fr.formulation = p.friction;
  cp.fr.directions = p.facets;
  cp.fr.lcp_solver = p.friction_lcp_solver;
  cp.fo = friction::FrictionOutView<T>{cf.lambda_t, {}, nullptr};
  return cp;
}

// (b) Contact solve, stage S of the impact (friction::ImpactStage): the impact law on the rows
// with g_i <= 0 (and every bilateral row),
//   v_{k+1} = argmin 1/2 |v - v_f|_M^2  s.t.  A_b v = 0 and, on the rows taking part,
//   A_u v = -e A_u v_k (projection law) or A_u v >= -e A_u v_k, lambda >= 0, complementary
//   (complementarity law): the core's impact() with the predicted gaps as its gaps (gap_tol 0,
//   no velocity condition), or with friction its frictional impact on the same rows plus their
//   tangent rows (Coulomb's law, docs/friction.md (F9) with e_t = 0), stage by stage: the cuda
//   backend's frictional kernels. A scenario without friction is solved whole in the
//   frictionless stage (the others do nothing for it); a frictional one's status is set by the
//   finish stage. Writes v_{k+1} to the frame and the rows taking part to s.active; v_k is still
//   s.v.
template <friction::ImpactStage S, class T, class System, class Controls>
OBLIQ_HD void moreau_jean_contact_stage(const System& sys, const StepParams<T>& p, const Controls& c,
                                        const StateView<T>& s, Arena<T>& arena) {
  using friction::ImpactStage;
  if (*s.status != Status::ok) return;
  const bool with_friction = frictional(c, sys.m_u());
  if (!with_friction && S != ImpactStage::frictionless) return;
  const std::size_t mark = arena.mark();
  std::uint8_t consistent = 0;
  const bool first = S == (with_friction ? ImpactStage::setup : ImpactStage::frictionless);
  const ContactProblem<T> cp = contact_problem(sys, p, c, s, with_friction, first, &consistent, arena);
  if (arena.overflow) {
    arena.release(mark);
    *s.status = Status::bad_shape;
    return;
  }
  if constexpr (S == ImpactStage::setup) {
    friction::impact_setup(cp.in, cp.fr, cp.out, cp.fo, arena);
  } else if constexpr (S == ImpactStage::frictionless) {
    // One call of the frictionless impact serves the scenarios without friction and the
    // frictional ones whose contacts taking part have none, inlined (detail::impact_inline): the
    // stage is a kernel of its own, and solves nothing else (docs/cuda.md).
    const friction::ImpactProgress<T> pr = with_friction ? friction::take_impact_progress(arena)
                                                         : friction::ImpactProgress<T>{};
    if (!with_friction || (!arena.overflow && pr.stage_due() == ImpactStage::frictionless)) {
      const Status st = detail::impact_inline(cp.in, cp.out, arena);
      if (with_friction)
        pr.next(ImpactStage::finish, st);
      else
        *s.status = st;
    }
  } else if constexpr (S == ImpactStage::newton) {
    friction::impact_newton(cp.in, cp.fr, arena);
  } else if constexpr (S == ImpactStage::other_solvers) {
    friction::impact_other_solvers(cp.in, cp.fr, arena);
  } else {
    *s.status = friction::impact_finish(cp.in, cp.fr, cp.out, cp.fo, arena);
  }
  arena.release(mark);
}

// (b) Contact solve, whole (the cpu step and the frictionless kernels): the same problem, solved
// in one call, friction::impact (its stages in sequence) or the frictionless impact (inlined:
// in the frictionless kernels it is all the kernel solves). The same answers as the stages one
// by one (tests/cuda_emulation/simulator_phases_test.cpp), with the frames carved once.
template <class T, class System, class Controls>
OBLIQ_HD Status moreau_jean_contact_solve(const System& sys, const StepParams<T>& p, const Controls& c,
                                          const StateView<T>& s, Arena<T>& arena) {
  if (*s.status != Status::ok) return *s.status;
  const bool with_friction = frictional(c, sys.m_u());
  const std::size_t mark = arena.mark();
  std::uint8_t consistent = 0;
  const ContactProblem<T> cp = contact_problem(sys, p, c, s, with_friction, true, &consistent, arena);
  if (arena.overflow) {
    arena.release(mark);
    return *s.status = Status::bad_shape;
  }
  const Status st = with_friction ? friction::impact(cp.in, cp.fr, cp.out, cp.fo, arena)
                                  : detail::impact_inline(cp.in, cp.out, arena);
  arena.release(mark);
  return *s.status = st;
}

// (c) Finish: the counters (an impact: a row taking part that approaches, (A_u v_k)_i <
// -vel_tol; one LCP solve per step with rows taking part under the complementarity law), then
//   position   q_{k+1} = q_k (+) h ((1 - theta) v_k + theta v_{k+1})
// and v_{k+1}, t_{k+1} = t_k + h into the state (with the last impact's time and velocity).
template <class T, class System>
OBLIQ_HD Status moreau_jean_finish(const System& sys, const StepParams<T>& p, const ControlView<T>& c, T h,
                                   const StateView<T>& s, Arena<T>& arena) {
  if (*s.status != Status::ok) return *s.status;
  const int nv = sys.nv(), m_b = sys.m_b(), m_u = sys.m_u();
  const std::size_t mark = arena.mark();
  const MoreauJeanFrame<T> f = take_moreau_jean_frame(sys, frictional(c, m_u), arena);
  const VecView<T> v_theta = arena.vec(nv);
  if (arena.overflow) return *s.status = Status::bad_shape;
  const VecView<const T> v = s.v.as_const();
  const int hits = approaching_rows(f.ev.A.as_const().block(m_b, 0, m_u, nv), v, s.active.as_const(), p.vel_tol);
  int taking_part = 0;
  for (int i = 0; i < m_u; ++i) taking_part += s.active[i];
  *s.impacts += hits;
  *s.lcp_solves += (p.law == Law::complementarity && taking_part > 0) ? 1 : 0;
  for (int i = 0; i < nv; ++i) v_theta[i] = (T(1) - p.theta) * v[i] + p.theta * f.v_plus[i];
  sys.integrate(s.q.as_const(), v_theta.as_const(), h, s.q);
  if (hits > 0) {
    *s.last_impact_time = *s.t;
    dense::copy(f.v_plus.as_const(), s.last_impact_v);
  }
  dense::copy(f.v_plus.as_const(), s.v);
  *s.t += h;
  arena.release(mark);
  return *s.status;
}

// Phase P of one step (the cuda backend's phase kernels call this).
template <MoreauJeanPhase P, class T, class System, class Controls>
OBLIQ_HD Status moreau_jean_phase(const System& sys, const StepParams<T>& p, const Controls& c, T h,
                                  const StateView<T>& s, Arena<T>& arena) {
  if constexpr (P == MoreauJeanPhase::evaluate)
    return moreau_jean_evaluate(sys, p, c, h, s, arena);
  else if constexpr (P == MoreauJeanPhase::contact_solve)
    return moreau_jean_contact_solve(sys, p, c, s, arena);
  else if constexpr (P == MoreauJeanPhase::finish)
    return moreau_jean_finish(sys, p, c, h, s, arena);
  else {
    moreau_jean_contact_stage<impact_stage_of(P)>(sys, p, c, s, arena);
    return *s.status;
  }
}

// One step: the three phases in sequence, over the same arena.
template <class T, class System>
OBLIQ_HD Status moreau_jean_step(const System& sys, const StepParams<T>& p, const ControlView<T>& c, T h,
                                 const StateView<T>& s, Arena<T>& arena) {
  moreau_jean_evaluate(sys, p, c, h, s, arena);
  moreau_jean_contact_solve(sys, p, c, s, arena);
  return moreau_jean_finish(sys, p, c, h, s, arena);
}

}  // namespace obliq::sim

// obliq/core/friction/impact.hpp: an impact with Coulomb friction (docs/friction.md (F9)).
//
// Moreau's velocity-level impact law with Newton restitution on the normal (Moreau 1988,
// "Unilateral contact and dry friction in finite freedom dynamics"; Glocker 2013, "Energetic
// consistency conditions for standard impacts", Multibody Syst. Dyn. 29; the law of Siconos's
// Moreau-Jean scheme with NewtonImpactFrictionNSL): Coulomb's law (problem.hpp) holds between the
// impulses r and the velocities
//     u_N = (A_u qdot+)_i + e_i (A_u qdot-)_i,   u_T = (A_t qdot+) + e_t,i (A_t qdot-),
// so q = A v_f + (e_i (A_u qdot-)_i on the normal rows, e_t,i (A_t qdot-) on the tangent rows),
// v_f = qdot + M^-1 i_u. e_t = 0 (the default) is Siconos's law; e_t = e for one global e is
// Glocker's energetically consistent Newton-type law (docs/friction.md (F9)).
// The contacts taking part are every closed unilateral row (impact_contacts, setup.hpp;
// docs/friction.md (F10)): the impact candidates of the frictionless rule (candidates.hpp:
// approaching or resting) with Newton restitution as above, and the closed rows that separate
// before the impact with target 0 (u_N = (A_u qdot+)_i >= 0, u_T = A_t qdot+, no restitution),
// since a neighbour's tangential impulse can push them into approach. When no contact taking
// part has mu > 0 the frictionless core (mechanics/impact.hpp) answers, bit for bit, with its own
// candidates; friction needs the complementarity law (Status::friction_law otherwise).
// The answer is "ok" only when, beside the contact-space certificate (certificate.hpp, (F5)), its
// certificate from the scenario's data passes (answer_certificate.hpp, (F11)); else
// Status::not_certified.
// energy_consistent: 1/2 qdot+^T M qdot+ <= (1 + tol) 1/2 v_f^T M v_f (the contact impulse does not
// add energy), checked per scenario.
#pragma once

#include "obliq/core/friction/answer_certificate.hpp"
#include "obliq/core/friction/setup.hpp"
#include "obliq/core/mechanics/energy.hpp"
#include "obliq/core/mechanics/impact.hpp"

namespace obliq::friction {

// The impact in stages: per-scenario functions over the same arena, each of which the cuda
// backend's Simulator runs as a kernel of its own (docs/cuda.md "The frictional contact solve in
// stages"), so that no kernel keeps values across a call to a solver. impact() is the stages in
// sequence. A stage hands the later ones only the impact's frame, the first elements at the
// arena's mark (take_impact_frame): its progress (the stage due next, the status and report so
// far, the number of contacts taking part) and the contact-space system with v_f, q, r and u;
// whatever a stage takes after the frame is its own scratch. Every stage but finish does nothing
// unless it is the one due; finish always runs and returns the impact's status.
enum class ImpactStage : int {
  setup = 0,          // the checks, the contacts taking part (F10), the system W, v_f, q
  frictionless = 1,   // no contact taking part has mu > 0: the frictionless core answers
  newton = 2,         // the cone: Newton (cone_newton)
  other_solvers = 3,  // the pyramid's LCP, or the cone's fallbacks when Newton did not settle
  finish = 4,         // velocities, impulses, multipliers, the answer's certificate (F11), energies
};

// The progress of one impact's stages, in the frame's first slots (integers in scalar slots, as
// IndexView keeps them; the report's residual in a slot of its own).
template <class T> struct ImpactProgress {
  enum Slot : int { due, status, contacts, tree, method, iterations, worst, frictional, solved, count };
  IndexView<T> slots;
  T* residual = nullptr;
  OBLIQ_HD ImpactStage stage_due() const { return ImpactStage(slots.get(due)); }
  OBLIQ_HD Status current() const { return Status(slots.get(status)); }
  OBLIQ_HD void next(ImpactStage s, Status st) const {
    slots.set(due, int(s));
    slots.set(status, int(st));
  }
  OBLIQ_HD Report<T> report() const {
    Report<T> r;
    r.status = current();
    r.method = Method(slots.get(method));
    r.iterations = slots.get(iterations);
    r.residual = *residual;
    r.worst = slots.get(worst);
    r.frictional = slots.get(frictional) != 0;
    return r;
  }
  // A solver's report, and the stage due after it.
  OBLIQ_HD void record(const Report<T>& r, ImpactStage then) const {
    next(then, r.status);
    slots.set(method, int(r.method));
    slots.set(iterations, r.iterations);
    *residual = r.residual;
    slots.set(worst, r.worst);
    slots.set(frictional, r.frictional ? 1 : 0);
    slots.set(solved, 1);
  }
};

// The impact's frame: the progress, then room for the system of every contact (m_u of them) with
// v_f, q, r, u, in which the system of the `contacts` taking part is carved.
template <class T> struct ImpactFrame {
  ImpactProgress<T> progress;
  System<T> s;
  VecView<T> v_f, q, r, u;
};

template <class T> OBLIQ_HD std::size_t impact_frame_size(int n, int m_b, int m_u, int dim) {
  const int m = m_b + dim * m_u;
  return std::size_t(ImpactProgress<T>::count) + 1 + system_workspace<T>(n, m) + std::size_t(n) + 3 * std::size_t(m);
}

template <class T> OBLIQ_HD std::size_t impact_workspace_size(int n, int m_b, int m_u, int dim, int directions) {
  const std::size_t progress = std::size_t(ImpactProgress<T>::count) + 1;
  return max_(progress + obliq::impact_workspace_size<T>(n, m_b, m_u),
              impact_frame_size<T>(n, m_b, m_u, dim) + 2 * std::size_t(n) + solve_workspace<T>(m_b, m_u, dim, directions) +
                  16);
}

// The progress at the arena's mark (the frame's first slots).
template <class T> OBLIQ_HD ImpactProgress<T> take_impact_progress(Arena<T>& arena) {
  ImpactProgress<T> pr;
  pr.slots = IndexView<T>{arena.take(std::size_t(ImpactProgress<T>::count)), ImpactProgress<T>::count, arena.stride};
  pr.residual = arena.take(1);
  return pr;
}

// The whole frame at the arena's mark, the system carved for `contacts` contacts (the progress's,
// from the newton stage on); the arena's mark left after the room for m_u contacts.
// arena.overflow when it does not fit.
template <class T>
OBLIQ_HD ImpactFrame<T> take_impact_frame(const ScenarioView<T>& in, const FrictionView<T>& fr, int contacts,
                                          Arena<T>& arena) {
  const std::size_t start = arena.mark();
  ImpactFrame<T> f;
  f.progress = take_impact_progress(arena);
  f.s = take_system(in.n, in.m_b, contacts, fr.dim, arena);
  const int m = f.s.size();
  f.v_f = arena.vec(in.n);
  f.q = arena.vec(m);
  f.r = arena.vec(m);
  f.u = arena.vec(m);
  const std::size_t end = start + impact_frame_size<T>(in.n, in.m_b, in.m_u, fr.dim);
  if (!arena.overflow && arena.mark() <= end) arena.take(end - arena.mark());
  return f;
}

// The frame as the setup stage left it, for the stages after it: the system of the progress's
// contacts, with M's factor (its storage and whether it is the tree's, mass_factor.hpp).
template <class T>
OBLIQ_HD ImpactFrame<T> resume_impact_frame(const ScenarioView<T>& in, const FrictionView<T>& fr,
                                            const ImpactProgress<T>& pr, Arena<T>& arena) {
  ImpactFrame<T> f = take_impact_frame(in, fr, pr.slots.get(ImpactProgress<T>::contacts), arena);
  f.s.mass.F = f.s.mass_storage.as_const();
  f.s.mass.parent = pr.slots.get(ImpactProgress<T>::tree) != 0 ? in.parent : nullptr;
  return f;
}

// Stage setup: the checks, the contacts taking part, and either the frictionless answer due (no
// contact taking part has mu > 0) or the system W = A M^-1 A^T with v_f = qdot + M^-1 i_u and
// q = A v_f plus the restitution targets: the solve due.
template <class T>
OBLIQ_HD void impact_setup(const ScenarioView<T>& in, const FrictionView<T>& fr, const ImpactView<T>& out,
                           const FrictionOutView<T>& fo, Arena<T>& arena) {
  const std::size_t mark = arena.mark();
  dense::fill(fo.lambda_t, T(0));
  const ImpactProgress<T> pr = take_impact_progress(arena);
  if (arena.overflow) return;  // impact_finish says bad_shape
  pr.slots.set(ImpactProgress<T>::solved, 0);
  Status st = validate(in, /*dynamics=*/false);
  if (st == Status::ok) st = validate_friction(in, fr, false);
  const int k = st == Status::ok ? impact_contacts(in, out.active) : 0;
  if (st == Status::ok && !has_friction(in, fr, out.active.as_const())) {
    if (fo.report) *fo.report = Report<T>{};
    pr.next(ImpactStage::frictionless, Status::ok);
  } else if (st != Status::ok || in.law != Law::complementarity) {
    pr.next(ImpactStage::finish, st != Status::ok ? st : Status::friction_law);
  } else {
    arena.release(mark);
    ImpactFrame<T> f = take_impact_frame(in, fr, k, arena);
    pr.slots.set(ImpactProgress<T>::contacts, k);
    st = arena.overflow ? Status::bad_shape : build_system(in, fr, out.active.as_const(), f.s);
    if (st == Status::ok) {
      pr.slots.set(ImpactProgress<T>::tree, f.s.mass.tree() ? 1 : 0);
      dense::copy(in.i_u, f.v_f);
      if (dense::max_abs(in.i_u) != T(0)) solve_mass(f.s.mass, f.v_f);
      dense::axpy(T(1), in.qdot, f.v_f);
      dense::gemv(T(1), f.s.A.as_const(), f.v_f.as_const(), T(0), f.q);
      for (int c = 0; c < k; ++c) {  // Newton restitution on the candidates' normal (and tangent) rows
        const int r = f.s.m_b + f.s.dim * c, i = f.s.row_of.get(c);
        if (!is_impact_candidate(in, i)) continue;  // separating before the impact: target 0 (F10)
        f.q[r] += in.e[i] * dense::dot(in.A_u.row(i), in.qdot);
        if (fr.e_t.data != nullptr)
          for (int j = 0; j < f.s.dim - 1; ++j)
            f.q[r + 1 + j] += fr.e_t[i] * dense::dot(fr.A_t.row((f.s.dim - 1) * i + j), in.qdot);
      }
    }
    pr.next(st != Status::ok ? ImpactStage::finish
                             : (fr.formulation == Formulation::cone ? ImpactStage::newton : ImpactStage::other_solvers),
            st);
  }
  arena.release(mark);
}

// Stage frictionless: the frictionless core's impact() (mechanics/impact.hpp) on the scenario,
// with its own candidates. (The Simulator's contact solve calls it inlined, for its scenarios
// without friction as well: include/obliq/sim/moreau_jean.hpp.)
template <class T>
OBLIQ_HD void impact_frictionless(const ScenarioView<T>& in, const ImpactView<T>& out, Arena<T>& arena) {
  const std::size_t mark = arena.mark();
  const ImpactProgress<T> pr = take_impact_progress(arena);
  if (!arena.overflow && pr.stage_due() == ImpactStage::frictionless)
    pr.next(ImpactStage::finish, obliq::impact(in, out, arena));
  arena.release(mark);
}

// The problem of the frame's system; `slide`: the dynamics' sliding directions (their first
// rows, one per contact taking part), none for an impact.
template <class T>
OBLIQ_HD Problem<T> frame_problem(const ImpactFrame<T>& f, MatView<const T> slide) {
  return make_problem(f.s, f.q.as_const(), slide.data != nullptr ? slide.top_rows(f.s.k) : MatView<const T>{});
}

// Stage newton: the cone's Newton runs (cone_newton) on the system's problem; then finish, or
// other_solvers (the cone's fallbacks) when Newton did not settle. The dynamics' solve stage too
// (dynamics.hpp), with its sliding directions.
template <class T>
OBLIQ_HD void impact_newton(const ScenarioView<T>& in, const FrictionView<T>& fr, Arena<T>& arena,
                            MatView<const T> slide = {}) {
  const std::size_t mark = arena.mark();
  const ImpactProgress<T> pr = take_impact_progress(arena);
  if (!arena.overflow && pr.stage_due() == ImpactStage::newton) {
    arena.release(mark);
    const ImpactFrame<T> f = resume_impact_frame(in, fr, pr, arena);
    const Problem<T> p = frame_problem(f, slide);
    Report<T> rep;
    const bool settled = cone_newton(p, f.r, f.u, arena, rep);
    rep.frictional = true;
    pr.record(rep, settled ? ImpactStage::finish : ImpactStage::other_solvers);
  }
  arena.release(mark);
}

// Stage other_solvers: the pyramid's LCP (solve_pyramid), or the cone's fallbacks from Newton's
// last iterate and report (cone_fallbacks); then finish. The dynamics' too, as impact_newton.
// Forced inline on the device: two kernels of the event-driven frictional configurations call
// it, and out of line it kept spills of its own (docs/cuda.md).
template <class T>
OBLIQ_HD OBLIQ_FORCEINLINE void impact_other_solvers(const ScenarioView<T>& in, const FrictionView<T>& fr,
                                                     Arena<T>& arena, MatView<const T> slide = {}) {
  const std::size_t mark = arena.mark();
  const ImpactProgress<T> pr = take_impact_progress(arena);
  if (!arena.overflow && pr.stage_due() == ImpactStage::other_solvers) {
    arena.release(mark);
    const ImpactFrame<T> f = resume_impact_frame(in, fr, pr, arena);
    const Problem<T> p = frame_problem(f, slide);
    Report<T> rep = fr.formulation == Formulation::pyramid
                        ? solve_pyramid(p, fr.directions, f.r, f.u, arena, fr.lcp_solver)
                        : cone_fallbacks(p, f.r, f.u, arena, pr.report());
    rep.frictional = true;
    pr.record(rep, ImpactStage::finish);
  }
  arena.release(mark);
}

// Stage finish: after a solve that succeeded, qdot+ = v_f + M^-1 A^T r, the impulse and the
// multipliers (setup.hpp's finish), "ok" only when the answer's certificate from the scenario's
// data passes (F11), and the energies. Returns the impact's status; on a failed one every output
// is zero (never NaN).
template <class T>
OBLIQ_HD Status impact_finish(const ScenarioView<T>& in, const FrictionView<T>& fr, const ImpactView<T>& out,
                              const FrictionOutView<T>& fo, Arena<T>& arena) {
  const std::size_t mark = arena.mark();
  const ImpactProgress<T> pr = take_impact_progress(arena);
  Status st = arena.overflow ? Status::bad_shape : pr.current();
  if (!arena.overflow && pr.slots.get(ImpactProgress<T>::solved) != 0) {
    if (fo.report) *fo.report = pr.report();
    if (st == Status::ok) {
      arena.release(mark);
      const ImpactFrame<T> f = resume_impact_frame(in, fr, pr, arena);
      const VecView<T> scratch = arena.vec(in.n);
      if (arena.overflow) {
        st = Status::bad_shape;
      } else {
        finish(f.s, f.v_f.as_const(), f.r.as_const(), out.qdot_plus, out.impulse, out.lambda, fo.lambda_t);
        if (!certified(impact_answer_certificate(in, fr, out.qdot_plus.as_const(), out.lambda.as_const(),
                                                 out.active.as_const(), fo.lambda_t.as_const(), scratch))) {
          if (fo.report) fo.report->status = Status::not_certified;
          st = Status::not_certified;
        } else {
          *out.kinetic_energy_pre = kinetic_energy(f.s.mass, in.qdot);
          *out.kinetic_energy_post = kinetic_energy(f.s.mass, out.qdot_plus.as_const());
          const T kf = kinetic_energy(f.s.mass, f.v_f.as_const());
          *out.energy_consistent = *out.kinetic_energy_post <= kf + scalar_traits<T>::energy_tol * kf ? 1 : 0;
        }
      }
    }
  }
  arena.release(mark);
  if (st != Status::ok) {
    dense::fill(out.qdot_plus, T(0));
    dense::fill(out.impulse, T(0));
    dense::fill(out.lambda, T(0));
    dense::fill(fo.lambda_t, T(0));
    *out.kinetic_energy_pre = *out.kinetic_energy_post = T(0);
    *out.energy_consistent = 0;
  }
  return st;
}

// Solves one impact with friction: the stages in sequence. On a failed status every output is
// zero (never NaN).
// Out of line on the device: inlined, its caller's values spill around the solve (docs/cuda.md).
template <class T>
OBLIQ_HD OBLIQ_NOINLINE Status impact(const ScenarioView<T>& in, const FrictionView<T>& fr, const ImpactView<T>& out,
                                      const FrictionOutView<T>& fo, Arena<T>& arena) {
  impact_setup(in, fr, out, fo, arena);
  impact_frictionless(in, out, arena);
  impact_newton(in, fr, arena);
  impact_other_solvers(in, fr, arena);
  return impact_finish(in, fr, out, fo, arena);
}

}  // namespace obliq::friction

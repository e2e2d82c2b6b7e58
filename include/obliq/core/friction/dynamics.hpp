// obliq/core/friction/dynamics.hpp: constrained accelerations and contact forces with Coulomb
// friction (docs/friction.md (F7)).
//
// The candidate contacts are the closed, resting rows of the frictionless dynamics
// (candidates.hpp). Contact c slides when its tangential velocity v_T = A_t qdot has
// |v_T| > vel_tol: then r_T = -mu r_N v_T / |v_T| (a prescribed sliding direction, problem.hpp);
// otherwise it sticks or starts to slide: Coulomb's law between the forces r and the
// accelerations u = A qddot + Adot qdot (the same cone problem as at the impact level, with
// u_T the tangential acceleration). q = A a_f + (Adot qdot), a_f = M^-1 (u - h).
// Painleve: when every candidate contact slides, there are no bilateral rows and at most
// painleve_max_rows contacts, the normal LCP's solutions are counted (painleve.hpp): none gives
// Status::infeasible, several Status::ambiguous; with sticking contacts as well, or more contacts,
// a certified answer is returned without a uniqueness claim.
// When no candidate has mu > 0 the frictionless core (mechanics/dynamics.hpp) answers, bit for bit.
#pragma once

#include <cmath>

#include "obliq/core/friction/impact.hpp"
#include "obliq/core/friction/setup.hpp"
#include "obliq/core/mechanics/dynamics.hpp"

namespace obliq::friction {

// The dynamics in stages, as the impact (impact.hpp): setup, frictionless, the solve's two
// stages (impact_newton and impact_other_solvers, with the contacts' sliding directions), finish;
// each a per-scenario function over the same arena, which the cuda backend's event-driven
// Simulator runs as a kernel of its own. They hand each other the contacts' sliding directions,
// `slide` (m_u x (dim - 1), carved by the caller before the arena's mark), and the impact's
// frame at the mark (take_impact_frame: the progress, the system, a_f in its v_f, q, r, u).
// dynamics() is the stages in sequence.

template <class T> OBLIQ_HD std::size_t dynamics_workspace_size(int n, int m_b, int m_u, int dim, int directions) {
  return max_(obliq::dynamics_workspace_size<T>(n, m_b, m_u) + std::size_t(ImpactProgress<T>::count) + 1,
              impact_frame_size<T>(n, m_b, m_u, dim) + std::size_t(m_u) * (dim - 1) + std::size_t(n) +
                  solve_workspace<T>(m_b, m_u, dim, directions) + 16);
}

// Stage setup: the checks, the candidate contacts, and either the frictionless answer due (no
// candidate has mu > 0) or the system with a_f = M^-1 (u - h), q = A a_f + (Adot qdot) and the
// sliding directions (given, or read from |A_t qdot| > vel_tol); when every contact slides (no
// bilateral rows, at most painleve_max_rows contacts) the count of the normal LCP's solutions
// (none: infeasible, several: ambiguous); then the solve due.
template <class T>
OBLIQ_HD void dynamics_setup(const ScenarioView<T>& in, const FrictionView<T>& fr, const DynamicsView<T>& out,
                             const FrictionOutView<T>& fo, MatView<T> slide, Arena<T>& arena) {
  const std::size_t mark = arena.mark();
  dense::fill(fo.lambda_t, T(0));
  dense::fill(fo.sliding, std::uint8_t(0));
  const ImpactProgress<T> pr = take_impact_progress(arena);
  if (arena.overflow) return;  // dynamics_finish says bad_shape
  pr.slots.set(ImpactProgress<T>::solved, 0);
  Status st = validate(in, /*dynamics=*/true);
  if (st == Status::ok) st = validate_friction(in, fr, true);
  int k = 0;
  if (st == Status::ok) st = dynamics_candidates(in, out.active, k);
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
      const int n = in.n, m = f.s.size(), d = f.s.dim;
      const VecView<T> a_f = f.v_f;
      for (int i = 0; i < n; ++i) a_f[i] = in.u[i] - in.h[i];
      solve_mass(f.s.mass, a_f);
      dense::gemv(T(1), f.s.A.as_const(), a_f.as_const(), T(0), f.q);
      for (int i = 0; i < f.s.m_b; ++i) f.q[i] += in.Adot_qdot[i];
      int sliding = 0;
      for (int c = 0; c < k; ++c) {
        const int r = f.s.m_b + d * c, i = f.s.row_of.get(c);
        f.q[r] += in.Adot_qdot[in.m_b + i];
        T v2 = T(0);
        for (int j = 0; j < d - 1; ++j) {
          if (fr.Adot_qdot_t.data != nullptr) f.q[r + 1 + j] += fr.Adot_qdot_t[(d - 1) * i + j];
          slide(c, j) = fr.slide.data != nullptr ? fr.slide(i, j) : dense::dot(fr.A_t.row((d - 1) * i + j), in.qdot);
          v2 += slide(c, j) * slide(c, j);
        }
        const T v = std::sqrt(v2);
        const bool sl = (fr.slide.data != nullptr ? v > T(0) : v > in.vel_tol) && f.s.mu[c] > T(0);
        for (int j = 0; j < d - 1; ++j) slide(c, j) = sl ? slide(c, j) / v : T(0);
        sliding += sl;
        if (fo.sliding.size > 0) fo.sliding[i] = sl ? 1 : 0;
      }
      if (sliding == k && f.s.m_b == 0 && k <= painleve_max_rows) {
        // Every contact slides: the LCP of the pyramid formulation has one variable per contact.
        MatView<T> Mn = arena.mat(k, k);
        VecView<T> qn = arena.vec(k), col = arena.vec(m);
        if (arena.overflow) {
          st = Status::bad_shape;
        } else {
          for (int b = 0; b < k; ++b) {  // Mn(a, b) = u_N,a per unit r_N,b: W (e_N - mu s)
            const int fb = d * b;
            for (int i = 0; i < m; ++i) {
              T t = f.s.W(i, fb);
              for (int j = 0; j < d - 1; ++j) t -= f.s.mu[b] * slide(b, j) * f.s.W(i, fb + 1 + j);
              col[i] = t;
            }
            for (int a = 0; a < k; ++a) Mn(a, b) = col[d * a];
            qn[b] = f.q[d * b];
          }
          const int count = count_lcp_solutions(Mn.as_const(), qn.as_const(), arena);
          if (count == 0) st = Status::infeasible;
          if (count >= 2) st = Status::ambiguous;
        }
      }
    }
    pr.next(st != Status::ok ? ImpactStage::finish
                             : (fr.formulation == Formulation::cone ? ImpactStage::newton : ImpactStage::other_solvers),
            st);
  }
  arena.release(mark);
}

// Every output zero (a failed status's outputs).
template <class T> OBLIQ_HD void clear_dynamics(const DynamicsView<T>& out, const FrictionOutView<T>& fo) {
  dense::fill(out.qddot, T(0));
  dense::fill(out.lambda, T(0));
  dense::fill(fo.lambda_t, T(0));
}

// Stage frictionless: the frictionless core's dynamics() (mechanics/dynamics.hpp).
template <class T> OBLIQ_HD void dynamics_frictionless(const ScenarioView<T>& in, const DynamicsView<T>& out, Arena<T>& arena) {
  const std::size_t mark = arena.mark();
  const ImpactProgress<T> pr = take_impact_progress(arena);
  if (!arena.overflow && pr.stage_due() == ImpactStage::frictionless)
    pr.next(ImpactStage::finish, obliq::dynamics(in, out, arena));
  arena.release(mark);
}

// Stage finish: after a solve that succeeded, qddot = a_f + M^-1 A^T r and the multipliers
// (setup.hpp's finish). Returns the dynamics' status; on a failed one every output is zero.
template <class T>
OBLIQ_HD Status dynamics_finish(const ScenarioView<T>& in, const FrictionView<T>& fr, const DynamicsView<T>& out,
                                const FrictionOutView<T>& fo, Arena<T>& arena) {
  const std::size_t mark = arena.mark();
  const ImpactProgress<T> pr = take_impact_progress(arena);
  Status st = arena.overflow ? Status::bad_shape : pr.current();
  if (!arena.overflow && pr.slots.get(ImpactProgress<T>::solved) != 0) {
    if (fo.report) *fo.report = pr.report();
    if (st == Status::ok) {
      arena.release(mark);
      const ImpactFrame<T> f = resume_impact_frame(in, fr, pr, arena);
      const VecView<T> force = arena.vec(in.n);  // A^T r (finish's impulse argument; not an output here)
      if (arena.overflow)
        st = Status::bad_shape;
      else
        finish(f.s, f.v_f.as_const(), f.r.as_const(), out.qddot, force, out.lambda, fo.lambda_t);
    }
  }
  arena.release(mark);
  if (st != Status::ok) clear_dynamics(out, fo);
  return st;
}

// Solves one scenario's dynamics with friction: the stages in sequence. On a failed status every
// output is zero.
template <class T>
OBLIQ_HD Status dynamics(const ScenarioView<T>& in, const FrictionView<T>& fr, const DynamicsView<T>& out,
                         const FrictionOutView<T>& fo, Arena<T>& arena) {
  const std::size_t mark = arena.mark();
  const MatView<T> slide = arena.mat(in.m_u, fr.dim - 1);
  if (arena.overflow) {
    arena.release(mark);
    clear_dynamics(out, fo);
    return Status::bad_shape;
  }
  dynamics_setup(in, fr, out, fo, slide, arena);
  dynamics_frictionless(in, out, arena);
  impact_newton(in, fr, arena, slide.as_const());
  impact_other_solvers(in, fr, arena, slide.as_const());
  const Status st = dynamics_finish(in, fr, out, fo, arena);
  arena.release(mark);
  return st;
}

}  // namespace obliq::friction

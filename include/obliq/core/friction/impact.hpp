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

template <class T> OBLIQ_HD std::size_t impact_workspace_size(int n, int m_b, int m_u, int dim, int directions) {
  const int m = m_b + dim * m_u;
  return max_(obliq::impact_workspace_size<T>(n, m_b, m_u),
              system_workspace<T>(n, m) + 2 * std::size_t(n) + solve_workspace<T>(m_b, m_u, dim, directions) + 16);
}

namespace detail {
template <class T>
OBLIQ_HD Status impact_solve(const ScenarioView<T>& in, const FrictionView<T>& fr, const ImpactView<T>& out,
                             const FrictionOutView<T>& fo, Arena<T>& arena) {
  Status st = validate(in, /*dynamics=*/false);
  if (st == Status::ok) st = validate_friction(in, fr, false);
  if (st != Status::ok) return st;
  const int k = impact_contacts(in, out.active);
  if (!has_friction(in, fr, out.active.as_const())) {
    if (fo.report) *fo.report = Report<T>{};
    return obliq::impact(in, out, arena);
  }
  if (in.law != Law::complementarity) return Status::friction_law;
  System<T> s;
  st = setup_system(in, fr, out.active.as_const(), k, s, arena);
  if (st != Status::ok) return st;
  const int n = in.n, m = s.size();
  VecView<T> v_f = arena.vec(n), q = arena.vec(m), r = arena.vec(m), u = arena.vec(m), scratch = arena.vec(n);
  if (arena.overflow) return Status::bad_shape;
  dense::copy(in.i_u, v_f);
  if (dense::max_abs(in.i_u) != T(0)) solve_mass(s.mass, v_f);
  dense::axpy(T(1), in.qdot, v_f);
  dense::gemv(T(1), s.A.as_const(), v_f.as_const(), T(0), q);
  for (int c = 0; c < k; ++c) {  // Newton restitution on the candidates' normal (and tangent) rows
    const int f = s.m_b + s.dim * c, i = s.row_of.get(c);
    if (!is_impact_candidate(in, i)) continue;  // separating before the impact: target 0 (F10)
    q[f] += in.e[i] * dense::dot(in.A_u.row(i), in.qdot);
    if (fr.e_t.data != nullptr)
      for (int j = 0; j < s.dim - 1; ++j)
        q[f + 1 + j] += fr.e_t[i] * dense::dot(fr.A_t.row((s.dim - 1) * i + j), in.qdot);
  }
  const Problem<T> p = make_problem(s, q.as_const(), MatView<const T>{});
  Report<T> rep = solve_problem(p, fr, r, u, arena);
  if (fo.report) *fo.report = rep;
  if (rep.status != Status::ok) return rep.status;
  finish(s, v_f.as_const(), r.as_const(), out.qdot_plus, out.impulse, out.lambda, fo.lambda_t);
  if (!certified(impact_answer_certificate(in, fr, out.qdot_plus.as_const(), out.lambda.as_const(),
                                           out.active.as_const(), fo.lambda_t.as_const(), scratch))) {
    if (fo.report) fo.report->status = Status::not_certified;
    return Status::not_certified;
  }
  *out.kinetic_energy_pre = kinetic_energy(s.mass, in.qdot);
  *out.kinetic_energy_post = kinetic_energy(s.mass, out.qdot_plus.as_const());
  const T kf = kinetic_energy(s.mass, v_f.as_const());
  *out.energy_consistent = *out.kinetic_energy_post <= kf + scalar_traits<T>::energy_tol * kf ? 1 : 0;
  return Status::ok;
}
}  // namespace detail

// Solves one impact with friction. On a failed status every output is zero (never NaN).
// Out of line on the device: inlined, its caller's values spill around the solve (docs/cuda.md).
template <class T>
OBLIQ_HD OBLIQ_NOINLINE Status impact(const ScenarioView<T>& in, const FrictionView<T>& fr, const ImpactView<T>& out,
                                      const FrictionOutView<T>& fo, Arena<T>& arena) {
  const std::size_t mark = arena.mark();
  dense::fill(fo.lambda_t, T(0));
  const Status st = detail::impact_solve(in, fr, out, fo, arena);
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

}  // namespace obliq::friction

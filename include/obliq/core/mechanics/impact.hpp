// obliq/core/mechanics/impact.hpp: post-impact velocity, impulses, energies and the energy
// test of one scenario (docs/math.md 5 and 6; docs/format.md `impact`).
#pragma once

#include "obliq/core/mechanics/candidates.hpp"
#include "obliq/core/mechanics/certificate.hpp"
#include "obliq/core/mechanics/contact_law.hpp"
#include "obliq/core/mechanics/energy.hpp"
#include "obliq/core/mechanics/validate.hpp"

namespace obliq {

// Arena elements impact() needs (an upper bound, checked by the tests over all shapes).
template <class T> OBLIQ_HD std::size_t impact_workspace_size(int n, int m_b, int m_u) {
  const int m = m_b + m_u;
  const std::size_t law = max_(complementarity_workspace<T>(n, m_b, m_u), std::size_t(2 * m + n));
  return std::size_t(n) * n + std::size_t(m) * n + 3 * std::size_t(m) + 2 * std::size_t(n) + delassus_workspace<T>(m, n) +
         max_(max_(law, energy_workspace<T>(m_u, m)), certificate_workspace<T>(n, m_b + m_u)) + 16;
}

// The outputs of a failed scenario: every number zero (never NaN).
template <class T> OBLIQ_HD void clear_impact(const ImpactView<T>& out) {
  dense::fill(out.qdot_plus, T(0));
  dense::fill(out.impulse, T(0));
  dense::fill(out.lambda, T(0));
  *out.kinetic_energy_pre = *out.kinetic_energy_post = T(0);
  *out.energy_consistent = 0;
}

namespace detail {
// impact() in three parts around the law's solve (ContactLawCall, contact_law.hpp). Before it:
// the checks, the candidates, M's factor and the stacked rows, Newton's targets, v_f and the
// Delassus factor of the rows.
template <class T>
OBLIQ_HD Status impact_prepare(const ScenarioView<T>& in, const ImpactView<T>& out, ContactLawCall<T>& call,
                               Arena<T>& arena) {
  const int n = in.n;
  Status st = validate(in, /*dynamics=*/false);
  if (st != Status::ok) return st;
  const int k = impact_candidates(in, out.active);

  call_scenario(in, call);
  ContactProblem<T>& p = call.p;
  st = setup_contact_problem(in, out.active.as_const(), k, p, arena);
  if (st != Status::ok) return st;
  const ConstraintRows<T>& rows = p.rows;
  const int m = rows.A.rows;
  call.x_f = arena.vec(n), call.t = arena.vec(m), call.lambda_rows = arena.vec(m), call.e_c = arena.vec(k);
  call.x = out.qdot_plus, call.impulse = out.impulse;
  if (arena.overflow) return Status::bad_shape;
  const VecView<T> v_f = call.x_f, t = call.t;
  // Newton's law targets (eq 21-22, 42): 0 on bilateral rows, -e_i (A_u q)_i on candidates.
  for (int i = 0; i < m; ++i) {
    const int row = rows.index.get(i);
    if (row < in.m_b) {
      t[i] = T(0);
    } else {
      call.e_c[i - in.m_b] = in.e[row - in.m_b];
      t[i] = -in.e[row - in.m_b] * dense::dot(rows.A.row(i), in.qdot);  // rows scaled by c: so is t
    }
  }
  // Free velocity v_f = q + M^-1 i_u (no solve when no impulse is applied, the common case).
  dense::copy(in.i_u, v_f);
  if (dense::max_abs(in.i_u) != T(0)) solve_mass(p.mass, v_f);
  dense::axpy(T(1), in.qdot, v_f);

  // The Delassus factor of all the candidate rows serves the energy test under either law,
  // and the projection law's solve.
  st = factor_delassus(rows.A.as_const(), p.mass, call.f, arena);
  call.factored = st == Status::ok;
  return st;
}

// After the law's solve (qdot+ and the impulse in): the multipliers, the certificate, the
// energies and the energy test.
template <class T>
OBLIQ_HD Status impact_conclude(const ScenarioView<T>& in, const ImpactView<T>& out, const ContactLawCall<T>& call,
                                Arena<T>& arena) {
  unscale_multipliers(call.p, call.lambda_rows);
  scatter_multipliers(call.p.rows, call.lambda_rows.as_const(), out.lambda);
  if (!certified(impact_certificate(in, out, arena))) return Status::not_certified;
  *out.kinetic_energy_pre = kinetic_energy(call.p.mass, in.qdot);
  *out.kinetic_energy_post = kinetic_energy(call.p.mass, out.qdot_plus.as_const());
  bool consistent = true;
  const Status st = energy_consistent(call.f, in.m_b, call.e_c.as_const(), consistent, arena);
  *out.energy_consistent = consistent ? 1 : 0;
  return st;
}

template <class T> OBLIQ_HD Status impact_solve(const ScenarioView<T>& in, const ImpactView<T>& out, Arena<T>& arena) {
  ContactLawCall<T> call;
  Status st = impact_prepare(in, out, call, arena);
  if (st == Status::ok) st = solve_contact_law(in, call, arena);
  if (st == Status::ok) st = impact_conclude(in, out, call, arena);
  return st;
}

// impact() inlined into its caller on the device: for a kernel that solves nothing else (the
// frictionless contact solve and the fused impact kernel), where ptxas then fits it without
// spills; beside the frictional solvers it stays out of line (impact(), docs/cuda.md).
template <class T> OBLIQ_HD Status impact_inline(const ScenarioView<T>& in, const ImpactView<T>& out, Arena<T>& arena) {
  const std::size_t mark = arena.mark();
  const Status st = impact_solve(in, out, arena);
  arena.release(mark);
  if (st != Status::ok) clear_impact(out);
  return st;
}
}  // namespace detail

// Solves one impact. An answer is "ok" only when its certificate (certificate.hpp) passes. On a
// failed status every output is zero (never NaN).
// Out of line on the device: inlined, its caller's values spill around the solve (docs/cuda.md).
template <class T>
OBLIQ_HD OBLIQ_NOINLINE Status impact(const ScenarioView<T>& in, const ImpactView<T>& out, Arena<T>& arena) {
  return detail::impact_inline(in, out, arena);
}

}  // namespace obliq

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
template <class T> OBLIQ_HD Status impact_solve(const ScenarioView<T>& in, const ImpactView<T>& out, Arena<T>& arena) {
  const int n = in.n;
  Status st = validate(in, /*dynamics=*/false);
  if (st != Status::ok) return st;
  const int k = impact_candidates(in, out.active);

  ContactProblem<T> p;
  st = setup_contact_problem(in, out.active.as_const(), k, p, arena);
  if (st != Status::ok) return st;
  const ConstraintRows<T>& rows = p.rows;
  const MassFactor<T>& L = p.mass;
  const int m = rows.A.rows;
  VecView<T> v_f = arena.vec(n), t = arena.vec(m), lambda_rows = arena.vec(m), e_c = arena.vec(k);
  if (arena.overflow) return Status::bad_shape;
  // Newton's law targets (eq 21-22, 42): 0 on bilateral rows, -e_i (A_u q)_i on candidates.
  for (int i = 0; i < m; ++i) {
    const int row = rows.index.get(i);
    if (row < in.m_b) {
      t[i] = T(0);
    } else {
      e_c[i - in.m_b] = in.e[row - in.m_b];
      t[i] = -in.e[row - in.m_b] * dense::dot(rows.A.row(i), in.qdot);  // rows scaled by c: so is t
    }
  }
  // Free velocity v_f = q + M^-1 i_u (no solve when no impulse is applied, the common case).
  dense::copy(in.i_u, v_f);
  if (dense::max_abs(in.i_u) != T(0)) solve_mass(L, v_f);
  dense::axpy(T(1), in.qdot, v_f);

  // The Delassus factor of all the candidate rows serves the energy test under either law,
  // and the projection law's solve.
  DelassusFactor<T> f;
  st = factor_delassus(rows.A.as_const(), L, f, arena);
  if (st != Status::ok) return st;
  st = solve_contact_law(in, p, v_f.as_const(), t.as_const(), out.qdot_plus, lambda_rows, out.impulse, &f, arena);
  if (st != Status::ok) return st;
  unscale_multipliers(p, lambda_rows);
  scatter_multipliers(rows, lambda_rows.as_const(), out.lambda);
  if (!certified(impact_certificate(in, out, arena))) return Status::not_certified;
  *out.kinetic_energy_pre = kinetic_energy(L, in.qdot);
  *out.kinetic_energy_post = kinetic_energy(L, out.qdot_plus.as_const());
  bool consistent = true;
  st = energy_consistent(f, in.m_b, e_c.as_const(), consistent, arena);
  *out.energy_consistent = consistent ? 1 : 0;
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

// obliq/core/mechanics/dynamics.hpp: constrained acceleration and constraint forces of one
// scenario (docs/math.md 4 and 7, seed 000 eq 5-8 and seed 004; docs/format.md `dynamics`).
#pragma once

#include "obliq/core/mechanics/candidates.hpp"
#include "obliq/core/mechanics/certificate.hpp"
#include "obliq/core/mechanics/contact_law.hpp"
#include "obliq/core/mechanics/validate.hpp"

namespace obliq {

template <class T> OBLIQ_HD std::size_t dynamics_workspace_size(int n, int m_b, int m_u) {
  const int m = m_b + m_u;
  return std::size_t(n) * n + std::size_t(m) * n + 3 * std::size_t(m) + 2 * std::size_t(n) + delassus_workspace<T>(m, n) +
         max_(max_(complementarity_workspace<T>(n, m_b, m_u), std::size_t(2 * m + n)),
              certificate_workspace<T>(n, m)) + 16;
}

// The outputs of a failed scenario: every number zero.
template <class T> OBLIQ_HD void clear_dynamics(const DynamicsView<T>& out) {
  dense::fill(out.qddot, T(0));
  dense::fill(out.lambda, T(0));
}

namespace detail {
// dynamics() in three parts around the law's solve (ContactLawCall, contact_law.hpp). Before it:
// the checks, the candidates, M's factor and the stacked rows, the targets and a_f.
template <class T>
OBLIQ_HD Status dynamics_prepare(const ScenarioView<T>& in, const DynamicsView<T>& out, ContactLawCall<T>& call,
                                 Arena<T>& arena) {
  const int n = in.n;
  Status st = validate(in, /*dynamics=*/true);
  if (st != Status::ok) return st;
  int k = 0;
  st = dynamics_candidates(in, out.active, k);
  if (st != Status::ok) return st;

  call_scenario(in, call);
  ContactProblem<T>& p = call.p;
  st = setup_contact_problem(in, out.active.as_const(), k, p, arena);
  if (st != Status::ok) return st;
  const ConstraintRows<T>& rows = p.rows;
  const int m = rows.A.rows;
  call.x_f = arena.vec(n), call.t = arena.vec(m), call.lambda_rows = arena.vec(m), call.impulse = arena.vec(n);
  call.x = out.qddot;
  if (arena.overflow) return Status::bad_shape;
  // Rows hold A qdd + c = 0 (or >= 0): targets t = -c, c = Adot qdot (docs/math.md 4).
  for (int i = 0; i < m; ++i) call.t[i] = -in.Adot_qdot[rows.index.get(i)] * p.c;  // rows scaled by c
  // Free acceleration a_f = M^-1 (u - h).
  for (int i = 0; i < n; ++i) call.x_f[i] = in.u[i] - in.h[i];
  solve_mass(p.mass, call.x_f);
  call.factored = false;
  return Status::ok;
}

// After the law's solve (qddot in): the multipliers and the certificate.
template <class T>
OBLIQ_HD Status dynamics_conclude(const ScenarioView<T>& in, const DynamicsView<T>& out, const ContactLawCall<T>& call,
                                  Arena<T>& arena) {
  unscale_multipliers(call.p, call.lambda_rows);
  scatter_multipliers(call.p.rows, call.lambda_rows.as_const(), out.lambda);
  if (!certified(dynamics_certificate(in, out, arena))) return Status::not_certified;
  return Status::ok;
}

template <class T> OBLIQ_HD Status dynamics_solve(const ScenarioView<T>& in, const DynamicsView<T>& out, Arena<T>& arena) {
  ContactLawCall<T> call;
  Status st = dynamics_prepare(in, out, call, arena);
  if (st == Status::ok) st = solve_contact_law(in, call, arena);
  if (st == Status::ok) st = dynamics_conclude(in, out, call, arena);
  return st;
}
}  // namespace detail

// Solves one scenario's constrained dynamics. An answer is "ok" only when its certificate
// (certificate.hpp) passes. On a failed status every output is zero.
template <class T> OBLIQ_HD Status dynamics(const ScenarioView<T>& in, const DynamicsView<T>& out, Arena<T>& arena) {
  const std::size_t mark = arena.mark();
  const Status st = detail::dynamics_solve(in, out, arena);
  arena.release(mark);
  if (st != Status::ok) clear_dynamics(out);
  return st;
}

}  // namespace obliq

// obliq/core/mechanics/contact_law.hpp: what impact and dynamics share. Both factor M, stack the
// rows taking part, and then solve the same problem for a velocity or an acceleration x:
//     min 1/2 (x - x_f)^T M (x - x_f)  s.t.  A_b x = t_b  and, on candidate rows,
//     A_u x = t_u (projection law) or A_u x >= t_u with complementary lambda_u >= 0
// (docs/math.md 4, 5, 7; docs/format.md "What the laws mean").
#pragma once

#include "obliq/core/mechanics/complementarity.hpp"
#include "obliq/core/mechanics/constraint_rows.hpp"
#include "obliq/core/mechanics/delassus.hpp"
#include "obliq/core/mechanics/mass_factor.hpp"

namespace obliq {

template <class T> struct ContactProblem {
  MassFactor<T> mass;      // M = F F^T, dense or along the tree (mass_factor.hpp)
  MatView<T> mass_storage; // n x n, the factor's entries
  ConstraintRows<T> rows;  // c [A_b ; A_u,C]
  T c = T(1);              // the rows' common scale: a power of two bringing max |A_ij| into [1, 2)
};

// The factor of M (the tree's when in.parent is given and M has its pattern) and the stacked rows, multiplied by one power of two c (exact) so that the
// Delassus factor's squares stay inside the floating-point range whatever the rows' units; the
// law's multipliers of these rows are c lambda (unscale_multipliers). Status::not_spd when the
// factorization fails.
template <class T>
OBLIQ_HD Status setup_contact_problem(const ScenarioView<T>& in, VecView<const std::uint8_t> active, int k,
                                      ContactProblem<T>& p, Arena<T>& arena) {
  p.mass_storage = arena.mat(in.n, in.n);
  if (arena.overflow) return Status::bad_shape;
  if (!factor_mass(in.M, in.parent, p.mass_storage, p.mass)) return Status::not_spd;
  if (!stack_constraint_rows(in, active, k, p.rows, arena)) return Status::bad_shape;
  p.c = dense::pow2_inverse(dense::max_abs(p.rows.A.as_const()));
  for (int i = 0; i < p.rows.A.rows; ++i) dense::scale(p.rows.A.row(i), p.c);
  return Status::ok;
}

// The multipliers of the scaled rows c A are lambda / c; back to the rows as given: times c.
template <class T> OBLIQ_HD void unscale_multipliers(const ContactProblem<T>& p, VecView<T> lambda_rows) {
  dense::scale(lambda_rows, p.c);
}

// The law's solve as a call of its own: everything impact() and dynamics() hand the law, which
// their first part (impact_prepare, dynamics_prepare) fills and their last (impact_conclude,
// dynamics_conclude) reads. On the host the parts run in sequence; apart, each can be a kernel of
// its own with nothing of the others live across the solve (docs/cuda.md "The contact law
// apart"). The views point into the arena before the mark the first part leaves (and at the
// caller's outputs, and warm_active at the scenario's input).
template <class T> struct ContactLawCall {
  Law law = Law::complementarity;  // the scenario's (ScenarioView::law, m_b, lcp_solver, warm_active)
  int m_b = 0;
  lcp::Solver lcp_solver = lcp::Solver::lemke;
  VecView<const std::uint8_t> warm_active;
  ContactProblem<T> p;
  VecView<T> x_f, t;          // the free velocity or acceleration (n), the targets (m, rows scaled by c)
  VecView<T> x, lambda_rows;  // the answer (n), the multipliers (m, stacked order)
  VecView<T> impulse;         // A^T lambda (n)
  DelassusFactor<T> f;        // impact: the factor of all the rows taking part
  bool factored = false;      // f is filled (else the law factors what it needs)
  VecView<T> e_c;             // impact: the restitution of the candidate rows (k)
};

// The scenario's part of the call, and back: a scenario with just that part (what the law
// reads of it).
template <class T> OBLIQ_HD void call_scenario(const ScenarioView<T>& in, ContactLawCall<T>& call) {
  call.law = in.law;
  call.m_b = in.m_b;
  call.lcp_solver = in.lcp_solver;
  call.warm_active = in.warm_active;
}
template <class T> OBLIQ_HD ScenarioView<T> law_scenario(const ContactLawCall<T>& call) {
  ScenarioView<T> in;
  in.law = call.law;
  in.m_b = call.m_b;
  in.lcp_solver = call.lcp_solver;
  in.warm_active = call.warm_active;
  return in;
}

// Solves the law on the stacked rows: x (n), lambda_rows (m, stacked order), impulse = A^T lambda.
// `f` is the Delassus factor of all the rows when the caller has it already (or null). Of `in`
// it reads law, m_b, lcp_solver and warm_active. Out of line on the device: a kernel that runs
// it keeps nothing of its own live across it (docs/cuda.md "The contact law apart").
template <class T>
OBLIQ_HD OBLIQ_NOINLINE Status solve_contact_law(const ScenarioView<T>& in, const ContactProblem<T>& p,
                                                 VecView<const T> x_f, VecView<const T> t, VecView<T> x,
                                                 VecView<T> lambda_rows, VecView<T> impulse, const DelassusFactor<T>* f,
                                                 Arena<T>& arena) {
  const MatView<const T> A = p.rows.A.as_const();
  const MassFactor<T>& L = p.mass;
  if (in.law == Law::complementarity && p.rows.k > 0)
    return solve_complementarity(A, in.m_b, L, x_f, t, x, lambda_rows, impulse, arena, in.lcp_solver, in.warm_active,
                                 p.rows.index);
  const std::size_t mark = arena.mark();
  DelassusFactor<T> own;
  if (!f) {
    const Status st = factor_delassus(A, L, own, arena);
    if (st != Status::ok) return st;
    f = &own;
  }
  // Equalities only. The complementarity law meets them exactly or not at all (docs/math.md 1);
  // the projection law in least squares (docs/format.md "Fine print").
  if (in.law == Law::complementarity && !targets_consistent(*f, t)) return Status::infeasible;
  solve_equality(*f, A, L, x_f, t, x, lambda_rows, impulse, arena);
  arena.release(mark);
  return Status::ok;
}

// The call's solve (`in`: the scenario, or law_scenario(call)). Forced inline, its fields handed
// on one by one: the call stays out of memory in its caller, and the solve keeps the signature
// with which ptxas fits the Moreau-Jean kernels without spills (docs/cuda.md "The contact law
// apart").
template <class T>
OBLIQ_HD OBLIQ_FORCEINLINE Status solve_contact_law(const ScenarioView<T>& in, const ContactLawCall<T>& call,
                                                    Arena<T>& arena) {
  return solve_contact_law(in, call.p, call.x_f.as_const(), call.t.as_const(), call.x, call.lambda_rows, call.impulse,
                           call.factored ? &call.f : nullptr, arena);
}

}  // namespace obliq

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

#include "obliq/core/friction/setup.hpp"
#include "obliq/core/mechanics/dynamics.hpp"

namespace obliq::friction {

template <class T> OBLIQ_HD std::size_t dynamics_workspace_size(int n, int m_b, int m_u, int dim, int directions) {
  const int m = m_b + dim * m_u;
  return max_(obliq::dynamics_workspace_size<T>(n, m_b, m_u),
              system_workspace<T>(n, m) + std::size_t(n) + solve_workspace<T>(m_b, m_u, dim, directions) + 16);
}

namespace detail {
template <class T>
OBLIQ_HD Status dynamics_solve(const ScenarioView<T>& in, const FrictionView<T>& fr, const DynamicsView<T>& out,
                               const FrictionOutView<T>& fo, Arena<T>& arena) {
  Status st = validate(in, /*dynamics=*/true);
  if (st == Status::ok) st = validate_friction(in, fr, true);
  if (st != Status::ok) return st;
  int k = 0;
  st = dynamics_candidates(in, out.active, k);
  if (st != Status::ok) return st;
  if (!has_friction(in, fr, out.active.as_const())) {
    if (fo.report) *fo.report = Report<T>{};
    return obliq::dynamics(in, out, arena);
  }
  if (in.law != Law::complementarity) return Status::friction_law;
  System<T> s;
  st = setup_system(in, fr, out.active.as_const(), k, s, arena);
  if (st != Status::ok) return st;
  const int n = in.n, m = s.size(), d = s.dim;
  VecView<T> a_f = arena.vec(n), q = arena.vec(m), r = arena.vec(m), u = arena.vec(m);
  MatView<T> slide = arena.mat(k, d - 1);
  if (arena.overflow) return Status::bad_shape;
  for (int i = 0; i < n; ++i) a_f[i] = in.u[i] - in.h[i];
  solve_mass(s.mass, a_f);
  dense::gemv(T(1), s.A.as_const(), a_f.as_const(), T(0), q);
  for (int i = 0; i < s.m_b; ++i) q[i] += in.Adot_qdot[i];
  int sliding = 0;
  for (int c = 0; c < k; ++c) {
    const int f = s.m_b + d * c, i = s.row_of.get(c);
    q[f] += in.Adot_qdot[in.m_b + i];
    T v2 = T(0);
    for (int j = 0; j < d - 1; ++j) {
      if (fr.Adot_qdot_t.data != nullptr) q[f + 1 + j] += fr.Adot_qdot_t[(d - 1) * i + j];
      slide(c, j) = fr.slide.data != nullptr ? fr.slide(i, j) : dense::dot(fr.A_t.row((d - 1) * i + j), in.qdot);
      v2 += slide(c, j) * slide(c, j);
    }
    const T v = std::sqrt(v2);
    const bool sl = (fr.slide.data != nullptr ? v > T(0) : v > in.vel_tol) && s.mu[c] > T(0);
    for (int j = 0; j < d - 1; ++j) slide(c, j) = sl ? slide(c, j) / v : T(0);
    sliding += sl;
    if (fo.sliding.size > 0) fo.sliding[i] = sl ? 1 : 0;
  }
  const Problem<T> p = make_problem(s, q.as_const(), slide.as_const());
  if (sliding == k && s.m_b == 0 && k <= painleve_max_rows) {
    // Every contact slides: the LCP of the pyramid formulation has one variable per contact.
    const std::size_t mark = arena.mark();
    MatView<T> Mn = arena.mat(k, k);
    VecView<T> qn = arena.vec(k), col = arena.vec(m);
    if (arena.overflow) return Status::bad_shape;
    for (int b = 0; b < k; ++b) {  // Mn(a, b) = u_N,a per unit r_N,b: W (e_N - mu s)
      const int fb = d * b;
      for (int i = 0; i < m; ++i) {
        T t = s.W(i, fb);
        for (int j = 0; j < d - 1; ++j) t -= s.mu[b] * slide(b, j) * s.W(i, fb + 1 + j);
        col[i] = t;
      }
      for (int a = 0; a < k; ++a) Mn(a, b) = col[d * a];
      qn[b] = q[d * b];
    }
    const int count = count_lcp_solutions(Mn.as_const(), qn.as_const(), arena);
    arena.release(mark);
    if (count == 0) return Status::infeasible;
    if (count >= 2) return Status::ambiguous;
  }
  Report<T> rep = solve_problem(p, fr, r, u, arena);
  if (fo.report) *fo.report = rep;
  if (rep.status != Status::ok) return rep.status;
  VecView<T> force = arena.vec(n);  // A^T r (finish's impulse argument; not an output here)
  if (arena.overflow) return Status::bad_shape;
  finish(s, a_f.as_const(), r.as_const(), out.qddot, force, out.lambda, fo.lambda_t);
  return Status::ok;
}
}  // namespace detail

// Solves one scenario's dynamics with friction. On a failed status every output is zero.
template <class T>
OBLIQ_HD Status dynamics(const ScenarioView<T>& in, const FrictionView<T>& fr, const DynamicsView<T>& out,
                         const FrictionOutView<T>& fo, Arena<T>& arena) {
  const std::size_t mark = arena.mark();
  dense::fill(fo.lambda_t, T(0));
  dense::fill(fo.sliding, std::uint8_t(0));
  const Status st = detail::dynamics_solve(in, fr, out, fo, arena);
  arena.release(mark);
  if (st != Status::ok) {
    dense::fill(out.qddot, T(0));
    dense::fill(out.lambda, T(0));
    dense::fill(fo.lambda_t, T(0));
  }
  return st;
}

}  // namespace obliq::friction

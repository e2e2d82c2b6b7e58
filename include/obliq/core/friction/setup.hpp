// obliq/core/friction/setup.hpp: what frictional impact and dynamics share: the friction inputs of
// a scenario, its checks, the contact-space problem (docs/friction.md (F1)) built from M and the
// rows taking part, and the way back from reactions to velocities (or accelerations), impulses
// and multipliers.
//
// Rows taking part: the bilateral rows A_b (equality rows), then for each contact taking part,
// unilateral row i (`active`: impact_contacts below, or the dynamics candidates of candidates.hpp), its normal row A_u,i and its dim - 1 tangent rows A_t,(dim-1) i + j. With
// M = L L^T and Z = L^-1 A^T: W = Z^T Z (the Delassus matrix A M^-1 A^T), and the answer
// x = x_f + M^-1 A^T r = x_f + L^-T Z r, impulse A^T r (docs/math.md (4), (5) with the tangent
// rows added).
#pragma once

#include <cstddef>
#include <cstdint>

#include "obliq/core/dense/cholesky.hpp"
#include "obliq/core/dense/ops.hpp"
#include "obliq/core/friction/cone_solver.hpp"
#include "obliq/core/friction/painleve.hpp"
#include "obliq/core/friction/pyramid.hpp"
#include "obliq/core/mechanics/mass_factor.hpp"
#include "obliq/core/scenario_view.hpp"

namespace obliq::friction {

enum class Formulation : int { cone = 0, pyramid = 1 };

// The friction inputs of one scenario (beside its ScenarioView).
template <class T> struct FrictionView {
  int dim = 3;                     // 2: contacts in a plane (one tangent row), 3: in space (two)
  MatView<const T> A_t;            // (dim - 1) m_u x n: tangent rows (dim - 1) i + j of unilateral row i
  VecView<const T> mu;             // m_u (inc = 0 broadcasts one coefficient)
  VecView<const T> Adot_qdot_t;    // (dim - 1) m_u, dynamics; data == nullptr: zero
  VecView<const T> e_t;            // m_u, impact: tangential restitution in [0, 1]; data == nullptr: zero
  Formulation formulation = Formulation::cone;
  int directions = 8;              // pyramid: facets per contact in space
  lcp::Solver lcp_solver = lcp::Solver::lemke;  // pyramid: its LCP method
  // dynamics: each contact's sliding direction given (m_u x (dim - 1), unit rows; a zero row: the
  // contact sticks or starts to slide) instead of read from |A_t qdot| > vel_tol; data == nullptr:
  // read. The event-driven stepper freezes them over a step.
  MatView<const T> slide;
};

// The friction outputs beside ImpactView / DynamicsView.
template <class T> struct FrictionOutView {
  VecView<T> lambda_t;          // (dim - 1) m_u: tangential reactions (0 off the candidates)
  VecView<std::uint8_t> sliding;  // m_u, dynamics: 1 for a candidate contact that slides (may be empty)
  Report<T>* report = nullptr;  // may be null
};

// The contact-space system of the rows taking part.
template <class T> struct System {
  MassFactor<T> mass;       // M = F F^T, dense or along the tree (mechanics/mass_factor.hpp)
  MatView<T> mass_storage;  // n x n, the factor's entries
  MatView<T> A;  // m x n, m = m_b + dim k
  MatView<T> Z;  // n x m, F^-1 A^T
  MatView<T> W;  // m x m
  IndexView<T> row_of;  // k: the unilateral row of each candidate contact
  VecView<T> mu;        // k
  int m_b = 0, k = 0, dim = 3;
  OBLIQ_HD int size() const { return m_b + dim * k; }
};

template <class T> OBLIQ_HD std::size_t system_workspace(int n, int m) {
  const std::size_t N = n, M = m;
  return N * N + 2 * M * N + M * M + 2 * M;
}

// Arena elements of the frictional solve proper (after the system), for both formulations.
template <class T> OBLIQ_HD std::size_t solve_workspace(int m_b, int k, int dim, int directions) {
  const int m = m_b + dim * k;
  const int N = 2 * m_b + k * ((dim == 2 ? 2 : directions) + 2);
  return 4 * std::size_t(m) + std::size_t(dim - 1) * k + max_(cone_workspace<T>(m, dim), pyramid_workspace<T>(N, m)) +
         count_solutions_workspace<T>(k) + 16;
}

// Checks of the friction inputs: shapes (bad_shape), finite A_t, mu and Adot_qdot_t (non_finite),
// mu >= 0 (bad_friction).
template <class T> OBLIQ_HD Status validate_friction(const ScenarioView<T>& in, const FrictionView<T>& fr, bool dynamics) {
  const int t = fr.dim - 1;
  if ((fr.dim != 2 && fr.dim != 3) || fr.A_t.rows != t * in.m_u || fr.A_t.cols != in.n ||
      (fr.mu.inc != 0 && fr.mu.size != in.m_u) || (fr.formulation == Formulation::pyramid && fr.dim == 3 && fr.directions < 3))
    return Status::bad_shape;
  if (!dense::all_finite(fr.A_t)) return Status::non_finite;
  if (dynamics && fr.Adot_qdot_t.data != nullptr && !dense::all_finite(fr.Adot_qdot_t)) return Status::non_finite;
  if (!dynamics && fr.e_t.data != nullptr) {
    if (!dense::all_finite(fr.e_t)) return Status::non_finite;
    for (int i = 0; i < in.m_u; ++i)
      if (fr.e_t[i] < T(0) || fr.e_t[i] > T(1)) return Status::bad_restitution;
  }
  for (int i = 0; i < in.m_u; ++i) {
    if (!(fr.mu[i] - fr.mu[i] == T(0))) return Status::non_finite;
    if (fr.mu[i] < T(0)) return Status::bad_friction;
  }
  return Status::ok;
}

// The contacts of a frictional impact (docs/friction.md (F10)): every closed unilateral row
// (phi_i <= gap_tol), approaching, resting or separating before the impact, since a neighbour's
// tangential impulse can push a separating one into approach. Writes active (m_u) and returns
// their number. (The frictionless impact keeps its own rule, candidates.hpp.)
template <class T> OBLIQ_HD int impact_contacts(const ScenarioView<T>& in, VecView<std::uint8_t> active) {
  int count = 0;
  for (int i = 0; i < in.m_u; ++i) {
    const bool c = is_closed(in, i);
    active[i] = c ? 1 : 0;
    count += c;
  }
  return count;
}

// True when some contact taking part (active) has mu > 0 (otherwise the frictionless core answers).
template <class T>
OBLIQ_HD bool has_friction(const ScenarioView<T>& in, const FrictionView<T>& fr, VecView<const std::uint8_t> active) {
  for (int i = 0; i < in.m_u; ++i)
    if (active[i] && fr.mu[i] > T(0)) return true;
  return false;
}

// The system's views for k contacts taking part, carved from the arena (its entries unset).
template <class T> OBLIQ_HD System<T> take_system(int n, int m_b, int k, int dim, Arena<T>& arena) {
  System<T> s;
  s.m_b = m_b, s.k = k, s.dim = dim;
  const int m = s.size();
  s.mass_storage = arena.mat(n, n);
  s.A = arena.mat(m, n);
  s.Z = arena.mat(n, m);
  s.W = arena.mat(m, m);
  s.row_of = IndexView<T>{arena.take(std::size_t(k)), k, arena.stride};
  s.mu = arena.vec(k);
  return s;
}

// Fills the system s (take_system's, for the k contacts of `active`): the factor of M, the
// stacked rows, Z and W. Status::not_spd when M does not factor.
template <class T>
OBLIQ_HD Status build_system(const ScenarioView<T>& in, const FrictionView<T>& fr, VecView<const std::uint8_t> active,
                             System<T>& s) {
  const int d = fr.dim;
  if (!factor_mass(in.M, in.parent, s.mass_storage, s.mass)) return Status::not_spd;
  for (int i = 0; i < in.m_b; ++i) dense::copy(in.A_b.row(i), s.A.row(i));
  int c = 0;
  for (int i = 0; i < in.m_u; ++i) {
    if (!active[i]) continue;
    s.row_of.set(c, i);
    s.mu[c] = fr.mu[i];
    const int f = in.m_b + d * c;
    dense::copy(in.A_u.row(i), s.A.row(f));
    for (int j = 0; j < d - 1; ++j) dense::copy(fr.A_t.row((d - 1) * i + j), s.A.row(f + 1 + j));
    ++c;
  }
  dense::copy(s.A.as_const().transpose(), s.Z);
  whiten(s.mass, s.Z);
  dense::gram(s.Z, s.W);
  return Status::ok;
}

// The system of the k contacts of `active`, carved from the arena and filled. Status::bad_shape
// when it does not fit, not_spd when M does not factor.
template <class T>
OBLIQ_HD Status setup_system(const ScenarioView<T>& in, const FrictionView<T>& fr, VecView<const std::uint8_t> active,
                             int k, System<T>& s, Arena<T>& arena) {
  s = take_system(in.n, in.m_b, k, fr.dim, arena);
  if (arena.overflow) return Status::bad_shape;
  return build_system(in, fr, active, s);
}

template <class T> OBLIQ_HD Problem<T> make_problem(const System<T>& s, VecView<const T> q, MatView<const T> slide) {
  Problem<T> p;
  p.m_e = s.m_b, p.nc = s.k, p.dim = s.dim;
  p.W = s.W.as_const();
  p.q = q;
  p.mu = s.mu.as_const();
  p.slide = slide;
  return p;
}

// Solves the problem by the formulation asked for.
template <class T>
OBLIQ_HD Report<T> solve_problem(const Problem<T>& p, const FrictionView<T>& fr, VecView<T> r, VecView<T> u,
                                 Arena<T>& arena) {
  Report<T> rep = fr.formulation == Formulation::pyramid ? solve_pyramid(p, fr.directions, r, u, arena, fr.lcp_solver)
                                                         : solve_cone(p, r, u, arena);
  rep.frictional = true;
  return rep;
}

// x = x_f + F^-T Z r, impulse = A^T r, and the multipliers in the scenario's numbering:
// lambda (m_b + m_u: bilateral, then the normal reaction of each unilateral row), lambda_t.
template <class T>
OBLIQ_HD void finish(const System<T>& s, VecView<const T> x_f, VecView<const T> r, VecView<T> x, VecView<T> impulse,
                     VecView<T> lambda, VecView<T> lambda_t) {
  const int m = s.size();
  dense::gemv(T(1), s.Z.as_const(), r, T(0), x);
  unwhiten(s.mass, x);
  dense::axpy(T(1), x_f, x);
  dense::gemv(T(1), s.A.as_const().transpose(), r, T(0), impulse);
  dense::fill(lambda, T(0));
  dense::fill(lambda_t, T(0));
  for (int i = 0; i < s.m_b; ++i) lambda[i] = r[i];
  for (int c = 0; c < s.k; ++c) {
    const int i = s.row_of.get(c), f = s.m_b + s.dim * c;
    lambda[s.m_b + i] = r[f];
    for (int j = 0; j < s.dim - 1; ++j) lambda_t[(s.dim - 1) * i + j] = r[f + 1 + j];
  }
  (void)m;
}

}  // namespace obliq::friction

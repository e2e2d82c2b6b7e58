// obliq/core/friction/pyramid.hpp: the faceted (pyramid) friction law as one LCP, solved by the
// LCP solvers of core/lcp (Stewart & Trinkle, IJNME 39 (1996); Anitescu & Potra, Nonlinear
// Dynamics 14 (1997)). docs/friction.md (F8).
//
// Contact c with k directions d_j in its tangent plane (space: d_j = (cos 2 pi j / k,
// sin 2 pi j / k); plane: k = 2, d = +1, -1) gets the LCP variables (r_N, beta_1..k, lambda):
//     r_T = sum_j beta_j d_j,
//     u_N                  >= 0  _|_  r_N    >= 0,
//     d_j . u_T + lambda   >= 0  _|_  beta_j >= 0,
//     mu r_N - sum_j beta_j >= 0 _|_  lambda >= 0     (lambda: the sliding speed along the facet).
// An equality row i becomes two opposite unilateral rows (r_i = z_i+ - z_i-, u_i >= 0 and -u_i >= 0).
// A contact with a prescribed sliding direction s has the single variable r_N, with
// r = r_N (e_N - mu s) and the row u_N. So z -> r is a linear map E and the rows measured are
// F^T u (F = E except on sliding contacts): the LCP matrix is F^T W E plus the coupling entries
// above, q_lcp = F^T q. In the plane (k = 2) the pyramid is the cone itself; in space the
// pyramid is inscribed in the cone, so its answers lie in the cone (cone membership holds) but
// solve the faceted law, whose certificate is the LCP's (core/lcp/certificate.hpp) with one scale
// per contact: the rows (r_N, beta_1..k, lambda) of a contact are its one velocity vector seen
// along directions of the solver's choosing, and share the largest of their row scales, as the
// cone's certificate judges a contact's rows together (certificate.hpp). Row by row, a separating
// foot (u_N = 5e-3) whose tangential u is rounding noise (1e-14, either sign) fails its facet rows
// at a noise-sized scale; at the contact's scale it is exactly what it is, at rest to rounding.
// An equality row's two variables form one block.
// Planar contacts: a contact of a space problem (dim 3) one of whose tangent rows is exactly zero
// (zero row of W and zero q: the direction moves nothing, as a planar model's out-of-plane
// tangent) obeys the plane's law along its other tangent; when every contact without a prescribed
// sliding direction is planar (or dim = 2) the problem is planar, and k = 2 gives the directions
// +-e of each contact's in-plane tangent: the 2-facet pyramid is then the cone itself, and this LCP
// solves the exact Coulomb problem (the cone solver's planar stage, cone_solver.hpp).
#pragma once

#include <cmath>
#include <cstddef>

#include "obliq/core/friction/certificate.hpp"
#include "obliq/core/lcp/select.hpp"

namespace obliq::friction {

// LCP variables of the pyramid problem with k directions.
template <class T> OBLIQ_HD int pyramid_size(const Problem<T>& p, int k) {
  int N = 2 * p.m_e;
  for (int c = 0; c < p.nc; ++c) N += p.sliding(c) ? 1 : k + 2;
  return N;
}

// The in-plane tangent row (1 or 2) of contact c when it is planar (header comment), else 0.
template <class T> OBLIQ_HD int planar_tangent(const Problem<T>& p, int c) {
  if (p.dim == 2) return 1;
  const int f = p.row(c), m = p.size();
  for (int j = 1; j <= 2; ++j) {
    bool zero = p.q[f + j] == T(0);
    for (int i = 0; i < m && zero; ++i) zero = p.W(f + j, i) == T(0);
    if (zero) return 3 - j;
  }
  return 0;
}

// True when every contact without a prescribed sliding direction is planar.
template <class T> OBLIQ_HD bool planar(const Problem<T>& p) {
  for (int c = 0; c < p.nc; ++c)
    if (!p.sliding(c) && planar_tangent(p, c) == 0) return false;
  return true;
}

template <class T> OBLIQ_HD std::size_t pyramid_workspace(int N, int m) {
  const std::size_t n = std::size_t(N), mm = std::size_t(m);
  return n * n + 3 * n + 2 * mm * n + lcp::solve_workspace<T>(N);
}

// The blocks of the pyramid LCP's certificate (header comment): for the first variable of a
// block, one past its last.
template <class T> struct PyramidBlocks {
  const Problem<T>* p;
  int k;
  OBLIQ_HD int operator()(int var) const {
    if (var < 2 * p->m_e) return var - var % 2 + 2;
    int v = 2 * p->m_e;
    for (int c = 0; c < p->nc; ++c) {
      v += p->sliding(c) ? 1 : k + 2;
      if (var < v) return v;
    }
    return var + 1;
  }
};

namespace detail {
// Column `var` of E (or of F when `measured`) into e (m). Directions of contact c as above.
template <class T>
OBLIQ_HD void pyramid_column(const Problem<T>& p, int k, int var, bool measured, VecView<T> e) {
  for (int i = 0; i < e.size; ++i) e[i] = T(0);
  if (var < 2 * p.m_e) {
    e[var / 2] = var % 2 == 0 ? T(1) : T(-1);
    return;
  }
  int v = 2 * p.m_e;
  for (int c = 0; c < p.nc; ++c) {
    const int f = p.row(c);
    if (p.sliding(c)) {
      if (var == v) {
        e[f] = T(1);
        if (!measured)
          for (int j = 0; j < p.dim - 1; ++j) e[f + 1 + j] = -p.mu[c] * p.slide(c, j);
        return;
      }
      v += 1;
      continue;
    }
    if (var == v) {
      e[f] = T(1);
      return;
    }
    if (var > v && var <= v + k) {
      const int j = var - v - 1;
      if (k == 2) {  // the plane, or a planar problem in space: +-e of the in-plane tangent
        e[f + planar_tangent(p, c)] = j == 0 ? T(1) : T(-1);
      } else {
        const T a = T(2) * T(3.14159265358979323846) * T(j) / T(k);
        e[f + 1] = std::cos(a);
        e[f + 2] = std::sin(a);
      }
      return;
    }
    if (var == v + k + 1) return;  // lambda: no reaction
    v += k + 2;
  }
}
}  // namespace detail

// Solves the pyramid LCP with k directions per contact (space: k >= 3, or k = 2 for a planar
// problem; the plane always uses k = 2) by lcp::solve with `solver`; r and u = W r + q of the problem's size. rep.status: the
// LCP's verdict with a contact's rows judged together (ok: certified, header comment),
// Status::infeasible for a secondary ray. rep.residual: the exact
// cone's certificate (certificate.hpp) of the answer, for information (zero in the plane up to
// rounding; in space the gap between the pyramid and the cone).
template <class T>
OBLIQ_HD Report<T> solve_pyramid(const Problem<T>& p, int k, VecView<T> r, VecView<T> u, Arena<T>& arena,
                                 lcp::Solver solver = lcp::Solver::lemke) {
  Report<T> rep;
  rep.method = Method::lemke;
  rep.status = check_problem(p, r, u);
  for (int i = 0; i < r.size; ++i) r[i] = T(0);
  if (rep.status != Status::ok) return rep;
  if (p.dim == 2) k = 2;
  if (k < 3 && p.dim == 3 && !(k == 2 && planar(p))) {
    rep.status = Status::bad_shape;
    return rep;
  }
  const int m = p.size(), N = pyramid_size(p, k);
  const std::size_t mark = arena.mark();
  MatView<T> Ml = arena.mat(N, N), WE = arena.mat(m, N), F = arena.mat(m, N);
  VecView<T> ql = arena.vec(N), z = arena.vec(N), w = arena.vec(N);
  if (arena.overflow) {
    arena.release(mark);
    rep.status = Status::bad_shape;
    return rep;
  }
  for (int v = 0; v < N; ++v) {
    detail::pyramid_column(p, k, v, false, u);  // u as scratch: column v of E
    for (int i = 0; i < m; ++i) {
      T s = T(0);
      for (int j = 0; j < m; ++j) s += p.W(i, j) * u[j];
      WE(i, v) = s;
    }
    detail::pyramid_column(p, k, v, true, F.col(v));
  }
  for (int a = 0; a < N; ++a) {
    T s = T(0);
    for (int i = 0; i < m; ++i) s += F(i, a) * p.q[i];
    ql[a] = s;
    for (int b = 0; b < N; ++b) {
      T t = T(0);
      for (int i = 0; i < m; ++i) t += F(i, a) * WE(i, b);
      Ml(a, b) = t;
    }
  }
  // Coupling entries of the friction rows (header comment).
  int v = 2 * p.m_e;
  for (int c = 0; c < p.nc; ++c) {
    if (p.sliding(c)) {
      v += 1;
      continue;
    }
    const int lam = v + k + 1;
    for (int j = 1; j <= k; ++j) {
      Ml(v + j, lam) = T(1);
      Ml(lam, v + j) = T(-1);
    }
    Ml(lam, v) = p.mu[c];
    v += k + 2;
  }
  lcp::Result<T> res = lcp::solve(Ml.as_const(), ql.as_const(), z, w, arena, solver);
  rep.iterations = res.iterations;
  if (res.status == Status::no_convergence &&
      lcp::lcp_accept(Ml.as_const(), ql.as_const(), z.as_const(), PyramidBlocks<T>{&p, k}))
    res.status = Status::ok;  // rejected row by row, certified contact by contact
  rep.status = res.status == Status::lcp_ray ? Status::infeasible
               : res.status == Status::lcp_budget ? Status::no_convergence
                                                  : res.status;
  // r = E z.
  for (int a = 0; a < N; ++a) {
    if (z[a] == T(0)) continue;
    detail::pyramid_column(p, k, a, false, u);
    for (int i = 0; i < m; ++i) r[i] += z[a] * u[i];
  }
  Report<T> cone;
  certify(p, r.as_const(), u, cone);
  rep.residual = cone.residual;
  rep.worst = cone.worst;
  arena.release(mark);
  return rep;
}

}  // namespace obliq::friction

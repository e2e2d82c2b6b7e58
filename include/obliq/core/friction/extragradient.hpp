// obliq/core/friction/extragradient.hpp: the projected extragradient method on the variational
// inequality form of Coulomb's law, the exact Coulomb cone's last resort (Siconos's fc3d VI_EG).
// docs/friction.md (F3), (F6).
//
// Extragradient (the last resort): Korpelevich's projected extragradient method on the variational
// inequality form of Coulomb's law (De Saxce: r in K_mu, (r' - r) . u_hat(r) >= 0 for all r' in
// K_mu, u_hat = W r + q + mu |u_T| e_N per contact; docs/friction.md (F3)), the method of
// Siconos's fc3d VI_EG: rb = P(r - rho u_hat(r)), r <- P(r - rho u_hat(rb)), with P the projection
// onto the cones (equality rows: none; a prescribed sliding direction s: r = r_N (1, -mu s),
// r_N >= 0) and rho from 1 / max diag W, halved while rho |u_hat(r) - u_hat(rb)| > 0.9 |r - rb|
// and raised by 1.2 after an easy step (ratio below 0.5). Slow (linear) but it reaches problems
// where Newton and NSGS settle on a contact with r = 0 and u_N < 0 (seen on the quadruped at
// mu = 0.8: Siconos's NSGS and NSN_AC stop there too, its PROX and VI_EG solve it). Once its
// certificate falls below 1e-6 (relative) a few Newton steps from its iterate finish the answer.
#pragma once

#include <cmath>
#include <cstddef>

#include "obliq/core/friction/certificate.hpp"
#include "obliq/core/friction/newton.hpp"

namespace obliq::friction {

template <class T> OBLIQ_HD std::size_t extragradient_workspace(int m) {
  return 6 * std::size_t(m < 0 ? 0 : m) + newton_workspace<T>(m);
}

namespace detail {

// u_hat = W r + q, plus mu |u_T| on the normal row of each contact without a prescribed sliding
// direction (De Saxce's modified velocity, docs/friction.md (F3)).
template <class T> OBLIQ_HD void desaxce_velocity(const Problem<T>& p, VecView<const T> r, VecView<T> uh) {
  velocities(p, r, uh);
  for (int c = 0; c < p.nc; ++c) {
    if (p.sliding(c)) continue;
    const int f = p.row(c);
    T t2 = T(0);
    for (int j = 1; j < p.dim; ++j) t2 += uh[f + j] * uh[f + j];
    uh[f] += p.mu[c] * std::sqrt(t2);
  }
}

// x onto the feasible set of the reactions: cones (F4), r_N (1, -mu s) with r_N >= 0 for a
// prescribed sliding direction s; equality rows unchanged.
template <class T> OBLIQ_HD void project_feasible(const Problem<T>& p, VecView<T> x) {
  for (int c = 0; c < p.nc; ++c) {
    const int f = p.row(c);
    if (p.sliding(c)) {
      const T rn = max_(T(0), x[f]);
      x[f] = rn;
      for (int j = 1; j < p.dim; ++j) x[f + j] = -p.mu[c] * rn * p.slide(c, j - 1);
    } else {
      T y[3];
      for (int j = 0; j < p.dim; ++j) y[j] = x[f + j];
      project_cone(y, p.dim, p.mu[c]);
      for (int j = 0; j < p.dim; ++j) x[f + j] = y[j];
    }
  }
}


}  // namespace detail

// Projected extragradient from the r given (header comment), up to max_iterations steps; every
// 10 steps, once the certificate is below 1e-6 (relative), Newton from the iterate (kept when it
// reaches `target`). Stops at `target` (below the tolerance, as Newton: in float an answer that
// stopped right at the tolerance failed it after the projection onto the cones); Status::ok when
// the answer certifies.
template <class T>
OBLIQ_HD Report<T> extragradient(const Problem<T>& p, VecView<T> r, VecView<T> u, Arena<T>& arena, int max_iterations,
                                 T target) {
  Report<T> rep;
  rep.method = Method::extragradient;
  rep.status = Status::no_convergence;
  const int m = p.size();
  const std::size_t mark = arena.mark();
  VecView<T> F = arena.vec(m), rb = arena.vec(m), Fb = arena.vec(m), rn = arena.vec(m), r2 = arena.vec(m),
             u2 = arena.vec(m);
  if (arena.overflow) {
    arena.release(mark);
    rep.status = Status::bad_shape;
    return rep;
  }
  T wmax = T(0);
  for (int i = 0; i < m; ++i) wmax = max_(wmax, p.W(i, i));
  T rho = wmax > T(0) ? T(1) / wmax : T(1);
  const T handoff = max_(tolerance<T>::rel, T(1e-6));
  for (int it = 0;; ++it) {
    if (it % 10 == 0) {
      certify(p, r.as_const(), u, rep);
      rep.iterations = it;
      if (rep.residual <= target) {  // below the tolerance, as Newton's: the projection onto the cones keeps it
        rep.status = Status::ok;
        break;
      }
      if (rep.residual <= handoff) {
        for (int i = 0; i < m; ++i) r2[i] = r[i];
        const Report<T> pol = newton(p, r2, u2, arena, 10, target);
        if (pol.residual <= target) {
          for (int i = 0; i < m; ++i) r[i] = r2[i], u[i] = u2[i];
          rep.residual = pol.residual;
          rep.worst = pol.worst;
          rep.iterations = it + pol.iterations;
          rep.status = Status::ok;
          break;
        }
      }
      rep.status = rep.residual <= tolerance<T>::rel ? Status::ok : Status::no_convergence;
      if (it >= max_iterations) break;
    }
    detail::desaxce_velocity(p, r.as_const(), F);
    T ratio = T(0);
    for (int tries = 0; tries < 40; ++tries) {
      for (int i = 0; i < m; ++i) rb[i] = r[i] - rho * F[i];
      detail::project_feasible(p, rb);
      detail::desaxce_velocity(p, rb.as_const(), Fb);
      T dr = T(0), dF = T(0);
      for (int i = 0; i < m; ++i) dr += (r[i] - rb[i]) * (r[i] - rb[i]), dF += (F[i] - Fb[i]) * (F[i] - Fb[i]);
      ratio = dr > T(0) ? rho * std::sqrt(dF / dr) : T(0);
      if (ratio <= T(0.9)) break;
      rho *= T(0.5);
    }
    for (int i = 0; i < m; ++i) rn[i] = r[i] - rho * Fb[i];
    detail::project_feasible(p, rn);
    for (int i = 0; i < m; ++i) r[i] = rn[i];
    if (ratio < T(0.5)) rho *= T(1.2);
  }
  arena.release(mark);
  return rep;
}


}  // namespace obliq::friction

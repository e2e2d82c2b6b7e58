// obliq/core/friction/nsgs.hpp: projected (nonsmooth) Gauss-Seidel over contacts, the exact
// Coulomb cone's second stage (Siconos's fc3d_nsgs). docs/friction.md (F6).
//
// NSGS: sweep over the rows; an equality row i takes r_i -= u_i / W_ii; contact c solves its own
// one-contact problem (W_cc, q_c + sum_{j not in c} W_cj r_j) by cases (one_contact.hpp; a contact
// with a prescribed sliding direction s: r_N = max(0, -q_N / (W_NN - mu W_NT s))), then a few
// steps of the same Newton method polish it (or, when no case applies, try from the current r_c).
// With large mu the sweep can cycle (seen: a 2-cycle at mu = 1.4); when the certificate's residual
// has not improved for 20 sweeps the update is under-relaxed, r_c <- w r_c,local + (1 - w) r_c,
// w *= 0.7 down to 0.1 (fixed points are unchanged: they are the solutions). Stops when the
// certificate passes or after the sweep budget.
#pragma once

#include <cstddef>

#include "obliq/core/friction/certificate.hpp"
#include "obliq/core/friction/newton.hpp"
#include "obliq/core/friction/one_contact.hpp"

namespace obliq::friction {

template <class T> OBLIQ_HD std::size_t nsgs_workspace(int m, int dim) {
  return std::size_t(m < 0 ? 0 : m) + 2 * std::size_t(dim) + newton_workspace<T>(dim);
}

// Projected Gauss-Seidel over contacts from the r given.
template <class T>
OBLIQ_HD Report<T> nsgs(const Problem<T>& p, VecView<T> r, VecView<T> u, Arena<T>& arena, int max_sweeps) {
  Report<T> rep;
  rep.method = Method::nsgs;
  const int m = p.size(), d = p.dim;
  const std::size_t mark = arena.mark();
  VecView<T> ql = arena.vec(d), rl = arena.vec(d), ul = arena.vec(d);
  if (arena.overflow) {
    arena.release(mark);
    rep.status = Status::bad_shape;
    return rep;
  }
  const T local_target = max_(tolerance<T>::rel * T(1e-3), T(64) * scalar_traits<T>::eps);
  rep.status = Status::no_convergence;
  T best = T(0), w = T(1);
  int since_best = 0;
  for (int sweep = 0;; ++sweep) {
    certify(p, r.as_const(), u, rep);
    rep.iterations = sweep;
    if (rep.status == Status::ok || rep.residual <= tolerance<T>::rel) {
      rep.status = Status::ok;
      break;
    }
    if (sweep == 0 || rep.residual < best) {
      best = rep.residual, since_best = 0;
    } else if (++since_best >= 20) {
      w = max_(T(0.1), T(0.7) * w), since_best = 0;
    }
    rep.status = Status::no_convergence;
    if (sweep >= max_sweeps) break;
    for (int i = 0; i < p.m_e; ++i) {
      T s = p.q[i];
      for (int j = 0; j < m; ++j) s += p.W(i, j) * r[j];
      if (p.W(i, i) > T(0)) r[i] -= s / p.W(i, i);
    }
    for (int c = 0; c < p.nc; ++c) {
      const int f = p.row(c);
      T Wl[9] = {}, qa[3] = {}, ra[3] = {};
      for (int a = 0; a < d; ++a) {
        T s = p.q[f + a];
        for (int j = 0; j < m; ++j)
          if (j < f || j >= f + d) s += p.W(f + a, j) * r[j];
        ql[a] = s;
        qa[a] = s;
        ra[a] = r[f + a];
        for (int b = 0; b < d; ++b) Wl[a * d + b] = p.W(f + a, f + b);
      }
      if (p.sliding(c)) {
        T sd[2] = {T(0), T(0)}, g;
        for (int j = 0; j < d - 1; ++j) sd[j] = p.slide(c, j);
        if (detail::slide_along(Wl, qa, d, p.mu[c], sd, ra, g) == 0 && qa[0] >= T(0))
          for (int j = 0; j < d; ++j) ra[j] = T(0);
      } else {
        solve_one_contact(Wl, qa, d, p.mu[c], ra);
      }
      for (int a = 0; a < d; ++a) rl[a] = ra[a];
      Problem<T> local;
      local.m_e = 0, local.nc = 1, local.dim = d;
      local.W = p.W.block(f, f, d, d);
      local.q = ql.as_const();
      local.mu = VecView<const T>{p.mu.data + c * p.mu.inc, 1, 0};
      if (p.slide.data != nullptr) local.slide = p.slide.block(c, 0, 1, d - 1);
      newton(local, rl, ul, arena, 5, local_target);
      for (int a = 0; a < d; ++a) r[f + a] = w * rl[a] + (T(1) - w) * r[f + a];
    }
  }
  arena.release(mark);
  return rep;
}


}  // namespace obliq::friction

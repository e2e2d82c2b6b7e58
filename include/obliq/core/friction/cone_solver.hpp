// obliq/core/friction/cone_solver.hpp: the exact Coulomb cone. A nonsmooth Newton method on the
// Alart-Curnier function with a backtracking line search, and projected (nonsmooth) Gauss-Seidel
// over contacts as fallback, the pair Siconos's fc3d solvers use (fc3d_nonsmooth_Newton_AlartCurnier,
// fc3d_nsgs). docs/friction.md (F6).
//
// Newton: Phi(r) stacks the per-contact Alart-Curnier functions (alart_curnier.hpp) at u = W r + q;
// J = A + B W (A, B block diagonal); solve J d = -Phi by LU with partial pivoting, after eliminating
// the contacts whose rows are local (separated ones: d_c = -Phi_c; newton_direction); step t = 1, 1/2,
// ... until psi(r + t d) <= (1 - 2 sigma t) psi(r), psi = |Phi|^2 / 2, sigma = 1e-4 (Armijo along
// the Newton direction, whose directional derivative is -2 psi). Stops when the certificate
// (certificate.hpp) passes, on a singular J, a failed line search or the iteration budget.
// NSGS: sweep over the rows; an equality row i takes r_i -= u_i / W_ii; contact c solves its own
// one-contact problem (W_cc, q_c + sum_{j not in c} W_cj r_j) by cases (one_contact.hpp; a contact
// with a prescribed sliding direction s: r_N = max(0, -q_N / (W_NN - mu W_NT s))), then a few
// steps of the same Newton method polish it (or, when no case applies, try from the current r_c).
// With large mu the sweep can cycle (seen: a 2-cycle at mu = 1.4); when the certificate's residual
// has not improved for 20 sweeps the update is under-relaxed, r_c <- w r_c,local + (1 - w) r_c,
// w *= 0.7 down to 0.1 (fixed points are unchanged: they are the solutions). Stops when the
// certificate passes or after the sweep budget.
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
// Planar problems (dim 2, or space contacts with a zero tangent row: pyramid.hpp): there the
// cone is the 2-facet pyramid, so the exact Coulomb problem is an LCP, which Lemke's method solves
// in finitely many pivots (lcp::Solver::automatic). The iterative stages can fail where it does
// not: a planar block resting on both corners has 4 contact rows on 3 velocities, W is singular,
// and with restitution (q_N += e u_N-) q leaves W's range, so no reaction makes both corners stick;
// the answer has one corner sliding at a speed of the order of the inconsistency (5e-10 m/s at
// q ~ 1e-2 seen), Newton's J = A + B W is singular in the sticking region and NSGS, each contact
// sticking in turn, stalls (residual 1.5e-8 after 2000 sweeps, extragradient 2.6e-8).
// solve_cone: Newton from two cheap Gauss-Seidel sweeps (gauss_seidel_start), again from r = 0 when
// that does not certify; if it still does not certify and the problem is planar, the LCP (its
// answer kept when it passes the cone's certificate); then NSGS from Newton's last iterate, then a
// few Newton steps from NSGS's answer (kept when they certify better); if NSGS does not certify
// either, the extragradient from r = 0 and Newton from its iterate. The
// certified answer is then projected onto the cones (F4): the iterates meet |r_T| <= mu r_N only to
// the certificate's tolerance, the answer exactly (up to rounding); it is certified again.
#pragma once

#include <cmath>
#include <cstddef>

#include "obliq/core/dense/lu.hpp"
#include "obliq/core/friction/alart_curnier.hpp"
#include "obliq/core/friction/certificate.hpp"
#include "obliq/core/friction/one_contact.hpp"
#include "obliq/core/friction/pyramid.hpp"

namespace obliq::friction {

template <class T> OBLIQ_HD std::size_t newton_workspace(int m) {
  // J (m x m), its pivots, Phi, dr, rn, un; the per-contact A, B blocks (2 d^2 nc <= 6 m); the
  // reduced system's row list, right-hand side and the eliminated rows' W_{K,S} d_S; W's row
  // maxima for the certificate (4 m).
  const std::size_t k = std::size_t(m < 0 ? 0 : m);
  return k * k + 15 * k;
}
template <class T> OBLIQ_HD std::size_t nsgs_workspace(int m, int dim) {
  return std::size_t(m < 0 ? 0 : m) + 2 * std::size_t(dim) + newton_workspace<T>(dim);
}
template <class T> OBLIQ_HD std::size_t extragradient_workspace(int m) {
  return 6 * std::size_t(m < 0 ? 0 : m) + newton_workspace<T>(m);
}
template <class T> OBLIQ_HD std::size_t cone_workspace(int m, int dim) {
  // The planar stage's LCP has 2 m_e + 4 nc <= 2 m variables.
  return max_(max_(max_(newton_workspace<T>(m), nsgs_workspace<T>(m, dim)), extragradient_workspace<T>(m)),
              pyramid_workspace<T>(2 * m, m) + std::size_t(m < 0 ? 0 : m)) +
         2 * std::size_t(m < 0 ? 0 : m);
}

namespace detail {

// Phi (m) at r, u; when AB is not null also the blocks A_c, B_c of each contact c (d x d row-major
// each, A_c at AB[2 d^2 c], B_c after it). The equality rows' are implicit: A = 0, B = rho_i.
template <class T>
OBLIQ_HD void ac_system(const Problem<T>& p, VecView<const T> r, VecView<const T> u, VecView<T> Phi, VecView<T>* AB) {
  const int d = p.dim, dd = d * d;
  for (int i = 0; i < p.m_e; ++i) Phi[i] = contact_rho(p, i, 1) * u[i];
  T rc[3], uc[3], ph[3], A[9], B[9], sc[2];
  for (int c = 0; c < p.nc; ++c) {
    const int f = p.row(c);
    for (int j = 0; j < d; ++j) rc[j] = r[f + j], uc[j] = u[f + j];
    const bool sl = p.sliding(c);
    if (sl)
      for (int j = 0; j < d - 1; ++j) sc[j] = p.slide(c, j);
    alart_curnier(rc, uc, d, p.mu[c], contact_rho(p, f, d), sl ? sc : nullptr, ph, AB ? A : nullptr, AB ? B : nullptr);
    for (int a = 0; a < d; ++a) Phi[f + a] = ph[a];
    if (AB)
      for (int k = 0; k < dd; ++k) (*AB)[2 * dd * c + k] = A[k], (*AB)[2 * dd * c + dd + k] = B[k];
  }
}

// Whether contact c's Newton rows are local: B_c = 0 and A_c = (1 0; a_T I), as for a separated
// contact (x <= 0: A_c = I) or one with a prescribed sliding direction s and x <= 0 (a_T = mu s).
// Then J's rows of c read A_c d_c = -Phi_c: d_N = -Phi_N, d_T = -Phi_T - a_T d_N.
template <class T> OBLIQ_HD bool local_rows(VecView<const T> AB, int c, int d) {
  const int o = 2 * d * d * c;
  for (int k = 0; k < d * d; ++k)
    if (AB[o + d * d + k] != T(0)) return false;
  for (int a = 0; a < d; ++a)
    for (int b = 1; b < d; ++b)
      if (AB[o + a * d + b] != (a == b ? T(1) : T(0))) return false;
  return AB[o] == T(1);
}

// The Newton direction: J dr = -Phi with J = A + B W (F6). The contacts with local rows are
// eliminated first (local_rows); the other rows K (equality rows, contacts in contact) make the
// system LU factors, J_KK dr_K = -Phi_K - B_K W_{K,S} dr_S (S: the eliminated rows; A is block
// diagonal, so A_KS = 0). About half the contacts of an impact separate, so near the answer the
// LU's system has about half the rows. `J`, `piv`: scratch of m x m and m. false when J_KK is
// singular (dense::lu).
template <class T>
OBLIQ_HD bool newton_direction(const Problem<T>& p, VecView<const T> Phi, VecView<const T> AB, VecView<T> dr, T* J,
                               IndexView<T> piv, IndexView<T> keep, VecView<T> rhs, VecView<T> ws) {
  const int m = p.size(), d = p.dim, dd = d * d;
  const std::ptrdiff_t st = dr.inc;
  // keep: the kept rows from the front, the eliminated contacts from the back.
  int k = 0, gone = 0;
  for (int i = 0; i < p.m_e; ++i) keep.set(k++, i);
  for (int c = 0; c < p.nc; ++c) {
    const int f = p.row(c);
    if (local_rows(AB, c, d)) {
      dr[f] = -Phi[f];
      for (int a = 1; a < d; ++a) dr[f + a] = -Phi[f + a] - AB[2 * dd * c + a * d] * dr[f];
      keep.set(m - 1 - gone++, c);
    } else {
      for (int a = 0; a < d; ++a) keep.set(k++, f + a);
    }
  }
  // ws_i = (W_{K,S} dr_S)_i for the kept rows i.
  for (int a = 0; a < k && gone > 0; ++a) {
    const int i = keep.get(a);
    T s = T(0);
    for (int g = 0; g < gone; ++g) {
      const int f = p.row(keep.get(m - 1 - g));
      for (int l = 0; l < d; ++l) s += p.W(i, f + l) * dr[f + l];
    }
    ws[i] = s;
  }
  MatView<T> Jk{J, k, k, std::ptrdiff_t(k) * st, st};
  for (int a = 0; a < p.m_e; ++a) {  // equality rows: rho_i W_i (A = 0, B = rho_i)
    const T rho = contact_rho(p, a, 1);
    for (int b = 0; b < k; ++b) Jk(a, b) = rho * p.W(a, keep.get(b));
    rhs[a] = -Phi[a] - (gone > 0 ? rho * ws[a] : T(0));
  }
  for (int a = p.m_e; a < k; a += d) {  // the d rows of a kept contact c: A_c + B_c W_c
    const int f = keep.get(a), c = (f - p.m_e) / d;
    const int o = 2 * dd * c;
    for (int b = 0; b < k; ++b) {
      const int j = keep.get(b);
      T w[3];
      for (int l = 0; l < d; ++l) w[l] = p.W(f + l, j);
      for (int x = 0; x < d; ++x) {
        T s = T(0);
        for (int l = 0; l < d; ++l) s += AB[o + dd + x * d + l] * w[l];
        Jk(a + x, b) = s;
      }
    }
    for (int x = 0; x < d; ++x) {
      for (int y = 0; y < d; ++y) Jk(a + x, a + y) += AB[o + x * d + y];
      T e = T(0);
      if (gone > 0)
        for (int l = 0; l < d; ++l) e += AB[o + dd + x * d + l] * ws[f + l];
      rhs[a + x] = -Phi[f + x] - e;
    }
  }
  IndexView<T> pk{piv.slots, k, piv.inc};
  if (!dense::lu(Jk, pk)) return false;
  VecView<T> x = rhs.head(k);
  dense::lu_solve(Jk.as_const(), pk, x);
  for (int a = 0; a < k; ++a) dr[keep.get(a)] = x[a];
  return true;
}

// Projects each contact's reaction (not those with a prescribed sliding direction) onto its cone
// and certifies the result (rep.status, rep.residual).
template <class T> OBLIQ_HD void project_reactions(const Problem<T>& p, VecView<T> r, VecView<T> u, Report<T>& rep) {
  T x[3];
  for (int c = 0; c < p.nc; ++c) {
    if (p.sliding(c)) continue;
    const int f = p.row(c);
    for (int j = 0; j < p.dim; ++j) x[j] = r[f + j];
    project_cone(x, p.dim, p.mu[c]);
    for (int j = 0; j < p.dim; ++j) r[f + j] = x[j];
  }
  rep.status = certify(p, r.as_const(), u, rep);
}

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

// Newton's start: `sweeps` cheap Gauss-Seidel sweeps from r = 0 (header comment). An equality
// row takes r_i -= u_i / W_ii; contact c, with q~ = q_c + sum_{j not in c} W_cj r_j, takes r_c = 0
// when q~_N >= 0, else r_N = -q~_N / W_NN and the tangent that sticks (W_TT r_T = -(q~_T + W_TN r_N))
// when that lies in the cone (F2), otherwise r_T = -mu r_N v / |v| along the slip v = q~_T + W_TN r_N
// with r_N refreshed to -(q~_N + W_NT r_T) / W_NN (>= 0). Not a solver (no case is checked exactly):
// it only moves the start near the answer, which cut Newton's steps at 24 contacts from 5.8 to 4.5
// on the benchmark's problems. Contacts with a prescribed sliding direction keep r_c = 0.
template <class T> OBLIQ_HD void gauss_seidel_start(const Problem<T>& p, VecView<T> r, int sweeps) {
  const int m = p.size(), d = p.dim;
  for (int sw = 0; sw < sweeps; ++sw) {
    for (int i = 0; i < p.m_e; ++i) {
      T s = p.q[i];
      for (int j = 0; j < m; ++j) s += p.W(i, j) * r[j];
      if (p.W(i, i) > T(0)) r[i] -= s / p.W(i, i);
    }
    for (int c = 0; c < p.nc; ++c) {
      if (p.sliding(c)) continue;
      const int f = p.row(c);
      T q[3] = {T(0), T(0), T(0)}, x[3] = {T(0), T(0), T(0)};
      for (int a = 0; a < d; ++a) {
        T s = p.q[f + a];
        for (int j = 0; j < m; ++j)
          if (j < f || j >= f + d) s += p.W(f + a, j) * r[j];
        q[a] = s;
      }
      const T wnn = p.W(f, f);
      if (q[0] < T(0) && wnn > T(0)) {
        x[0] = -q[0] / wnn;
        T v[2] = {T(0), T(0)}, v2 = T(0);
        for (int a = 1; a < d; ++a) v[a - 1] = q[a] + p.W(f + a, f) * x[0], v2 += v[a - 1] * v[a - 1];
        T det = p.W(f + 1, f + 1);
        if (d == 3) {
          det = p.W(f + 1, f + 1) * p.W(f + 2, f + 2) - p.W(f + 1, f + 2) * p.W(f + 2, f + 1);
          x[1] = (-v[0] * p.W(f + 2, f + 2) + v[1] * p.W(f + 1, f + 2)) / det;
          x[2] = (-v[1] * p.W(f + 1, f + 1) + v[0] * p.W(f + 2, f + 1)) / det;
        } else {
          x[1] = -v[0] / det;
        }
        T t2 = T(0);
        for (int a = 1; a < d; ++a) t2 += x[a] * x[a];
        const T lim = p.mu[c] * x[0];
        if (!(det > T(0)) || !(std::sqrt(t2) <= lim)) {  // sliding (NaN included)
          const T nv = std::sqrt(v2);
          T qn = q[0];
          for (int a = 1; a < d; ++a) x[a] = nv > T(0) ? -lim * v[a - 1] / nv : T(0), qn += p.W(f, f + a) * x[a];
          const T rn = max_(T(0), -qn / wnn);
          for (int a = 1; a < d; ++a) x[a] *= rn / x[0];
          x[0] = rn;
        }
      }
      for (int a = 0; a < d; ++a) r[f + a] = x[a];
    }
  }
  bool finite = true;
  for (int i = 0; i < m; ++i) finite = finite && (r[i] - r[i] == T(0));
  if (!finite)
    for (int i = 0; i < m; ++i) r[i] = T(0);
}

template <class T> OBLIQ_HD T half_norm2(VecView<const T> x) {
  T s = T(0);
  for (int i = 0; i < x.size; ++i) s += x[i] * x[i];
  return T(0.5) * s;
}

}  // namespace detail

// Newton's method from the r given (warm start). `target`: the relative certificate level to
// reach (tolerance<T>::rel for an answer). Returns Status::ok when reached.
template <class T>
OBLIQ_HD Report<T> newton(const Problem<T>& p, VecView<T> r, VecView<T> u, Arena<T>& arena, int max_iterations,
                          T target = tolerance<T>::rel) {
  Report<T> rep;
  rep.method = Method::newton;
  const int m = p.size();
  const std::size_t mark = arena.mark();
  MatView<T> J = arena.mat(m, m);
  IndexView<T> piv{arena.take(std::size_t(m)), m, arena.stride}, keep{arena.take(std::size_t(m)), m, arena.stride};
  VecView<T> Phi = arena.vec(m), dr = arena.vec(m), rn = arena.vec(m), un = arena.vec(m), rhs = arena.vec(m),
             ws = arena.vec(m), AB = arena.vec(2 * p.dim * p.dim * p.nc), wrow = arena.vec(m);
  if (arena.overflow) {
    arena.release(mark);
    rep.status = Status::bad_shape;
    return rep;
  }
  const T sigma = T(1e-4);
  rep.status = Status::no_convergence;
  w_row_max(p, wrow);
  velocities(p, r.as_const(), u);  // then kept equal to W r + q: the line search's un
  for (int it = 0;; ++it) {
    certify_given(p, r.as_const(), u.as_const(), wrow.as_const(), rep);
    rep.iterations = it;
    if (rep.residual <= target) {
      rep.status = Status::ok;
      break;
    }
    if (it >= max_iterations) break;
    detail::ac_system(p, r.as_const(), u.as_const(), Phi, &AB);
    const T psi = detail::half_norm2(Phi.as_const());
    if (!detail::newton_direction(p, Phi.as_const(), AB.as_const(), dr, J.data, piv, keep, rhs, ws)) break;
    T t = T(1);
    bool accepted = false;
    for (int ls = 0; ls < 30; ++ls, t *= T(0.5)) {
      for (int i = 0; i < m; ++i) rn[i] = r[i] + t * dr[i];
      velocities(p, rn.as_const(), un);
      detail::ac_system(p, rn.as_const(), un.as_const(), Phi, static_cast<VecView<T>*>(nullptr));
      if (detail::half_norm2(Phi.as_const()) <= (T(1) - T(2) * sigma * t) * psi) {
        accepted = true;
        break;
      }
    }
    if (!accepted) break;
    for (int i = 0; i < m; ++i) r[i] = rn[i], u[i] = un[i];
  }
  arena.release(mark);
  return rep;
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

// The exact cone: Newton (header comment), NSGS from its last iterate when it does not certify, then the
// extragradient from r = 0.
// `iterations` counts Newton steps plus NSGS sweeps; `method` says which one certified.
template <class T>
OBLIQ_HD Report<T> solve_cone(const Problem<T>& p, VecView<T> r, VecView<T> u, Arena<T>& arena,
                              int newton_budget = 50, int nsgs_budget = 2000) {
  Report<T> rep;
  rep.status = check_problem(p, r, u);
  for (int i = 0; i < r.size; ++i) r[i] = T(0);
  if (rep.status != Status::ok) return rep;
  // Newton aims 1000 times below the tolerance (quadratic convergence makes that a step or two
  // more), so that its answers also meet error measures scaled differently (Siconos's, relative to
  // |q|); it is accepted at the tolerance.
  const T target = max_(tolerance<T>::rel * T(1e-3), T(64) * scalar_traits<T>::eps);
  detail::gauss_seidel_start(p, r, 2);
  rep = newton(p, r, u, arena, newton_budget, target);
  if (rep.status != Status::bad_shape && rep.residual > tolerance<T>::rel) {  // again from r = 0
    const int first = rep.iterations;
    for (int i = 0; i < r.size; ++i) r[i] = T(0);
    rep = newton(p, r, u, arena, newton_budget - first, target);
    rep.iterations += first;
  }
  if (rep.status != Status::bad_shape && rep.residual <= tolerance<T>::rel) rep.status = Status::ok;
  if (rep.status == Status::ok) detail::project_reactions(p, r, u, rep);
  if (rep.status == Status::ok || rep.status == Status::bad_shape) return rep;
  const int spent = rep.iterations;
  if (planar(p)) {  // the exact LCP (header comment), Newton's iterate kept for NSGS
    const std::size_t mk = arena.mark();
    VecView<T> rl = arena.vec(r.size);
    if (!arena.overflow) {
      Report<T> lrep = solve_pyramid(p, 2, rl, u, arena, lcp::Solver::automatic);
      if (lrep.status == Status::ok) {
        detail::project_reactions(p, rl, u, lrep);
        if (lrep.status == Status::ok) {
          for (int i = 0; i < r.size; ++i) r[i] = rl[i];
          lrep.method = Method::lemke;
          lrep.iterations += spent;
          arena.release(mk);
          return lrep;
        }
      }
    }
    arena.release(mk);
  }
  bool finite = true;
  for (int i = 0; i < r.size; ++i) finite = finite && (r[i] - r[i] == T(0));
  if (!finite)
    for (int i = 0; i < r.size; ++i) r[i] = T(0);
  rep = nsgs(p, r, u, arena, nsgs_budget);
  rep.iterations += spent;
  if (rep.status == Status::ok) {
    // Polish: Newton from the NSGS answer, kept when it certifies better.
    const std::size_t mk = arena.mark();
    VecView<T> r2 = arena.vec(r.size);
    VecView<T> u2 = arena.vec(r.size);
    if (!arena.overflow) {
      for (int i = 0; i < r.size; ++i) r2[i] = r[i];
      Report<T> pol = newton(p, r2, u2, arena, 10, target);
      if (pol.residual < rep.residual) {
        for (int i = 0; i < r.size; ++i) r[i] = r2[i];
        rep.residual = pol.residual;
        rep.iterations += pol.iterations;
      }
    }
    arena.release(mk);
    detail::project_reactions(p, r, u, rep);
    // An answer at the tolerance's edge can fail it after the projection (seen in float): then
    // the extragradient, which stops below the tolerance.
    if (rep.status == Status::ok) return rep;
  }
  if (rep.status == Status::bad_shape) return rep;
  const int spent_nsgs = rep.iterations;
  for (int i = 0; i < r.size; ++i) r[i] = T(0);
  rep = extragradient(p, r, u, arena, 20 * nsgs_budget, target);
  rep.iterations += spent_nsgs;
  if (rep.status == Status::ok) detail::project_reactions(p, r, u, rep);
  return rep;
}

}  // namespace obliq::friction

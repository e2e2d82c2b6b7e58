// obliq/core/friction/certificate.hpp: the certificate of a frictional answer, checked from the
// problem's data (W, q, mu) and the candidate reactions r alone (docs/friction.md (F5)).
//
// For each contact c (rows N, T; rho_c from problem.hpp; all residuals in velocity units):
//   natural map  F_c = (r_c - proj_{K_mu}(r_c - rho_c u_hat_c)) / rho_c     (F5), zero iff the law holds;
//   normal       |min(r_N / rho_c, u_N)|                                   (complementarity);
//   cone         max(0, |r_T| - mu r_N) / rho_c                            (cone membership);
//   dissipation  | |u_T| r_T + mu r_N u_T | / max(mu |r_N| + |r_T|, rho_c s_c)   (sliding opposes r_T);
// for a contact with a prescribed sliding direction s_c: the normal residual and
// |r_T + mu r_N s_c| / rho_c; for an equality row i: |u_i|.
// Each is compared with the contact's own scale
//   s_c = max(max_{i in c} |q_i|, max_{i in c, j} |W_ij| * max_j |r_j|)
// (the size of the terms summed into u_c, as the LCP certificate's scale): contact c passes when
// every residual is <= tol * s_c (problem.hpp's tolerance; s_c = 0 needs residual 0). The verdict
// is unchanged by the units of W and q (r scales with q / W). `residual` reports the largest
// residual / s_c over all contacts and rows.
#pragma once

#include <cmath>

#include "obliq/core/dense/ops.hpp"
#include "obliq/core/friction/problem.hpp"

namespace obliq::friction {

// Projection of (x_N, x_T) (dim entries at x) onto K_mu, in place (docs/friction.md (F3)).
template <class T> OBLIQ_HD void project_cone(T* x, int dim, T mu) {
  T t2 = T(0);
  for (int j = 1; j < dim; ++j) t2 += x[j] * x[j];
  const T t = std::sqrt(t2), n = x[0];
  if (t <= mu * n) return;                       // inside
  if (mu * t <= -n) {                            // inside the polar cone: to the apex
    for (int j = 0; j < dim; ++j) x[j] = T(0);
    return;
  }
  const T a = (n + mu * t) / (T(1) + mu * mu);   // onto the boundary ray
  x[0] = a;
  for (int j = 1; j < dim; ++j) x[j] = t > T(0) ? mu * a * x[j] / t : T(0);
}

// Residuals of one contact (rows first..first+dim-1 of r and u; `scale` its s_c), as listed above.
// Returns the largest of them; `nat` gets the natural map alone. faceted: the answer of a faceted
// cone (the pyramid in space, (F8)), which obeys the normal law and lies inside K_mu but solves its
// own tangential law: only the normal and cone residuals (nat = the normal one).
template <class T>
OBLIQ_HD T contact_residual(const T* r, const T* u, int dim, T mu, T rho, T scale, const T* slide, T& nat,
                            bool faceted = false) {
  T ut2 = T(0), rt2 = T(0);
  for (int j = 1; j < dim; ++j) ut2 += u[j] * u[j], rt2 += r[j] * r[j];
  const T ut = std::sqrt(ut2), rt = std::sqrt(rt2);
  const T normal = abs_(min_(r[0] / rho, u[0]));
  T worst = normal;
  if (slide) {
    T d2 = T(0);
    for (int j = 1; j < dim; ++j) {
      const T d = r[j] + mu * r[0] * slide[j - 1];
      d2 += d * d;
    }
    nat = max_(normal, std::sqrt(d2) / rho);
    return max_(worst, nat);
  }
  if (faceted) {
    nat = normal;
    return max_(worst, max_(T(0), rt - mu * r[0]) / rho);  // cone
  }
  T x[3];
  x[0] = r[0] - rho * (u[0] + mu * ut);
  for (int j = 1; j < dim; ++j) x[j] = r[j] - rho * u[j];
  project_cone(x, dim, mu);
  T f2 = T(0);
  for (int j = 0; j < dim; ++j) f2 += (r[j] - x[j]) * (r[j] - x[j]);
  nat = std::sqrt(f2) / rho;
  worst = max_(worst, nat);
  worst = max_(worst, max_(T(0), rt - mu * r[0]) / rho);  // cone
  // Maximal dissipation in product form (F5): |u_T| r_T + mu r_N u_T = 0, divided by the force
  // R_c = max(mu |r_N| + |r_T|, rho_c s_c) (velocity units, <= |u_T|). No division by |u_T|: a slow
  // slip's direction, known only to rounding / |u_T|, enters with weight |u_T|, so the residual's
  // rounding floor is that of u itself; rho_c s_c keeps a reaction of rounding size (a separating
  // contact's) from being judged on its own noise (docs/friction.md (F5)).
  const T weight = max_(mu * abs_(r[0]) + rt, rho * scale);
  if (ut > T(0) && weight > T(0)) {
    T d2 = T(0);
    for (int j = 1; j < dim; ++j) {
      const T d = ut * (r[j] / weight) + mu * (r[0] / weight) * u[j];
      d2 += d * d;
    }
    worst = max_(worst, std::sqrt(d2));
  }
  return worst;
}

// Scale s of rows first..first+rows-1 (header comment); rmax = max_j |r_j|. wrow: max_j |W_ij| of
// each row i when given (w_row_max; a solver that certifies every iteration computes them once),
// data == nullptr: computed here.
template <class T> OBLIQ_HD T rows_scale(const Problem<T>& p, int first, int rows, T rmax, VecView<const T> wrow) {
  T qm = T(0), wm = T(0);
  for (int i = first; i < first + rows; ++i) {
    qm = max_(qm, abs_(p.q[i]));
    wm = max_(wm, wrow.data ? wrow[i] : dense::max_abs(p.W.row(i)));
  }
  return max_(qm, wm * rmax);
}

// wrow_i = max_j |W_ij| (m entries), for rows_scale.
template <class T> OBLIQ_HD void w_row_max(const Problem<T>& p, VecView<T> wrow) {
  for (int i = 0; i < p.size(); ++i) wrow[i] = dense::max_abs(p.W.row(i));
}

// The certificate of r given u = W r + q (the caller's: the same values certify() computes) and
// optionally the row maxima wrow (rows_scale); fills rep.residual and rep.worst and returns
// Status::ok when every contact passes, Status::no_convergence otherwise (NaN anywhere: not ok).
template <class T>
OBLIQ_HD Status certify_given(const Problem<T>& p, VecView<const T> r, VecView<const T> u, VecView<const T> wrow,
                              Report<T>& rep) {
  T rmax = T(0);
  for (int i = 0; i < p.size(); ++i) rmax = max_(rmax, abs_(r[i]));
  const T tol = tolerance<T>::rel;
  bool pass = rmax - rmax == T(0);
  rep.residual = T(0);
  rep.worst = 0;
  auto account = [&](T res, T s, int where) {
    const bool ok = res <= tol * s;  // NaN: false
    pass = pass && ok;
    const T rel = s > T(0) ? res / s : (res > T(0) || !(res == res) ? T(1) / T(0) : T(0));
    if (!(rel <= rep.residual)) rep.residual = rel, rep.worst = where;
  };
  for (int i = 0; i < p.m_e; ++i) account(abs_(u[i]), rows_scale(p, i, 1, rmax, wrow), -1 - i);
  T rc[3], uc[3], sc[2];
  for (int c = 0; c < p.nc; ++c) {
    const int f = p.row(c);
    for (int j = 0; j < p.dim; ++j) rc[j] = r[f + j], uc[j] = u[f + j];
    const bool sl = p.sliding(c);
    if (sl)
      for (int j = 0; j < p.dim - 1; ++j) sc[j] = p.slide(c, j);
    T nat;
    const T scale = rows_scale(p, f, p.dim, rmax, wrow);
    const T res = contact_residual(rc, uc, p.dim, p.mu[c], contact_rho(p, f, p.dim), scale, sl ? sc : nullptr, nat);
    account(res, scale, c);
  }
  return pass ? Status::ok : Status::no_convergence;
}

// Certifies r: computes u = W r + q, then certify_given.
template <class T> OBLIQ_HD Status certify(const Problem<T>& p, VecView<const T> r, VecView<T> u, Report<T>& rep) {
  velocities(p, r, u);
  return certify_given(p, r, u.as_const(), VecView<const T>{}, rep);
}

}  // namespace obliq::friction

// obliq/core/friction/newton.hpp: the nonsmooth Newton method on the Alart-Curnier function, the
// exact Coulomb cone's main solver (Siconos's fc3d_nonsmooth_Newton_AlartCurnier). docs/friction.md (F6).
//
// Newton: Phi(r) stacks the per-contact Alart-Curnier functions (alart_curnier.hpp) at u = W r + q;
// J = A + B W (A, B block diagonal); solve J d = -Phi by LU with partial pivoting, after eliminating
// the contacts whose rows are local (separated ones: d_c = -Phi_c; newton_direction); step t = 1, 1/2,
// ... until psi(r + t d) <= (1 - 2 sigma t) psi(r), psi = |Phi|^2 / 2, sigma = 1e-4 (Armijo along
// the Newton direction, whose directional derivative is -2 psi). Stops when the certificate
// (certificate.hpp) passes, on a singular J, a failed line search or the iteration budget.
// Newton starts from the caller's r (the orchestrator, cone_solver.hpp, gives it two cheap
// Gauss-Seidel sweeps first). NSGS (nsgs.hpp) and the extragradient (extragradient.hpp) finish
// their answers with a few of its steps.
#pragma once

#include <cmath>
#include <cstddef>

#include "obliq/core/dense/lu.hpp"
#include "obliq/core/friction/alart_curnier.hpp"
#include "obliq/core/friction/certificate.hpp"

namespace obliq::friction {

template <class T> OBLIQ_HD std::size_t newton_workspace(int m) {
  // J (m x m), its pivots, Phi, dr, rn, un; the per-contact A, B blocks (2 d^2 nc <= 6 m); the
  // reduced system's row list, right-hand side and the eliminated rows' W_{K,S} d_S; W's row
  // maxima for the certificate (4 m).
  const std::size_t k = std::size_t(m < 0 ? 0 : m);
  return k * k + 15 * k;
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


}  // namespace obliq::friction

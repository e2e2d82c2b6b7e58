// obliq/core/mechanics/energy.hpp: kinetic energy and the energy-consistency test of the
// restitution model (docs/math.md 6, eq 55 as a largest-eigenvalue test).
#pragma once

#include "obliq/core/dense/cholesky.hpp"
#include "obliq/core/dense/symmetric_eigen.hpp"
#include "obliq/core/mechanics/delassus.hpp"

namespace obliq {

// 1/2 v^T M v
template <class T> OBLIQ_HD T kinetic_energy(MatView<const T> M, VecView<const T> v) {
  T s = T(0);
  for (int i = 0; i < M.rows; ++i) {
    T r = T(0);
    for (int j = 0; j < M.cols; ++j) r += M(i, j) * v[j];
    s += v[i] * r;
  }
  return T(0.5) * s;
}

template <class T> OBLIQ_HD std::size_t energy_workspace(int k, int r) {
  return std::size_t(r) * k + 2 * std::size_t(k) * k;
}

// docs/math.md 6: Q = the block of W^+ (f factors the bilateral rows first, then the k candidate
// unilateral rows) that belongs to the candidate rows; E_u = diag(e_C). Consistent iff
//     lambda_max(E_u Q E_u - Q) <= tol * lambda_max(Q)    (tol = 1e-9 in double)
// With H = R^T R (R = L_H^T): Q = F F^T, F = Kp_u R^-1 (Kp_u: the candidate rows of Kp,
// delassus.hpp).
//
// Shortcuts that decide the same inequality without an eigensolver:
// - one global coefficient (all e_i equal, e <= 1): E Q E - Q = (e^2 - 1) Q <= 0, consistent;
// - otherwise lambda_max(Q) is bracketed by max_i Q_ii <= lambda_max(Q) <= tr(Q), and
//   lambda_max(E Q E - Q) <= tau  <=>  tau I - (E Q E - Q) is positive semidefinite; a Cholesky
//   factorization with tau at the low end of the bracket that succeeds proves consistency, one
//   with tau at the high end that fails proves inconsistency. Only in between (a band of
//   width tol * tr(Q)) are the two largest eigenvalues computed by Jacobi rotations.
template <class T>
OBLIQ_HD Status energy_consistent(const DelassusFactor<T>& f, int m_b, VecView<const T> e_c, bool& consistent, Arena<T>& arena) {
  const int k = e_c.size, r = f.r;
  consistent = true;
  bool global = true;
  for (int i = 1; i < k; ++i) global = global && e_c[i] == e_c[0];
  if (k == 0 || global) return Status::ok;
  const std::size_t mark = arena.mark();
  MatView<T> Ft = arena.mat(r, k);  // F^T = L_H^-1 K_u^T
  MatView<T> Q = arena.mat(k, k);
  MatView<T> D = arena.mat(k, k);
  if (arena.overflow) return Status::bad_shape;
  for (int j = 0; j < r; ++j)
    for (int i = 0; i < k; ++i) Ft(j, i) = f.Kp(m_b + i, j);
  dense::solve_lower(f.H.as_const(), Ft);
  dense::gram(Ft, Q);
  T diag_max = T(0), trace = T(0);
  for (int i = 0; i < k; ++i) {
    diag_max = max_(diag_max, Q(i, i));
    trace += Q(i, i);
  }
  const T tol = scalar_traits<T>::energy_tol;
  // tau I - (E Q E - Q) for a given tau, then try to factor it.
  auto psd_with = [&](T tau) {
    for (int i = 0; i < k; ++i)
      for (int j = 0; j < k; ++j) D(i, j) = Q(i, j) - e_c[i] * Q(i, j) * e_c[j] + (i == j ? tau : T(0));
    return dense::cholesky(D);
  };
  Status st = Status::ok;
  if (psd_with(tol * diag_max)) {
    consistent = true;
  } else if (!psd_with(tol * trace)) {
    consistent = false;
  } else {
    for (int i = 0; i < k; ++i)
      for (int j = 0; j < k; ++j) D(i, j) = e_c[i] * Q(i, j) * e_c[j] - Q(i, j);
    T lq = T(0), ld = T(0);
    st = dense::max_eigenvalue(Q, lq);
    if (st == Status::ok) st = dense::max_eigenvalue(D, ld);
    consistent = ld <= tol * lq;
  }
  arena.release(mark);
  return st;
}

}  // namespace obliq

// obliq/core/mechanics/mass_factor.hpp: the factor M = F F^T of the mass matrix that every law
// works with, dense or along the kinematic tree (docs/math.md 9, (M1)-(M3)).
//
// Everything downstream of M needs four products with a factor F of M = F F^T: whitening
// F^-1 x (Y = F^-1 V of the Delassus factor, Z = F^-1 A^T of the complementarity law and the
// frictional problem), its transpose F^-T xi (back to velocities), F xi (the impulse M (x - x_f)
// = F xi) and F^T v (the kinetic energy 1/2 |F^T v|^2). Two factors give them:
//  - dense: F = L, the lower Cholesky factor of M (dense/cholesky.hpp), O(n^3 / 6) to factor and
//    O(n^2) per product. Raw scenario lines, whose M has no known structure, use it.
//  - tree: F = L^T with M = L^T L, Featherstone's LTL factorization (RBDA, Featherstone 2008,
//    Table 6.3; Pinocchio's cholesky::decompose is its L^T D L twin): when the velocity
//    coordinates are numbered so that every parent precedes its children (parent[i] < i,
//    parent[root] = -1), M_ij = 0 unless i and j lie on one branch, and L has that pattern with
//    no fill-in:
//
//      for k = n-1 .. 0:  L_kk = sqrt(M_kk);  L_ki = M_ki / L_kk         (i ancestor of k)   (M1)
//                         M_ij -= L_ki L_kj                  (i, j ancestors of k, j <= i)
//
//    O(n d^2) to factor for depth d, O(n d) per product, each product a walk up the ancestors:
//
//      F^-1 x = L^-T x:  k = n-1 .. 0:  x_k /= L_kk;  x_i -= L_ki x_k  (i ancestor of k)    (M2)
//      F^-T x = L^-1 x:  k = 0 .. n-1:  x_k = (x_k - sum_i L_ki x_i) / L_kk
//      F x = L^T x,  F^T v = L v  likewise.
//
//    The model layer hands the parent array down (ModelView::velocity_parent, ScenarioView::
//    parent). factor_mass checks that M has the tree's pattern, exactly: every entry of the lower
//    triangle off the pattern must be zero, else the dense factor is used:
//
//      M_ki = 0  for every i < k that is not an ancestor of k                               (M3)
//
//    so a wrong or foreign parent array costs speed, never an answer. An invalid array
//    (parent[i] >= i or < -1) also falls back to dense.
// The factor's diagonal is L's diagonal in both cases (cond_L of complementarity.hpp reads it).
// Positive pivots, finite entries: a pivot that is not is M not positive definite (not_spd), as
// the dense Cholesky reports it.
#pragma once

#include <cmath>

#include "obliq/core/dense/cholesky.hpp"
#include "obliq/core/dense/ops.hpp"
#include "obliq/core/view.hpp"

namespace obliq {

template <class T> struct MassFactor {
  MatView<const T> F;          // dense: L (lower, M = L L^T); tree: L (lower, tree pattern, M = L^T L)
  const int* parent = nullptr;  // null: dense; else the tree (parent[i] < i, -1 for a root)
  OBLIQ_HD bool tree() const { return parent != nullptr; }
  OBLIQ_HD int size() const { return F.rows; }
  OBLIQ_HD T diagonal(int i) const { return F(i, i); }
};

// Factors M into `storage` (n x n, overwritten; its strict upper triangle is zeroed) and sets f.
// With a parent array that conforms (M3), the tree factor (M1); otherwise the dense Cholesky.
// Returns false when M is not positive definite (a pivot not positive or not finite).
// The tree's pattern is checked (M3) while M is copied, in one pass over the lower triangle.
template <class T>
OBLIQ_HD bool factor_mass(MatView<const T> M, const int* parent, MatView<T> storage, MassFactor<T>& f) {
  const int n = M.rows;
  f.F = storage.as_const();
  f.parent = nullptr;
  bool conforms = parent != nullptr;
  for (int k = 0; k < n && conforms; ++k) conforms = parent[k] >= -1 && parent[k] < k;
  MatView<T> L = storage;
  for (int k = 0; k < n && conforms; ++k) {  // row k: M's entries on k's ancestors, zeros elsewhere
    int a = parent[k];
    for (int i = k - 1; i >= 0; --i) {
      const T mki = M(k, i);
      if (i == a) {
        L(k, i) = mki;
        a = parent[a];
      } else {
        conforms = mki == T(0);
        L(k, i) = T(0);
      }
    }
    L(k, k) = M(k, k);
    for (int j = k + 1; j < n; ++j) L(k, j) = T(0);
  }
  if (!conforms) {
    dense::copy(M, storage);
    return dense::cholesky(storage);
  }
  for (int k = n - 1; k >= 0; --k) {  // (M1)
    const T d = L(k, k);
    if (!(d > T(0)) || !(d - d == T(0))) return false;
    const T lkk = std::sqrt(d);
    L(k, k) = lkk;
    const T inv = T(1) / lkk;
    for (int i = parent[k]; i >= 0; i = parent[i]) L(k, i) *= inv;
    for (int i = parent[k]; i >= 0; i = parent[i]) {
      const T lki = L(k, i);
      for (int j = i; j >= 0; j = parent[j]) L(i, j) -= lki * L(k, j);
    }
  }
  f.parent = parent;
  return true;
}

// x <- F^-1 x (M2): dense L^-1 x, tree L^-T x. A contact row touches only the coordinates of
// its body's branch: the tree walk skips the zeros (x_k = 0 changes none of its ancestors).
template <class T> OBLIQ_HD void whiten(const MassFactor<T>& f, VecView<T> x) {
  if (!f.tree()) return dense::solve_lower(f.F, x);
  const MatView<const T> L = f.F;
  for (int k = L.rows - 1; k >= 0; --k) {
    if (x[k] == T(0)) continue;
    const T xk = x[k] / L(k, k);
    x[k] = xk;
    for (int i = f.parent[k]; i >= 0; i = f.parent[i]) x[i] -= L(k, i) * xk;
  }
}

// B <- F^-1 B, column by column.
template <class T> OBLIQ_HD void whiten(const MassFactor<T>& f, MatView<T> B) {
  for (int j = 0; j < B.cols; ++j) whiten(f, B.col(j));
}

// x <- F^-T x: dense L^-T x, tree L^-1 x.
template <class T> OBLIQ_HD void unwhiten(const MassFactor<T>& f, VecView<T> x) {
  if (!f.tree()) return dense::solve_lower_transpose(f.F, x);
  const MatView<const T> L = f.F;
  for (int k = 0; k < L.rows; ++k) {
    T s = x[k];
    for (int i = f.parent[k]; i >= 0; i = f.parent[i]) s -= L(k, i) * x[i];
    x[k] = s / L(k, k);
  }
}

// x <- M^-1 x = F^-T F^-1 x.
template <class T> OBLIQ_HD void solve_mass(const MassFactor<T>& f, VecView<T> x) {
  whiten(f, x);
  unwhiten(f, x);
}

// y = F xi (y and xi distinct): dense L xi, tree L^T xi.
template <class T> OBLIQ_HD void times_factor(const MassFactor<T>& f, VecView<const T> xi, VecView<T> y) {
  const MatView<const T> L = f.F;
  const int n = L.rows;
  if (!f.tree()) {
    for (int i = n - 1; i >= 0; --i) {  // lower triangular product
      T s = T(0);
      for (int j = 0; j <= i; ++j) s += L(i, j) * xi[j];
      y[i] = s;
    }
    return;
  }
  for (int i = 0; i < n; ++i) y[i] = L(i, i) * xi[i];
  for (int k = 0; k < n; ++k)
    for (int i = f.parent[k]; i >= 0; i = f.parent[i]) y[i] += L(k, i) * xi[k];
}

// 1/2 v^T M v = 1/2 |F^T v|^2 (dense: L^T v, tree: L v).
template <class T> OBLIQ_HD T kinetic_energy(const MassFactor<T>& f, VecView<const T> v) {
  const MatView<const T> L = f.F;
  const int n = L.rows;
  T s = T(0);
  for (int i = 0; i < n; ++i) {
    T r = T(0);
    if (!f.tree()) {
      for (int k = i; k < n; ++k) r += L(k, i) * v[k];
    } else {
      r = L(i, i) * v[i];
      for (int j = f.parent[i]; j >= 0; j = f.parent[j]) r += L(i, j) * v[j];
    }
    s += r * r;
  }
  return T(0.5) * s;
}

}  // namespace obliq

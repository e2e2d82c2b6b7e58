// obliq/core/mechanics/constraint_inertia.hpp: the virtual mass nu and the constraint inertia
// matrix M_c = P M P + nu (I - P) (docs/math.md 2, seed 000 eq 8, claims 9a, 9c, 9f).
#pragma once

#include "obliq/core/view.hpp"

namespace obliq {

// nu* = tr(P M) / (n - r), the mean eigenvalue of Z^T M Z, inside the interval that makes
// cond(M_c) minimal; r = n (or r = 0): tr(M) / n.
template <class T> OBLIQ_HD T virtual_mass(MatView<const T> M, MatView<const T> P, int rank) {
  const int n = M.rows;
  T tr = T(0);
  if (rank == n || rank == 0) {
    for (int i = 0; i < n; ++i) tr += M(i, i);
    return n > 0 ? tr / T(n) : T(1);
  }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) tr += P(i, j) * M(j, i);
  return tr / T(n - rank);
}

// M_c (n x n) = P M P + nu (I - P). Needs n x n scratch for P M.
template <class T>
OBLIQ_HD void constraint_inertia(MatView<const T> M, MatView<const T> P, T nu, MatView<T> M_c, Arena<T>& arena) {
  const int n = M.rows;
  const std::size_t mark = arena.mark();
  MatView<T> PM = arena.mat(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      T s = T(0);
      for (int k = 0; k < n; ++k) s += P(i, k) * M(k, j);
      PM(i, j) = s;
    }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      T s = T(0);
      for (int k = 0; k < n; ++k) s += PM(i, k) * P(k, j);
      M_c(i, j) = s + nu * (((i == j) ? T(1) : T(0)) - P(i, j));
    }
  arena.release(mark);
}

}  // namespace obliq

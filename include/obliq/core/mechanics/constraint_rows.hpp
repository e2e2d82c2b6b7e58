// obliq/core/mechanics/constraint_rows.hpp: the rows taking part, A = [A_b ; A_u restricted to
// the candidates C] (docs/math.md 0, eq 4 and 17), and the way back to the full row numbering.
#pragma once

#include "obliq/core/dense/ops.hpp"
#include "obliq/core/scenario_view.hpp"

namespace obliq {

template <class T> struct ConstraintRows {
  MatView<T> A;        // m x n, bilateral rows first, then the candidate unilateral rows
  IndexView<T> index;  // m: row i of A is row index.get(i) of [A_b ; A_u] (bilateral first)
  int m_b = 0, k = 0;  // bilateral rows, candidate unilateral rows
};

template <class T>
OBLIQ_HD bool stack_constraint_rows(const ScenarioView<T>& in, VecView<const std::uint8_t> active, int k,
                                    ConstraintRows<T>& rows, Arena<T>& arena) {
  const int m = in.m_b + k;
  rows.m_b = in.m_b;
  rows.k = k;
  rows.A = arena.mat(m, in.n);
  rows.index = IndexView<T>{arena.take(std::size_t(m)), m, arena.stride};
  if (arena.overflow) return false;
  int r = 0;
  for (int i = 0; i < in.m_b; ++i, ++r) {
    dense::copy(in.A_b.row(i), rows.A.row(r));
    rows.index.set(r, i);
  }
  for (int i = 0; i < in.m_u; ++i)
    if (active[i]) {
      dense::copy(in.A_u.row(i), rows.A.row(r));
      rows.index.set(r, in.m_b + i);
      ++r;
    }
  return true;
}

// Multipliers of the stacked rows back to the full numbering (bilateral first); rows not
// taking part get 0.
template <class T> OBLIQ_HD void scatter_multipliers(const ConstraintRows<T>& rows, VecView<const T> lambda_rows, VecView<T> lambda) {
  dense::fill(lambda, T(0));
  for (int i = 0; i < rows.A.rows; ++i) lambda[rows.index.get(i)] = lambda_rows[i];
}

}  // namespace obliq

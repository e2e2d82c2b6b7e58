// obliq/core/mechanics/complementarity.hpp: the complementarity law, one source for impacts
// (velocity level) and dynamics (acceleration level).
//
// docs/math.md 5 and 7 (docs/format.md "What the laws mean"): find x minimising 1/2 (x - x_f)^T M (x - x_f)
// subject to the equality rows A_b x = t_b and the inequality rows A_u x >= t_u, with
// multipliers lambda_u >= 0 complementary to the slack (Newton's law for impacts, Gauss's
// principle with the contact LCP of seed 004 for dynamics).
//
// Method, in whitened coordinates xi = L^T (x - x_f) (M = L L^T), where the problem is the
// Euclidean least-distance problem min 1/2 |xi|^2, Ytilde_b xi = d_b, Z^T xi >= d_u:
//  1. equality rows: reduce A_b to its r_b orthonormal rows (delassus.hpp); targets that no
//     x can meet make the problem infeasible (docs/math.md 1). xi_b = Y_b H_b^-1 g_b.
//  2. inequality rows: Z = L^-1 A_u^T projected off the equality rows' whitened span
//     (Z' = P_b Z), the reduced Delassus matrix W' = Z'^T Z' (PSD; singular for dependent
//     contacts) and b' = A_u x_b - t_u; LCP(W', b') gives lambda_u, by the method `solver`
//     (default: Lemke's method, exact for PSD W'). For a PSD W' Lemke's secondary ray
//     proves that no x meets the constraints: Status::infeasible (so does enumeration's
//     "no complementary basis solves it").
//  3. x = x_f + L^-T (xi_b + Z' lambda_u); impulse f = M (x - x_f) = L (xi_b + Z' lambda_u).
//  4. multipliers (docs/math.md 7): the minimum-norm valid one, argmin |lambda| s.t.
//     A_act^T lambda = f, lambda_u >= 0 on the binding rows, 0 elsewhere. With the SVD of the
//     binding rows A_act, lambda = lambda_0 + N y, lambda_0 = (A_act^T)^+ f orthogonal to the
//     null basis N of A_act^T; minimising |y| s.t. lambda_0,u + N_u y >= 0 is, by its dual,
//     LCP(N_u N_u^T, lambda_0,u) with y = N_u^T mu (again PSD, again Lemke).
#pragma once

#include "obliq/core/lcp/lemke.hpp"
#include "obliq/core/lcp/select.hpp"
#include "obliq/core/mechanics/delassus.hpp"

namespace obliq {

template <class T> OBLIQ_HD std::size_t complementarity_workspace(int n, int m_b, int k) {
  const std::size_t m = std::size_t(m_b) + k, N = n, K = k, B = m_b;
  return N                                         // xi
         + delassus_workspace<T>(m_b, n) + 2 * (B + 1)  // equality rows, g, c
         + N * K + K * K + 3 * K + N                // Z', W', b, z, w, x_b
         + lcp::solve_workspace<T>(k)               // phase 1 (transient)
         + m + m * N + dense::svd_workspace<T>(int(m), n) + 2 * m  // binding rows, their SVD, lambda_0
         + K * K + 2 * K + m                        // phase 2: G, mu, slack, y
         + lcp::lemke_workspace<T>(k) + 16;
}

// A (m x n): the first m_b rows are equalities, the other k = m - m_b rows inequalities.
// Outputs x (n), lambda (m, in A's row order), impulse (n).
template <class T>
OBLIQ_HD Status solve_complementarity(MatView<const T> A, int m_b, MatView<const T> L, VecView<const T> x_f,
                                      VecView<const T> t, VecView<T> x, VecView<T> lambda, VecView<T> impulse,
                                      Arena<T>& arena, lcp::Solver solver = lcp::Solver::lemke) {
  const int m = A.rows, n = A.cols, k = m - m_b;
  const std::size_t mark = arena.mark();
  MatView<const T> A_b = A.top_rows(m_b), A_u = A.block(m_b, 0, k, n);
  VecView<T> xi = arena.vec(n);  // whitened impulse direction L^-1 f
  if (arena.overflow) return Status::bad_shape;
  dense::fill(xi, T(0));

  // 1. Equality rows.
  DelassusFactor<T> fb;
  int r_b = 0;
  if (m_b > 0) {
    Status st = factor_delassus(A_b, L, fb, arena);
    if (st != Status::ok) return st;
    if (!targets_consistent(fb, t.head(m_b))) return Status::infeasible;
    r_b = fb.rank();
    VecView<T> g = arena.vec(r_b);
    for (int j = 0; j < r_b; ++j) {  // g = Kp^T (t_b - A_b x_f)
      T c = T(0);
      for (int i = 0; i < m_b; ++i) c += fb.Kp(i, j) * (t[i] - dense::dot(A_b.row(i), x_f));
      g[j] = c;
    }
    dense::cholesky_solve(fb.H.as_const(), g);
    dense::gemv(T(1), fb.Y.as_const(), g.as_const(), T(0), xi);
  }

  // 2. Inequality rows: Z' = P_b L^-1 A_u^T, W' = Z'^T Z', b' = A_u x_b - t_u.
  MatView<T> Z = arena.mat(n, k);
  MatView<T> Wr = arena.mat(k, k);
  VecView<T> b = arena.vec(k), z = arena.vec(k), w = arena.vec(k), x_b = arena.vec(n);
  VecView<T> c = arena.vec(max_(r_b, 1));
  if (arena.overflow) return Status::bad_shape;
  dense::copy(A_u.transpose(), Z);
  dense::solve_lower(L, Z);
  for (int j = 0; j < k && r_b > 0; ++j) {  // Z_j -= Y_b H_b^-1 Y_b^T Z_j
    VecView<T> cr = c.head(r_b);
    dense::gemv(T(1), fb.Y.transpose().as_const(), Z.col(j).as_const(), T(0), cr);
    dense::cholesky_solve(fb.H.as_const(), cr);
    dense::gemv(T(-1), fb.Y.as_const(), cr.as_const(), T(1), Z.col(j));
  }
  dense::gram(Z, Wr);
  dense::copy(xi, x_b);
  dense::solve_lower_transpose(L, x_b);
  dense::axpy(T(1), x_f, x_b);
  for (int i = 0; i < k; ++i) b[i] = dense::dot(A_u.row(i), x_b.as_const()) - t[m_b + i];
  lcp::Result<T> res = lcp::solve(Wr.as_const(), b.as_const(), z, w, arena, solver);
  if (res.status == Status::lcp_ray) return Status::infeasible;
  if (res.status != Status::ok) return res.status == Status::lcp_budget ? Status::no_convergence : res.status;

  // 3. x and the impulse.
  dense::gemv(T(1), Z.as_const(), z.as_const(), T(1), xi);
  dense::copy(xi, x);
  dense::solve_lower_transpose(L, x);
  dense::axpy(T(1), x_f, x);
  for (int i = n - 1; i >= 0; --i) {  // impulse = L xi (lower triangular product)
    T s = T(0);
    for (int j = 0; j <= i; ++j) s += L(i, j) * xi[j];
    impulse[i] = s;
  }

  // 4. Minimum-norm valid multipliers over the binding rows (slack w_i ~ 0).
  //    rows[0..m_a): indices into A of the bilateral rows and the binding inequality rows.
  IndexView<T> rows{arena.take(std::size_t(m)), m, arena.stride};
  if (arena.overflow) return Status::bad_shape;
  int m_a = 0;
  for (int i = 0; i < m_b; ++i) rows.set(m_a++, i);
  for (int i = 0; i < k; ++i) {
    const T scale = abs_(t[m_b + i]) + abs_(b[i]) + dense::max_abs(A_u.row(i)) * dense::max_abs(x.as_const());
    if (w[i] <= scalar_traits<T>::binding_tol * scale) rows.set(m_a++, m_b + i);
  }
  dense::fill(lambda, T(0));
  if (m_a == 0) {
    arena.release(mark);
    return Status::ok;
  }
  MatView<T> Aa = arena.mat(m_a, n);
  if (arena.overflow) return Status::bad_shape;
  for (int i = 0; i < m_a; ++i) dense::copy(A.row(rows.get(i)), Aa.row(i));
  dense::Svd<T> sa;
  Status st = dense::svd(Aa.as_const(), sa, arena);
  if (st != Status::ok) return st;
  const int r = sa.rank, nn = m_a - r;
  VecView<T> lam = arena.vec(m_a), coef = arena.vec(m_a);
  if (arena.overflow) return Status::bad_shape;
  for (int j = 0; j < r; ++j) coef[j] = dense::dot(sa.V.col(j), impulse.as_const()) / sa.s[j];
  dense::gemv(T(1), sa.U.left_cols(r).as_const(), coef.head(r).as_const(), T(0), lam);  // lambda_0
  const int ku = m_a - m_b;  // binding inequality rows, rows m_b.. of Aa
  if (nn > 0 && ku > 0) {
    // Dual of min |y|^2 s.t. lambda_0,u + N_u y >= 0: LCP(N_u N_u^T, lambda_0,u).
    MatView<T> Nu = sa.U.block(m_b, r, ku, nn);
    MatView<T> G = arena.mat(ku, ku);
    VecView<T> mu = arena.vec(ku), slack = arena.vec(ku), y = arena.vec(nn);
    if (arena.overflow) return Status::bad_shape;
    dense::gram(Nu.transpose(), G);
    lcp::Result<T> r2 = lcp::lemke(G.as_const(), lam.segment(m_b, ku).as_const(), mu, slack, arena, 50 * ku + 100);
    if (r2.status != Status::ok) return r2.status == Status::lcp_budget ? Status::no_convergence : r2.status;
    dense::gemv(T(1), Nu.transpose().as_const(), mu.as_const(), T(0), y);            // y = N_u^T mu
    dense::gemv(T(1), sa.U.block(0, r, m_a, nn).as_const(), y.as_const(), T(1), lam);  // + N y
  }
  for (int i = 0; i < m_a; ++i) lambda[rows.get(i)] = lam[i];
  arena.release(mark);
  return Status::ok;
}

}  // namespace obliq

// obliq/core/mechanics/complementarity.hpp: the complementarity law, one source for impacts
// (velocity level) and dynamics (acceleration level).
//
// docs/math.md 5 and 7 (docs/format.md "What the laws mean"): find x minimising 1/2 (x - x_f)^T M (x - x_f)
// subject to the equality rows A_b x = t_b and the inequality rows A_u x >= t_u, with
// multipliers lambda_u >= 0 complementary to the slack (Newton's law for impacts, Gauss's
// principle with the contact LCP of seed 004 for dynamics).
//
// Method, in whitened coordinates xi = F^T (x - x_f) (M = F F^T, mass_factor.hpp), where the problem is the
// Euclidean least-distance problem min 1/2 |xi|^2, Ytilde_b xi = d_b, Z^T xi >= d_u:
//  0. equilibration: each row and its target are multiplied by a power of two that brings the
//     row's largest entry into [1, 2) (exact; x does not change), so that no square below
//     overflows or underflows whatever the rows' scales (docs/certificate.md, "Scales").
//  1. equality rows: reduce A_b to its r_b orthonormal rows (delassus.hpp); targets that no
//     x can meet make the problem infeasible (docs/math.md 1). xi_b = Y_b H_b^-1 g_b.
//  2. inequality rows: Z = F^-1 A_u^T projected off the equality rows' whitened span,
//     Z' = (I - Q Q^T) Z with Q from a Householder QR of Y_b (backward stable: the projection
//     of a row in that span is rounding noise, eps |Z_j|). A column left with no more than
//     16 max(m, n) eps cond_L |Z_j| (cond_L = max F_ii / min F_ii) is a row that depends on the
//     equality rows: it is set to exactly zero, and its row of the LCP reads 0 >= -b'_j,
//     feasible when b'_j >= -tol_f s_j (then b'_j is taken as >= 0), infeasible otherwise.
//     Then the reduced Delassus matrix W' = Z'^T Z' (PSD; singular for dependent contacts),
//     b' = A_u x_b - t_u, and LCP(W', b') (solved as LCP(beta W', b') for z / beta, beta a power
//     of two that makes max |beta W'_ij| O(1) whatever the units of M) gives lambda_u by the method `solver` (default:
//     Lemke's method, exact for PSD W', whose secondary ray proves that no x meets the rows).
//     Infeasibility is decided with the tolerance tol_f (scalar_traits::feasibility_tol, 1e-9
//     in double) of each row's scale s_j = |t_j| + sum_k |a_jk| (|x_b,k| + |x_f,k|): when the LCP
//     has no solution, it is solved again with every b'_j raised by min(1024 eps, tol_f / 16) s_j
//     (rounding),
//     then by tol_f s_j, and only when that one has no solution either is the problem
//     infeasible (the smallest relaxation that works is kept: nearly dependent rows at an angle
//     delta let x move by the relaxation / delta). (Rows that are met only to rounding,
//     such as opposing resting rows a and -c a whose targets differ by noise, are feasible.)
//  3. x = x_f + F^-T (xi_b + Z' lambda_u); impulse f = M (x - x_f) = F (xi_b + Z' lambda_u).
//  4. multipliers (docs/math.md 7), on the rows as given (not equilibrated): the minimum-norm valid
//     one, argmin |lambda| s.t. A_act^T lambda = f, lambda_u >= 0 on the binding rows, 0
//     elsewhere. With the SVD of the binding rows A_act, lambda = lambda_0 + N y,
//     lambda_0 = (A_act^T)^+ f orthogonal to the null basis N of A_act^T; minimising |y| s.t.
//     lambda_0,u + N_u y >= 0 is, by its dual, LCP(N_u N_u^T, lambda_0,u) with y = N_u^T mu
//     (again PSD, again Lemke; its answer, or y = 0 when it has none, is judged by the answer's
//     certificate, not by this inner LCP's row-by-row test).
#pragma once

#include "obliq/core/dense/householder.hpp"
#include "obliq/core/lcp/lemke.hpp"
#include "obliq/core/lcp/select.hpp"
#include "obliq/core/mechanics/delassus.hpp"

namespace obliq {

template <class T> OBLIQ_HD std::size_t complementarity_workspace(int n, int m_b, int k) {
  const std::size_t m = std::size_t(m_b) + k, N = n, K = k, B = m_b;
  return m * N + 2 * m + N                         // equilibrated rows, targets, their scales, xi
         + delassus_workspace<T>(m_b, n) + 2 * (B + 1)  // equality rows, g, c
         + N * B + B + K                            // QR of Y_b, column sizes of Z
         + N * K + K * K + 3 * K + N                // Z', W', b, z, w, x_b
         + lcp::solve_workspace<T>(k)               // phase 1 (transient)
         + m + m * N + dense::svd_workspace<T>(int(m), n) + 2 * m  // binding rows, their SVD, lambda_0
         + K * K + 2 * K + m                        // phase 2: G, mu, slack, y
         + lcp::lemke_workspace<T>(k) + K + 16;     // the warm start's list
}

// A (m x n): the first m_b rows are equalities, the other k = m - m_b rows inequalities.
// Outputs x (n), lambda (m, in A's row order), impulse (n).
template <class T>
OBLIQ_HD Status solve_complementarity(MatView<const T> A0, int m_b, const MassFactor<T>& L, VecView<const T> x_f,
                                      VecView<const T> t0, VecView<T> x, VecView<T> lambda, VecView<T> impulse,
                                      Arena<T>& arena, lcp::Solver solver = lcp::Solver::lemke,
                                      VecView<const std::uint8_t> warm_active = {}, IndexView<T> row_index = {}) {
  const int m = A0.rows, n = A0.cols, k = m - m_b;
  const T eps = scalar_traits<T>::eps, tol_f = scalar_traits<T>::feasibility_tol;
  const std::size_t mark = arena.mark();
  // 0. Equilibrated rows A and targets t (powers of two: exact).
  MatView<T> As = arena.mat(m, n);
  VecView<T> ts = arena.vec(m), bscale = arena.vec(m);
  VecView<T> xi = arena.vec(n);  // whitened impulse direction F^-1 f
  if (arena.overflow) return Status::bad_shape;
  for (int i = 0; i < m; ++i) {
    const T p = dense::pow2_inverse(dense::max_abs(A0.row(i)));
    for (int j = 0; j < n; ++j) As(i, j) = A0(i, j) * p;
    ts[i] = t0[i] * p;
  }
  const MatView<const T> A = As.as_const();
  const VecView<const T> t = ts.as_const();
  MatView<const T> A_b = A.top_rows(m_b), A_u = A.block(m_b, 0, k, n);
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

  // 2. Inequality rows: Z' = (I - Q Q^T) F^-1 A_u^T, W' = Z'^T Z', b' = A_u x_b - t_u.
  MatView<T> Z = arena.mat(n, k);
  MatView<T> Wr = arena.mat(k, k);
  VecView<T> b = arena.vec(k), z = arena.vec(k), w = arena.vec(k), x_b = arena.vec(n), zsize = arena.vec(k);
  if (arena.overflow) return Status::bad_shape;
  dense::copy(A_u.transpose(), Z);
  whiten(L, Z);
  for (int j = 0; j < k; ++j) zsize[j] = dense::max_abs(Z.col(j).as_const());
  if (r_b > 0) {
    MatView<T> Q = arena.mat(n, r_b);
    VecView<T> beta = arena.vec(r_b);
    if (arena.overflow) return Status::bad_shape;
    dense::copy(fb.Y.as_const(), Q);
    dense::householder_qr(Q, beta);
    dense::apply_qt(Q.as_const(), beta.as_const(), Z);
    for (int i = 0; i < r_b; ++i)
      for (int j = 0; j < k; ++j) Z(i, j) = T(0);
    dense::apply_q(Q.as_const(), beta.as_const(), Z);
  }
  T lmax = T(0), lmin = L.diagonal(0);
  for (int i = 0; i < n; ++i) lmax = max_(lmax, L.diagonal(i)), lmin = min_(lmin, L.diagonal(i));
  const T tau_dep = T(16) * T(max_(m, n)) * eps * (lmax / lmin);
  dense::copy(xi, x_b);
  unwhiten(L, x_b);
  dense::axpy(T(1), x_f, x_b);
  for (int i = 0; i < k; ++i) {
    const VecView<const T> a = A_u.row(i);
    b[i] = dense::dot(a, x_b.as_const()) - t[m_b + i];
    T s = abs_(t[m_b + i]);
    for (int j = 0; j < n; ++j) s += abs_(a[j]) * (abs_(x_b[j]) + abs_(x_f[j]));
    bscale[i] = s;
    if (r_b > 0 && dense::max_abs(Z.col(i).as_const()) <= tau_dep * zsize[i]) {
      // Row i depends on the equality rows: 0 >= -b'_i.
      dense::fill(Z.col(i), T(0));
      if (b[i] < -tol_f * s) return Status::infeasible;
      b[i] = max_(b[i], T(0));
    }
  }
  dense::gram(Z, Wr);
  // W' carries the units of M^-1: the LCP is solved for z / beta with beta W' (beta a power of
  // two bringing max |W'_ij| into [1, 2), exact), so that its pivot tolerances see O(1) numbers.
  const T beta = dense::pow2_inverse(dense::max_abs(Wr.as_const()));
  for (int i = 0; i < k; ++i) dense::scale(Wr.row(i), beta);
  // Warm start: the inequality rows whose scenario row is flagged in warm_active (the rows that
  // took part in the caller's previous, nearly equal problem: Moreau-Jean's last step) are tried
  // as the LCP's active set first (lcp::solve_warm): a right guess is the answer with no pivot,
  // certified like any other; a wrong one costs one basis trial and the cold solve answers.
  IndexView<T> warm{arena.take(std::size_t(k)), k, arena.stride};
  int warm_count = 0;
  if (arena.overflow) return Status::bad_shape;
  if (warm_active.size > 0 && row_index.slots != nullptr)
    for (int j = 0; j < k; ++j)
      if (warm_active[row_index.get(m_b + j) - m_b]) warm.set(warm_count++, j);
  lcp::Result<T> res = warm_count > 0 ? lcp::solve_warm(Wr.as_const(), b.as_const(), z, w, arena, solver, warm, warm_count)
                                      : lcp::solve(Wr.as_const(), b.as_const(), z, w, arena, solver);
  if (res.status == Status::lcp_ray || res.status == Status::infeasible || res.status == Status::no_convergence) {
    // No solution: is there one when every row may miss its target by a relaxation of its
    // scale, first the rounding floor (1024 eps, at most tol_f / 16), then tol_f? The smallest relaxation that
    // works is kept: along a direction that nearly dependent rows pin (rows at an angle
    // delta), a relaxation r lets x move by r / delta, so tol_f is the last resort.
    T relaxation = T(0);
    for (const T level : {tol_f * rounding_floor_over_tol(tol_f), tol_f}) {
      for (int i = 0; i < k; ++i) b[i] += (level - relaxation) * bscale[i];
      relaxation = level;
      const lcp::Result<T> relaxed = lcp::solve(Wr.as_const(), b.as_const(), z, w, arena, solver);
      if (relaxed.status == Status::ok) {
        res = relaxed;
        break;
      }
    }
  }
  if (res.status == Status::lcp_ray || res.status == Status::infeasible) return Status::infeasible;
  if (res.status != Status::ok) return res.status == Status::lcp_budget ? Status::no_convergence : res.status;
  dense::scale(z, beta);

  // 3. x and the impulse.
  dense::gemv(T(1), Z.as_const(), z.as_const(), T(1), xi);
  dense::copy(xi, x);
  unwhiten(L, x);
  dense::axpy(T(1), x_f, x);
  times_factor(L, xi.as_const(), impulse);  // impulse = M (x - x_f) = F xi

  // 4. Minimum-norm valid multipliers over the binding rows: a row carrying force in the LCP's
  //    answer (z_i > 0), or one whose slack w_i is zero at the scale of its terms: to tol_b
  //    (binding_tol) of those of the velocity row (|t_i| + |b_i| + |a_i| max|x|), and to the
  //    rounding floor of the impulse's share (sum_j |W'_ij z_j|). (A resting row whose target
  //    and free motion cancel, b_i ~ 0, still carries the impulse of its neighbours: its w_i is
  //    rounding of sum_j W'_ij z_j. That share is weighed at its rounding only: multipliers
  //    that nearly cancel make it large, and at tol_b it would take in a duplicated row whose
  //    target is lower by 1e-5 of its scale, a row the certificate finds loose.)
  //    rows[0..m_a): indices into A of the bilateral rows and the binding inequality rows.
  IndexView<T> rows{arena.take(std::size_t(m)), m, arena.stride};
  if (arena.overflow) return Status::bad_shape;
  int m_a = 0;
  for (int i = 0; i < m_b; ++i) rows.set(m_a++, i);
  for (int i = 0; i < k; ++i) {
    const T scale = abs_(t[m_b + i]) + abs_(b[i]) + dense::max_abs(A_u.row(i)) * dense::max_abs(x.as_const());
    T share = T(0);
    for (int j = 0; j < k; ++j) share += abs_(Wr(i, j)) * abs_(z[j]) / beta;  // Wr = beta W'
    const T zero_w = scalar_traits<T>::binding_tol * scale + tol_f * rounding_floor_over_tol(tol_f) * share;
    if (z[i] > T(0) || w[i] <= zero_w) rows.set(m_a++, m_b + i);
  }
  dense::fill(lambda, T(0));
  if (m_a == 0) {
    arena.release(mark);
    return Status::ok;
  }
  MatView<T> Aa = arena.mat(m_a, n);
  if (arena.overflow) return Status::bad_shape;
  for (int i = 0; i < m_a; ++i) dense::copy(A0.row(rows.get(i)), Aa.row(i));
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
    // Lemke's answer is taken whether or not this inner LCP certifies it row by row: its rows are
    // multipliers of rounding size on degenerate rows, and the answer's own certificate
    // (certificate.hpp, from the input alone) judges the multipliers it yields. Without an
    // answer (ray, budget), lambda_0 alone goes to that certificate.
    lcp::Result<T> r2 = lcp::lemke(G.as_const(), lam.segment(m_b, ku).as_const(), mu, slack, arena, 50 * ku + 100);
    if (r2.status == Status::non_finite || r2.status == Status::bad_shape) return r2.status;
    if (r2.status != Status::ok && r2.status != Status::no_convergence) dense::fill(mu, T(0));
    dense::gemv(T(1), Nu.transpose().as_const(), mu.as_const(), T(0), y);            // y = N_u^T mu
    dense::gemv(T(1), sa.U.block(0, r, m_a, nn).as_const(), y.as_const(), T(1), lam);  // + N y
  }
  for (int i = 0; i < m_a; ++i) lambda[rows.get(i)] = lam[i];
  arena.release(mark);
  return Status::ok;
}

}  // namespace obliq

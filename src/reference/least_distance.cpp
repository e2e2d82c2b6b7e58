// src/reference/least_distance.cpp: Lawson-Hanson NNLS and least-distance programming (LDP),
// the exact finite active-set methods behind the reference complementarity law (docs/math.md 7).
//
// LDP (Lawson & Hanson, "Solving Least Squares Problems", ch. 23): the point of smallest norm in
// {y : G y >= h} is found from the NNLS problem  min ||E u - f||, u >= 0,  E = [G^T; h^T],
// f = e_{k+1}. With r = E u - f: the rows are infeasible iff r = 0; otherwise
// y = -r_{1:k} / r_{k+1} = G^T u / (1 - h^T u), and mu = u / (1 - h^T u) >= 0 are multipliers
// (y = G^T mu, positive only on binding rows). NNLS is the Lawson-Hanson active-set method:
// finite, each inner step an exact least-squares solve; dependent columns are handled because a
// column enters only when it improves the fit.
#include <algorithm>
#include <cmath>
#include <vector>

#include "reference/detail.hpp"

namespace obliq::reference::detail {

namespace {

// argmin ||E_P z - f|| over the passive columns P (complete orthogonal decomposition, so
// near-dependent columns give the minimum-norm fit rather than a blow-up).
VectorXd passive_least_squares(const MatrixXd& E, const VectorXd& f, const std::vector<int>& P) {
  MatrixXd E_P(E.rows(), Eigen::Index(P.size()));
  for (size_t c = 0; c < P.size(); ++c) E_P.col(Eigen::Index(c)) = E.col(P[c]);
  Eigen::CompleteOrthogonalDecomposition<MatrixXd> cod(E_P);
  return cod.solve(f);
}

}  // namespace

Status nonnegative_least_squares(const MatrixXd& E, const VectorXd& f, VectorXd& u) {
  const Eigen::Index p = E.rows(), q = E.cols();
  u = VectorXd::Zero(q);
  if (q == 0) return Status::ok;
  const VectorXd col_norm = E.colwise().norm().transpose();  // (q)
  std::vector<char> passive(size_t(q), 0), blocked(size_t(q), 0);
  const int budget = int(30 * q + 50);
  int steps = 0;
  for (;;) {
    // Gradient w = E^T (f - E u); w_j > 0 means column j would improve the fit. Its roundoff is
    // about eps ||E_j|| (||f|| + sum_i ||E_i|| u_i), hence the per-column tolerance.
    const VectorXd w = E.transpose() * (f - E * u);
    const double fit_scale = f.norm() + col_norm.dot(u);
    Eigen::Index j = -1;
    double best = 0;
    for (Eigen::Index i = 0; i < q; ++i) {
      if (passive[size_t(i)] || blocked[size_t(i)] || col_norm(i) == 0) continue;
      const double tol_i = 10.0 * kEps * double(std::max(p, q)) * col_norm(i) * fit_scale;
      if (w(i) > tol_i && w(i) / col_norm(i) > best) {
        best = w(i) / col_norm(i);
        j = i;
      }
    }
    if (j < 0) return Status::ok;
    passive[size_t(j)] = 1;

    bool first_inner = true;
    for (;;) {
      if (++steps > budget) return Status::no_convergence;
      std::vector<int> P;
      for (Eigen::Index i = 0; i < q; ++i)
        if (passive[size_t(i)]) P.push_back(int(i));
      const VectorXd z_P = passive_least_squares(E, f, P);
      VectorXd z = VectorXd::Zero(q);
      for (size_t c = 0; c < P.size(); ++c) z(P[c]) = z_P(Eigen::Index(c));

      // Lawson-Hanson guard: a column whose own coefficient comes out non-positive right after
      // it entered is rejected (roundoff made its gradient look positive); try another.
      if (first_inner && z(j) <= 0) {
        passive[size_t(j)] = 0;
        blocked[size_t(j)] = 1;
        break;
      }
      first_inner = false;

      bool all_positive = true;
      for (int i : P)
        if (z(i) <= 0) all_positive = false;
      if (all_positive) {
        u = z;
        std::fill(blocked.begin(), blocked.end(), 0);
        break;
      }
      // Step from u towards z until the first passive coefficient reaches zero; it leaves P,
      // with every other one that reached zero.
      double alpha = 1.0;
      int leaving = -1;
      for (int i : P)
        if (z(i) <= 0) {
          const double a = u(i) / (u(i) - z(i));
          if (leaving < 0 || a < alpha) {
            alpha = a;
            leaving = i;
          }
        }
      u += alpha * (z - u);
      for (int i : P)
        if (i == leaving || u(i) <= 0) {
          u(i) = 0;
          passive[size_t(i)] = 0;
        }
      std::fill(blocked.begin(), blocked.end(), 0);
    }
  }
}

Status least_distance(const MatrixXd& G, const VectorXd& h, const VectorXd& zero_row_tol,
                      const VectorXd& zero_row_h_tol, VectorXd& y, VectorXd& mu) {
  const Eigen::Index m = G.rows(), k = G.cols();
  y = VectorXd::Zero(k);
  mu = VectorXd::Zero(m);

  // Zero rows demand 0 >= h_i; the others are scaled to unit norm (the row's direction and the
  // right-hand side in units of it: the feasible set is unchanged).
  std::vector<int> kept;
  VectorXd row_norm(m);
  for (Eigen::Index i = 0; i < m; ++i) {
    row_norm(i) = G.row(i).norm();
    if (row_norm(i) <= zero_row_tol(i)) {
      if (h(i) > zero_row_h_tol(i)) return Status::infeasible;
    } else {
      kept.push_back(int(i));
    }
  }
  const Eigen::Index m_k = Eigen::Index(kept.size());
  MatrixXd G_n(m_k, k);  // unit rows
  VectorXd h_n(m_k);
  for (Eigen::Index c = 0; c < m_k; ++c) {
    G_n.row(c) = G.row(kept[size_t(c)]) / row_norm(kept[size_t(c)]);
    h_n(c) = h(kept[size_t(c)]) / row_norm(kept[size_t(c)]);
  }
  // y = 0 is the answer when it is feasible.
  const double h_max = (m_k == 0) ? 0.0 : h_n.maxCoeff();
  if (h_max <= 0) return Status::ok;
  h_n /= h_max;  // now max h_n = 1: y is measured in units of the largest demanded distance

  // NNLS on E = [G^T; h^T], f = e_{k+1}.
  MatrixXd E(k + 1, m_k);
  E.topRows(k) = G_n.transpose();
  E.row(k) = h_n.transpose();
  VectorXd f = VectorXd::Zero(k + 1);
  f(k) = 1.0;
  VectorXd u;
  const Status st = nonnegative_least_squares(E, f, u);
  if (st != Status::ok) return st;
  const double denom = 1.0 - h_n.dot(u);  // = -r_{k+1} = 1 / (1 + ||y||^2) in exact arithmetic
  if (!(denom > 10.0 * kEps) || !std::isfinite(denom)) return Status::infeasible;
  const VectorXd mu_n = u / denom;
  const VectorXd y_n = G_n.transpose() * mu_n;
  if (!y_n.allFinite()) return Status::infeasible;

  // The rows must hold at y (to 1e-9 relative): an infeasible set leaves r ~ 0 and a y that
  // breaks some row by O(1) (Farkas).
  const double violation = (m_k == 0) ? 0.0 : (h_n - G_n * y_n).maxCoeff();
  if (violation > 1e-9 * std::max(1.0, y_n.norm())) return Status::infeasible;

  y = h_max * y_n;
  for (Eigen::Index c = 0; c < m_k; ++c)
    mu(kept[size_t(c)]) = h_max * mu_n(c) / row_norm(kept[size_t(c)]);
  return Status::ok;
}

}  // namespace obliq::reference::detail

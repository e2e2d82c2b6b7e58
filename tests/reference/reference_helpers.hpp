// tests/reference/reference_helpers.hpp: random scenarios and independent checks (KKT residuals,
// a brute-force minimum-norm valid multiplier) for the tests of the Eigen reference path.
#pragma once

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "obliq/reference.hpp"

namespace obliq::reference::testing {

using Eigen::MatrixXd;
using Eigen::VectorXd;
using Eigen::VectorXi;

inline constexpr double kEps = 2.220446049250313e-16;

// SPD M = Q diag(d) Q^T with eigenvalues log-spaced over [1/cond, 1] times `scale`.
inline MatrixXd random_spd(int n, double cond, std::mt19937& rng, double scale = 1.0) {
  std::normal_distribution<double> N(0, 1);
  MatrixXd X = MatrixXd::NullaryExpr(n, n, [&] { return N(rng); });
  Eigen::HouseholderQR<MatrixXd> qr(X);
  const MatrixXd Q = qr.householderQ();
  VectorXd d(n);
  for (int i = 0; i < n; ++i) d(i) = scale * std::pow(cond, n == 1 ? 0.0 : -double(i) / (n - 1));
  MatrixXd M = Q * d.asDiagonal() * Q.transpose();
  return 0.5 * (M + M.transpose());
}

inline MatrixXd random_matrix(int r, int c, std::mt19937& rng) {
  std::normal_distribution<double> N(0, 1);
  return MatrixXd::NullaryExpr(r, c, [&] { return N(rng); });
}
inline VectorXd random_vector(int n, std::mt19937& rng) {
  std::normal_distribution<double> N(0, 1);
  return VectorXd::NullaryExpr(n, [&] { return N(rng); });
}

// A scenario whose constraints are feasible by construction: rows A_b = B_b C_b and
// A_u = B_u C_u with B_u >= 0 (dependent rows when B has fewer columns than rows) and
// [C_b; C_u] of full row rank, so that some d has A_b d = 0 and A_u d > 0.
struct RandomSpec {
  int n = 6, m_b = 1, m_u = 4;
  int rank_b = -1, rank_u = -1;  // -1: full (min(rows, available))
  double cond = 1e2;
};
inline Scenario random_feasible_scenario(const RandomSpec& spec, std::mt19937& rng) {
  const int n = spec.n;
  int r_b = spec.rank_b < 0 ? std::min(spec.m_b, n) : spec.rank_b;
  int r_u = spec.rank_u < 0 ? std::min(spec.m_u, n - r_b) : spec.rank_u;
  r_b = std::min(r_b, spec.m_u > 0 ? n - 1 : n);  // leave room for a unilateral direction
  r_u = std::min(r_u, n - r_b);
  if (spec.m_u > 0) r_u = std::max(r_u, std::min(1, n - r_b));
  Scenario s = Scenario::zeros({n, spec.m_b, spec.m_u});
  s.M = random_spd(n, spec.cond, rng, 2.0);
  const MatrixXd C = random_matrix(r_b + r_u, n, rng);
  if (spec.m_b > 0 && r_b > 0) s.A_b = random_matrix(spec.m_b, r_b, rng) * C.topRows(r_b);
  if (spec.m_u > 0 && r_u > 0) {
    std::uniform_real_distribution<double> U(0.1, 1.0);
    MatrixXd B_u = MatrixXd::NullaryExpr(spec.m_u, r_u, [&] { return U(rng); });
    s.A_u = B_u * C.bottomRows(r_u);
  }
  s.qdot = random_vector(n, rng);
  s.h = random_vector(n, rng);
  s.u = random_vector(n, rng);
  s.i_u = random_vector(n, rng);
  std::uniform_real_distribution<double> U01(0.0, 1.0);
  for (int i = 0; i < spec.m_u; ++i) s.e(i) = U01(rng);
  return s;
}

// Minimum-norm valid multiplier by enumeration of the zero pattern (docs/math.md 7):
// argmin ||lambda|| s.t. K lambda = f, lambda_i >= 0 for i in `nonneg`. For each subset F of
// `nonneg` forced to zero, the candidate is the pseudo-inverse solution on the other columns.
inline VectorXd brute_force_min_norm_valid(const MatrixXd& K, const VectorXd& f,
                                           const std::vector<int>& nonneg, double tol) {
  const int k = int(K.cols()), b = int(nonneg.size());
  VectorXd best;
  double best_norm = INFINITY;
  for (int mask = 0; mask < (1 << b); ++mask) {
    std::vector<int> keep;
    std::vector<char> zero(size_t(k), 0);
    for (int j = 0; j < b; ++j)
      if (mask & (1 << j)) zero[size_t(nonneg[size_t(j)])] = 1;
    for (int c = 0; c < k; ++c)
      if (!zero[size_t(c)]) keep.push_back(c);
    MatrixXd K_F(K.rows(), Eigen::Index(keep.size()));
    for (size_t c = 0; c < keep.size(); ++c) K_F.col(Eigen::Index(c)) = K.col(keep[c]);
    VectorXd lam = VectorXd::Zero(k);
    if (!keep.empty()) {
      Eigen::CompleteOrthogonalDecomposition<MatrixXd> cod(K_F);
      const VectorXd l_F = cod.solve(f);
      if ((K_F * l_F - f).norm() > tol * std::max(1.0, f.norm())) continue;
      for (size_t c = 0; c < keep.size(); ++c) lam(keep[c]) = l_F(Eigen::Index(c));
    } else if (f.norm() > tol) {
      continue;
    }
    bool valid = true;
    for (int j : nonneg)
      if (lam(j) < -tol * std::max(1.0, f.norm())) valid = false;
    if (valid && lam.norm() < best_norm) {
      best_norm = lam.norm();
      best = lam;
    }
  }
  return best;
}

// Stacked rows taking part: [A_b; A_u restricted to `active`].
inline MatrixXd active_rows(const Scenario& s, const VectorXi& active) {
  const int n = int(s.M.rows());
  MatrixXd A(s.A_b.rows() + active.sum(), n);
  for (int i = 0; i < s.A_b.rows(); ++i) A.row(i) = s.A_b.row(i);
  for (int i = 0, c = int(s.A_b.rows()); i < s.A_u.rows(); ++i)
    if (active(i)) A.row(c++) = s.A_u.row(i);
  return A;
}

// Residuals of one law's answer x (v or qddot) with per-row multipliers lam (rows of A, the
// m_eq equality rows first), targets t and free motion x_f (docs/math.md 4, 5, 7).
struct LawCheck {
  double stationarity = 0;  // ||M (x - x_f) - A^T lam|| / (||M|| (||x|| + ||x_f||))
  double primal = 0;        // complementarity: max(|eq slack|, -ineq slack) / scale
  double least_squares = 0; // projection: ||A x - A A^+ t|| / scale
  double min_norm = 0;      // ||lam - brute-force min-norm valid|| / ||brute||, or range(A) test
  bool brute_forced = false, dependent = false;
};
inline LawCheck check_law(const MatrixXd& M, const MatrixXd& A, int m_eq, const VectorXd& t,
                          const VectorXd& x_f, const VectorXd& x, const VectorXd& lam, Law law) {
  LawCheck c;
  const int n = int(M.rows()), m = int(A.rows());
  const double scale = M.norm() * (x.norm() + x_f.norm()) + 1e-300;
  c.stationarity = (M * (x - x_f) - A.transpose() * lam).norm() / scale;
  const VectorXd slack = A * x - t;
  const double vs = A.norm() * (x.norm() + x_f.norm()) + t.norm() + 1e-300;
  if (law == Law::projection) {
    const Projection p = projection(M, A);
    c.least_squares = (A * x - A * p.A_pinv * t).norm() / vs;
    if (m > 0) {
      const Eigen::JacobiSVD<MatrixXd> svd(A, Eigen::ComputeFullU);
      const MatrixXd U_null = svd.matrixU().rightCols(m - p.rank);
      c.min_norm = (U_null.transpose() * lam).norm() / (lam.norm() + 1e-300);  // lam in range(A)
    }
    return c;
  }
  const double lam_scale = lam.norm() + 1e-300;
  for (int i = 0; i < m_eq; ++i) c.primal = std::max(c.primal, std::abs(slack(i)) / vs);
  std::vector<int> keep;
  for (int i = 0; i < m; ++i) {
    if (i >= m_eq) {
      c.primal = std::max(c.primal, -slack(i) / vs);                       // A_i x >= t_i
      EXPECT_GE(lam(i), -1e-12 * lam_scale) << "row " << i;                // lambda_i >= 0
      EXPECT_LE(std::abs(lam(i)) * std::max(slack(i), 0.0), 1e-9 * lam_scale * vs) << "row " << i;
    }
    if (i < m_eq || slack(i) <= 1e-9 * vs) keep.push_back(i);
  }
  // Minimum-norm valid multiplier on the binding rows, by enumeration (docs/math.md 7).
  int n_nonneg = 0;
  for (int i : keep) n_nonneg += (i >= m_eq);
  if (n_nonneg <= 10 && !keep.empty()) {
    MatrixXd K(n, Eigen::Index(keep.size()));
    std::vector<int> nn;
    for (size_t j = 0; j < keep.size(); ++j) {
      K.col(Eigen::Index(j)) = A.row(keep[j]).transpose();
      if (keep[j] >= m_eq) nn.push_back(int(j));
    }
    const VectorXd f = M * (x - x_f);
    const VectorXd best = brute_force_min_norm_valid(K, f, nn, 1e-9);
    EXPECT_GT(best.size(), 0);
    if (best.size() > 0) {
      VectorXd mine(keep.size());
      for (size_t j = 0; j < keep.size(); ++j) mine(Eigen::Index(j)) = lam(keep[j]);
      c.min_norm = (mine - best).norm() / (best.norm() + 1e-300);
      c.brute_forced = true;
      c.dependent = Eigen::JacobiSVD<MatrixXd>(K).rank() < K.cols();
    }
  }
  return c;
}

// Per-row multipliers of the rows taking part, from a full lambda (m_b + m_u); checks that rows
// not taking part have exactly 0.
inline VectorXd rows_taking_part(const VectorXd& lambda, int m_b, const VectorXi& active) {
  VectorXd out(m_b + active.sum());
  out.head(m_b) = lambda.head(m_b);
  for (int i = 0, c = m_b; i < active.size(); ++i) {
    if (active(i)) out(c++) = lambda(m_b + i);
    else EXPECT_EQ(lambda(m_b + i), 0.0);
  }
  return out;
}

}  // namespace obliq::reference::testing

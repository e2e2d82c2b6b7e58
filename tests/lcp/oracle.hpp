// tests/lcp/oracle.hpp: independent references for the LCP tests.
//
// The brute-force oracle shares no code with obliq's solvers: Eigen's full-pivoting LU on every
// principal block (all 2^m complementary bases), and the min-map residual recomputed in long
// double. Random problem classes are built with their verdict known by construction.
#pragma once

#include <Eigen/Dense>
#include <cmath>
#include <random>
#include <vector>

namespace lcp_test {

using Mat = Eigen::MatrixXd;
using Vec = Eigen::VectorXd;

// max_i |min(z_i, (M z + q)_i)| in long double (independent of certificate.hpp).
inline double minmap(const Mat& M, const Vec& q, const Vec& z) {
  long double r = 0;
  for (int i = 0; i < M.rows(); ++i) {
    long double w = q(i);
    for (int j = 0; j < M.cols(); ++j) w += (long double)M(i, j) * z(j);
    const long double mn = std::min<long double>(z(i), w);
    r = std::max<long double>(r, std::fabs(mn));
  }
  return double(r);
}

// The row-by-row acceptance measure of certificate.hpp, recomputed here in long double from its
// written rule: for each row, s_i = |q_i| + sum_j |M_ij| (|z_j| + f), f = max_j |z_j| 1024 eps_T / tol_T;
// violations -w_i (w_i < 0) and, when
// z_i > 0 and w_i > 0, min(w_i, |M_ii| z_i) (w_i alone when M_ii = 0), each divided by s_i;
// +Inf for z_i < 0 or a violation on a row with s_i = 0. Returns the worst row.
inline double row_certificate(const Mat& M, const Vec& q, const Vec& z, double eps_over_tol) {
  const long double inf = INFINITY;
  long double worst = 0;
  for (int i = 0; i < M.rows(); ++i) {
    if (z(i) < 0) return double(inf);
    const long double f = (long double)z.cwiseAbs().maxCoeff() * 1024 * eps_over_tol;
    long double w = q(i), s = std::fabs((long double)q(i));
    for (int j = 0; j < M.cols(); ++j) {
      w += (long double)M(i, j) * z(j);
      s += std::fabs((long double)M(i, j)) * (std::fabs((long double)z(j)) + f);
    }
    long double v = w < 0 ? -w : 0;
    if (z(i) > 0 && w > 0) v = std::max(v, M(i, i) != 0 ? std::min(w, std::fabs((long double)M(i, i)) * z(i)) : w);
    if (v > 0) worst = std::max(worst, s > 0 ? v / s : inf);
  }
  return double(worst);
}

// The scale of certificate.hpp: max(max|q|, max|M| max|z|).
inline double scale(const Mat& M, const Vec& q, const Vec& z) {
  return std::max(q.cwiseAbs().maxCoeff(), M.cwiseAbs().maxCoeff() * z.cwiseAbs().maxCoeff());
}

// Brute force: every index set J whose principal block is nonsingular (Eigen FullPivLU), z_J =
// -M_JJ^-1 q_J, kept when z >= -tol and w >= -tol. Returns the number of such complementary
// basic solutions; `first` receives one of them.
inline int enumerate_solutions(const Mat& M, const Vec& q, Vec* first = nullptr, double tol = 1e-9) {
  const int m = int(q.size());
  int found = 0;
  for (unsigned mask = 0; mask < (1u << m); ++mask) {
    std::vector<int> J;
    for (int i = 0; i < m; ++i)
      if (mask >> i & 1u) J.push_back(i);
    Vec z = Vec::Zero(m);
    if (!J.empty()) {
      Mat A(J.size(), J.size());
      Vec b(J.size());
      for (std::size_t a = 0; a < J.size(); ++a) {
        b(a) = -q(J[a]);
        for (std::size_t c = 0; c < J.size(); ++c) A(a, c) = M(J[a], J[c]);
      }
      Eigen::FullPivLU<Mat> lu(A);
      if (!lu.isInvertible()) continue;
      const Vec zj = lu.solve(b);
      for (std::size_t a = 0; a < J.size(); ++a) z(J[a]) = zj(a);
    }
    const Vec w = M * z + q;
    const double s = 1.0 + q.cwiseAbs().maxCoeff() + M.cwiseAbs().maxCoeff() * z.cwiseAbs().maxCoeff();
    if (z.minCoeff() >= -tol * s && w.minCoeff() >= -tol * s) {
      if (found == 0 && first) *first = z;
      ++found;
    }
  }
  return found;
}

// A random contact matrix W = A Minv A^T (m x m) with n_dof generalized coordinates: SPD mass
// matrix, random A; `rank` < m makes rows m..rank-1 positive combinations of the first ones
// (redundant contacts), so W is PSD and singular.
inline Mat contact_matrix(std::mt19937& g, int m, int n_dof, int rank) {
  std::normal_distribution<double> N;
  Mat B(n_dof, n_dof);
  for (int i = 0; i < n_dof; ++i)
    for (int j = 0; j < n_dof; ++j) B(i, j) = N(g);
  const Mat Mass = B * B.transpose() + n_dof * Mat::Identity(n_dof, n_dof);
  Mat A(m, n_dof);
  for (int i = 0; i < m; ++i)
    for (int k = 0; k < n_dof; ++k) A(i, k) = N(g);
  std::uniform_real_distribution<double> U(0.2, 1.0);
  for (int i = rank; i < m; ++i) A.row(i) = U(g) * A.row(i % rank) + U(g) * A.row((i + 1) % rank);
  const Mat W = A * Mass.llt().solve(A.transpose());
  return 0.5 * (W + W.transpose());
}

// q for which (z*, w*) solves LCP(M, q): each index is active (z* > 0), separating (w* > 0) or,
// with probability p_degenerate, both zero (a degenerate solution).
inline Vec feasible_q(std::mt19937& g, const Mat& M, double p_degenerate, Vec* zstar = nullptr) {
  const int m = int(M.rows());
  std::uniform_real_distribution<double> U(0, 1);
  std::exponential_distribution<double> E(1.0);
  Vec z = Vec::Zero(m), w = Vec::Zero(m);
  for (int i = 0; i < m; ++i) {
    const double u = U(g);
    if (u < p_degenerate) continue;
    if (u < p_degenerate + (1 - p_degenerate) / 2)
      z(i) = 0.1 + E(g);
    else
      w(i) = 0.1 + E(g);
  }
  if (zstar) *zstar = z;
  return w - M * z;
}

}  // namespace lcp_test

// src/reference/complementarity.cpp: the complementarity law of the reference path
// (docs/format.md "What the laws mean", docs/math.md 5 and 7), by an exact method independent of the core:
//
//   0. each row (and its target) scaled by a power of two to a largest entry in [1, 2), so that
//      every test below is relative to the row's own scale;
//   1. bilateral rows: consistency test of docs/math.md 1, then x0 = the projection-law solution on
//      them; every x with A_eq x = t_eq is x0 + Z z (Z an orthonormal basis of N(A_eq)), and
//      1/2 (x - x_f)^T M (x - x_f) = const + 1/2 ||R z||^2 with Z^T M Z = R^T R;
//   2. the inequality rows become a least-distance program in w = R z:
//      min ||w||  s.t.  (A_in Z R^-1) w >= t_in - A_in x0, solved exactly through Lawson-Hanson
//      NNLS (least_distance.cpp); rows that stay infeasible when each target is lowered by
//      1e-9 of its row's scale are reported as such (docs/certificate.md, "Infeasibility");
//   3. the binding rows B (positive LDP multiplier, or zero slack to 1e-9 relative) fix x as the
//      projection-law solution on [A_eq; A_in,B] (docs/math.md 5: "once the binding rows are known"),
//      unless the LDP point meets the rows better (B dependent to rounding with targets that agree
//      only to 1e-9: the closed form then amplifies their disagreement);
//   4. lambda: the minimum-norm valid multiplier (docs/math.md 7), argmin ||lambda|| s.t.
//      [A_eq; A_B]^T lambda = M (x - x_f), lambda_B >= 0: with lambda0 = ([A_eq; A_B]^T)^+ M (x - x_f)
//      and N a basis of the row dependencies, lambda = lambda0 + N y where y is again the
//      least-distance point of {y : N_B y >= -lambda0_B} (||lambda||^2 = ||lambda0||^2 + ||y||^2).
#include <algorithm>
#include <cmath>
#include <vector>

#include "reference/detail.hpp"

namespace obliq::reference::detail {

namespace {

// Orthonormal basis of N(A) (n x (n - r)), with the rank decided as in docs/math.md 1.
MatrixXd null_space_basis(const MatrixXd& A, Eigen::Index n) {
  if (A.rows() == 0) return MatrixXd::Identity(n, n);
  Eigen::JacobiSVD<MatrixXd> svd(A, Eigen::ComputeFullV);
  const VectorXd& s = svd.singularValues();
  const double tau = double(std::max(A.rows(), n)) * kEps * s(0);
  int r = 0;
  if (s(0) > 0)
    while (r < s.size() && s(r) > tau) ++r;
  return svd.matrixV().rightCols(n - r);
}

// Steps 1-4 on rows whose largest entry is in [1, 2) (see complementarity_law below).
Status equilibrated_law(const MatrixXd& M, const Eigen::LLT<MatrixXd>& M_llt, const MatrixXd& A, int m_eq,
                        const VectorXd& t, const VectorXd& d, const VectorXd& x_f, VectorXd& x, VectorXd& lambda) {
  const Eigen::Index n = M.rows(), m = A.rows(), m_in = m - m_eq;
  x = x_f;
  lambda = VectorXd::Zero(m);
  const MatrixXd A_eq = A.topRows(m_eq);      // m_eq x n
  const MatrixXd A_in = A.bottomRows(m_in);   // m_in x n
  const VectorXd t_eq = t.head(m_eq), t_in = t.tail(m_in);

  // 1. Equality rows: consistent targets (docs/math.md 1), x0 = projection-law solution on them.
  const RowSpace rs_eq = row_space(A_eq);
  if (!targets_consistent(rs_eq, t_eq)) return Status::infeasible;
  VectorXd x0, lambda_eq;
  projection_law(M_llt, A_eq, t_eq, x_f, x0, lambda_eq);
  if (m_in == 0) {  // multipliers on the rows as given (step 4's reason)
    VectorXd x_given;
    const VectorXd d_eq = d.head(m_eq);
    projection_law(M_llt, d_eq.cwiseInverse().asDiagonal() * A_eq, t_eq.cwiseQuotient(d_eq), x_f, x_given, lambda);
    x = x0;
    return Status::ok;
  }

  // Scale of each inequality row, for the relative tests below.
  const double x_scale = x0.norm() + x_f.norm();
  VectorXd row_scale(m_in);  // |t_i| + ||a_i|| (||x0|| + ||x_f||)
  for (Eigen::Index i = 0; i < m_in; ++i)
    row_scale(i) = std::abs(t_in(i)) + A_in.row(i).norm() * x_scale;

  // 2. Least-distance program on N(A_eq) in the metric of M.
  const MatrixXd Z = null_space_basis(A_eq, n);  // n x k
  const Eigen::Index k = Z.cols();
  MatrixXd G(m_in, k);                           // A_in Z R^-1
  Eigen::LLT<MatrixXd> R_llt;                    // Z^T M Z = R^T R
  if (k > 0) {
    const MatrixXd ZtMZ = Z.transpose() * M * Z;
    R_llt.compute(0.5 * (ZtMZ + ZtMZ.transpose()));
    if (R_llt.info() != Eigen::Success) return Status::not_spd;
    MatrixXd AZ = A_in * Z;  // m_in x k
    // A row with no component in N(A_eq) beyond the rank tolerance of the whole stack (docs/math.md 1)
    // depends on the equality rows: it becomes the exact zero row "0 >= h_i".
    const double tau = row_space(A).tau;
    for (Eigen::Index i = 0; i < m_in; ++i)
      if (AZ.row(i).norm() <= tau) AZ.row(i).setZero();
    // G = AZ R^-1, i.e. G^T = R^-T AZ^T, with R upper triangular (R = L^T).
    G = R_llt.matrixU().transpose().solve(AZ.transpose()).transpose();
  }
  const VectorXd h = t_in - A_in * x0;
  VectorXd w, mu;
  Status st = least_distance(G, h, VectorXd::Zero(m_in), kBindingTol * row_scale, w, mu);
  // Infeasible only when it stays so with every row's target lowered by kFeasibilityTol of the
  // row's scale: rows met only to rounding (opposing resting rows) are feasible.
  if (st == Status::infeasible)
    st = least_distance(G, h - kFeasibilityTol * row_scale, VectorXd::Zero(m_in), kBindingTol * row_scale, w, mu);
  if (st != Status::ok) return st;
  VectorXd x_ldp = x0;
  if (k > 0) x_ldp += Z * R_llt.matrixU().solve(w);
  // The worst row violation of a candidate x, relative to each row's scale (equalities both
  // ways, inequalities below their targets); +Inf for a non-finite x.
  const auto worst_violation = [&](const VectorXd& y) {
    const VectorXd s_eq = A_eq * y - t_eq, s_in = A_in * y - t_in;
    double v = 0;
    for (Eigen::Index i = 0; i < m_eq; ++i)
      v = std::max(v, std::abs(s_eq(i)) / (std::abs(t_eq(i)) + A_eq.row(i).norm() * x_scale));
    for (Eigen::Index i = 0; i < m_in; ++i) v = std::max(v, -s_in(i) / row_scale(i));
    return std::isfinite(v) ? v : HUGE_VAL;
  };

  // 3. Binding rows, then x from the projection law on them; a non-binding row that the refined
  // x breaks (roundoff at the 1e-9 margin) joins B and the solve repeats.
  VectorXi binding = VectorXi::Zero(m_in);
  const auto read_binding = [&](const VectorXd& y) {  // positive LDP multiplier or zero slack
    const VectorXd slack = A_in * y - t_in;
    for (Eigen::Index i = 0; i < m_in; ++i)
      binding(i) = (mu(i) > 0 || slack(i) <= kBindingTol * row_scale(i)) ? 1 : 0;
  };
  MatrixXd A_act;
  VectorXd t_act, lambda_act;
  const auto stack_binding = [&] {  // [A_eq; A_in,B] and its targets
    A_act = stack_rows(A_eq, select_rows(A_in, binding), int(n));
    t_act.resize(A_act.rows());
    t_act.head(m_eq) = t_eq;
    t_act.tail(A_act.rows() - m_eq) = select_entries(t_in, binding);
  };
  read_binding(x_ldp);
  for (Eigen::Index round = 0; round <= m_in; ++round) {
    stack_binding();
    projection_law(M_llt, A_act, t_act, x_f, x, lambda_act);
    const VectorXd slack = A_in * x - t_in;
    bool grew = false;
    for (Eigen::Index i = 0; i < m_in; ++i)
      if (!binding(i) && slack(i) < -kBindingTol * row_scale(i)) {
        binding(i) = 1;
        grew = true;
      }
    if (!grew) break;
  }
  // Safeguard: the projection on B refines x_ldp (the closed form once B is known), but when B
  // holds rows dependent to rounding whose targets agree only to the binding tolerance (opposing
  // resting rows), the rank decision on A_act may keep a singular value of rounding size and
  // amplify that disagreement. x_ldp meets every row; when it meets them better, it is the
  // answer and B is read from it.
  if (worst_violation(x_ldp) < worst_violation(x)) {
    x = x_ldp;
    read_binding(x);
    stack_binding();
  }

  // 4. Minimum-norm valid multiplier on the binding rows (docs/math.md 7), on the rows as given
  // (the minimum norm is not invariant under the row scaling d of step 0): lambda0 again, from
  // the binding rows divided by d.
  {
    VectorXd d_act(A_act.rows());
    d_act.head(m_eq) = d.head(m_eq);
    d_act.tail(A_act.rows() - m_eq) = select_entries(d.tail(m_in), binding);
    A_act = d_act.cwiseInverse().asDiagonal() * A_act;
    // lambda0, the minimum-norm solution of A_act^T lambda = M (x - x_f), from x itself: equal to
    // W^+ (t - A x_f) when the binding targets are consistent, and free of their rounding-size
    // disagreement (amplified by W^+) when they are not.
    const RowSpace rs0 = row_space(A_act);
    lambda_act = rs0.U_r * rs0.s_r.cwiseInverse().asDiagonal() * (rs0.V_r.transpose() * (M * (x - x_f)));
  }
  const Eigen::Index k_act = A_act.rows(), m_B = k_act - m_eq;
  const VectorXd lambda0 = lambda_act;  // (A_act^T)^+ M (x - x_f): min-norm, in range(U_r)
  VectorXd lambda_valid = lambda0;
  if (m_B > 0 && lambda0.tail(m_B).minCoeff() < 0) {
    const RowSpace rs_act = row_space(A_act, /*want_row_dependencies=*/true);
    const MatrixXd& N = rs_act.U_null;  // k_act x d, orthonormal, A_act^T N = 0
    if (N.cols() > 0) {
      const MatrixXd N_B = N.bottomRows(m_B);
      const VectorXd h_B = -lambda0.tail(m_B);
      const double zero_row = 10.0 * kEps * double(std::max<Eigen::Index>(k_act, n));
      VectorXd y, nu;
      const Status st2 = least_distance(N_B, h_B, VectorXd::Constant(m_B, zero_row),
                                        VectorXd::Constant(m_B, kBindingTol * lambda0.norm()), y, nu);
      if (st2 == Status::ok) lambda_valid = lambda0 + N * y;
      // st2 != ok cannot happen in exact arithmetic (the LDP multipliers of step 2 are valid);
      // lambda0 is then kept, and the negative entry is within roundoff of zero.
    }
  }

  // Scatter: equality rows, then binding inequality rows; non-binding rows get 0.
  lambda.head(m_eq) = lambda_valid.head(m_eq);
  for (Eigen::Index i = 0, c = m_eq; i < m_in; ++i)
    if (binding(i)) lambda(m_eq + i) = lambda_valid(c++);
  return Status::ok;
}

}  // namespace

// 0. Every row and its target are first multiplied by the power of two d_i that brings the row's
// largest entry into [1, 2) (exact; zero rows are left alone): the rank, consistency and binding
// tests above then judge each row at its own scale, as the row-by-row certificate does
// (docs/certificate.md), so a row of size 1e-16 beside rows of size 1 is a constraint like any
// other, not rounding noise. The multipliers are computed on the rows as given (step 4).
Status complementarity_law(const MatrixXd& M, const Eigen::LLT<MatrixXd>& M_llt, const MatrixXd& A, int m_eq,
                           const VectorXd& t, const VectorXd& x_f, VectorXd& x, VectorXd& lambda) {
  VectorXd d = VectorXd::Ones(A.rows());
  for (Eigen::Index i = 0; i < A.rows(); ++i) {
    const double a = A.row(i).cwiseAbs().maxCoeff();
    if (a > 0 && std::isfinite(a)) d(i) = std::ldexp(1.0, -std::ilogb(a));
  }
  return equilibrated_law(M, M_llt, d.asDiagonal() * A, m_eq, d.cwiseProduct(t), d, x_f, x, lambda);
}

}  // namespace obliq::reference::detail

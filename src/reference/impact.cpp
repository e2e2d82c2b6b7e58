// src/reference/impact.cpp: the impact of the reference path (docs/math.md 5-6, docs/format.md `impact`).
#include <Eigen/Eigenvalues>

#include "obliq/reference.hpp"
#include "reference/detail.hpp"

namespace obliq::reference {

namespace detail {

// docs/math.md 6: Q = block of W^+ (W over bilateral + all candidate rows) belonging to the
// candidate unilateral rows, E_u = diag(e_C); consistent iff
// lambda_max(E_u Q E_u - Q) <= 1e-9 lambda_max(Q); true when there is no candidate row.
bool energy_consistent(const MatrixXd& W_pinv, const VectorXd& e_C) {
  const Eigen::Index m_C = e_C.size();
  if (m_C == 0) return true;
  MatrixXd Q = W_pinv.bottomRightCorner(m_C, m_C);
  Q = 0.5 * (Q + Q.transpose());
  const MatrixXd D = e_C.asDiagonal() * Q * e_C.asDiagonal() - Q;  // E_u Q E_u - Q
  const double lmax_Q = Eigen::SelfAdjointEigenSolver<MatrixXd>(Q, Eigen::EigenvaluesOnly)
                            .eigenvalues().maxCoeff();
  const double lmax_D = Eigen::SelfAdjointEigenSolver<MatrixXd>(0.5 * (D + D.transpose()),
                                                                Eigen::EigenvaluesOnly)
                            .eigenvalues().maxCoeff();
  return lmax_D <= kEnergyTol * lmax_Q;
}

}  // namespace detail

ImpactResult impact(const Scenario& s) {
  using namespace detail;
  const int n = int(s.M.rows()), m_b = int(s.A_b.rows()), m_u = int(s.A_u.rows());
  ImpactResult out;
  out.qdot_plus = VectorXd::Zero(n);
  out.impulse = VectorXd::Zero(n);
  out.lambda = VectorXd::Zero(m_b + m_u);
  out.active = VectorXi::Zero(m_u);
  out.energy_consistent = false;
  out.status = validate(s);
  if (out.status != Status::ok) return out;

  // Candidates from the pre-impact qdot (docs/format.md), rows A = [A_b; A_u,C] (docs/math.md 5).
  const VectorXi active = impact_candidates(s);
  const Eigen::LLT<MatrixXd> M_llt(s.M);
  const MatrixXd A_C = select_rows(s.A_u, active);  // m_C x n
  const double c = row_unit(stack_rows(s.A_b, A_C, n));
  const MatrixXd A = c * stack_rows(s.A_b, A_C, n);  // (m_b + m_C) x n, in the rows' unit c
  const Eigen::Index m_C = A_C.rows();
  const VectorXd e_C = select_entries(s.e, active);

  // v_f = q + M^-1 i_u; targets t = [0_{m_b}; -e_i (A_u q)_i, i in C] (Newton's law, eq 21-22, 42).
  const VectorXd v_f = s.qdot + M_llt.solve(s.i_u);
  VectorXd t = VectorXd::Zero(m_b + m_C);
  if (m_C > 0) t.tail(m_C) = -(e_C.array() * (A.bottomRows(m_C) * s.qdot).array()).matrix();  // c t

  // W^+ over bilateral + all candidate rows: the projection law and the energy test (docs/math.md 3, 6).
  const MatrixXd W_pinv = delassus_pinv(M_llt, row_space(A));
  VectorXd v, lambda_rows;  // (n), (m_b + m_C)
  if (s.law == Law::projection) {
    // docs/math.md 5: lambda = W^+ (t - A v_f), v = v_f + M^-1 A^T lambda.
    if (A.rows() > 0) {
      lambda_rows = W_pinv * (t - A * v_f);
      v = v_f + M_llt.solve(A.transpose() * lambda_rows);
    } else {
      lambda_rows.resize(0);
      v = v_f;
    }
  } else {
    const Status st = complementarity_law(s.M, M_llt, A, m_b, t, v_f, v, lambda_rows);
    if (st != Status::ok) {
      out.status = st;
      return out;
    }
  }

  // Outputs (docs/math.md 5): impulse = M (v - q) - i_u, lambda per row (bilateral first, 0 off C).
  out.qdot_plus = v;
  out.impulse = s.M * (v - s.qdot) - s.i_u;
  lambda_rows *= c;  // multipliers of the rows as given
  out.lambda.head(m_b) = lambda_rows.head(m_b);
  for (int i = 0, c = m_b; i < m_u; ++i)
    if (active(i)) out.lambda(m_b + i) = lambda_rows(c++);
  out.active = active;
  out.kinetic_energy_pre = 0.5 * s.qdot.dot(s.M * s.qdot);
  out.kinetic_energy_post = 0.5 * v.dot(s.M * v);
  out.energy_consistent = energy_consistent(W_pinv, e_C);
  return out;
}

}  // namespace obliq::reference

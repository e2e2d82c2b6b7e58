// src/reference/dynamics.cpp: constrained acceleration and forces of the reference path
// (docs/math.md 4 and 7, docs/format.md `dynamics`; Gauss's principle).
#include "obliq/reference.hpp"
#include "reference/detail.hpp"

namespace obliq::reference {

DynamicsResult dynamics(const Scenario& s) {
  using namespace detail;
  const int n = int(s.M.rows()), m_b = int(s.A_b.rows()), m_u = int(s.A_u.rows());
  DynamicsResult out;
  out.qddot = VectorXd::Zero(n);
  out.lambda = VectorXd::Zero(m_b + m_u);
  out.active = VectorXi::Zero(m_u);
  out.status = validate(s);
  if (out.status != Status::ok) return out;

  // docs/format.md "Candidates": a closed row that is approaching is an unresolved impact.
  if (m_u > 0) {
    const VectorXd normal_velocity = s.A_u * s.qdot;  // (m_u)
    for (int i = 0; i < m_u; ++i)
      if (s.phi_u(i) <= s.gap_tol && normal_velocity(i) < -s.vel_tol) {
        out.status = Status::unresolved_impact;
        return out;
      }
  }
  const VectorXi active = dynamics_candidates(s);
  const Eigen::LLT<MatrixXd> M_llt(s.M);
  const MatrixXd A_C = select_rows(s.A_u, active);  // m_C x n
  const double c = row_unit(stack_rows(s.A_b, A_C, n));
  const MatrixXd A = c * stack_rows(s.A_b, A_C, n);  // (m_b + m_C) x n, in the rows' unit c
  const Eigen::Index m_C = A_C.rows();

  // a_f = M^-1 (u - h); targets t = -c on the rows taking part, c = Adot qdot (docs/math.md 4):
  // A qdd + c = 0 (projection) or >= 0 on the candidate rows (complementarity).
  const VectorXd a_f = M_llt.solve(s.u - s.h);
  VectorXd t(m_b + m_C);
  t.head(m_b) = -s.Adot_qdot.head(m_b);
  t.tail(m_C) = -select_entries(s.Adot_qdot.tail(m_u), active);
  t *= c;

  VectorXd qddot, lambda_rows;  // (n), (m_b + m_C)
  if (s.law == Law::projection) {
    // docs/math.md 4: lambda = -W^+ b = W^+ (t - A a_f), qdd = a_f + M^-1 A^T lambda.
    projection_law(M_llt, A, t, a_f, qddot, lambda_rows);
  } else {
    const Status st = complementarity_law(s.M, M_llt, A, m_b, t, a_f, qddot, lambda_rows);
    if (st != Status::ok) {
      out.status = st;
      return out;
    }
  }
  out.qddot = qddot;
  lambda_rows *= c;  // multipliers of the rows as given
  out.lambda.head(m_b) = lambda_rows.head(m_b);
  for (int i = 0, c = m_b; i < m_u; ++i)
    if (active(i)) out.lambda(m_b + i) = lambda_rows(c++);
  out.active = active;
  return out;
}

}  // namespace obliq::reference

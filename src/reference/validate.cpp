// src/reference/validate.cpp: input checks and candidate rows (docs/format.md "Fine print",
// "Candidates"), the first step of every reference law.
#include <algorithm>
#include <cmath>

#include "obliq/reference.hpp"
#include "reference/detail.hpp"

namespace obliq::reference {

namespace {

// A matrix of `rows` x `cols`, where a 0-row matrix is accepted with any column count
// (docs/format.md: `A_b: []` means no rows of that kind).
bool jacobian_shape_ok(const Eigen::MatrixXd& A, Eigen::Index n) {
  return A.rows() == 0 || A.cols() == n;
}

bool all_finite(const Eigen::MatrixXd& X) { return X.size() == 0 || X.allFinite(); }
bool all_finite(const Eigen::VectorXd& x) { return x.size() == 0 || x.allFinite(); }

}  // namespace

Status validate(const Scenario& s) {
  // 1. Shapes: n = M.rows(), m_b = A_b.rows(), m_u = A_u.rows().
  const Eigen::Index n = s.M.rows(), m_b = s.A_b.rows(), m_u = s.A_u.rows();
  if (s.M.cols() != n || s.qdot.size() != n || s.h.size() != n || s.u.size() != n ||
      s.i_u.size() != n || !jacobian_shape_ok(s.A_b, n) || !jacobian_shape_ok(s.A_u, n) ||
      s.phi_u.size() != m_u || s.e.size() != m_u || s.Adot_qdot.size() != m_b + m_u)
    return Status::bad_shape;

  // 2. Finite numbers everywhere, tolerances included.
  if (!all_finite(s.M) || !all_finite(s.qdot) || !all_finite(s.h) || !all_finite(s.u) ||
      !all_finite(s.i_u) || !all_finite(s.A_b) || !all_finite(s.A_u) || !all_finite(s.phi_u) ||
      !all_finite(s.Adot_qdot) || !all_finite(s.e) || !std::isfinite(s.gap_tol) ||
      !std::isfinite(s.vel_tol))
    return Status::non_finite;

  // 3. Activation tolerances are absolute and non-negative.
  if (s.gap_tol < 0 || s.vel_tol < 0) return Status::bad_tolerance;

  // 4. Restitution in [0, 1] (docs/math.md 8, eq 21: the plastic and elastic limits are valid).
  for (Eigen::Index i = 0; i < m_u; ++i)
    if (!(s.e(i) >= 0.0 && s.e(i) <= 1.0)) return Status::bad_restitution;

  // 5. M symmetric to 1e-12 relative to its largest entry, and positive definite (Cholesky).
  if (n > 0) {
    const double scale = s.M.cwiseAbs().maxCoeff();
    const double asym = (s.M - s.M.transpose()).cwiseAbs().maxCoeff();
    if (asym > 1e-12 * scale) return Status::not_spd;
    Eigen::LLT<Eigen::MatrixXd> llt(s.M);
    if (llt.info() != Eigen::Success) return Status::not_spd;
    // Eigen reports a non-positive pivot as a failure; a NaN pivot cannot occur on finite,
    // symmetric input, but check the factor anyway.
    if (!llt.matrixLLT().diagonal().allFinite() || (llt.matrixLLT().diagonal().array() <= 0).any())
      return Status::not_spd;
  }
  return Status::ok;
}

// docs/format.md "Candidates", impact: closed (phi_i <= gap_tol) and approaching or resting,
// (A_u qdot)_i <= vel_tol, with the pre-impact qdot (before i_u is applied).
Eigen::VectorXi impact_candidates(const Scenario& s) {
  const Eigen::Index m_u = s.A_u.rows();
  Eigen::VectorXi active = Eigen::VectorXi::Zero(m_u);
  if (m_u == 0) return active;
  const Eigen::VectorXd normal_velocity = s.A_u * s.qdot;  // (m_u)
  for (Eigen::Index i = 0; i < m_u; ++i)
    active(i) = (s.phi_u(i) <= s.gap_tol && normal_velocity(i) <= s.vel_tol) ? 1 : 0;
  return active;
}

// docs/format.md "Candidates", dynamics: closed and resting, |(A_u qdot)_i| <= vel_tol.
Eigen::VectorXi dynamics_candidates(const Scenario& s) {
  const Eigen::Index m_u = s.A_u.rows();
  Eigen::VectorXi active = Eigen::VectorXi::Zero(m_u);
  if (m_u == 0) return active;
  const Eigen::VectorXd normal_velocity = s.A_u * s.qdot;  // (m_u)
  for (Eigen::Index i = 0; i < m_u; ++i)
    active(i) = (s.phi_u(i) <= s.gap_tol && std::abs(normal_velocity(i)) <= s.vel_tol) ? 1 : 0;
  return active;
}

}  // namespace obliq::reference

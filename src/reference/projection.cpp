// src/reference/projection.cpp: rank, pseudo-inverse, null-space projector, constraint inertia,
// oblique projector and the Delassus pseudo-inverse (docs/math.md 1-3), and the projection law
// (docs/math.md 4-5) built on them. Eigen's JacobiSVD and LLT only.
#include <algorithm>
#include <cmath>

#include "obliq/reference.hpp"
#include "reference/detail.hpp"

namespace obliq::reference {

namespace detail {

// docs/math.md 1: decide the rank on A only, r = #{ s_i > tau }, tau = max(m, n) eps s_1.
RowSpace row_space(const MatrixXd& A, bool want_row_dependencies) {
  RowSpace rs;
  const Eigen::Index m = A.rows(), n = A.cols();
  if (m == 0 || n == 0) {
    rs.U_r.resize(m, 0);
    rs.s_r.resize(0);
    rs.V_r.resize(n, 0);
    if (want_row_dependencies) rs.U_null = MatrixXd::Identity(m, m);
    return rs;
  }
  const unsigned opts = want_row_dependencies ? (Eigen::ComputeFullU | Eigen::ComputeThinV)
                                              : (Eigen::ComputeThinU | Eigen::ComputeThinV);
  Eigen::JacobiSVD<MatrixXd> svd(A, opts);
  const VectorXd& s = svd.singularValues();  // sorted decreasingly
  rs.s_1 = s(0);
  rs.tau = double(std::max(m, n)) * kEps * rs.s_1;
  int r = 0;
  if (rs.s_1 > 0)
    while (r < s.size() && s(r) > rs.tau) ++r;
  rs.rank = r;
  rs.U_r = svd.matrixU().leftCols(r);
  rs.s_r = s.head(r);
  rs.V_r = svd.matrixV().leftCols(r);
  if (want_row_dependencies) rs.U_null = svd.matrixU().rightCols(m - r);
  return rs;
}

// docs/math.md 1: t is consistent when ||t - U_r U_r^T t|| <= 1e-10 max(1, ||t||).
bool targets_consistent(const RowSpace& rs, const VectorXd& t) {
  if (t.size() == 0) return true;
  const VectorXd residual = t - rs.U_r * (rs.U_r.transpose() * t);
  return residual.norm() <= kConsistencyTol * std::max(1.0, t.norm());
}

// docs/math.md 3: W^+ = U_r diag(1/s_r) H^-1 diag(1/s_r) U_r^T with H = V_r^T M^-1 V_r (r x r SPD).
// Uses the rank of A, never a tolerance relative to W itself (docs/math.md 1).
MatrixXd delassus_pinv(const Eigen::LLT<MatrixXd>& M_llt, const RowSpace& rs) {
  const Eigen::Index m = rs.U_r.rows();
  if (rs.rank == 0) return MatrixXd::Zero(m, m);
  const MatrixXd Minv_V = M_llt.solve(rs.V_r);                 // n x r
  MatrixXd H = rs.V_r.transpose() * Minv_V;                    // r x r
  H = 0.5 * (H + H.transpose());
  const MatrixXd UrS = rs.U_r * rs.s_r.cwiseInverse().asDiagonal();  // m x r: U_r diag(1/s)
  Eigen::LLT<MatrixXd> H_llt(H);
  MatrixXd Hinv_UrSt;
  if (H_llt.info() == Eigen::Success) {
    Hinv_UrSt = H_llt.solve(UrS.transpose());                  // r x m
  } else {
    // H is SPD in exact arithmetic (V_r orthonormal, M^-1 SPD); fall back on an eigensolve if
    // roundoff makes the Cholesky fail.
    Eigen::SelfAdjointEigenSolver<MatrixXd> eig(H);
    Hinv_UrSt = eig.eigenvectors() * eig.eigenvalues().cwiseInverse().asDiagonal() *
                eig.eigenvectors().transpose() * UrS.transpose();
  }
  MatrixXd W_pinv = UrS * Hinv_UrSt;
  return 0.5 * (W_pinv + W_pinv.transpose());
}

double row_unit(const MatrixXd& A) {
  const double a = A.size() ? A.cwiseAbs().maxCoeff() : 0.0;
  if (!(a > 0) || !std::isfinite(a)) return 1.0;
  int e = 0;
  std::frexp(a, &e);  // a = f 2^e, f in [0.5, 1)
  return std::ldexp(1.0, std::min(1 - e, 1023));
}

MatrixXd stack_rows(const MatrixXd& top, const MatrixXd& bottom, int n) {
  MatrixXd A(top.rows() + bottom.rows(), n);
  if (top.rows() > 0) A.topRows(top.rows()) = top;
  if (bottom.rows() > 0) A.bottomRows(bottom.rows()) = bottom;
  return A;
}

MatrixXd select_rows(const MatrixXd& A, const VectorXi& mask) {
  MatrixXd out(mask.sum(), A.cols());
  for (Eigen::Index i = 0, k = 0; i < mask.size(); ++i)
    if (mask(i)) out.row(k++) = A.row(i);
  return out;
}

VectorXd select_entries(const VectorXd& t, const VectorXi& mask) {
  VectorXd out(mask.sum());
  for (Eigen::Index i = 0, k = 0; i < mask.size(); ++i)
    if (mask(i)) out(k++) = t(i);
  return out;
}

// docs/math.md 4-5 (KKT / Delassus form): lambda = W^+ (t - A x_f), x = x_f + M^-1 A^T lambda.
// For inconsistent t this meets A x = A A^+ t (least squares of the closed form).
void projection_law(const Eigen::LLT<MatrixXd>& M_llt, const MatrixXd& A, const VectorXd& t,
                    const VectorXd& x_f, VectorXd& x, VectorXd& lambda) {
  if (A.rows() == 0) {
    x = x_f;
    lambda.resize(0);
    return;
  }
  const RowSpace rs = row_space(A);
  const MatrixXd W_pinv = delassus_pinv(M_llt, rs);  // m x m
  lambda = W_pinv * (t - A * x_f);
  x = x_f + M_llt.solve(A.transpose() * lambda);
  // One step of iterative refinement: with an ill-conditioned W and a large lambda the first x
  // can miss its rows by about cond(W) eps |M^-1 A^T lambda|; the same projection of what is
  // left, t - A x, corrects it (docs/certificate.md: every answer must meet its rows).
  const VectorXd dl = W_pinv * (t - A * x);
  lambda += dl;
  x += M_llt.solve(A.transpose() * dl);
}

}  // namespace detail

// docs/math.md 1-3: every building block of the oblique projection for one (M, A).
Projection projection(const Eigen::MatrixXd& M, const Eigen::MatrixXd& A) {
  using namespace detail;
  const Eigen::Index n = M.rows(), m = A.rows();
  Projection out;
  const Eigen::LLT<MatrixXd> M_llt(M);
  const MatrixXd A_n = (m == 0) ? MatrixXd(0, n) : A;
  const RowSpace rs = row_space(A_n);
  const int r = rs.rank;
  out.rank = r;

  // docs/math.md 1: A^+ = V_r diag(1/s_r) U_r^T, P = I - V_r V_r^T (never I - A^+ A).
  out.A_pinv = rs.V_r * rs.s_r.cwiseInverse().asDiagonal() * rs.U_r.transpose();  // n x m
  out.P = MatrixXd::Identity(n, n) - rs.V_r * rs.V_r.transpose();
  out.P = 0.5 * (out.P + out.P.transpose());

  // docs/math.md 2: nu* = tr(P M) / (n - r); r = n (and r = 0, where nu is unused): tr(M) / n.
  if (n == 0)
    out.nu = 0;
  else if (r == 0 || r == n)
    out.nu = M.trace() / double(n);
  else
    out.nu = (out.P * M).trace() / double(n - r);

  // docs/math.md 2, eq 8: M_c = P M P + nu (I - P).
  out.M_c = out.P * M * out.P + out.nu * (MatrixXd::Identity(n, n) - out.P);
  out.M_c = 0.5 * (out.M_c + out.M_c.transpose());

  // docs/math.md 3: W^+ and S = M^-1 A^T W^+ A.
  out.W_pinv = delassus_pinv(M_llt, rs);
  out.S = (m == 0) ? MatrixXd::Zero(n, n) : MatrixXd(M_llt.solve(A_n.transpose() * out.W_pinv * A_n));
  return out;
}

}  // namespace obliq::reference

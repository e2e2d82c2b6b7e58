// src/reference/detail.hpp: building blocks shared by the files of the Eigen reference path.
//
// Internal to src/reference (not installed). Everything here is dynamic-size Eigen in double
// precision, written from docs/math.md alone: it shares no numerics with the per-scenario core.
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/Dense>
#include <Eigen/SVD>

#include "obliq/core/status.hpp"

namespace obliq::reference::detail {

using Eigen::MatrixXd;
using Eigen::VectorXd;
using Eigen::VectorXi;

inline constexpr double kEps = 2.220446049250313e-16;  // 2^-52
// docs/math.md 1: bilateral targets are consistent when ||t - U_r U_r^T t|| <= 1e-10 max(1, ||t||).
inline constexpr double kConsistencyTol = 1e-10;
// docs/math.md 6 / docs/format.md: energy_consistent iff lambda_max(E Q E - Q) <= 1e-9 lambda_max(Q).
inline constexpr double kEnergyTol = 1e-9;
// Relative slack under which an inequality row counts as binding (complementarity law).
inline constexpr double kBindingTol = 1e-9;
// Complementarity law: rows that every x misses by at most this much of their own scale are
// feasible (docs/certificate.md, "Infeasibility"; the core's scalar_traits::feasibility_tol).
inline constexpr double kFeasibilityTol = 1e-9;

// docs/math.md 1: the row space of A from its SVD A = U diag(s) V^T, rank r = #{s_i > tau},
// tau = max(m, n) eps s_1. U_r (m x r), s_r (r), V_r (n x r); U_null (m x (m - r)) spans the
// row dependencies (null space of A^T), filled only when asked for.
struct RowSpace {
  int rank = 0;
  double s_1 = 0;   // largest singular value (0 when m = 0)
  double tau = 0;   // rank tolerance max(m, n) eps s_1
  MatrixXd U_r;     // m x r
  VectorXd s_r;     // r
  MatrixXd V_r;     // n x r
  MatrixXd U_null;  // m x (m - r), only with want_row_dependencies
};
RowSpace row_space(const MatrixXd& A, bool want_row_dependencies = false);

// docs/math.md 1: t is consistent with the rows of A (t in range(A)) to 1e-10 max(1, ||t||).
bool targets_consistent(const RowSpace& rs, const VectorXd& t);

// docs/math.md 3: W^+ = U_r diag(1/s_r) H^-1 diag(1/s_r) U_r^T, H = V_r^T M^-1 V_r (m x m).
MatrixXd delassus_pinv(const Eigen::LLT<MatrixXd>& M_llt, const RowSpace& rs);

// The rows' unit: a power of two c with c max|A_ij| in [1, 2) (1 for A = 0). The rows taking
// part are solved as c A with targets c t (exact), and their multipliers are c times those of
// the scaled rows: no square of the Delassus operator overflows or underflows whatever the
// rows' units (docs/certificate.md, "Scales").
double row_unit(const MatrixXd& A);

// Stacks [top; bottom] (both with n columns; either may have 0 rows).
MatrixXd stack_rows(const MatrixXd& top, const MatrixXd& bottom, int n);
// Rows of A (and entries of t) whose mask entry is 1.
MatrixXd select_rows(const MatrixXd& A, const VectorXi& mask);
VectorXd select_entries(const VectorXd& t, const VectorXi& mask);

// Projection law (docs/math.md 4-5): every row of A held as an equality A x = t, met in the least-
// squares sense of the closed form when t is inconsistent:
//   lambda = W^+ (t - A x_f),   x = x_f + M^-1 A^T lambda          (minimum-norm lambda)
// x_f is v_f (impact) or a_f (dynamics).
void projection_law(const Eigen::LLT<MatrixXd>& M_llt, const MatrixXd& A, const VectorXd& t,
                    const VectorXd& x_f, VectorXd& x, VectorXd& lambda);

// Complementarity law (docs/format.md "What the laws mean", docs/math.md 5 and 7): the unique minimiser of
// 1/2 (x - x_f)^T M (x - x_f) subject to A_eq x = t_eq and A_in x >= t_in, with the minimum-norm
// valid multipliers (lambda_in >= 0, zero on non-binding rows). Rows of A: the m_eq equality
// rows first, then the inequality rows. Returns Status::infeasible when no x meets the rows.
Status complementarity_law(const MatrixXd& M, const Eigen::LLT<MatrixXd>& M_llt,
                           const MatrixXd& A, int m_eq, const VectorXd& t, const VectorXd& x_f,
                           VectorXd& x, VectorXd& lambda);

// Lawson-Hanson non-negative least squares: argmin ||E u - f|| s.t. u >= 0 (finite active-set
// method, Lawson & Hanson 1974, ch. 23). Status::no_convergence only if its budget runs out.
Status nonnegative_least_squares(const MatrixXd& E, const VectorXd& f, VectorXd& u);

// Least-distance programming: argmin ||y|| s.t. G y >= h (Lawson & Hanson ch. 23, through
// NNLS on [G^T; h^T] u ~ e_{k+1}). mu (rows of G) are multipliers with y = G^T mu, mu >= 0,
// positive only on rows that bind. Rows of G whose norm is <= zero_row_tol are taken as zero:
// they demand 0 >= h_i, violated when h_i > zero_row_h_tol(i). Status::infeasible when no y
// meets the rows.
Status least_distance(const MatrixXd& G, const VectorXd& h, const VectorXd& zero_row_tol,
                      const VectorXd& zero_row_h_tol, VectorXd& y, VectorXd& mu);

}  // namespace obliq::reference::detail

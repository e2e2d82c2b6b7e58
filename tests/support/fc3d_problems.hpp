// tests/support/fc3d_problems.hpp: 3D frictional contact problems (W, q, mu) for the Siconos peer
// test and bench/siconos: random contact sets, and problems made by the model layer on the
// built-in quadruped; and obliq's cone and pyramid solvers on them. Header-only, Eigen only.
#pragma once

#include <Eigen/Dense>
#include <cmath>
#include <random>
#include <vector>

#include "obliq/core/friction/cone_solver.hpp"
#include "obliq/core/friction/pyramid.hpp"
#include "obliq/model/friction_rows.hpp"
#include "obliq/model/host.hpp"

namespace obliq::test {

struct Fc3d {
  int nc = 0;
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> W;  // (3 nc x 3 nc)
  Eigen::VectorXd q, mu;                                                      // (3 nc), (nc)
  friction::Problem<double> view() const {
    friction::Problem<double> p;
    p.nc = nc, p.dim = 3;
    p.W = mat_view<const double>(W.data(), int(W.rows()), int(W.cols()));
    p.q = vec_view<const double>(q.data(), int(q.size()));
    p.mu = vec_view<const double>(mu.data(), nc);
    return p;
  }
};

// The contact problem of an impact: W = A M^-1 A^T, q = A qdot + (e (A_u qdot) on the normal
// rows), rows (normal, tangent 1, tangent 2) per contact.
inline Fc3d impact_problem(const Eigen::MatrixXd& M, const Eigen::MatrixXd& A_u, const Eigen::MatrixXd& A_t,
                           const Eigen::VectorXd& qdot, double e, const Eigen::VectorXd& mu) {
  Fc3d p;
  p.nc = int(A_u.rows());
  Eigen::MatrixXd A(3 * p.nc, M.rows());
  for (int c = 0; c < p.nc; ++c) {
    A.row(3 * c) = A_u.row(c);
    A.row(3 * c + 1) = A_t.row(2 * c);
    A.row(3 * c + 2) = A_t.row(2 * c + 1);
  }
  p.W = A * M.ldlt().solve(A.transpose());
  p.W = (0.5 * (p.W + p.W.transpose())).eval();
  p.q = A * qdot;
  for (int c = 0; c < p.nc; ++c) p.q(3 * c) += e * (A_u.row(c).dot(qdot));
  p.mu = mu;
  return p;
}

// Random contact set: nc contacts on n = 3 nc + 3 dofs (W nonsingular), SPD M with cond ~ 100,
// rows N(0, 1), every contact approaching, mu uniform in [0, mu_max], e = 0.5.
inline Fc3d random_problem(std::mt19937& gen, int nc, double mu_max) {
  std::normal_distribution<double> N;
  std::uniform_real_distribution<double> U(0, 1);
  const int n = 3 * nc + 3;
  Eigen::MatrixXd B = Eigen::MatrixXd::NullaryExpr(n, n, [&] { return N(gen); });
  Eigen::MatrixXd M = B * B.transpose() + 0.1 * n * Eigen::MatrixXd::Identity(n, n);
  Eigen::MatrixXd A_u = Eigen::MatrixXd::NullaryExpr(nc, n, [&] { return N(gen); });
  Eigen::MatrixXd A_t = Eigen::MatrixXd::NullaryExpr(2 * nc, n, [&] { return N(gen); });
  Eigen::VectorXd qdot = Eigen::VectorXd::NullaryExpr(n, [&] { return N(gen); });
  for (int i = 0; i < nc; ++i) {
    const double a = A_u.row(i).dot(qdot);
    if (a > -0.1) qdot -= (a + 0.5) * A_u.row(i).transpose() / A_u.row(i).squaredNorm() / nc;
  }
  Eigen::VectorXd mu = Eigen::VectorXd::NullaryExpr(nc, [&] { return mu_max * U(gen); });
  return impact_problem(M, A_u, A_t, qdot, 0.5, mu);
}

// The built-in quadruped (four feet on the floor z = 0, contact frames from the model layer's
// tangent rows) at a random state near standing: joint angles perturbed by N(0, 0.2), the base
// falling at 1 m/s with random velocities N(0, 0.5) elsewhere; mu given.
inline Fc3d quadruped_problem(std::mt19937& gen, double mu) {
  static const model::Model m = model::builtin_model("quadruped");
  std::normal_distribution<double> N;
  Eigen::VectorXd q = model::neutral(m), v(m.nv);
  for (int i = 7; i < m.nq; ++i) q(i) += 0.2 * N(gen);
  for (int i = 0; i < m.nv; ++i) v(i) = 0.5 * N(gen);
  v(2) = -1.0;
  Scenario s;
  model::evaluate(m, q, v, s);
  Friction f;
  model::evaluate_friction(m, q, v, mu, f);
  return impact_problem(s.M, s.A_u, f.A_t, v, 0.5, f.mu);
}

// obliq's cone solver (Newton, NSGS fallback) and pyramid LCP (k facets) on p.
struct ObliqAnswer {
  Status status;
  std::vector<double> r, u;
  friction::Report<double> report;
};
inline ObliqAnswer solve_obliq(const Fc3d& p, bool pyramid, int k = 8) {
  const int m = 3 * p.nc;
  ObliqAnswer a{Status::ok, std::vector<double>(m), std::vector<double>(m), {}};
  static thread_local std::vector<double> buf;
  const int N = p.nc * (k + 2);
  buf.resize(std::max(friction::cone_workspace<double>(m, 3), friction::pyramid_workspace<double>(N, m)));
  Arena<double> arena{buf.data(), buf.size()};
  a.report = pyramid ? friction::solve_pyramid(p.view(), k, vec_view(a.r.data(), m), vec_view(a.u.data(), m), arena)
                     : friction::solve_cone(p.view(), vec_view(a.r.data(), m), vec_view(a.u.data(), m), arena);
  a.status = a.report.status;
  return a;
}

// obliq's certificate of any r on p (relative residual; Status::ok when accepted).
inline Status certify(const Fc3d& p, const double* r, double* residual) {
  const int m = 3 * p.nc;
  std::vector<double> u(m);
  friction::Report<double> rep;
  const Status st = friction::certify(p.view(), vec_view<const double>(r, m), vec_view(u.data(), m), rep);
  if (residual) *residual = rep.residual;
  return st;
}

}  // namespace obliq::test

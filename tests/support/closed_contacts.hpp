// tests/support/closed_contacts.hpp: frictional impacts whose closed contacts include some that
// separate before the impact (docs/friction.md (F10)), and an independent check of an answer
// written with Eigen only: W and q built here from the scenario over ALL closed contacts, De
// Saxce's natural map on u = W r + q per contact against its own scale, the normal velocities
// from qdot+, the balance, zero impulses on open contacts. Nothing of obliq's setup or
// certificate code is used. Header-only (Eigen and the host types).
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "obliq/friction.hpp"

namespace obliq::test {

struct ClosedContactImpact {
  Scenario s;
  Friction f;
  std::vector<int> separating;  // the closed contacts with (A_u qdot)_i > 0
};

// A random impact in space: nc contacts on n dofs, SPD M (cond ~ 100), rows N(0, 1), every
// contact closed; each contact separates before the impact (A_u qdot)_i in [0.01, 0.3] with
// probability p_sep (at least one when nc > 1 and p_sep > 0), else approaches at [0.1, 1.5];
// mu uniform in [mu_lo, mu_hi]; one global e in [0, 1] (0 when plastic).
inline ClosedContactImpact random_closed_contact_impact(std::mt19937& gen, int n, int nc, double p_sep, double mu_lo,
                                                        double mu_hi, bool plastic, int dim = 3) {
  std::normal_distribution<double> N;
  std::uniform_real_distribution<double> U(0, 1);
  ClosedContactImpact c;
  Scenario& s = c.s;
  s = Scenario::zeros({n, 0, nc});
  Eigen::MatrixXd B = Eigen::MatrixXd::NullaryExpr(n, n, [&] { return N(gen); });
  s.M = B * B.transpose() + 0.1 * n * Eigen::MatrixXd::Identity(n, n);
  s.A_u = Eigen::MatrixXd::NullaryExpr(nc, n, [&] { return N(gen); });
  s.qdot = Eigen::VectorXd::NullaryExpr(n, [&] { return N(gen); });
  Eigen::VectorXd target(nc);
  for (int i = 0; i < nc; ++i) {
    const bool sep = U(gen) < p_sep;
    target(i) = sep ? 0.01 + 0.29 * U(gen) : -(0.1 + 1.4 * U(gen));
    if (sep) c.separating.push_back(i);
  }
  if (nc > 1 && p_sep > 0 && c.separating.empty()) {
    target(nc - 1) = 0.01 + 0.29 * U(gen);
    c.separating.push_back(nc - 1);
  }
  // qdot + the least change that gives A_u qdot = target exactly
  const Eigen::MatrixXd G = s.A_u * s.A_u.transpose();
  s.qdot += s.A_u.transpose() * G.ldlt().solve(target - s.A_u * s.qdot);
  s.e.setConstant(plastic ? 0.0 : U(gen));
  c.f = Friction::none(s, dim);
  c.f.A_t = Eigen::MatrixXd::NullaryExpr((dim - 1) * nc, n, [&] { return N(gen); });
  c.f.mu = Eigen::VectorXd::NullaryExpr(nc, [&] { return mu_lo + (mu_hi - mu_lo) * U(gen); });
  return c;
}

// The contact problem over every closed contact (rows (normal, tangents) per contact, in order):
// W = A M^-1 A^T, q = A v_f + restitution on the candidates (approaching or resting contacts:
// e_i (A_u qdot)_i on the normal, e_t,i A_t qdot on the tangents), v_f = qdot + M^-1 i_u.
struct ClosedProblem {
  int dim = 3;
  std::vector<int> contact;  // unilateral row of each closed contact
  Eigen::MatrixXd A, W;
  Eigen::VectorXd q, mu;
};

inline ClosedProblem closed_problem(const Scenario& s, const Friction& f) {
  ClosedProblem p;
  p.dim = f.dim;
  const int n = int(s.M.rows()), d = f.dim, t = d - 1;
  for (int i = 0; i < s.A_u.rows(); ++i)
    if (s.phi_u(i) <= s.gap_tol) p.contact.push_back(i);
  const int k = int(p.contact.size());
  p.A.resize(d * k, n);
  p.mu.resize(k);
  Eigen::VectorXd shift = Eigen::VectorXd::Zero(d * k);
  for (int c = 0; c < k; ++c) {
    const int i = p.contact[std::size_t(c)];
    const bool candidate = s.A_u.row(i).dot(s.qdot) <= s.vel_tol;
    p.A.row(d * c) = s.A_u.row(i);
    if (candidate) shift(d * c) = s.e(i) * s.A_u.row(i).dot(s.qdot);
    for (int j = 0; j < t; ++j) {
      p.A.row(d * c + 1 + j) = f.A_t.row(t * i + j);
      if (candidate && f.e_t.size() > 0) shift(d * c + 1 + j) = f.e_t(i) * f.A_t.row(t * i + j).dot(s.qdot);
    }
    p.mu(c) = f.mu(i);
  }
  const Eigen::LLT<Eigen::MatrixXd> llt(s.M);
  const Eigen::VectorXd v_f = s.qdot + llt.solve(s.i_u);
  p.W = p.A * llt.solve(p.A.transpose());
  p.q = p.A * v_f + shift;
  return p;
}

// What the check found on one answer: each value relative to its own scale.
struct CoulombCheck {
  double natural_map = 0;  // max over contacts of |F_c| / s_c (De Saxce's natural map)
  double penetration = 0;  // max over closed contacts of max(0, -u_N) / s_c, u from qdot+
  double u_mismatch = 0;   // max |u(qdot+) - (W r + q)| / s_c
  double balance = 0;      // |M (qdot+ - qdot) - i_u - A^T r|_inf / (|M| |qdot+ - qdot| + |i_u| + |A^T| |r|)_inf
  bool open_zero = true;   // every open contact's impulses exactly 0
  bool active_closed = true;  // active == closed
  double worst() const { return std::max({natural_map, penetration, u_mismatch, balance}); }
};

// De Saxce's natural map of one contact (x = r - rho (u + mu |u_T| e_N), projected onto
// K_mu = {|x_T| <= mu x_N}), written here independently of obliq's projection.
inline double natural_map(const Eigen::VectorXd& r, const Eigen::VectorXd& u, double mu, double rho) {
  const int d = int(r.size());
  const double ut = u.tail(d - 1).norm();
  Eigen::VectorXd x = r - rho * u;
  x(0) -= rho * mu * ut;
  const double xn = x(0), xt = x.tail(d - 1).norm();
  Eigen::VectorXd p(d);
  if (xt <= mu * xn) {
    p = x;
  } else if (mu * xt <= -xn) {
    p.setZero();
  } else {
    const double a = (xn + mu * xt) / (1 + mu * mu);
    p(0) = a;
    p.tail(d - 1) = xt > 0 ? Eigen::VectorXd(mu * a * x.tail(d - 1) / xt) : Eigen::VectorXd::Zero(d - 1);
  }
  return (r - p).norm() / rho;
}

inline CoulombCheck check_answer(const Scenario& s, const Friction& f, const ImpactResult& a,
                                 const Eigen::VectorXd& lambda_t) {
  CoulombCheck out;
  const ClosedProblem p = closed_problem(s, f);
  const int d = p.dim, t = d - 1, k = int(p.contact.size()), m_b = int(s.A_b.rows());
  for (int i = 0; i < s.A_u.rows(); ++i) {
    const bool closed = s.phi_u(i) <= s.gap_tol;
    if ((a.active(i) != 0) != closed) out.active_closed = false;
    if (!closed && (a.lambda(m_b + i) != 0 || lambda_t.segment(t * i, t).cwiseAbs().maxCoeff() != 0))
      out.open_zero = false;
  }
  Eigen::VectorXd r(d * k);
  for (int c = 0; c < k; ++c) {
    const int i = p.contact[std::size_t(c)];
    r(d * c) = a.lambda(m_b + i);
    r.segment(d * c + 1, t) = lambda_t.segment(t * i, t);
  }
  const Eigen::VectorXd u = p.W * r + p.q;
  // u from the answer's velocity: A qdot+ + (q - A v_f), the restitution shift
  const Eigen::VectorXd v_f = s.qdot + s.M.llt().solve(s.i_u);
  const Eigen::VectorXd u_ans = p.A * a.qdot_plus + (p.q - p.A * v_f);
  const double rmax = k > 0 ? r.cwiseAbs().maxCoeff() : 0.0;
  for (int c = 0; c < k; ++c) {
    const Eigen::VectorXd rc = r.segment(d * c, d), uc = u.segment(d * c, d);
    const double sc = std::max(p.q.segment(d * c, d).cwiseAbs().maxCoeff(),
                               p.W.middleRows(d * c, d).cwiseAbs().maxCoeff() * rmax);
    const double rho = 1.0 / p.W.block(d * c, d * c, d, d).diagonal().maxCoeff();
    const double inv = sc > 0 ? 1.0 / sc : 1e300;
    out.natural_map = std::max(out.natural_map, natural_map(rc, uc, p.mu(c), rho) * inv);
    out.penetration = std::max(out.penetration, std::max(0.0, -u_ans(d * c)) * inv);
    out.u_mismatch = std::max(out.u_mismatch, (u_ans.segment(d * c, d) - uc).cwiseAbs().maxCoeff() * inv);
  }
  Eigen::MatrixXd At(s.A_b.rows() + s.A_u.rows() + f.A_t.rows(), s.M.cols());
  At << s.A_b, s.A_u, f.A_t;
  Eigen::VectorXd lam(At.rows());
  lam << a.lambda, lambda_t;
  const Eigen::VectorXd dv = a.qdot_plus - s.qdot;
  const Eigen::VectorXd res = s.M * dv - s.i_u - At.transpose() * lam;
  const Eigen::VectorXd scale =
      s.M.cwiseAbs() * dv.cwiseAbs() + s.i_u.cwiseAbs() + At.transpose().cwiseAbs() * lam.cwiseAbs();
  out.balance = res.cwiseAbs().maxCoeff() / std::max(scale.maxCoeff(), 1e-300);
  return out;
}

}  // namespace obliq::test

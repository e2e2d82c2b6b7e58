// io/hard_scenarios.cpp: the hard classes of issue 9 (see the header).
#include "io/hard_scenarios.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "io/random_scenarios.hpp"

namespace obliq {
namespace {

double uniform(std::mt19937_64& rng, double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); }
int uniform_int(std::mt19937_64& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }
bool coin(std::mt19937_64& rng) { return (rng() & 1u) != 0; }

Eigen::VectorXd gaussian(std::mt19937_64& rng, Eigen::Index n) {
  std::normal_distribution<double> N(0.0, 1.0);
  Eigen::VectorXd v(n);
  for (Eigen::Index i = 0; i < n; ++i) v[i] = N(rng);
  return v;
}

// Appends one closed unilateral row with restitution e and (dynamics) Adot_qdot entry.
void append_row(Scenario& s, const Eigen::RowVectorXd& a, double e, double adot) {
  const Eigen::Index m_u = s.A_u.rows(), n = s.M.rows();
  s.A_u.conservativeResize(m_u + 1, n);
  s.A_u.row(m_u) = a;
  s.phi_u.conservativeResize(m_u + 1);
  s.phi_u[m_u] = 0.0;
  s.e.conservativeResize(m_u + 1);
  s.e[m_u] = e;
  s.Adot_qdot.conservativeResize(s.Adot_qdot.size() + 1);
  s.Adot_qdot[s.Adot_qdot.size() - 1] = adot;
}

// qdot minus its component that breaks the bilateral rows (A_b qdot = 0 after, to rounding).
void meet_bilateral_rows(Scenario& s) {
  if (s.A_b.rows() == 0) return;
  s.qdot -= s.A_b.completeOrthogonalDecomposition().solve(s.A_b * s.qdot);
}

}  // namespace

const char* hard_class_name(HardClass c) {
  switch (c) {
    case HardClass::span_plus: return "span+";
    case HardClass::span_minus: return "span-";
    case HardClass::opposing: return "opposing";
    case HardClass::duplicates: return "duplicates";
    case HardClass::combinations: return "combinations";
    case HardClass::scaled: return "scaled";
  }
  return "unknown";
}

Scenario hard_scenario(std::mt19937_64& rng, HardClass c, bool dynamics, Law law) {
  const HardClass base = c == HardClass::scaled ? HardClass(uniform_int(rng, 0, 4)) : c;
  const int n = uniform_int(rng, 2, 8);
  const bool span = base == HardClass::span_plus || base == HardClass::span_minus;
  const int m_b = span ? uniform_int(rng, 1, std::min(3, n - 1)) : uniform_int(rng, 0, std::min(2, n - 1));
  RandomOptions o;
  o.law = law;
  o.cond_M = std::pow(10.0, uniform(rng, 0.0, 4.0));
  o.per_row_e = true;
  if (dynamics) {
    draw_dynamics_rows(o, 0.2);
  } else {
    o.p_approaching = 1;
    o.p_resting = 0.5;
    o.p_separating = 0.2;
    o.applied_impulse = coin(rng);
  }
  int m_u = uniform_int(rng, 0, 3);
  if (base == HardClass::duplicates || base == HardClass::combinations) {
    m_u = uniform_int(rng, 2, 6);
    o.dependent_rows = uniform_int(rng, 1, m_u - 1);
    o.duplicates = base == HardClass::duplicates;
    o.consistent_dependent_terms = coin(rng);
  }
  Scenario s = random_scenario(rng, {n, m_b, m_u}, o);
  if (coin(rng)) meet_bilateral_rows(s);

  if (span) {
    const double sign = base == HardClass::span_plus ? 1.0 : -1.0;
    const int k = uniform_int(rng, 1, 3);
    for (int r = 0; r < k; ++r) {
      const Eigen::VectorXd coef = gaussian(rng, m_b);
      const double f = sign * uniform(rng, 0.2, 2.0);
      const Eigen::RowVectorXd a = f * (coef.transpose() * s.A_b);
      // Dynamics: the row's Adot_qdot follows the same combination (targets consistent with the
      // bilateral rows: feasible) or is drawn on its own (feasible or not, by its sign).
      const double adot = coin(rng) ? f * coef.dot(s.Adot_qdot.head(m_b)) : gaussian(rng, 1)[0];
      append_row(s, a, uniform(rng, 0.0, 1.0), adot);
    }
  }
  if (base == HardClass::opposing) {
    const int pairs = uniform_int(rng, 1, 2);
    const double qq = s.qdot.squaredNorm();
    for (int p = 0; p < pairs; ++p) {
      Eigen::RowVectorXd a = gaussian(rng, n).transpose();
      if (qq > 0) a -= (a.dot(s.qdot) / qq) * s.qdot.transpose();  // resting, to rounding
      const double f = uniform(rng, 0.2, 5.0);
      const double t1 = gaussian(rng, 1)[0];
      // Dynamics: a qdd >= -adot_1 and -f a qdd >= -adot_2 meet at one point when
      // adot_2 = -f adot_1 (here up to rounding), and are infeasible or loose otherwise.
      const double adot2 = coin(rng) ? -f * t1 * (1 + 1e-15 * gaussian(rng, 1)[0]) : gaussian(rng, 1)[0];
      append_row(s, a, uniform(rng, 0.0, 1.0), t1);
      append_row(s, -f * a, uniform(rng, 0.0, 1.0), adot2);
    }
  }
  if (c == HardClass::scaled) {
    // M (and the impulses and forces with it) by mu, the rows by about 10^S: lambda scales as
    // mu / 10^S, kept inside 1e-280..1e280 so that the answer stays representable.
    const double log_mu = uniform(rng, -100.0, 100.0);
    const double S = uniform(rng, std::max(-300.0, log_mu - 270.0), std::min(300.0, log_mu + 270.0));
    for (Eigen::Index i = 0; i < s.A_b.rows() + s.A_u.rows(); ++i) {
      const double f = std::pow(10.0, std::clamp(S + uniform(rng, -3.0, 3.0), -300.0, 300.0));
      if (i < s.A_b.rows()) s.A_b.row(i) *= f;
      else s.A_u.row(i - s.A_b.rows()) *= f;
      s.Adot_qdot[i] *= f;
    }
    const double mu = std::pow(10.0, log_mu);
    s.M *= mu;
    s.i_u *= mu;
    s.h *= mu;
    s.u *= mu;
  }
  return s;
}

// Two of the rows [A_b; A_u] are parallel to within `resolution` but not exactly: the chord
// between their unit vectors, min(|u - v|, |u + v|) (the angle, without the cancellation of
// 1 - cos^2), is positive and at most `resolution`. Rows exactly parallel (a duplicate, a power-of-two multiple) are
// dependent under the rank rule, a well-posed case.
// The rows are compared in the problem's own geometry, whitened by M = L L^T (the rows of
// (L^-1 A^T)^T, whose Gram matrix is the Delassus matrix A M^-1 A^T): there a row pair at an
// angle delta moves x by tol_f / delta.
bool rows_nearly_dependent(const Scenario& S, double resolution) {
  const Eigen::Index m = S.A_b.rows() + S.A_u.rows();
  Eigen::MatrixXd A(m, S.M.rows());
  A.topRows(S.A_b.rows()) = S.A_b;
  A.bottomRows(S.A_u.rows()) = S.A_u;
  const double mscale = S.M.cwiseAbs().maxCoeff();
  if (!(mscale > 0)) return false;
  const Eigen::LLT<Eigen::MatrixXd> llt(S.M / mscale);
  if (llt.info() != Eigen::Success) return false;
  for (Eigen::Index i = 0; i < m; ++i) {  // each row by its largest entry first: no overflow
    const double a = A.row(i).cwiseAbs().maxCoeff();
    if (a > 0) A.row(i) /= a;
  }
  Eigen::MatrixXd U = llt.matrixL().solve(A.transpose()).transpose();
  for (Eigen::Index i = 0; i < m; ++i) {
    const double a = U.row(i).cwiseAbs().maxCoeff();
    if (a > 0) U.row(i) /= a, U.row(i).normalize();
  }
  const auto chord = [&](Eigen::Index i, Eigen::Index j) {
    return std::min((U.row(i) - U.row(j)).norm(), (U.row(i) + U.row(j)).norm());
  };
  for (Eigen::Index i = 0; i < m; ++i)
    for (Eigen::Index j = i + 1; j < m; ++j) {
      if (U.row(i).isZero(0) || U.row(j).isZero(0)) continue;
      const double c = chord(i, j);
      if (c > 0 && c <= resolution) return true;
    }
  // The same for a unilateral row and the span of the bilateral rows: a row that lies in that
  // span to within `resolution` but not exactly (no bilateral row parallel to it) has a component
  // delta outside it, and the rows fix the answer along it only to tol_f / delta (opposing
  // resting rows made orthogonal to qdot, in n = m_b + 1, lie in the span of the resting
  // bilateral rows to rounding: one answer is infeasible, the other delta^-1 large).
  const Eigen::Index m_b = S.A_b.rows();
  if (m_b == 0) return false;
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(U.topRows(m_b).transpose(), Eigen::ComputeThinU);
  const Eigen::VectorXd& sv = svd.singularValues();
  Eigen::Index r = 0;
  const double tau = double(std::max(m_b, Eigen::Index(S.M.rows()))) * std::numeric_limits<double>::epsilon() * sv(0);
  while (r < sv.size() && sv(r) > tau) ++r;  // the rank rule of docs/math.md (1)
  const Eigen::MatrixXd Q = svd.matrixU().leftCols(r);  // orthonormal basis of the bilateral span
  for (Eigen::Index i = m_b; i < m; ++i) {
    if (U.row(i).isZero(0)) continue;
    bool parallel = false;
    for (Eigen::Index j = 0; j < m_b; ++j) parallel = parallel || chord(i, j) == 0;
    const Eigen::VectorXd u = U.row(i).transpose();
    if (!parallel && (u - Q * (Q.transpose() * u)).norm() <= resolution) return true;
  }
  return false;
}

}  // namespace obliq

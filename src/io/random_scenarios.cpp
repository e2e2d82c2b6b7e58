// io/random_scenarios.cpp: the random scenario generator (see the header for the distribution).
#include "io/random_scenarios.hpp"

#include <algorithm>
#include <cmath>

namespace obliq {
namespace {

Eigen::MatrixXd gaussian(std::mt19937_64& rng, int rows, int cols) {
  std::normal_distribution<double> N(0.0, 1.0);
  Eigen::MatrixXd a(rows, cols);
  for (int i = 0; i < rows; ++i)
    for (int k = 0; k < cols; ++k) a(i, k) = N(rng);
  return a;
}

double uniform(std::mt19937_64& rng, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng);
}

// M = Q diag(d) Q^T, d log-spaced over [1, cond] (endpoints included), times scale.
Eigen::MatrixXd random_spd(std::mt19937_64& rng, int n, double cond, double scale) {
  Eigen::HouseholderQR<Eigen::MatrixXd> qr(gaussian(rng, n, n));
  Eigen::MatrixXd Q = qr.householderQ();
  Eigen::VectorXd d(n);
  const double lc = std::log(std::max(cond, 1.0));
  for (int i = 0; i < n; ++i) d[i] = std::exp(n == 1 ? 0.0 : lc * i / (n - 1));
  // Shuffle the spectrum so the heavy directions are not tied to Q's first columns.
  std::shuffle(d.data(), d.data() + n, rng);
  Eigen::MatrixXd M = scale * (Q * d.asDiagonal() * Q.transpose());
  return 0.5 * (M + M.transpose());  // exactly symmetric
}

enum class RowState { approaching, resting, separating, open };

RowState draw_state(std::mt19937_64& rng, const RandomOptions& o) {
  double w[4] = {std::max(o.p_approaching, 0.0), std::max(o.p_resting, 0.0), std::max(o.p_separating, 0.0),
                 std::max(o.p_open, 0.0)};
  const double total = w[0] + w[1] + w[2] + w[3];
  if (!(total > 0)) return RowState::approaching;
  double x = uniform(rng, 0.0, total);
  for (int k = 0; k < 4; ++k) {
    if (x < w[k]) return RowState(k);
    x -= w[k];
  }
  return RowState::open;
}

}  // namespace

RandomOptions bench_options(bool dynamics, Law law, bool single) {
  RandomOptions o;
  o.law = law;
  if (single) o.vel_tol = 1e-3;
  o.cond_M = 1e2;
  if (dynamics) {
    o.p_approaching = 0;
    o.p_resting = 1;
    o.forces = true;
    o.adot_qdot = true;
  } else {
    o.p_approaching = 1;
  }
  return o;
}

void draw_dynamics_rows(RandomOptions& o, double p_open) {
  o.p_approaching = 0;
  o.p_resting = 1;
  o.p_open = p_open;
  o.forces = o.adot_qdot = true;
}

Scenario random_scenario(std::mt19937_64& rng, Shape s, const RandomOptions& o) {
  Scenario sc = Scenario::zeros(s);
  sc.law = o.law;
  sc.gap_tol = o.gap_tol;
  sc.vel_tol = o.vel_tol;
  const int n = s.n, m_b = s.m_b, m_u = s.m_u;
  if (n <= 0) return sc;

  sc.M = random_spd(rng, n, o.cond_M, o.mass_scale);
  sc.qdot = o.speed * gaussian(rng, n, 1);
  const double qq = sc.qdot.squaredNorm();
  sc.A_b = gaussian(rng, m_b, n);
  sc.A_u = gaussian(rng, m_u, n);

  // Unilateral rows drawn directly, each sheared along qdot to its state.
  const int dependent = std::clamp(o.dependent_rows, 0, std::max(m_u - 1, 0));
  const int drawn = m_u - dependent;
  for (int i = 0; i < drawn; ++i) {
    const RowState st = draw_state(rng, o);
    if (st == RowState::open) {
      sc.phi_u[i] = uniform(rng, 0.1, 1.0);
      continue;
    }
    sc.phi_u[i] = 0.0;
    if (!(qq > 0)) continue;
    const double size = sc.A_u.row(i).norm() * std::sqrt(qq);
    double target = 0.0;
    if (st == RowState::approaching) target = -uniform(rng, 0.1, 1.0) * size;
    if (st == RowState::separating) target = uniform(rng, 0.1, 1.0) * size;
    const double alpha = (target - sc.A_u.row(i).dot(sc.qdot)) / qq;
    sc.A_u.row(i) += alpha * sc.qdot.transpose();
  }

  // Optional inputs.
  if (o.applied_impulse) sc.i_u = gaussian(rng, n, 1);
  if (o.forces) {
    sc.h = gaussian(rng, n, 1);
    sc.u = gaussian(rng, n, 1);
  }
  if (o.adot_qdot) sc.Adot_qdot = gaussian(rng, m_b + m_u, 1);

  // Dependent rows: duplicates or non-negative combinations of drawn rows.
  for (int i = drawn; i < m_u; ++i) {
    std::uniform_int_distribution<int> pick(0, drawn - 1);
    const int j1 = pick(rng), j2 = pick(rng);
    const double w1 = o.duplicates ? 1.0 : uniform(rng, 0.2, 1.0);
    const double w2 = o.duplicates ? 0.0 : uniform(rng, 0.2, 1.0);
    sc.A_u.row(i) = w1 * sc.A_u.row(j1) + w2 * sc.A_u.row(j2);
    sc.phi_u[i] = w1 * sc.phi_u[j1] + w2 * sc.phi_u[j2];
    if (o.adot_qdot && o.consistent_dependent_terms)
      sc.Adot_qdot[m_b + i] = w1 * sc.Adot_qdot[m_b + j1] + w2 * sc.Adot_qdot[m_b + j2];
  }

  // Restitution.
  const double lo = std::clamp(o.e_min, 0.0, 1.0), hi = std::clamp(o.e_max, lo, 1.0);
  if (o.per_row_e) {
    for (int i = 0; i < m_u; ++i) sc.e[i] = uniform(rng, lo, hi);
  } else {
    sc.e.setConstant(m_u, uniform(rng, lo, hi));
  }
  return sc;
}

template <class T>
Batch<T> random_batch(std::mt19937_64& rng, Shape s, std::size_t count, const RandomOptions& opt) {
  Batch<T> b(s, count);
  for (std::size_t k = 0; k < count; ++k) b.set(k, random_scenario(rng, s, opt));
  return b;
}

template Batch<double> random_batch<double>(std::mt19937_64&, Shape, std::size_t, const RandomOptions&);
template Batch<float> random_batch<float>(std::mt19937_64&, Shape, std::size_t, const RandomOptions&);

}  // namespace obliq

// A row's scale and M's units carry no physics: the answer is invariant (to rounding) when every
// row and its target is multiplied by S from 1e-300 to 1e300 (times a per-row factor in
// 1e-3..1e3), and when M, i_u, h and u are multiplied by mu from 1e-100 to 1e100 (lambda then
// scales by mu / row factor). Complementarity law, independent rows (so lambda is unique),
// impact and dynamics, cpu and reference backends. (The activation tolerances are absolute by
// docs/format.md, so they are 0 here: impacts draw approaching, separating and open rows, dynamics has
// qdot = 0 so every closed row rests exactly.)
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "io/random_scenarios.hpp"
#include "io/solve_each.hpp"

using namespace obliq;

namespace {

std::vector<Scenario> draws(std::mt19937_64& rng, bool dynamics, int count) {
  std::vector<Scenario> out;
  for (int k = 0; k < count; ++k) {
    RandomOptions o;
    const int n = std::uniform_int_distribution<int>(2, 8)(rng);
    const int m_b = std::uniform_int_distribution<int>(0, std::min(2, n - 1))(rng);
    const int m_u = std::uniform_int_distribution<int>(1, n - m_b)(rng);
    if (dynamics) {
      o.p_approaching = 0, o.p_resting = 1, o.p_open = 0.3;
      o.forces = o.adot_qdot = true;
    } else {
      o.p_approaching = 1, o.p_separating = 0.3, o.p_open = 0.2;
      o.applied_impulse = true;
    }
    Scenario s = random_scenario(rng, {n, m_b, m_u}, o);
    if (dynamics) s.qdot.setZero();
    s.gap_tol = s.vel_tol = 0;  // the candidate rule then does not depend on the rows' scale
    out.push_back(s);
  }
  return out;
}

void check(bool dynamics, Backend backend) {
  std::mt19937_64 rng(dynamics ? 31 : 37);
  const std::vector<Scenario> base = draws(rng, dynamics, 80);
  const std::vector<Answer> ref = solve_each(base, dynamics, {backend, 2});
  int ok = 0;
  for (const Answer& a : ref) ok += a.status == Status::ok;
  EXPECT_GT(ok, 50);
  for (int e = -300; e <= 300; e += 100) {
    std::vector<Scenario> rows = base, mass = base;
    std::vector<Eigen::VectorXd> f(base.size());
    const double mu = std::pow(10.0, e / 3.0);
    for (std::size_t k = 0; k < base.size(); ++k) {
      Scenario& s = rows[k];
      const Eigen::Index mb = s.A_b.rows(), m = mb + s.A_u.rows();
      f[k].resize(m);
      for (Eigen::Index i = 0; i < m; ++i) {
        f[k][i] = std::pow(10.0, e + std::uniform_real_distribution<double>(-3, 3)(rng));
        if (std::abs(std::log10(f[k][i])) > 307) f[k][i] = std::pow(10.0, e);
        if (i < mb) s.A_b.row(i) *= f[k][i];
        else s.A_u.row(i - mb) *= f[k][i];
        s.Adot_qdot[i] *= f[k][i];
      }
      Scenario& t = mass[k];
      t.M *= mu, t.i_u *= mu, t.h *= mu, t.u *= mu;
    }
    const std::vector<Answer> ra = solve_each(rows, dynamics, {backend, 2});
    const std::vector<Answer> ma = solve_each(mass, dynamics, {backend, 2});
    for (std::size_t k = 0; k < base.size(); ++k) {
      const Answer& a = ref[k];
      ASSERT_EQ(ra[k].status, a.status) << "rows x 1e" << e << ", scenario " << k << ": " << status_reason(ra[k].status);
      ASSERT_EQ(ma[k].status, a.status) << "M x " << mu << ", scenario " << k << ": " << status_reason(ma[k].status);
      if (a.status != Status::ok) continue;
      const double xs = a.x.norm() + base[k].qdot.norm() + 1e-300;
      EXPECT_LE((ra[k].x - a.x).norm(), 1e-9 * xs) << "rows x 1e" << e << ", scenario " << k;
      EXPECT_LE((ma[k].x - a.x).norm(), 1e-9 * xs) << "M x " << mu << ", scenario " << k;
      const Eigen::VectorXd lr = ra[k].lambda.cwiseProduct(f[k]), lm = ma[k].lambda / mu;
      const double ls = a.lambda.norm() + 1e-300;
      EXPECT_LE((lr - a.lambda).norm(), 1e-8 * ls) << "rows x 1e" << e << ", scenario " << k;
      EXPECT_LE((lm - a.lambda).norm(), 1e-8 * ls) << "M x " << mu << ", scenario " << k;
    }
  }
}

}  // namespace

TEST(ScaleInvariance, ImpactCpu) { check(false, Backend::cpu); }
TEST(ScaleInvariance, DynamicsCpu) { check(true, Backend::cpu); }
TEST(ScaleInvariance, ImpactReference) { check(false, Backend::reference); }
TEST(ScaleInvariance, DynamicsReference) { check(true, Backend::reference); }

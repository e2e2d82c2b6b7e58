// The shared random scenario generator (io/random_scenarios): shapes, cond(M), row states,
// dependent rows, restitution and determinism, checked directly on the numbers it draws.
#include <gtest/gtest.h>

#include "io/random_scenarios.hpp"
#include "obliq/reference.hpp"

namespace obliq {
namespace {

double cond(const Eigen::MatrixXd& M) {
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(M);
  return es.eigenvalues().maxCoeff() / es.eigenvalues().minCoeff();
}

TEST(RandomScenario, ShapeAndInertia) {
  std::mt19937_64 rng(7);
  for (Shape s : {Shape{1, 0, 0}, Shape{6, 0, 3}, Shape{12, 2, 4}, Shape{5, 1, 9}, Shape{40, 0, 24}}) {
    for (double c : {1.0, 1e2, 1e6}) {
      RandomOptions o;
      o.cond_M = c;
      o.mass_scale = 3;
      const Scenario sc = random_scenario(rng, s, o);
      SCOPED_TRACE(::testing::Message() << "n " << s.n << " m_b " << s.m_b << " m_u " << s.m_u << " cond " << c);
      EXPECT_EQ(sc.shape(), s);
      EXPECT_EQ(sc.qdot.size(), s.n);
      EXPECT_EQ(sc.Adot_qdot.size(), s.m_b + s.m_u);
      EXPECT_EQ(sc.e.size(), s.m_u);
      EXPECT_EQ(sc.M, sc.M.transpose());
      Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(sc.M);
      EXPECT_GT(es.eigenvalues().minCoeff(), 0);
      // d spans [1, c] exactly (n > 1), times the scale: cond(M) = c up to rounding.
      if (s.n > 1) EXPECT_NEAR(cond(sc.M) / c, 1.0, 1e-6);
      EXPECT_NEAR(es.eigenvalues().minCoeff(), 3.0, 3e-9 * c);
      EXPECT_EQ(reference::validate(sc), Status::ok);
    }
  }
}

TEST(RandomScenario, RowStates) {
  std::mt19937_64 rng(11);
  const Shape s{10, 0, 8};
  const double tol = 1e-12;
  struct Case {
    double a, r, sep, open;
  };
  for (Case c : {Case{1, 0, 0, 0}, Case{0, 1, 0, 0}, Case{0, 0, 1, 0}, Case{0, 0, 0, 1}}) {
    RandomOptions o;
    o.p_approaching = c.a;
    o.p_resting = c.r;
    o.p_separating = c.sep;
    o.p_open = c.open;
    for (int trial = 0; trial < 20; ++trial) {
      const Scenario sc = random_scenario(rng, s, o);
      const Eigen::VectorXd v = sc.A_u * sc.qdot;
      for (int i = 0; i < s.m_u; ++i) {
        const double size = sc.A_u.row(i).norm() * sc.qdot.norm();
        if (c.open > 0) {
          EXPECT_GE(sc.phi_u[i], 0.1);
          EXPECT_LE(sc.phi_u[i], 1.0);
          continue;
        }
        EXPECT_EQ(sc.phi_u[i], 0.0);
        if (c.a > 0) EXPECT_LE(v[i], -0.09 * size);  // c >= 0.1 of the row before the shear
        if (c.r > 0) EXPECT_LE(std::abs(v[i]), tol * size);
        if (c.sep > 0) EXPECT_GE(v[i], 0.09 * size);
      }
      // docs/format.md's candidates agree with the states drawn.
      const Eigen::VectorXi cand = reference::impact_candidates(sc);
      EXPECT_EQ(cand.sum(), (c.a > 0 || c.r > 0) ? s.m_u : 0);
      if (c.r > 0) EXPECT_EQ(reference::dynamics_candidates(sc).sum(), s.m_u);
    }
  }
}

TEST(RandomScenario, DependentRows) {
  std::mt19937_64 rng(3);
  const Shape s{8, 0, 6};
  for (bool duplicates : {true, false}) {
    RandomOptions o;
    o.dependent_rows = 2;
    o.duplicates = duplicates;
    o.adot_qdot = true;
    const Scenario sc = random_scenario(rng, s, o);
    Eigen::FullPivLU<Eigen::MatrixXd> lu(sc.A_u);
    lu.setThreshold(1e-10);
    EXPECT_EQ(lu.rank(), 4) << "duplicates " << duplicates;
    // The dependent rows of non-negative combinations of approaching rows still approach.
    EXPECT_TRUE(((sc.A_u * sc.qdot).array() < 0).all());
    EXPECT_EQ(reference::impact_candidates(sc).sum(), s.m_u);
    if (duplicates) {
      for (int i = 4; i < 6; ++i) {
        bool copy = false;
        for (int j = 0; j < 4; ++j) copy = copy || (sc.A_u.row(i) == sc.A_u.row(j) && sc.Adot_qdot[i] == sc.Adot_qdot[j]);
        EXPECT_TRUE(copy) << "row " << i;
      }
    }
  }
  // m_u - 1 at most: a single row cannot depend on others.
  RandomOptions o;
  o.dependent_rows = 5;
  const Scenario one = random_scenario(rng, {3, 0, 1}, o);
  EXPECT_GT(one.A_u.norm(), 0);
}

TEST(RandomScenario, RestitutionAndOptionalInputs) {
  std::mt19937_64 rng(5);
  RandomOptions o;
  o.e_min = 0.2;
  o.e_max = 0.6;
  const Scenario per_row = random_scenario(rng, {5, 1, 6}, o);
  EXPECT_TRUE((per_row.e.array() >= 0.2).all() && (per_row.e.array() <= 0.6).all());
  EXPECT_GT(per_row.e.maxCoeff() - per_row.e.minCoeff(), 0);
  EXPECT_EQ(per_row.i_u, Eigen::VectorXd::Zero(5));
  EXPECT_EQ(per_row.h, Eigen::VectorXd::Zero(5));
  EXPECT_EQ(per_row.Adot_qdot, Eigen::VectorXd::Zero(7));

  o.per_row_e = false;
  o.applied_impulse = o.forces = o.adot_qdot = true;
  o.law = Law::projection;
  const Scenario global = random_scenario(rng, {5, 1, 6}, o);
  EXPECT_EQ(global.e, Eigen::VectorXd::Constant(6, global.e[0]));
  EXPECT_GT(global.i_u.norm(), 0);
  EXPECT_GT(global.h.norm(), 0);
  EXPECT_GT(global.u.norm(), 0);
  EXPECT_GT(global.Adot_qdot.norm(), 0);
  EXPECT_EQ(global.law, Law::projection);
}

TEST(RandomScenario, SameSeedSameScenario) {
  std::mt19937_64 a(99), b(99);
  const Scenario x = random_scenario(a, {7, 1, 3}), y = random_scenario(b, {7, 1, 3});
  EXPECT_EQ(x.M, y.M);
  EXPECT_EQ(x.A_u, y.A_u);
  EXPECT_EQ(x.qdot, y.qdot);
  EXPECT_EQ(x.e, y.e);
}

TEST(RandomBatch, FillsEveryScenario) {
  std::mt19937_64 a(1), b(1);
  const Shape s{4, 0, 2};
  const RandomOptions o = bench_options(false, Law::complementarity);
  const Batch<double> batch = random_batch<double>(a, s, 5, o);
  ASSERT_EQ(batch.count, 5u);
  for (std::size_t k = 0; k < 5; ++k) {
    const Scenario expected = random_scenario(b, s, o);
    const Scenario got = batch.get(k);
    EXPECT_EQ(got.M, expected.M);
    EXPECT_EQ(got.A_u, expected.A_u);
    EXPECT_EQ(got.qdot, expected.qdot);
    EXPECT_EQ(got.e, expected.e);
  }
  // Float: the same draws, rounded.
  std::mt19937_64 c(1);
  const Batch<float> single = random_batch<float>(c, s, 5, bench_options(false, Law::complementarity, true));
  EXPECT_EQ(single.get(0).M, batch.get(0).M.cast<float>().cast<double>());
  EXPECT_EQ(single.get(0).vel_tol, double(1e-3f));
}

}  // namespace
}  // namespace obliq

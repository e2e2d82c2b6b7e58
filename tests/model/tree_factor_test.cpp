// tests/model/tree_factor_test.cpp: the model layer hands the core its kinematic tree, and the
// core factors M along it (core/mechanics/mass_factor.hpp, docs/math.md (M1)-(M3)). The oracle
// is the same solve with the dense Cholesky (the tree removed): the same statuses, the same
// answers to rounding, on every built-in model, both laws, impact and dynamics, double and float,
// and in the Simulator with friction.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>

#include "obliq/batch.hpp"
#include "obliq/friction.hpp"
#include "obliq/core/mechanics/mass_factor.hpp"
#include "obliq/model/host.hpp"
#include "obliq/simulator.hpp"

namespace {

using namespace obliq;
using namespace obliq::model;

template <class T> RowMat<T> random_states(const Model& m, int count, std::mt19937& rng, bool positions) {
  std::normal_distribution<double> g(0, 0.5);
  RowMat<T> X(count, positions ? m.nq : m.nv);
  for (int s = 0; s < count; ++s) {
    for (int k = 0; k < X.cols(); ++k) X(s, k) = T(g(rng));
    if (positions)
      for (int i = 0; i < m.nbodies(); ++i)
        if (m.joint_type[std::size_t(i)] == int(JointType::free_flyer)) {
          auto quat = X.row(s).segment(m.idx_q[std::size_t(i)] + 3, 4);
          quat /= quat.norm();
        }
  }
  return X;
}

// The velocity tree of every built-in model numbers parents first, and every mass matrix the
// model layer computes has its pattern, so the tree factor is the one used.
TEST(TreeFactor, EveryBuiltinModelsMassMatrixHasItsTreePattern) {
  std::mt19937 rng(3);
  for (const auto& info : builtin_models()) {
    const Model m = builtin_model(info.name);
    ASSERT_EQ(m.velocity_parent.size(), std::size_t(m.nv)) << info.name;
    for (int k = 0; k < m.nv; ++k) {
      EXPECT_GE(m.velocity_parent[std::size_t(k)], -1) << info.name;
      EXPECT_LT(m.velocity_parent[std::size_t(k)], k) << info.name;
    }
    Batch<double> b;
    std::vector<Status> st;
    evaluate_batch(m, random_states<double>(m, 8, rng, true), random_states<double>(m, 8, rng, false), b, st);
    ASSERT_EQ(b.parent, m.velocity_parent) << info.name;
    for (std::size_t s = 0; s < b.count; ++s) {
      ASSERT_EQ(st[s], Status::ok) << info.name;
      const MatView<const double> M{b.M.data() + s * std::size_t(m.nv * m.nv), m.nv, m.nv, m.nv, 1};
      std::vector<double> storage(std::size_t(m.nv * m.nv));
      MassFactor<double> f;
      ASSERT_TRUE(factor_mass(M, b.parent.data(), MatView<double>{storage.data(), m.nv, m.nv, m.nv, 1}, f)) << info.name;
      EXPECT_TRUE(f.tree()) << info.name << " state " << s;
    }
  }
}

template <class T> class TreeFactorLaws : public ::testing::Test {};
using Scalars = ::testing::Types<double, float>;
TYPED_TEST_SUITE(TreeFactorLaws, Scalars);

// Impact and dynamics on model states with every contact closed, per-contact e, both laws: the
// tree factor and the dense factor give the same statuses and answers to rounding.
TYPED_TEST(TreeFactorLaws, ImpactAndDynamicsMatchTheDenseFactor) {
  using T = TypeParam;
  const double tol = std::is_same_v<T, double> ? 1e-9 : 2e-3;
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> unit(0, 1), sym(-1, 1);
  int ok_impacts = 0, ok_dynamics = 0, total = 0;
  for (const auto& info : builtin_models()) {
    const ModelT<T> m = builtin_model(info.name).template cast<T>();
    const int count = 24;
    Batch<T> tree;
    std::vector<Status> st;
    const Model md = builtin_model(info.name);
    evaluate_batch(m, random_states<T>(md, count, rng, true), random_states<T>(md, count, rng, false), tree, st);
    ASSERT_FALSE(tree.parent.empty()) << info.name;
    for (std::size_t s = 0; s < tree.count; ++s) {
      tree.law[s] = std::uint8_t(s % 2 == 0 ? Law::complementarity : Law::projection);
      for (int i = 0; i < tree.shape.m_u; ++i) {
        tree.phi_u[s * std::size_t(tree.shape.m_u) + std::size_t(i)] = T(0);  // closed
        tree.e[s * std::size_t(tree.shape.m_u) + std::size_t(i)] = T(unit(rng));
      }
      for (int k = 0; k < tree.shape.n; ++k) tree.u[s * std::size_t(tree.shape.n) + std::size_t(k)] = T(5 * sym(rng));
    }
    Batch<T> dense = tree;
    dense.parent.clear();
    ImpactResults<T> it, id;
    DynamicsResults<T> dt, dd;
    solve_impact(tree, it);
    solve_impact(dense, id);
    // The dynamics with the contacts at rest (qdot = 0): every closed contact takes part.
    std::fill(tree.qdot.begin(), tree.qdot.end(), T(0));
    std::fill(dense.qdot.begin(), dense.qdot.end(), T(0));
    std::fill(tree.Adot_qdot.begin(), tree.Adot_qdot.end(), T(0));
    std::fill(dense.Adot_qdot.begin(), dense.Adot_qdot.end(), T(0));
    solve_dynamics(tree, dt);
    solve_dynamics(dense, dd);
    const auto near = [&](auto a, auto b, const std::string& what) {
      const double scale = 1 + double(b.cwiseAbs().maxCoeff());
      EXPECT_LE(double((a - b).cwiseAbs().maxCoeff()), tol * scale) << what;
    };
    for (std::size_t s = 0; s < tree.count; ++s) {
      const std::string what = info.name + " scenario " + std::to_string(s);
      ++total;
      ASSERT_EQ(it.status[s], id.status[s]) << what;
      ASSERT_EQ(dt.status[s], dd.status[s]) << what;
      if (it.status[s] == Status::ok) {
        ++ok_impacts;
        near(it.qdot_plus_of(s), id.qdot_plus_of(s), what + " qdot_plus");
        near(it.impulse_of(s), id.impulse_of(s), what + " impulse");
        EXPECT_NEAR(double(it.kinetic_energy_pre[s]), double(id.kinetic_energy_pre[s]),
                    tol * (1 + double(id.kinetic_energy_pre[s])))
            << what;
        EXPECT_NEAR(double(it.kinetic_energy_post[s]), double(id.kinetic_energy_post[s]),
                    tol * (1 + double(id.kinetic_energy_pre[s])))
            << what;
      }
      if (dt.status[s] == Status::ok) {
        ++ok_dynamics;
        near(dt.qddot_of(s), dd.qddot_of(s), what + " qddot");
      }
    }
  }
  // Not vacuous: most answers are certified answers compared.
  EXPECT_GT(ok_impacts, total * 3 / 4);
  EXPECT_GT(ok_dynamics, total / 2);
}

// A tree that M does not conform to (every coordinate its own root: M would have to be
// diagonal) takes the dense factor (M3): the answers are the dense answers bit for bit.
TEST(TreeFactor, ForeignTreeFallsBackToTheDenseAnswerBitForBit) {
  std::mt19937 rng(5);
  const Model m = builtin_model("quadruped");
  Batch<double> foreign;
  std::vector<Status> st;
  evaluate_batch(m, random_states<double>(m, 16, rng, true), random_states<double>(m, 16, rng, false), foreign, st);
  for (auto& phi : foreign.phi_u) phi = 0;
  foreign.parent.assign(std::size_t(m.nv), -1);
  Batch<double> dense = foreign;
  dense.parent.clear();
  ImpactResults<double> a, b;
  solve_impact(foreign, a);
  solve_impact(dense, b);
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.qdot_plus, b.qdot_plus);
  EXPECT_EQ(a.lambda, b.lambda);
}

// A parent array that is not a tree numbered parents first, or of the wrong length, is misuse.
TEST(TreeFactor, BadParentArrayIsRefusedByName) {
  Batch<double> b({3, 0, 1}, 2);
  b.parent = {-1, 0, 2};
  ImpactResults<double> r;
  try {
    solve_impact(b, r);
    FAIL() << "accepted parent[2] = 2";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("parent[2]"), std::string::npos) << e.what();
  }
  b.parent = {-1, 0};
  EXPECT_THROW(solve_impact(b, r), std::invalid_argument);
  b.parent = {-1, 0, 1};
  EXPECT_NO_THROW(solve_impact(b, r));
}

// A host Scenario's tree (Scenario::parent, which Batch::get fills) in the frictional solve: the
// wrong length is the scenario's bad_shape status; a right-length array that is not a tree
// numbered parents first takes the dense factor, the answer without a tree bit for bit.
TEST(TreeFactor, ScenarioParentOfTheWrongShapeIsAStatus) {
  Scenario s = Scenario::zeros({3, 0, 1});
  s.A_u << 0, 0, 1;
  s.qdot << 0.5, 0, -1;
  Friction f = Friction::none(s, 3);
  f.A_t << 1, 0, 0, 0, 1, 0;
  f.mu.setConstant(0.5);
  const ImpactResult plain = obliq::impact(s, f);
  ASSERT_EQ(plain.status, Status::ok);
  s.parent = {-1, 0};
  EXPECT_EQ(obliq::impact(s, f).status, Status::bad_shape);
  s.parent = {-1, 0, 2};
  const ImpactResult foreign = obliq::impact(s, f);
  EXPECT_EQ(foreign.status, Status::ok);
  EXPECT_EQ(foreign.qdot_plus, plain.qdot_plus);
  EXPECT_EQ(foreign.lambda, plain.lambda);
}

// The Simulator (Moreau-Jean, friction mu = 0.8, restitution 0.3) steps a model with the tree
// factor; the same model with its tree removed steps with the dense one: the same trajectory to
// rounding over 200 steps of a quadruped drop.
TEST(TreeFactor, SimulatorWithFrictionMatchesTheDenseFactor) {
  Model with_tree = builtin_model("quadruped");
  Model without = with_tree;
  without.velocity_parent.clear();
  SimOptions o;
  o.threads = 1;
  auto make = [&](const Model& m) {
    Simulator<double> sim(m, 4, o);
    std::mt19937 rng(9);
    std::uniform_real_distribution<double> u(-1, 1);
    for (std::size_t s = 0; s < 4; ++s) {
      sim.q(Eigen::Index(s), 2) = 0.55 + 0.1 * double(s);
      for (int k = 7; k < m.nq; ++k) sim.q(Eigen::Index(s), k) = 0.3 * u(rng);
    }
    sim.mu.setConstant(0.8);
    sim.e.setConstant(0.3);
    return sim;
  };
  Simulator<double> a = make(with_tree), b = make(without);
  a.step(1e-3, 200);
  b.step(1e-3, 200);
  ASSERT_EQ(a.status, b.status);
  for (std::size_t s = 0; s < 4; ++s) ASSERT_EQ(a.status[s], Status::ok) << s;
  EXPECT_GT(*std::max_element(a.impacts.begin(), a.impacts.end()), 0);  // the feet landed
  EXPECT_LE((a.q - b.q).cwiseAbs().maxCoeff(), 1e-8);
  EXPECT_LE((a.v - b.v).cwiseAbs().maxCoeff(), 1e-6);
}

}  // namespace

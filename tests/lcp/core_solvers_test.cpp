// tests/lcp/core_solvers_test.cpp: the per-scenario LCP solvers on small problems with answers
// in closed form, and their statuses (bad input, budgets, strided and interleaved views).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "obliq/core/lcp/select.hpp"

namespace {

using obliq::Arena;
using obliq::MatView;
using obliq::Status;
using obliq::VecView;
using obliq::lcp::Solver;

template <class T> struct Problem {
  int m;
  std::vector<T> M, q, z, w, scratch;
  Problem(int m_, std::vector<T> M_, std::vector<T> q_)
      : m(m_), M(std::move(M_)), q(std::move(q_)), z(std::size_t(m_)), w(std::size_t(m_)),
        scratch(obliq::lcp::solve_workspace<T>(m_)) {}
  obliq::lcp::Result<T> solve(Solver s, int budget = 0) {
    Arena<T> a{scratch.data(), scratch.size()};
    return obliq::lcp::solve<T>(MatView<const T>{M.data(), m, m, m, 1}, VecView<const T>{q.data(), m, 1},
                                VecView<T>{z.data(), m, 1}, VecView<T>{w.data(), m, 1}, a, s, budget);
  }
};

template <class T> class CoreLcp : public ::testing::Test {};
using Scalars = ::testing::Types<double, float>;
TYPED_TEST_SUITE(CoreLcp, Scalars);

// docs/math.md section 7, seed 004: W = [[2,1],[1,2]], b = (-3,-3) gives N = (1,1), w = 0.
TYPED_TEST(CoreLcp, Seed004Example) {
  using T = TypeParam;
  // Exact methods: to rounding.
  const T e = T(16) * std::numeric_limits<T>::epsilon();
  for (Solver s : {Solver::lemke, Solver::pivot, Solver::enumerate, Solver::automatic}) {
    Problem<T> p(2, {2, 1, 1, 2}, {-3, -3});
    const auto r = p.solve(s);
    ASSERT_EQ(r.status, Status::ok) << obliq::lcp::solver_name(s);
    EXPECT_NEAR(p.z[0], T(1), e);
    EXPECT_NEAR(p.z[1], T(1), e);
    EXPECT_NEAR(p.w[0], T(0), 3 * e);
    EXPECT_NEAR(p.w[1], T(0), 3 * e);
    EXPECT_LE(r.residual, 3 * e);
  }
  // PGS: to its stopping rule, residual <= tol_T * s (s = max(3, 2 * 1) = 3).
  Problem<T> p(2, {2, 1, 1, 2}, {-3, -3});
  const auto r = p.solve(Solver::pgs);
  ASSERT_EQ(r.status, Status::ok);
  EXPECT_LE(r.residual, obliq::lcp::lcp_tolerance<T>::rel * T(3.01));
  EXPECT_NEAR(p.z[0], T(1), T(1e3) * obliq::lcp::lcp_tolerance<T>::rel);
}

TYPED_TEST(CoreLcp, NonnegativeQGivesZeroAtOnce) {
  using T = TypeParam;
  for (Solver s : {Solver::lemke, Solver::pivot, Solver::enumerate, Solver::pgs}) {
    Problem<T> p(3, {1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 0, 2});
    const auto r = p.solve(s);
    EXPECT_EQ(r.status, Status::ok);
    EXPECT_EQ(p.z[0] + p.z[1] + p.z[2], T(0));
    EXPECT_EQ(p.w[2], T(2));
    EXPECT_EQ(r.residual, T(0));
  }
}

TYPED_TEST(CoreLcp, NonFiniteInputIsReported) {
  using T = TypeParam;
  for (Solver s : {Solver::lemke, Solver::pivot, Solver::enumerate, Solver::pgs, Solver::automatic}) {
    Problem<T> p(2, {2, 1, 1, std::numeric_limits<T>::quiet_NaN()}, {-1, -1});
    EXPECT_EQ(p.solve(s).status, Status::non_finite) << obliq::lcp::solver_name(s);
    Problem<T> p2(2, {2, 1, 1, 2}, {-std::numeric_limits<T>::infinity(), -1});
    EXPECT_EQ(p2.solve(s).status, Status::non_finite) << obliq::lcp::solver_name(s);
  }
}

TYPED_TEST(CoreLcp, SmallArenaIsBadShape) {
  using T = TypeParam;
  std::vector<T> M = {2, 1, 1, 2}, q = {-3, -3}, z(2), w(2), scratch(3);
  Arena<T> a{scratch.data(), scratch.size()};
  const auto r = obliq::lcp::lemke<T>(MatView<const T>{M.data(), 2, 2, 2, 1}, VecView<const T>{q.data(), 2, 1},
                                      VecView<T>{z.data(), 2, 1}, VecView<T>{w.data(), 2, 1}, a, 100);
  EXPECT_EQ(r.status, Status::bad_shape);
}

// A 1 x 1 LCP with M = -1, q = -1: w = -z - 1 < 0 for every z >= 0 (no solution).
TYPED_TEST(CoreLcp, OneByOneInfeasible) {
  using T = TypeParam;
  Problem<T> p(1, {-1}, {-1});
  EXPECT_EQ(p.solve(Solver::lemke).status, Status::lcp_ray);
  EXPECT_EQ(p.solve(Solver::enumerate).status, Status::infeasible);
  EXPECT_EQ(p.solve(Solver::pivot).status, Status::no_convergence);  // M is not a P-matrix
}

TYPED_TEST(CoreLcp, BudgetsAreReported) {
  using T = TypeParam;
  // M = I, q = (-1, -1, -1): Lemke needs 4 pivots, Murty 3, enumeration 8 bases (J = all last).
  Problem<T> p(3, {1, 0, 0, 0, 1, 0, 0, 0, 1}, {-1, -1, -1});
  EXPECT_EQ(p.solve(Solver::lemke, 2).status, Status::lcp_budget);
  EXPECT_EQ(p.solve(Solver::pivot, 2).status, Status::lcp_budget);
  EXPECT_EQ(p.solve(Solver::enumerate, 7).status, Status::lcp_budget);
  const auto r = p.solve(Solver::lemke, 4);
  EXPECT_EQ(r.status, Status::ok);
  EXPECT_EQ(r.iterations, 4);
  // PGS on an ill-conditioned PD matrix with an interior solution z = (1, 1) / 1.999: the error
  // contracts by 0.999^2 per sweep, so 2 sweeps cannot reach 1e-9 (1e-4 in float).
  Problem<T> s(2, {1, T(0.999), T(0.999), 1}, {-1, -1});
  EXPECT_EQ(s.solve(Solver::pgs, 2).status, Status::lcp_budget);
  EXPECT_EQ(s.solve(Solver::pgs, 200000).status, Status::ok);
}

// PGS warm start: started at the solution it stops after 0 sweeps.
TYPED_TEST(CoreLcp, PgsWarmStart) {
  using T = TypeParam;
  std::vector<T> M = {4, 1, 0, 1, 4, 1, 0, 1, 4}, q = {-1, -2, 3}, z(3), w(3);
  Arena<T> a{nullptr, 0};
  const MatView<const T> Mv{M.data(), 3, 3, 3, 1};
  const VecView<const T> qv{q.data(), 3, 1};
  auto r = obliq::lcp::pgs<T>(Mv, qv, VecView<T>{z.data(), 3, 1}, VecView<T>{w.data(), 3, 1}, a, 1000);
  ASSERT_EQ(r.status, Status::ok);
  EXPECT_GT(r.iterations, 0);
  r = obliq::lcp::pgs<T>(Mv, qv, VecView<T>{z.data(), 3, 1}, VecView<T>{w.data(), 3, 1}, a, 1000, T(1), true);
  EXPECT_EQ(r.status, Status::ok);
  EXPECT_EQ(r.iterations, 0);
  // SOR with omega outside (0, 2) is refused.
  r = obliq::lcp::pgs<T>(Mv, qv, VecView<T>{z.data(), 3, 1}, VecView<T>{w.data(), 3, 1}, a, 1000, T(2));
  EXPECT_EQ(r.status, Status::bad_tolerance);
}

// Interleaved storage (GPU layout): scenario s of a batch of 3 at stride 3, scratch too.
TYPED_TEST(CoreLcp, InterleavedViews) {
  using T = TypeParam;
  const int B = 3, m = 2;
  std::vector<T> M(std::size_t(m * m * B)), q(std::size_t(m * B)), z(std::size_t(m * B)), w(std::size_t(m * B));
  const std::size_t ws = obliq::lcp::lemke_workspace<T>(m);
  std::vector<T> scratch(ws * B);
  const T base[4] = {2, 1, 1, 2};
  for (int s = 0; s < B; ++s) {
    for (int k = 0; k < 4; ++k) M[std::size_t(k * B + s)] = base[k] * T(s + 1);
    q[std::size_t(0 * B + s)] = T(-3) * T(s + 1);
    q[std::size_t(1 * B + s)] = T(-3) * T(s + 1);
  }
  for (int s = 0; s < B; ++s) {
    Arena<T> a{scratch.data() + s, ws, B};
    const auto r = obliq::lcp::lemke<T>(MatView<const T>{M.data() + s, m, m, 2 * B, B},
                                        VecView<const T>{q.data() + s, m, B}, VecView<T>{z.data() + s, m, B},
                                        VecView<T>{w.data() + s, m, B}, a, 100);
    ASSERT_EQ(r.status, Status::ok);
    EXPECT_NEAR(z[std::size_t(s)], T(1), T(1e-5));
    EXPECT_NEAR(z[std::size_t(B + s)], T(1), T(1e-5));
  }
}

// Dependent rows a1, a2, a1 + a2 (M = I_2 in the dofs): W = [[1,0,1],[0,1,1],[1,1,2]], singular.
// q = (-1, 0, -1): z = (1, 0, 0) solves it (w = (0, 0, 0)); all z = (1-t, -t.., ) forms differ,
// so check the certificate and w.
TYPED_TEST(CoreLcp, DependentRowsPsdSingular) {
  using T = TypeParam;
  Problem<T> p(3, {1, 0, 1, 0, 1, 1, 1, 1, 2}, {-1, 0, -1});
  const auto r = p.solve(Solver::lemke);
  ASSERT_EQ(r.status, Status::ok);
  // Every solution has W z = -q on the support... here w = W z + q must be 0 in rows 0 and 2.
  EXPECT_NEAR(p.w[0], T(0), T(1e-5));
  EXPECT_NEAR(p.w[2], T(0), T(1e-5));
  EXPECT_GE(p.w[1], T(0));
}

}  // namespace

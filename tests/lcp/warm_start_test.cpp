// tests/lcp/warm_start_test.cpp: warm starts from an active set (obliq/core/lcp/basis.hpp
// warm_start, select.hpp solve_warm, the host API's LcpProblem::warm).
//
// What must hold: a warm answer is only ever a certified one; the right active set gives the cold
// answer with 0 pivots; a wrong or garbage one gives exactly the cold solve's answer.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "obliq/core/lcp/select.hpp"
#include "obliq/lcp.hpp"

namespace {

using obliq::Arena;
using obliq::MatView;
using obliq::Status;
using obliq::VecView;
using obliq::lcp::Solver;

// A contact LCP W = A A^T with A (m x (m + 3)) random (full rank, PD)
// or with half its rows positive combinations of the others (PSD, singular), q = A v; the
// problem at time t drifts: A + t dA, v + t dv (a time-stepping-like sequence).
struct Drift {
  int m, n;
  std::vector<double> A, dA, v, dv;
  Drift(std::mt19937& g, int m_, bool deficient) : m(m_), n(m_ + 3) {
    std::normal_distribution<double> N;
    A.resize(std::size_t(m * n)), dA.resize(A.size()), v.resize(std::size_t(n)), dv.resize(std::size_t(n));
    for (auto& x : A) x = N(g);
    for (auto& x : dA) x = N(g);
    for (auto& x : v) x = N(g);
    for (auto& x : dv) x = N(g);
    if (deficient) {
      const int r = std::max(1, m / 2);
      for (int i = r; i < m; ++i)
        for (int k = 0; k < n; ++k) {
          A[std::size_t(i * n + k)] = 0.6 * A[std::size_t((i % r) * n + k)] + 0.3 * A[std::size_t(((i + 1) % r) * n + k)];
          dA[std::size_t(i * n + k)] = 0.6 * dA[std::size_t((i % r) * n + k)] + 0.3 * dA[std::size_t(((i + 1) % r) * n + k)];
        }
    }
  }
  obliq::LcpProblem at(double t) const {
    obliq::LcpProblem p;
    p.m = m;
    p.M.assign(std::size_t(m * m), 0.0);
    p.q.assign(std::size_t(m), 0.0);
    std::vector<double> At(A.size());
    for (std::size_t k = 0; k < A.size(); ++k) At[k] = A[k] + t * dA[k];
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < m; ++j)
        for (int k = 0; k < n; ++k) p.M[std::size_t(i * m + j)] += At[std::size_t(i * n + k)] * At[std::size_t(j * n + k)];
      for (int k = 0; k < n; ++k) p.q[std::size_t(i)] += At[std::size_t(i * n + k)] * (v[std::size_t(k)] + t * dv[std::size_t(k)]);
    }
    return p;
  }
};

double max_abs_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0, s = 1;
  for (std::size_t i = 0; i < a.size(); ++i) d = std::max(d, std::fabs(a[i] - b[i])), s = std::max(s, std::fabs(b[i]));
  return d / s;
}

// Along drifting sequences, warm-started from the previous answer's active set: every answer is
// ok; w (unique for PSD M) agrees with the cold solve's, and z too where M is PD; a hit costs 0
// pivots against the cold solve's > 0 (unless q >= 0, where cold also makes none); and hits
// happen (the drift is small).
TEST(LcpWarmStart, DriftingSequencesGiveTheColdAnswerInFewerPivots) {
  std::mt19937 g(16);
  int hits = 0, steps = 0;
  long warm_pivots = 0, cold_pivots = 0;
  for (bool deficient : {false, true})
    for (int m : {2, 4, 8, 12, 16, 24})
      for (int seq = 0; seq < 4; ++seq) {
        const Drift d(g, m, deficient);
        std::vector<int> active;
        for (int step = 0; step < 30; ++step) {
          obliq::LcpProblem p = d.at(1e-3 * step);
          const obliq::LcpSolution cold = obliq::solve_lcp(p, {});
          ASSERT_EQ(cold.status, Status::ok);
          if (step > 0) {
            p.warm = active;
            const obliq::LcpSolution warm = obliq::solve_lcp(p, {});
            ASSERT_EQ(warm.status, Status::ok) << "m " << m << " step " << step;
            EXPECT_LE(max_abs_diff(warm.w, cold.w), 1e-8) << "m " << m << " step " << step;
            if (!deficient) EXPECT_LE(max_abs_diff(warm.z, cold.z), 1e-8) << "m " << m << " step " << step;
            if (warm.warm) {
              ++hits;
              EXPECT_EQ(warm.iterations, 0);
              if (!active.empty()) EXPECT_GT(cold.iterations, 0);  // active = {} is q >= 0: 0 pivots cold too
            } else {
              EXPECT_EQ(warm.z, cold.z);  // the fallback is the cold solve, bit for bit
              EXPECT_EQ(warm.iterations, cold.iterations);
            }
            warm_pivots += warm.iterations;
            cold_pivots += cold.iterations;
            ++steps;
          }
          active = obliq::lcp_active_set(cold);
        }
      }
  EXPECT_GT(hits, steps / 2) << hits << " hits in " << steps << " steps";
  EXPECT_LT(warm_pivots, cold_pivots / 2);
}

// Garbage and wrong active sets: out of range, negative, repeated, too many, every index, and
// random subsets. Wherever the warm start does not hit, the answer is the cold one bit for bit;
// where a random subset happens to be right, the answer is certified and equal to the cold one.
TEST(LcpWarmStart, WrongOrGarbageActiveSetsGiveTheColdAnswer) {
  std::mt19937 g(61);
  int misses = 0;
  for (int m : {1, 3, 6, 12, 20}) {
    const Drift d(g, m, m > 3);
    const obliq::LcpProblem base = d.at(0);
    const obliq::LcpSolution cold = obliq::solve_lcp(base, {});
    ASSERT_EQ(cold.status, Status::ok);
    std::vector<std::vector<int>> sets = {{m}, {-1}, {0, 0}, {}, std::vector<int>(std::size_t(m + 1), 0)};
    std::vector<int> all;
    for (int i = 0; i < m; ++i) all.push_back(i);
    sets.push_back(all);
    std::bernoulli_distribution coin(0.5);
    for (int k = 0; k < 20; ++k) {
      std::vector<int> s;
      for (int i = 0; i < m; ++i)
        if (coin(g)) s.push_back(i);
      sets.push_back(s);
    }
    for (const auto& s : sets) {
      obliq::LcpProblem p = base;
      p.warm = s;
      const obliq::LcpSolution r = obliq::solve_lcp(p, {});
      ASSERT_EQ(r.status, Status::ok);
      if (r.warm) {
        EXPECT_EQ(obliq::lcp_active_set(r), obliq::lcp_active_set(cold));
        EXPECT_LE(max_abs_diff(r.w, cold.w), 1e-8);
      } else {
        ++misses;
        EXPECT_EQ(r.z, cold.z);
        EXPECT_EQ(r.w, cold.w);
        EXPECT_EQ(r.iterations, cold.iterations);
      }
    }
  }
  EXPECT_GT(misses, 50);
}

// The core entry point in float and double: the solution's own active set hits with 0 pivots; a
// wrong one on a problem with no solution (M = -1, q = -1: a ray) still gives Lemke's verdict.
template <class T> class LcpWarmCore : public ::testing::Test {};
using Scalars = ::testing::Types<double, float>;
TYPED_TEST_SUITE(LcpWarmCore, Scalars);
TYPED_TEST(LcpWarmCore, OwnActiveSetHitsAndInfeasibleStaysInfeasible) {
  using T = TypeParam;
  std::vector<T> M = {2, 1, 0, 1, 2, 0, 0, 0, 1}, q = {-3, -3, 1}, z(3), w(3);
  std::vector<T> scratch(obliq::lcp::solve_workspace<T>(3));
  Arena<T> a{scratch.data(), scratch.size()};
  const int right[] = {0, 1}, wrong[] = {2};
  bool hit = false;
  auto r = obliq::lcp::solve_warm<T>(MatView<const T>{M.data(), 3, 3, 3, 1}, VecView<const T>{q.data(), 3, 1},
                                     VecView<T>{z.data(), 3, 1}, VecView<T>{w.data(), 3, 1}, a, Solver::lemke, right, 2,
                                     &hit);
  EXPECT_EQ(r.status, Status::ok);
  EXPECT_TRUE(hit);
  EXPECT_EQ(r.iterations, 0);
  EXPECT_NEAR(z[0], T(1), T(1e-6));
  EXPECT_NEAR(z[1], T(1), T(1e-6));
  EXPECT_EQ(z[2], T(0));
  r = obliq::lcp::solve_warm<T>(MatView<const T>{M.data(), 3, 3, 3, 1}, VecView<const T>{q.data(), 3, 1},
                                VecView<T>{z.data(), 3, 1}, VecView<T>{w.data(), 3, 1}, a, Solver::lemke, wrong, 1, &hit);
  EXPECT_EQ(r.status, Status::ok);
  EXPECT_FALSE(hit);
  EXPECT_GT(r.iterations, 0);
  EXPECT_NEAR(z[0], T(1), T(1e-6));
  std::vector<T> Mn = {-1}, qn = {-1}, zn(1), wn(1);
  const int one[] = {0};
  r = obliq::lcp::solve_warm<T>(MatView<const T>{Mn.data(), 1, 1, 1, 1}, VecView<const T>{qn.data(), 1, 1},
                                VecView<T>{zn.data(), 1, 1}, VecView<T>{wn.data(), 1, 1}, a, Solver::lemke, one, 1, &hit);
  EXPECT_EQ(r.status, Status::lcp_ray);  // z = 1 gives w = -2: not certified, so Lemke's ray
  EXPECT_FALSE(hit);
}

}  // namespace

// tests/lcp/random_classes_test.cpp: random problems from classes that break naive solvers, each
// with its verdict known independently (by construction, or by the brute-force oracle of
// oracle.hpp), run through the core solvers in double and float.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "obliq/core/lcp/select.hpp"
#include "oracle.hpp"

namespace {

using lcp_test::Mat;
using lcp_test::Vec;
using obliq::Status;
using obliq::lcp::Solver;

// Runs one core solver in precision T on (M, q); returns the result, z (as double) in *z.
template <class T>
obliq::lcp::Result<T> run(const Mat& M, const Vec& q, Solver solver, Vec* z_out, int budget = 0,
                          Solver* used = nullptr) {
  const int m = int(q.size());
  const std::size_t mm = std::size_t(m);
  std::vector<T> Mr(mm * mm), qv(mm), z(mm), w(mm);
  for (int i = 0; i < m; ++i) {
    qv[std::size_t(i)] = T(q(i));
    for (int j = 0; j < m; ++j) Mr[std::size_t(i * m + j)] = T(M(i, j));
  }
  std::vector<T> scratch(obliq::lcp::solve_workspace<T>(m) + 1);
  obliq::Arena<T> arena{scratch.data(), scratch.size() - 1};
  scratch.back() = T(12345);  // guard: the solver must stay inside its workspace
  const auto r = obliq::lcp::solve<T>(obliq::MatView<const T>{Mr.data(), m, m, m, 1},
                                      obliq::VecView<const T>{qv.data(), m, 1}, obliq::VecView<T>{z.data(), m, 1},
                                      obliq::VecView<T>{w.data(), m, 1}, arena, solver, budget, used);
  EXPECT_EQ(scratch.back(), T(12345));
  EXPECT_EQ(arena.used, 0u);  // scratch handed back
  if (z_out) {
    z_out->resize(m);
    for (int i = 0; i < m; ++i) (*z_out)(i) = double(z[std::size_t(i)]);
  }
  return r;
}

// The acceptance rule of certificate.hpp, recomputed independently on the problem as the
// solver saw it (rounded to T).
template <class T> bool certified(const Mat& M, const Vec& q, const Vec& z) {
  const Mat Mt = M.cast<T>().template cast<double>();
  const Vec qt = q.cast<T>().template cast<double>();
  const double tol = std::is_same_v<T, double> ? 1e-9 : 1e-4;
  // plus the rounding of evaluating w in T
  return lcp_test::row_certificate(Mt, qt, z, std::numeric_limits<T>::epsilon() / tol) <=
         tol + 8 * Mt.rows() * std::numeric_limits<T>::epsilon();
}

// Positive definite contact matrices: every exact solver and PGS solve them, and all agree with
// the unique solution built in.
TEST(RandomClasses, PositiveDefiniteContactLcpAllSolvers) {
  std::mt19937 g(11);
  for (int t = 0; t < 300; ++t) {
    const int m = 2 + t % 11;
    const Mat M = lcp_test::contact_matrix(g, m, m + 3, m);
    Vec zstar;
    const Vec q = lcp_test::feasible_q(g, M, 0.2, &zstar);
    for (Solver s : {Solver::lemke, Solver::pivot, Solver::enumerate, Solver::automatic, Solver::pgs}) {
      Vec z;
      const auto r = run<double>(M, q, s, &z, s == Solver::pgs ? 100000 : 0);
      ASSERT_EQ(r.status, Status::ok) << "t " << t << " solver " << obliq::lcp::solver_name(s);
      EXPECT_TRUE(certified<double>(M, q, z));
      // Unique solution (PD): the built-in one.
      if (s != Solver::pgs) EXPECT_LE((z - zstar).cwiseAbs().maxCoeff(), 1e-7 * (1 + zstar.cwiseAbs().maxCoeff()));
    }
    Vec zf;
    const auto rf = run<float>(M, q, Solver::lemke, &zf);
    EXPECT_EQ(rf.status, Status::ok) << "float t " << t;
    EXPECT_TRUE(certified<float>(M, q, zf));
  }
}

// Rank-deficient contact matrices (redundant contacts: W PSD, singular) with degenerate
// solutions: Lemke processes PSD matrices, so a feasible one must be solved (double: always).
TEST(RandomClasses, RankDeficientDegenerateContactLcpLemke) {
  std::mt19937 g(12);
  int float_ok = 0, float_runs = 0;
  for (int t = 0; t < 600; ++t) {
    const int m = 2 + t % 23;
    const int rank = std::max(1, m / 2 - t % 3);
    const Mat M = lcp_test::contact_matrix(g, m, rank + 2, rank);
    const Vec q = lcp_test::feasible_q(g, M, 0.3);
    Vec z;
    const auto r = run<double>(M, q, Solver::lemke, &z);
    ASSERT_EQ(r.status, Status::ok) << "t " << t << " m " << m << " rank " << rank;
    EXPECT_TRUE(certified<double>(M, q, z));
    const auto ra = run<double>(M, q, Solver::automatic, &z);
    EXPECT_EQ(ra.status, Status::ok);
    // float: the rounded W is no longer exactly singular and can be very ill-conditioned;
    // whatever is reported ok must be certified, and almost all must be ok.
    Vec zf;
    const auto rf = run<float>(M, q, Solver::lemke, &zf);
    ++float_runs;
    if (rf.status == Status::ok) {
      ++float_ok;
      EXPECT_TRUE(certified<float>(M, q, zf)) << "float t " << t;
    } else {
      EXPECT_TRUE(rf.status == Status::no_convergence || rf.status == Status::lcp_ray) << int(rf.status);
    }
  }
  EXPECT_GE(float_ok, float_runs * 98 / 100);
}

// Fully degenerate: q = 0 and q with zero entries on active rows; zero rows of M.
TEST(RandomClasses, ZeroRowsAndDegenerateQ) {
  std::mt19937 g(13);
  std::normal_distribution<double> N;
  for (int t = 0; t < 200; ++t) {
    const int m = 2 + t % 8;
    Mat M = lcp_test::contact_matrix(g, m, m + 2, m);
    const int zr = t % m;
    M.row(zr).setZero();
    M.col(zr).setZero();  // keeps M PSD
    Vec q = lcp_test::feasible_q(g, M, 0.3);
    // Row zr reads w_zr = q_zr: feasible iff q_zr >= 0.
    const bool feasible = t % 2 == 0;
    q(zr) = feasible ? std::fabs(N(g)) * (t % 4 == 0 ? 0.0 : 1.0) : -0.5 - std::fabs(N(g));
    EXPECT_EQ(lcp_test::enumerate_solutions(M, q) > 0, feasible) << "oracle, t " << t;
    for (Solver s : {Solver::lemke, Solver::automatic}) {
      Vec z;
      const auto r = run<double>(M, q, s, &z);
      if (feasible) {
        EXPECT_EQ(r.status, Status::ok) << "t " << t;
        EXPECT_TRUE(certified<double>(M, q, z));
      } else {
        EXPECT_EQ(r.status, Status::lcp_ray) << "t " << t << " " << obliq::lcp::solver_name(s);
      }
    }
  }
  // q = 0: z = 0 at once.
  Vec z;
  const auto r = run<double>(Mat::Identity(3, 3), Vec::Zero(3), Solver::lemke, &z);
  EXPECT_EQ(r.status, Status::ok);
  EXPECT_EQ(r.iterations, 0);
  EXPECT_EQ(z.cwiseAbs().maxCoeff(), 0.0);
}

// Copositive-plus but not PSD-symmetric: M = PSD + skew-symmetric (a monotone LCP, e.g. the KKT
// matrix of a convex QP). Feasible ones must be solved by Lemke.
TEST(RandomClasses, CopositivePlusNonsymmetric) {
  std::mt19937 g(14);
  std::normal_distribution<double> N;
  for (int t = 0; t < 300; ++t) {
    const int m = 2 + t % 12;
    Mat S(m, m);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < m; ++j) S(i, j) = N(g);
    const Mat P = lcp_test::contact_matrix(g, m, m + 1, std::max(1, m - t % 3));
    const Mat M = P + (S - S.transpose());
    const Vec q = lcp_test::feasible_q(g, M, 0.2);
    Vec z;
    const auto r = run<double>(M, q, Solver::lemke, &z);
    ASSERT_EQ(r.status, Status::ok) << "t " << t;
    EXPECT_TRUE(certified<double>(M, q, z));
  }
}

// Infeasible PSD problems: contacts i and j with opposite normals (a_j = -a_i) give y = e_i + e_j
// in the null space of W; q_i + q_j < 0 then rules out any w >= 0 (y^T w = y^T q < 0). Lemke
// must end on a secondary ray; enumeration finds no basis; auto reports failure.
TEST(RandomClasses, InfeasibleOpposingContacts) {
  std::mt19937 g(15);
  std::normal_distribution<double> N;
  for (int t = 0; t < 200; ++t) {
    const int m = 2 + t % 9, n = m + 2;
    Mat B(n, n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) B(i, j) = N(g);
    const Mat Mass = B * B.transpose() + n * Mat::Identity(n, n);
    Mat A(m, n);
    for (int i = 0; i < m; ++i)
      for (int k = 0; k < n; ++k) A(i, k) = N(g);
    const int i0 = t % m, j0 = (t + 1) % m;
    A.row(j0) = -A.row(i0);
    Mat W = A * Mass.llt().solve(A.transpose());
    W = 0.5 * (W + W.transpose());
    Vec q(m);
    for (int i = 0; i < m; ++i) q(i) = N(g);
    q(j0) = -q(i0) - 0.1 - std::fabs(N(g));
    EXPECT_EQ(lcp_test::enumerate_solutions(W, q), 0) << "oracle, t " << t;
    Vec z;
    EXPECT_EQ(run<double>(W, q, Solver::lemke, &z).status, Status::lcp_ray) << "t " << t;
    EXPECT_EQ(run<float>(W, q, Solver::lemke, &z).status, Status::lcp_ray) << "float t " << t;
    EXPECT_EQ(run<double>(W, q, Solver::enumerate, &z).status, Status::infeasible) << "t " << t;
    EXPECT_NE(run<double>(W, q, Solver::automatic, &z).status, Status::ok);
    EXPECT_NE(run<double>(W, q, Solver::pgs, &z, 2000).status, Status::ok);
  }
}

// P-matrices that are not symmetric (diagonally dominant with random signs): unique solution;
// principal pivoting, Lemke and enumeration agree with the oracle.
TEST(RandomClasses, NonsymmetricPMatrices) {
  std::mt19937 g(16);
  std::normal_distribution<double> N;
  for (int t = 0; t < 200; ++t) {
    const int m = 2 + t % 9;
    Mat M(m, m);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < m; ++j) M(i, j) = N(g);
    for (int i = 0; i < m; ++i) M(i, i) = M.row(i).cwiseAbs().sum() + 0.5;  // strictly row-dominant, positive diagonal: P
    Vec q(m);
    for (int i = 0; i < m; ++i) q(i) = N(g);
    Vec zo;
    ASSERT_EQ(lcp_test::enumerate_solutions(M, q, &zo), 1) << "t " << t;
    for (Solver s : {Solver::pivot, Solver::lemke, Solver::enumerate}) {
      Vec z;
      ASSERT_EQ(run<double>(M, q, s, &z).status, Status::ok) << obliq::lcp::solver_name(s) << " t " << t;
      EXPECT_LE((z - zo).cwiseAbs().maxCoeff(), 1e-9 * (1 + zo.cwiseAbs().maxCoeff()));
    }
  }
}

}  // namespace

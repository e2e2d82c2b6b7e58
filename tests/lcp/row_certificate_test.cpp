// tests/lcp/row_certificate_test.cpp: the per-row LCP acceptance of core/lcp/certificate.hpp.
// Each row of w = M z + q is judged against its own scale |q_i| + sum_j |M_ij z_j| (plus z's rounding floor), so a large
// number in one row never hides a violation in another (issue 9).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "obliq/core/lcp/select.hpp"

namespace {

using obliq::Arena;
using obliq::MatView;
using obliq::Status;
using obliq::VecView;
using obliq::lcp::Solver;

template <class T> T cert(int m, const std::vector<T>& M, const std::vector<T>& q, const std::vector<T>& z) {
  return obliq::lcp::lcp_certificate<T>(MatView<const T>{M.data(), m, m, m, 1}, VecView<const T>{q.data(), m, 1},
                                        VecView<const T>{z.data(), m, 1});
}

template <class T> class RowCertificate : public ::testing::Test {};
using Scalars = ::testing::Types<double, float>;
TYPED_TEST_SUITE(RowCertificate, Scalars);

// Issue 9's example: M = I, q = (-2, 1e10). z = 0 leaves w_1 = -2 < 0 (rejected, whatever row 2
// holds); the solution is z = (2, 0), w = (0, 1e10).
TYPED_TEST(RowCertificate, OneRowsLargeNumberHidesNothing) {
  using T = TypeParam;
  const std::vector<T> M{1, 0, 0, 1}, q{-2, T(1e10)};
  const std::vector<T> zero{0, 0};
  EXPECT_FALSE(obliq::lcp::lcp_accept<T>({M.data(), 2, 2, 2, 1}, {q.data(), 2, 1}, {zero.data(), 2, 1}));
  EXPECT_EQ(cert<T>(2, M, q, {0, 0}), T(1));  // w_1 = -2 against s_1 = 2
  EXPECT_EQ(cert<T>(2, M, q, {2, 0}), T(0));
  for (Solver s : {Solver::lemke, Solver::pivot, Solver::pgs, Solver::enumerate, Solver::automatic}) {
    std::vector<T> z(2), w(2), scratch(obliq::lcp::solve_workspace<T>(2));
    Arena<T> a{scratch.data(), scratch.size()};
    const auto r = obliq::lcp::solve<T>({M.data(), 2, 2, 2, 1}, {q.data(), 2, 1}, {z.data(), 2, 1}, {w.data(), 2, 1}, a, s);
    ASSERT_EQ(r.status, Status::ok) << obliq::lcp::solver_name(s);
    EXPECT_NEAR(z[0], T(2), T(1e-3)) << obliq::lcp::solver_name(s);
    EXPECT_EQ(z[1], T(0)) << obliq::lcp::solver_name(s);
  }
}

// Deliberately perturbed solutions are rejected: seed 004 (W = [[2,1],[1,2]], b = (-3,-3),
// z = (1, 1)) with z moved by 1e-6 (double) / 1e-2 (float), a negative z, and a complementarity
// break (z_1 > 0 while w_1 > 0).
TYPED_TEST(RowCertificate, PerturbedSolutionsAreRejected) {
  using T = TypeParam;
  const std::vector<T> M{2, 1, 1, 2}, q{-3, -3};
  const T d = std::is_same_v<T, double> ? T(1e-6) : T(1e-2);
  EXPECT_EQ(cert<T>(2, M, q, {1, 1}), T(0));
  EXPECT_GT(cert<T>(2, M, q, {1 + d, 1}), obliq::lcp::lcp_tolerance<T>::rel);
  EXPECT_GT(cert<T>(2, M, q, {1, 1 - d}), obliq::lcp::lcp_tolerance<T>::rel);
  EXPECT_GT(cert<T>(2, M, q, {-d, 3}), obliq::lcp::lcp_tolerance<T>::rel);
  // q = (1, -3): solution z = (0, 1.5), w = (2.5, 0). z = (0.5, 1.25) has w = (3.25, 0): row 1
  // pushes (z_1 = 0.5) while separating (w_1 = 3.25).
  const std::vector<T> q2{1, -3};
  EXPECT_EQ(cert<T>(2, M, q2, {0, 1.5}), T(0));
  EXPECT_GT(cert<T>(2, M, q2, {0.5, 1.25}), obliq::lcp::lcp_tolerance<T>::rel);
}

// The verdict does not depend on the scale of a row of (M, q), from 2^-1000 to 2^1000.
TEST(RowCertificate, InvariantUnderRowScaling) {
  const std::vector<double> M{2, 1, 1, 2}, q{-3, -3};
  const double r0 = cert<double>(2, M, q, {1 + 1e-7, 1});
  EXPECT_GT(r0, 1e-9);
  for (int k = -1000; k <= 1000; k += 100) {
    const double S = std::ldexp(1.0, k);
    const std::vector<double> Ms{2 * S, 1 * S, 1, 2}, qs{-3 * S, -3};
    EXPECT_NEAR(cert<double>(2, Ms, qs, {1 + 1e-7, 1}), r0, 1e-9 * r0) << k;
  }
}

// Blocks (friction/pyramid.hpp): rows 1..3 are one contact's velocity along three directions, a
// separating contact (w_1 = 0.05) whose other rows are rounding noise of either sign. Row by row
// the noise fails on its own noise-sized scale; judged with its block it is zero to rounding. A
// real violation in a block (1e-3 of 0.05) is still rejected, and a block never lends its scale
// to a row outside it.
TEST(RowCertificate, BlocksShareTheirLargestScale) {
  const std::vector<double> M{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  const std::vector<double> noise{0.05, -1e-14, 2e-14, -1e-14}, real{0.05, -1e-3, 0, 0}, apart{0.05, 0, 0, -1e-14};
  const std::vector<double> z(4, 0.0);
  const auto blocks = [](int i) { return i == 0 ? 3 : i + 1; };  // rows {0, 1, 2}, {3}
  const auto certb = [&](const std::vector<double>& q) {
    return obliq::lcp::lcp_certificate<double>({M.data(), 4, 4, 4, 1}, {q.data(), 4, 1}, {z.data(), 4, 1}, blocks);
  };
  EXPECT_EQ(cert<double>(4, M, noise, z), 1.0);  // row 1: w = -1e-14 against s = 1e-14
  EXPECT_EQ(certb(noise), 1.0);                  // row 3 is a block of its own: still rejected
  const std::vector<double> noise3{0.05, -1e-14, 2e-14, 0};
  EXPECT_LE(certb(noise3), 2e-13);  // rows 1, 2 against 0.05
  EXPECT_TRUE(obliq::lcp::lcp_accept<double>({M.data(), 4, 4, 4, 1}, {noise3.data(), 4, 1}, {z.data(), 4, 1}, blocks));
  EXPECT_EQ(certb(real), 1e-3 / 0.05);
  EXPECT_EQ(certb(apart), 1.0);  // row 3 is outside the block of row 0's 0.05
}

}  // namespace

// lcp_residual_certificate (one pass over M) gives w, the residual and the certificate of the
// two separate calls to the bit, on random z of every kind (negative entries, rounding residue,
// NaN, a complementary solution, nonsymmetric and zero-diagonal M); its residual also matches a
// min-map computed here in long double to the rounding of w.
TYPED_TEST(RowCertificate, FusedPassEqualsTheTwoPasses) {
  using T = TypeParam;
  std::mt19937_64 rng(11);
  std::normal_distribution<double> N;
  const auto bits = [](T a, T b) { return std::memcmp(&a, &b, sizeof(T)) == 0; };
  int accepted = 0, rejected = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const int m = 1 + trial % 9;
    const std::size_t mm = std::size_t(m);
    std::vector<T> M(mm * mm), q(mm), z(mm), w1(mm), w2(mm);
    for (auto& x : M) x = T(N(rng));
    if (trial % 5 == 0)
      for (int i = 0; i < m; ++i) M[std::size_t(i * m + i)] = 0;
    for (int i = 0; i < m; ++i) {
      q[std::size_t(i)] = T(N(rng));
      const int kind = int(rng() % 6);
      z[std::size_t(i)] = kind == 0 ? T(0) : kind == 1 ? T(-1e-3 * std::abs(N(rng))) : kind == 2 ? T(1e-30) : T(std::abs(N(rng)));
    }
    if (trial % 7 == 0) {  // a solution: M = I, z = max(-q, 0)
      std::fill(M.begin(), M.end(), T(0));
      for (int i = 0; i < m; ++i) M[std::size_t(i * m + i)] = 1, z[std::size_t(i)] = std::max(-q[std::size_t(i)], T(0));
    }
    if (trial % 97 == 0) z[0] = std::numeric_limits<T>::quiet_NaN();
    const MatView<const T> Mv{M.data(), m, m, m, 1};
    const VecView<const T> qv{q.data(), m, 1}, zv{z.data(), m, 1};
    const T r1 = obliq::lcp::lcp_residual<T>(Mv, qv, zv, {w1.data(), m, 1});
    const T c1 = obliq::lcp::lcp_certificate<T>(Mv, qv, zv);
    T r2 = 0;
    const T c2 = obliq::lcp::lcp_residual_certificate<T>(Mv, qv, zv, {w2.data(), m, 1}, r2);
    EXPECT_TRUE(bits(c1, c2)) << c1 << " " << c2;
    EXPECT_TRUE(bits(r1, r2) || (std::isnan(r1) && std::isnan(r2))) << r1 << " " << r2;
    for (int i = 0; i < m; ++i) EXPECT_TRUE(bits(w1[std::size_t(i)], w2[std::size_t(i)]) || std::isnan(w1[std::size_t(i)]));
    if (std::isnan(double(z[0]))) {
      EXPECT_TRUE(std::isnan(r2));
      EXPECT_EQ(c2, std::numeric_limits<T>::infinity());
      continue;
    }
    long double r = 0, size = 0;
    for (int i = 0; i < m; ++i) {
      long double wi = q[std::size_t(i)], si = std::abs(q[std::size_t(i)]);
      for (int j = 0; j < m; ++j) {
        wi += (long double)M[std::size_t(i * m + j)] * z[std::size_t(j)];
        si += std::abs((long double)M[std::size_t(i * m + j)] * z[std::size_t(j)]);
      }
      r = std::max(r, std::abs(std::min((long double)z[std::size_t(i)], wi)));
      size = std::max(size, si);
    }
    EXPECT_LE(std::abs((long double)r2 - r), 16 * m * std::numeric_limits<T>::epsilon() * size);
    (obliq::lcp::lcp_accepted(c2) ? accepted : rejected)++;
  }
  EXPECT_GT(accepted, 100);
  EXPECT_GT(rejected, 100);
}

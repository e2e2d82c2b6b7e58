// tests/core/mass_factor_test.cpp: the factor of M along the kinematic tree and its products
// (core/mechanics/mass_factor.hpp, docs/math.md (M1)-(M3)). Oracles: a lower-triangular L with
// the tree's pattern drawn here, M = L^T L formed here (the LTL factor with a positive diagonal
// is unique, so factor_mass must give L back), and Eigen's dense solves and products.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "obliq/core/mechanics/mass_factor.hpp"

namespace {

using namespace obliq;
template <class T> using RowMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T> using Vec = Eigen::Matrix<T, Eigen::Dynamic, 1>;

template <class T> MatView<const T> cview(const RowMat<T>& A) { return {A.data(), int(A.rows()), int(A.cols()), A.cols(), 1}; }
template <class T> MatView<T> view(RowMat<T>& A) { return {A.data(), int(A.rows()), int(A.cols()), A.cols(), 1}; }
template <class T> VecView<T> view(Vec<T>& v) { return {v.data(), int(v.size()), 1}; }
template <class T> VecView<const T> cview(const Vec<T>& v) { return {v.data(), int(v.size()), 1}; }

// A random tree numbered parents first: a floating base (a chain of 6) with branches, or a
// forest, as the model layer's trees are.
std::vector<int> random_tree(std::mt19937_64& rng, int n) {
  std::vector<int> parent(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    if (i == 0) parent[0] = -1;
    else if (i < 6 && n > 8) parent[std::size_t(i)] = i - 1;  // the free-flyer's chain
    else if (rng() % 8 == 0) parent[std::size_t(i)] = -1;     // a second root (a forest)
    else if (rng() % 3 == 0) parent[std::size_t(i)] = int(rng() % std::uint64_t(i));  // a branch
    else parent[std::size_t(i)] = i - 1;                      // a chain
  }
  return parent;
}

bool is_ancestor(const std::vector<int>& parent, int a, int k) {
  for (int i = parent[std::size_t(k)]; i >= 0; i = parent[std::size_t(i)])
    if (i == a) return true;
  return false;
}

// L lower triangular with the tree's pattern, diagonal in [1, 3].
template <class T> RowMat<T> random_tree_L(std::mt19937_64& rng, const std::vector<int>& parent) {
  const int n = int(parent.size());
  std::uniform_real_distribution<double> u(-1, 1), d(1, 3);
  RowMat<T> L = RowMat<T>::Zero(n, n);
  for (int k = 0; k < n; ++k) {
    L(k, k) = T(d(rng));
    for (int i = 0; i < k; ++i)
      if (is_ancestor(parent, i, k)) L(k, i) = T(u(rng));
  }
  return L;
}

template <class T> class MassFactorTest : public ::testing::Test {};
using Scalars = ::testing::Types<double, float>;
TYPED_TEST_SUITE(MassFactorTest, Scalars);

// (M1): the factor of M = L^T L is L itself, with no entry off the pattern; (M2): every product
// against Eigen on the same M.
TYPED_TEST(MassFactorTest, TreeFactorIsTheUniqueLtlAndItsProductsMatchEigen) {
  using T = TypeParam;
  const double tol = std::is_same_v<T, double> ? 1e-11 : 2e-4;
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 1 + int(rng() % 40);
    const std::vector<int> parent = random_tree(rng, n);
    const RowMat<T> L0 = random_tree_L<T>(rng, parent);
    const RowMat<T> M = (L0.transpose() * L0).eval();
    RowMat<T> storage(n, n);
    MassFactor<T> f;
    ASSERT_TRUE(factor_mass(cview(M), parent.data(), view(storage), f)) << trial;
    ASSERT_TRUE(f.tree()) << trial;
    for (int k = 0; k < n; ++k)
      for (int i = 0; i < n; ++i) {
        if (i == k || (i < k && is_ancestor(parent, i, k)))
          EXPECT_NEAR(double(storage(k, i)), double(L0(k, i)), tol * 3) << trial << " " << k << "," << i;
        else
          EXPECT_EQ(storage(k, i), T(0)) << "fill-in at " << k << "," << i << " trial " << trial;
      }
    Vec<T> x = Vec<T>::Random(n), y = x;
    const Eigen::Matrix<T, -1, -1> Ld = L0;
    whiten(f, view(y));  // F^-1 x = L^-T x
    const Vec<T> want_w = Ld.transpose().template triangularView<Eigen::Upper>().solve(x);
    EXPECT_LE(double((y - want_w).norm()), tol * (1 + double(want_w.norm()))) << trial;
    y = x;
    unwhiten(f, view(y));  // F^-T x = L^-1 x
    const Vec<T> want_u = Ld.template triangularView<Eigen::Lower>().solve(x);
    EXPECT_LE(double((y - want_u).norm()), tol * (1 + double(want_u.norm()))) << trial;
    y = x;
    solve_mass(f, view(y));
    const Vec<T> want_s = M.llt().solve(x);
    EXPECT_LE(double((y - want_s).norm()), 10 * tol * (1 + double(want_s.norm()))) << trial;
    Vec<T> z(n);
    times_factor(f, cview(x), view(z));  // F x = L^T x
    EXPECT_LE(double((z - Ld.transpose() * x).norm()), tol * (1 + double(x.norm()) * double(Ld.norm()))) << trial;
    const double ke = 0.5 * double(x.dot(M * x));
    EXPECT_NEAR(double(kinetic_energy(f, cview(x))), ke, tol * (1 + ke)) << trial;
  }
}

// Without a tree the factor is dense::cholesky's, bit for bit, and so is every product.
TYPED_TEST(MassFactorTest, DenseFactorIsTheCholeskyBitForBit) {
  using T = TypeParam;
  std::mt19937_64 rng(8);
  for (int trial = 0; trial < 50; ++trial) {
    const int n = 1 + int(rng() % 30);
    const RowMat<T> B = RowMat<T>::Random(n, n);
    const RowMat<T> M = (B * B.transpose() + RowMat<T>::Identity(n, n)).eval();
    RowMat<T> L = M, storage(n, n);
    ASSERT_TRUE(dense::cholesky(view(L)));
    MassFactor<T> f;
    ASSERT_TRUE(factor_mass(cview(M), nullptr, view(storage), f));
    EXPECT_FALSE(f.tree());
    EXPECT_EQ(std::memcmp(L.data(), storage.data(), sizeof(T) * std::size_t(n * n)), 0) << trial;
    Vec<T> x = Vec<T>::Random(n), a = x, b = x;
    whiten(f, view(a));
    dense::solve_lower(cview(L), view(b));
    EXPECT_EQ(std::memcmp(a.data(), b.data(), sizeof(T) * std::size_t(n)), 0) << trial;
    unwhiten(f, view(a));
    dense::solve_lower_transpose(cview(L), view(b));
    EXPECT_EQ(std::memcmp(a.data(), b.data(), sizeof(T) * std::size_t(n)), 0) << trial;
  }
}

// (M3): an M with one entry off the tree's pattern, or an invalid parent array, takes the dense
// factor, whose answers are right (against Eigen).
TYPED_TEST(MassFactorTest, OffPatternOrInvalidTreeFallsBackToDense) {
  using T = TypeParam;
  const double tol = std::is_same_v<T, double> ? 1e-11 : 2e-4;
  std::mt19937_64 rng(9);
  int off_pattern = 0;
  for (int trial = 0; trial < 100; ++trial) {
    const int n = 3 + int(rng() % 20);
    std::vector<int> parent = random_tree(rng, n);
    RowMat<T> M = [&] {
      const RowMat<T> L0 = random_tree_L<T>(rng, parent);
      return RowMat<T>((L0.transpose() * L0).eval());
    }();
    // Find a pair (k, i) off the pattern; make M dense there (still SPD: add a small coupling).
    int k = -1, i = -1;
    for (int a = 1; a < n && k < 0; ++a)
      for (int b = 0; b < a; ++b)
        if (!is_ancestor(parent, b, a)) {
          k = a, i = b;
          break;
        }
    if (trial % 2 == 0) {
      if (k < 0) continue;  // a pure chain has no pair off the pattern
      M(k, i) = M(i, k) = T(0.01) * std::sqrt(M(k, k) * M(i, i));
      ++off_pattern;
    } else {
      parent[std::size_t(n - 1)] = n - 1;  // a node its own parent: not a numbering parents first
    }
    RowMat<T> storage(n, n);
    MassFactor<T> f;
    ASSERT_TRUE(factor_mass(cview(M), parent.data(), view(storage), f)) << trial;
    EXPECT_FALSE(f.tree()) << trial;
    Vec<T> x = Vec<T>::Random(n), y = x;
    solve_mass(f, view(y));
    const Vec<T> want = M.llt().solve(x);
    EXPECT_LE(double((y - want).norm()), 10 * tol * (1 + double(want.norm()))) << trial;
  }
  EXPECT_GT(off_pattern, 20);
}

// A matrix that is not positive definite is refused on both paths.
TYPED_TEST(MassFactorTest, NotPositiveDefiniteRefused) {
  using T = TypeParam;
  const std::vector<int> chain{-1, 0, 1};
  RowMat<T> M(3, 3);
  M << 1, 0.5, 0, 0.5, 1, 2, 0, 2, 1;  // a chain's pattern, indefinite
  RowMat<T> storage(3, 3);
  MassFactor<T> f;
  EXPECT_FALSE(factor_mass(cview(M), chain.data(), view(storage), f));
  EXPECT_FALSE(factor_mass(cview(M), static_cast<const int*>(nullptr), view(storage), f));
  M(2, 2) = std::numeric_limits<T>::quiet_NaN();
  EXPECT_FALSE(factor_mass(cview(M), chain.data(), view(storage), f));
}

}  // namespace

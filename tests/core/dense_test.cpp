// Unit tests of the tiny dense kernels against Eigen's decompositions.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <random>
#include <vector>

#include "obliq/core/dense/cholesky.hpp"
#include "obliq/core/dense/svd.hpp"
#include "obliq/core/dense/symmetric_eigen.hpp"

using namespace obliq;
using RowMatd = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

namespace {
RowMatd random_matrix(std::mt19937_64& rng, int r, int c) {
  std::normal_distribution<double> g;
  RowMatd A(r, c);
  for (int i = 0; i < r; ++i)
    for (int j = 0; j < c; ++j) A(i, j) = g(rng);
  return A;
}
MatView<double> view(RowMatd& A) { return mat_view(A.data(), int(A.rows()), int(A.cols())); }
}  // namespace

TEST(Cholesky, MatchesEigenAndSolves) {
  std::mt19937_64 rng(1);
  for (int n : {1, 2, 5, 12, 40}) {
    RowMatd B = random_matrix(rng, n, n);
    RowMatd A = B * B.transpose() + n * RowMatd::Identity(n, n);
    RowMatd L = A;
    ASSERT_TRUE(dense::cholesky(view(L)));
    Eigen::MatrixXd Le = Eigen::LLT<Eigen::MatrixXd>(A).matrixL();
    EXPECT_LE((L - RowMatd(Le)).cwiseAbs().maxCoeff(), 1e-12 * A.cwiseAbs().maxCoeff());
    Eigen::VectorXd b = Eigen::VectorXd::Random(n), x = b;
    dense::cholesky_solve(view(L).as_const(), vec_view(x.data(), n));
    EXPECT_LE((A * x - b).norm(), 1e-10 * b.norm() * A.norm());
  }
}

TEST(Cholesky, DetectsIndefiniteAndNaN) {
  RowMatd A(2, 2);
  A << 1, 2, 2, 1;  // eigenvalues 3, -1
  EXPECT_FALSE(dense::cholesky(view(A)));
  RowMatd Z = RowMatd::Zero(3, 3);
  EXPECT_FALSE(dense::cholesky(view(Z)));
  RowMatd N = RowMatd::Identity(2, 2);
  N(1, 1) = std::nan("");
  EXPECT_FALSE(dense::cholesky(view(N)));
}

TEST(Svd, ReconstructsAndMatchesEigenSingularValues) {
  std::mt19937_64 rng(2);
  for (auto [m, n] : std::vector<std::pair<int, int>>{{1, 1}, {3, 6}, {6, 3}, {4, 12}, {24, 40}, {24, 10}}) {
    RowMatd A = random_matrix(rng, m, n);
    std::vector<double> ws(dense::svd_workspace<double>(m, n));
    Arena<double> arena{ws.data(), ws.size()};
    dense::Svd<double> svd;
    ASSERT_EQ(dense::svd(view(A).as_const(), svd, arena), Status::ok);
    Eigen::JacobiSVD<Eigen::MatrixXd> ref(A);
    const int r = std::min(m, n);
    EXPECT_EQ(svd.rank, r);
    for (int i = 0; i < r; ++i) EXPECT_NEAR(svd.s[i], ref.singularValues()[i], 1e-12 * ref.singularValues()[0]);
    // A = U_r diag(s) V_r^T, U orthogonal, V_r orthonormal columns.
    RowMatd Ar = RowMatd::Zero(m, n);
    for (int k = 0; k < svd.rank; ++k)
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) Ar(i, j) += svd.U(i, k) * svd.s[k] * svd.V(j, k);
    EXPECT_LE((Ar - A).cwiseAbs().maxCoeff(), 1e-12 * A.cwiseAbs().maxCoeff() * std::max(m, n));
    RowMatd U(m, m);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < m; ++j) U(i, j) = svd.U(i, j);
    EXPECT_LE((U.transpose() * U - RowMatd::Identity(m, m)).cwiseAbs().maxCoeff(), 1e-13 * m);
  }
}

TEST(Svd, RankDeficientAndEmpty) {
  std::mt19937_64 rng(3);
  RowMatd B = random_matrix(rng, 3, 8);
  RowMatd A(5, 8);
  A << B, B.row(0) + B.row(1), 2.0 * B.row(2);  // rank 3
  std::vector<double> ws(dense::svd_workspace<double>(5, 8));
  Arena<double> arena{ws.data(), ws.size()};
  dense::Svd<double> svd;
  ASSERT_EQ(dense::svd(view(A).as_const(), svd, arena), Status::ok);
  EXPECT_EQ(svd.rank, 3);
  RowMatd Z = RowMatd::Zero(2, 4);
  Arena<double> a2{ws.data(), ws.size()};
  ASSERT_EQ(dense::svd(view(Z).as_const(), svd, a2), Status::ok);
  EXPECT_EQ(svd.rank, 0);
  RowMatd E(0, 4);
  Arena<double> a3{ws.data(), ws.size()};
  ASSERT_EQ(dense::svd(view(E).as_const(), svd, a3), Status::ok);
  EXPECT_EQ(svd.rank, 0);
}

TEST(Svd, FloatRank) {
  std::mt19937_64 rng(4);
  RowMatd B = random_matrix(rng, 2, 6);
  Eigen::Matrix<float, 3, 6, Eigen::RowMajor> A;
  A << B.cast<float>(), (B.row(0) - B.row(1)).cast<float>();
  std::vector<float> ws(dense::svd_workspace<float>(3, 6));
  Arena<float> arena{ws.data(), ws.size()};
  dense::Svd<float> svd;
  ASSERT_EQ(dense::svd(mat_view<const float>(A.data(), 3, 6), svd, arena), Status::ok);
  EXPECT_EQ(svd.rank, 2);
}

TEST(SymmetricEigen, MatchesEigen) {
  std::mt19937_64 rng(5);
  for (int k : {1, 2, 7, 24}) {
    RowMatd B = random_matrix(rng, k, k);
    RowMatd A = B + B.transpose();
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> ref(A);
    RowMatd W = A;
    double lmax = 0;
    ASSERT_EQ(dense::max_eigenvalue(view(W), lmax), Status::ok);
    EXPECT_NEAR(lmax, ref.eigenvalues().maxCoeff(), 1e-12 * ref.eigenvalues().cwiseAbs().maxCoeff());
  }
}

TEST(Svd, ConvergesOnThousandsOfShapes) {
  // Regression: with a bound of eps (instead of p eps) on |b_i . b_j| the sweeps could keep
  // rotating on rounding noise (seen on a 6 x 18 matrix of binding contact rows).
  std::mt19937_64 rng(6);
  int ok = 0, total = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const int m = 1 + int(rng() % 24), n = 1 + int(rng() % 40);
    RowMatd A = random_matrix(rng, m, n);
    if (trial % 3 == 0 && m > 2) A.row(m - 1) = A.row(0) + A.row(1);  // rank-deficient
    std::vector<double> ws(dense::svd_workspace<double>(m, n));
    Arena<double> arena{ws.data(), ws.size()};
    dense::Svd<double> svd;
    ok += dense::svd(view(A).as_const(), svd, arena) == Status::ok;
    ++total;
    Eigen::JacobiSVD<Eigen::MatrixXd> ref(A);
    for (int i = 0; i < std::min(m, n); ++i) ASSERT_NEAR(svd.s[i], ref.singularValues()[i], 1e-12 * ref.singularValues()[0] * n);
  }
  EXPECT_EQ(ok, total);
}

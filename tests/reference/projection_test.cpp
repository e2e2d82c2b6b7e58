// docs/math.md 1-3 on random (M, A): rank rule, Moore-Penrose conditions, projector, constraint
// inertia and nu, the oblique projector's identities, W^+.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>

#include "reference_helpers.hpp"

namespace obliq::reference {
namespace {

using namespace testing;

// Frobenius norm; relative errors divide by fro(Y) floored at 1e-300 (0 / tiny = 0).
double fro(const MatrixXd& X) { return X.norm(); }
double rel(const MatrixXd& X, const MatrixXd& Y) { return X.norm() / std::max(Y.norm(), 1e-300); }

TEST(ReferenceProjection, SingleRowClosedForm) {
  // One row a: S = M^-1 a^T a / (a M^-1 a^T), W^+ = 1 / (a M^-1 a^T), P = I - a^T a / ||a||^2.
  MatrixXd M(3, 3);
  M << 4, 1, 0, 1, 3, 0.5, 0, 0.5, 2;
  MatrixXd a(1, 3);
  a << 1, -2, 2;
  const Projection p = projection(M, a);
  const Eigen::LLT<MatrixXd> llt(M);
  const MatrixXd Minv_at = llt.solve(a.transpose());
  const double w = (a * Minv_at)(0, 0);
  EXPECT_EQ(p.rank, 1);
  EXPECT_NEAR(p.W_pinv(0, 0), 1.0 / w, 1e-15);
  EXPECT_LT((p.S - Minv_at * a / w).norm(), 1e-14);
  EXPECT_LT((p.P - (MatrixXd::Identity(3, 3) - a.transpose() * a / 9.0)).norm(), 1e-15);
  EXPECT_LT((p.A_pinv - a.transpose() / 9.0).norm(), 1e-16);
  EXPECT_NEAR(p.nu, (p.P * M).trace() / 2.0, 1e-14);
}

TEST(ReferenceProjection, EdgeRanks) {
  MatrixXd M(2, 2);
  M << 2, 0.3, 0.3, 1;
  // m = 0 and A = 0: rank 0, P = I, S = 0, nu = tr(M) / n (unused), M_c = M.
  for (const MatrixXd& A : {MatrixXd(0, 2), MatrixXd(MatrixXd::Zero(3, 2))}) {
    const Projection p = projection(M, A);
    EXPECT_EQ(p.rank, 0);
    EXPECT_EQ(p.P, MatrixXd::Identity(2, 2));
    EXPECT_EQ(p.S, MatrixXd::Zero(2, 2));
    EXPECT_DOUBLE_EQ(p.nu, 1.5);
    EXPECT_LT((p.M_c - M).norm(), 1e-15);
    EXPECT_EQ(p.W_pinv.rows(), A.rows());
    EXPECT_EQ(p.W_pinv.norm(), 0.0);
  }
  // r = n: P = 0, M_c = nu I with nu = tr(M) / n, S = I.
  MatrixXd A(3, 2);
  A << 1, 0, 0, 1, 1, 1;
  const Projection p = projection(M, A);
  EXPECT_EQ(p.rank, 2);
  EXPECT_LT(p.P.norm(), 1e-15);
  EXPECT_DOUBLE_EQ(p.nu, 1.5);
  EXPECT_LT((p.M_c - 1.5 * MatrixXd::Identity(2, 2)).norm(), 1e-15);
  EXPECT_LT((p.S - MatrixXd::Identity(2, 2)).norm(), 1e-14);
}

// Random (n 1..40, m 0..24, rank-deficient, cond(M) 1..1e8). Error bounds scale with
// eps cond(M) (the conditioning of M^-1 that S and W^+ carry) and the sizes; measured maxima are
// printed so that the margin stays visible.
TEST(ReferenceProjection, IdentitiesOnRandomInstances) {
  std::mt19937 rng(20240601);
  std::uniform_int_distribution<int> Nn(1, 40), Nm(0, 24);
  const double conds[] = {1.0, 1e2, 1e4, 1e6, 1e8};
  double worst[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  for (int trial = 0; trial < 120; ++trial) {
    const int n = Nn(rng), m = Nm(rng);
    const double cond = conds[trial % 5];
    const int r_target = std::min({m, n, std::uniform_int_distribution<int>(0, std::min(m, n))(rng)});
    const MatrixXd M = random_spd(n, cond, rng, 3.0);
    MatrixXd A = MatrixXd::Zero(m, n);
    if (r_target > 0) A = random_matrix(m, r_target, rng) * random_matrix(r_target, n, rng);
    const Projection p = projection(M, A);
    ASSERT_EQ(p.rank, r_target) << "n " << n << " m " << m;
    const int r = p.rank;
    const MatrixXd I = MatrixXd::Identity(n, n);
    const double size = double(std::max(m, n));
    const double unit = size * kEps;           // well-conditioned quantities
    const double cmat = size * kEps * cond;    // quantities carrying M^-1

    // Moore-Penrose conditions of A^+ (docs/math.md 1).
    const double e_mp = std::max({rel(A * p.A_pinv * A - A, A), rel(p.A_pinv * A * p.A_pinv - p.A_pinv, p.A_pinv),
                                  fro(A * p.A_pinv - (A * p.A_pinv).transpose()) / std::max(1.0, fro(A * p.A_pinv)),
                                  fro(p.A_pinv * A - (p.A_pinv * A).transpose()) / std::max(1.0, fro(p.A_pinv * A))});
    if (r > 0) {
      const double condA = Eigen::JacobiSVD<MatrixXd>(A).singularValues()(0) /
                           Eigen::JacobiSVD<MatrixXd>(A).singularValues()(r - 1);
      EXPECT_LT(e_mp, 100 * unit * condA);
      worst[0] = std::max(worst[0], e_mp / (unit * condA));
    }
    // P: orthogonal projector onto N(A) (docs/math.md 1).
    EXPECT_LT(fro(p.P * p.P - p.P), 100 * unit);
    EXPECT_LT(fro(p.P - p.P.transpose()), 100 * unit);
    if (m > 0) EXPECT_LT(rel(A * p.P, A), 100 * unit);
    EXPECT_NEAR(p.P.trace(), double(n - r), 100 * unit * n);
    // nu and M_c (docs/math.md 2): nu = tr(P M)/(n - r), M_c SPD, commutes with P, cond(M_c) <= cond(M).
    if (r > 0 && r < n) {
      EXPECT_NEAR(p.nu, (p.P * M).trace() / double(n - r), 1e-12 * M.trace());
    } else {
      EXPECT_NEAR(p.nu, M.trace() / n, 1e-14 * M.trace());
    }
    EXPECT_LT(fro(p.M_c * p.P - p.P * p.M_c) / fro(M), 100 * unit);
    Eigen::SelfAdjointEigenSolver<MatrixXd> eig_c(p.M_c), eig(M);
    ASSERT_GT(eig_c.eigenvalues()(0), 0.0);
    const double cond_c = eig_c.eigenvalues()(n - 1) / eig_c.eigenvalues()(0);
    EXPECT_LE(cond_c, cond * (1 + 1e-6));
    // S (docs/math.md 3): S^2 = S, M S = S^T M, A S = A, S P = 0.
    const double nS = fro(p.S);
    const double e_S2 = rel(p.S * p.S - p.S, p.S);
    const double e_MS = fro(M * p.S - p.S.transpose() * M) / std::max(fro(M) * nS, 1e-300);
    const double e_AS = (m > 0 && r > 0) ? rel(A * p.S - A, A) : 0.0;
    const double e_SP = fro(p.S * p.P) / std::max(1.0, nS);
    if (r > 0) {
      EXPECT_LT(e_S2, 100 * cmat);
      EXPECT_LT(e_MS, 100 * cmat);
      EXPECT_LT(e_AS, 100 * cmat);
      EXPECT_LT(e_SP, 100 * cmat);
      EXPECT_NEAR(p.S.trace(), double(r), 100 * cmat * r);
    } else {
      EXPECT_EQ(p.S.norm(), 0.0);
    }
    worst[1] = std::max(worst[1], e_S2 / cmat);
    worst[2] = std::max(worst[2], e_MS / cmat);
    worst[3] = std::max(worst[3], e_AS / cmat);
    worst[4] = std::max(worst[4], e_SP / cmat);
    // W^+ is the Moore-Penrose inverse of W = A M^-1 A^T: W W^+ = U_r U_r^T (the projector onto
    // range(A)), so W W^+ A = A and W^+ W W^+ = W^+.
    if (r > 0) {
      const Eigen::LLT<MatrixXd> llt(M);
      const MatrixXd W = A * llt.solve(A.transpose());
      const double e_W = rel(W * p.W_pinv * A - A, A);
      const double e_W2 = rel(p.W_pinv * W * p.W_pinv - p.W_pinv, p.W_pinv);
      const double e_Wsym = fro(W * p.W_pinv - (W * p.W_pinv).transpose());
      const double condA = Eigen::JacobiSVD<MatrixXd>(A).singularValues()(0) /
                           Eigen::JacobiSVD<MatrixXd>(A).singularValues()(r - 1);
      const double bound = cmat * condA * condA;
      EXPECT_LT(e_W, 100 * bound);
      EXPECT_LT(e_W2, 100 * bound);
      EXPECT_LT(e_Wsym, 100 * bound);
      worst[5] = std::max(worst[5], std::max({e_W, e_W2, e_Wsym}) / bound);
    }
  }
  std::printf("worst error / (size eps [cond]): MP %.3g  S^2 %.3g  MS %.3g  AS %.3g  SP %.3g  W %.3g\n",
              worst[0], worst[1], worst[2], worst[3], worst[4], worst[5]);
}

}  // namespace
}  // namespace obliq::reference

// tests/friction/planar_test.cpp: the cone solver on planar problems (dim 2, or space contacts
// with a zero tangent row, as a planar model's out-of-plane tangent), where the exact Coulomb
// problem is the 2-facet pyramid's LCP (cone_solver.hpp, pyramid.hpp "Planar contacts").
//
// The problem below is the Moreau-Jean step of the built-in `block` (x, z, pitch; e = 0.2,
// mu = 0.5, h = 1 ms, dropped from q = (0, 0.26, 0.15), qdot = (0.3, 0, 0)) at t = 0.854 s, where
// the cone solver used to end in `no convergence`: the block rests on both corners, 4 contact rows
// on 3 velocities, so W is singular, and restitution (q_N += e u_N-) puts q outside W's range: no
// reaction makes both corners stick. Its answer, found here by enumerating the modes with Eigen
// (one corner slides, the other sticks), has one corner sliding at 5e-10 m/s.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include <Eigen/Dense>

#include "obliq/core/friction/cone_solver.hpp"

namespace {

using obliq::Status;
namespace fr = obliq::friction;

// Rows per contact: normal, y tangent (zero: the model moves in the x-z plane), x tangent.
const double kW[36] = {1.6000111435418276,  0, 1.200008357575526,   0.40000000006467584, 0, 1.2000139293787777,
                       0,                   0, 0,                   0,                   0, 0,
                       1.200008357575526,   0, 3.3999888564581724,  -1.1999860706212222, 0, 3.3999999999353241,
                       0.40000000006467584, 0, -1.1999860706212222, 1.5999888565357834,  0, -1.1999916423209926,
                       0,                   0, 0,                   0,                   0, 0,
                       1.2000139293787777,  0, 3.3999999999353241,  -1.1999916423209926, 0, 3.4000111434642166};
const double kQ[6] = {-0.0096293968105160832, 0, 4.5660367902020799e-10, -0.0089208796096846427, 0,
                      -2.2848420046153034e-09};
const double kMu = 0.5;

fr::Problem<double> block_problem() {
  fr::Problem<double> p;
  p.nc = 2, p.dim = 3;
  p.W = obliq::mat_view<const double>(kW, 6, 6);
  p.q = obliq::vec_view<const double>(kQ, 6);
  p.mu = obliq::VecView<const double>{&kMu, 1, 0};
  return p;
}

// The planar answers by modes: corner `sl` slides along s = +-1 (r_T = -mu r_N s, u_N = 0), the
// other sticks (u = 0); admissible when both r_N >= 0, the sticking corner is inside its cone and
// the sliding one moves along s. Rows of contact c: normal 3c, in-plane tangent 3c + 2.
std::vector<Eigen::VectorXd> planar_answers_one_sliding() {
  const Eigen::Map<const Eigen::Matrix<double, 6, 6, Eigen::RowMajor>> W(kW);
  const Eigen::Map<const Eigen::Matrix<double, 6, 1>> q(kQ);
  std::vector<Eigen::VectorXd> found;
  for (int sl = 0; sl < 2; ++sl)
    for (double s : {1.0, -1.0}) {
      const int st = 1 - sl;
      Eigen::Matrix<double, 6, 3> C = Eigen::Matrix<double, 6, 3>::Zero();  // r = C x, x = (rN_sl, rN_st, rT_st)
      C(3 * sl, 0) = 1, C(3 * sl + 2, 0) = -kMu * s, C(3 * st, 1) = 1, C(3 * st + 2, 2) = 1;
      const int rows[3] = {3 * sl, 3 * st, 3 * st + 2};
      Eigen::Matrix3d A;
      Eigen::Vector3d b;
      const Eigen::Matrix<double, 6, 3> WC = W * C;
      for (int i = 0; i < 3; ++i) A.row(i) = WC.row(rows[i]), b(i) = -q(rows[i]);
      const Eigen::Vector3d x = A.fullPivLu().solve(b);
      const Eigen::VectorXd r = C * x, u = W * r + q;
      if (x(0) >= 0 && x(1) >= 0 && std::abs(x(2)) <= kMu * x(1) && s * u(3 * sl + 2) >= 0) found.push_back(r);
    }
  return found;
}

TEST(PlanarCone, BlockOnBothCornersWithRestitutionIsSolvedExactly) {
  const fr::Problem<double> p = block_problem();
  ASSERT_TRUE(fr::planar(p));
  EXPECT_EQ(fr::planar_tangent(p, 0), 2);
  EXPECT_EQ(fr::planar_tangent(p, 1), 2);
  // The cause: the in-plane rows (4 of them) have rank 3, and no sticking answer exists.
  const int in_plane[4] = {0, 2, 3, 5};
  Eigen::Matrix4d W4;
  Eigen::Vector4d q4;
  for (int i = 0; i < 4; ++i) {
    q4(i) = kQ[in_plane[i]];
    for (int j = 0; j < 4; ++j) W4(i, j) = kW[6 * in_plane[i] + in_plane[j]];
  }
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix4d> eig(W4);
  EXPECT_LT(std::abs(eig.eigenvalues()(0)), 1e-12 * eig.eigenvalues()(3)) << "W is singular";
  const Eigen::Vector4d null = eig.eigenvectors().col(0);
  EXPECT_GT(std::abs(null.dot(q4)), 1e-10 * q4.norm()) << "q outside W's range: u = 0 has no solution";

  const std::vector<Eigen::VectorXd> exact = planar_answers_one_sliding();
  ASSERT_EQ(exact.size(), 1u) << "one answer with a sliding corner";

  const int m = 6;
  std::vector<double> r(m), u(m), buf(fr::cone_workspace<double>(m, 3));
  obliq::Arena<double> arena{buf.data(), buf.size()};
  const fr::Report<double> rep = fr::solve_cone(p, obliq::vec_view(r.data(), m), obliq::vec_view(u.data(), m), arena);
  std::printf("solve_cone: status %d, method %s, residual %.3g\n", int(rep.status), fr::method_name(rep.method),
              rep.residual);
  ASSERT_EQ(rep.status, Status::ok);
  EXPECT_EQ(rep.method, fr::Method::lemke);
  fr::Report<double> check;
  EXPECT_EQ(fr::certify(p, obliq::vec_view<const double>(r.data(), m), obliq::vec_view(u.data(), m), check), Status::ok);
  EXPECT_LE(check.residual, 1e-12);
  const double scale = exact[0].cwiseAbs().maxCoeff();
  for (int i = 0; i < m; ++i) EXPECT_NEAR(r[i], exact[0](i), 1e-9 * scale) << "row " << i;
  EXPECT_EQ(r[1], 0.0) << "no reaction along a direction that moves nothing";
  EXPECT_EQ(r[4], 0.0);

  // For the record (not required): the iterative stages alone on this problem.
  std::vector<double> r2(m, 0.0), u2(m);
  const auto n = fr::newton(p, obliq::vec_view(r2.data(), m), obliq::vec_view(u2.data(), m), arena, 50);
  const auto g = fr::nsgs(p, obliq::vec_view(r2.data(), m), obliq::vec_view(u2.data(), m), arena, 2000);
  std::printf("alone: Newton residual %.3g after %d steps, NSGS residual %.3g after %d sweeps\n", n.residual,
              n.iterations, g.residual, g.iterations);
}

// The same problem in the plane's own form (dim 2: the zero rows left out) has the same answer.
TEST(PlanarCone, PlaneFormGivesTheSameAnswer) {
  const int keep[4] = {0, 2, 3, 5};
  std::vector<double> W2(16), q2(4);
  for (int i = 0; i < 4; ++i) {
    q2[i] = kQ[keep[i]];
    for (int j = 0; j < 4; ++j) W2[4 * i + j] = kW[6 * keep[i] + keep[j]];
  }
  fr::Problem<double> p;
  p.nc = 2, p.dim = 2;
  p.W = obliq::mat_view<const double>(W2.data(), 4, 4);
  p.q = obliq::vec_view<const double>(q2.data(), 4);
  p.mu = obliq::VecView<const double>{&kMu, 1, 0};
  std::vector<double> r(4), u(4), buf(fr::cone_workspace<double>(4, 2));
  obliq::Arena<double> arena{buf.data(), buf.size()};
  const fr::Report<double> rep = fr::solve_cone(p, obliq::vec_view(r.data(), 4), obliq::vec_view(u.data(), 4), arena);
  ASSERT_EQ(rep.status, Status::ok);
  const std::vector<Eigen::VectorXd> exact = planar_answers_one_sliding();
  ASSERT_EQ(exact.size(), 1u);
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(r[i], exact[0](keep[i]), 1e-9 * exact[0].cwiseAbs().maxCoeff()) << i;
}

// A space problem whose tangent rows are both nonzero is not planar: the planar stage is not used
// and the pyramid refuses k = 2 there.
TEST(PlanarCone, SpaceProblemIsNotPlanar) {
  double W[9] = {2, 0.5, 0.1, 0.5, 1, 0, 0.1, 0, 1}, q[3] = {-1, 0.2, 0.3}, r[3], u[3];
  fr::Problem<double> p;
  p.nc = 1, p.dim = 3;
  p.W = obliq::mat_view<const double>(W, 3, 3);
  p.q = obliq::vec_view<const double>(q, 3);
  p.mu = obliq::VecView<const double>{&kMu, 1, 0};
  EXPECT_FALSE(fr::planar(p));
  EXPECT_EQ(fr::planar_tangent(p, 0), 0);
  std::vector<double> buf(fr::cone_workspace<double>(3, 3));
  obliq::Arena<double> arena{buf.data(), buf.size()};
  EXPECT_EQ(fr::solve_pyramid(p, 2, obliq::vec_view(r, 3), obliq::vec_view(u, 3), arena).status, Status::bad_shape);
  EXPECT_EQ(fr::solve_cone(p, obliq::vec_view(r, 3), obliq::vec_view(u, 3), arena).status, Status::ok);
}

}  // namespace

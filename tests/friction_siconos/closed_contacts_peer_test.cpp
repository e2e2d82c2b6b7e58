// tests/friction_siconos/closed_contacts_peer_test.cpp: frictional impacts whose closed contacts
// include some that separate before the impact (docs/friction.md (F10)), against Siconos
// numerics' fc3d on the same problem over every closed contact.
//
// Each obliq answer that is "ok" is checked independently (tests/support/closed_contacts.hpp: W
// and q built in the test with Eigen, De Saxce's natural map per contact against its own scale,
// the normal velocities from qdot+, the balance); one that fails is a wrong "ok" and must not
// occur. Where the solution is unique (mu <= 0.3 on a well-conditioned W, as fc3d_peer_test),
// obliq's impulses and Siconos's (Newton on Alart-Curnier, then NSGS) agree to 1e-6 of |r|.
#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <cstdio>

#include "closed_contacts.hpp"
#include "siconos_fc3d.hpp"

namespace {

using obliq::Status;

obliq::test::Fc3d fc3d_of(const obliq::test::ClosedProblem& p) {
  obliq::test::Fc3d f;
  f.nc = int(p.contact.size());
  f.W = p.W;
  f.W = (0.5 * (f.W + f.W.transpose())).eval();
  f.q = p.q;
  f.mu = p.mu;
  return f;
}

Eigen::VectorXd obliq_r(const obliq::test::ClosedProblem& p, const obliq::ImpactResult& a, const Eigen::VectorXd& lt) {
  const int k = int(p.contact.size());
  Eigen::VectorXd r(3 * k);
  for (int c = 0; c < k; ++c) {
    const int i = p.contact[std::size_t(c)];
    r(3 * c) = a.lambda(i);
    r.segment(3 * c + 1, 2) = lt.segment(2 * i, 2);
  }
  return r;
}

// Siconos from r = 0: Newton on Alart-Curnier, else NSGS. Returns false when neither converged.
bool siconos_solve(const obliq::test::Fc3d& f, std::vector<double>& r) {
  obliq::test::SiconosFc3d sp(f);
  std::vector<double> u;
  if (sp.solve(SICONOS_FRICTION_3D_NSN_AC, 1e-12, 1000, r, u) == 0) return true;
  return sp.solve(SICONOS_FRICTION_3D_NSGS, 1e-12, 20000, r, u) == 0;
}

TEST(ClosedContactsPeer, SlidePushesNeighbourAgreesWithSiconos) {
  // the reproducer of tests/friction/closed_contacts_test.cpp, rebuilt here from its numbers
  obliq::test::ClosedContactImpact c;
  std::mt19937 gen(1);
  c = obliq::test::random_closed_contact_impact(gen, 10, 2, 0.0, 0.5, 0.5, true);
  c.s.M << 19.3158, -1.8383, -4.0407, -0.6763, 4.9534, -1.153, 1.6871, -0.9876, -1.7702, 0.9527,  //
      -1.8383, 17.7916, 0.87, -0.1015, -1.1342, -1.2143, 0.2689, 4.7112, 2.4674, -1.1756,          //
      -4.0407, 0.87, 18.8302, 2.569, -6.8208, 0.1101, 4.1103, -1.0601, 2.5845, 1.6939,             //
      -0.6763, -0.1015, 2.569, 20.3731, 1.0953, -0.3062, 1.2712, -4.4827, -1.5384, 6.1472,         //
      4.9534, -1.1342, -6.8208, 1.0953, 22.9292, 2.8837, -1.9417, -2.5622, -4.6996, 2.6954,        //
      -1.153, -1.2143, 0.1101, -0.3062, 2.8837, 14.8337, 1.8973, -1.294, -2.1152, -1.6159,         //
      1.6871, 0.2689, 4.1103, 1.2712, -1.9417, 1.8973, 15.917, -1.1963, 0.0825, -0.7899,           //
      -0.9876, 4.7112, -1.0601, -4.4827, -2.5622, -1.294, -1.1963, 16.8601, 1.1546, -4.045,        //
      -1.7702, 2.4674, 2.5845, -1.5384, -4.6996, -2.1152, 0.0825, 1.1546, 17.431, 0.2653,          //
      0.9527, -1.1756, 1.6939, 6.1472, 2.6954, -1.6159, -0.7899, -4.045, 0.2653, 17.3541;
  c.s.qdot << -0.6031, 0.159, -0.2205, -1.0854, 0.9707, 0.1023, 1.1037, -0.8898, 0.788, -0.2242;
  c.s.A_u << -0.4393, 0.784, 0.798, -0.7168, -1.7646, -1.3075, -0.2397, 1.8275, -1.4932, -0.448,  //
      0.8226, 1.0471, -1.1037, 0.929, 1.9386, 0.6823, 0.4129, -0.0694, -1.9398, -1.9672;
  c.f.A_t << 1.0913, -1.6896, 0.4253, -0.8991, 0.0466, -1.0248, -1.2915, -0.8422, 0.3351, -1.5895,  //
      0.0867, 0.1607, -1.0023, -0.6717, -0.1224, 1.3832, -1.6707, 1.0966, 1.1792, 0.2232,            //
      -0.2113, 1.12, 0.4374, -1.3237, 1.1221, -1.3287, 0.9434, 0.4879, 0.8673, -0.1571,              //
      1.542, -2.1638, -0.0608, -0.2231, -0.7316, 0.9995, 2.6075, 0.2593, -0.1774, 1.0439;
  c.f.mu << 0.9564, 0.9703;
  c.s.e.setZero();
  ASSERT_GT(c.s.A_u.row(1).dot(c.s.qdot), 0.28);  // contact 2 separates before the impact
  obliq::FrictionResult info;
  const auto a = obliq::impact(c.s, c.f, &info);
  ASSERT_EQ(a.status, Status::ok);
  const auto p = obliq::test::closed_problem(c.s, c.f);
  const auto f = fc3d_of(p);
  for (int solver : {SICONOS_FRICTION_3D_NSN_AC, SICONOS_FRICTION_3D_NSGS}) {
    obliq::test::SiconosFc3d sp(f);
    std::vector<double> r, u;
    ASSERT_EQ(sp.solve(solver, 1e-12, solver == SICONOS_FRICTION_3D_NSGS ? 100000 : 1000, r, u), 0) << solver;
    EXPECT_NEAR(r[3], 0.6008, 1e-3) << solver;  // the second contact's normal impulse
    const Eigen::VectorXd ro = obliq_r(p, a, info.lambda_t);
    for (int j = 0; j < 6; ++j)
      EXPECT_NEAR(ro(j), r[std::size_t(j)], 1e-8 * ro.cwiseAbs().maxCoeff()) << solver << " " << j;
  }
}

TEST(ClosedContactsPeer, TenThousandImpactsNoWrongOkAgreeWithSiconosWhereUnique) {
  const auto t0 = std::chrono::steady_clock::now();
  std::mt19937 gen(4242);
  int total = 0, ok = 0, wrong_ok = 0, with_sep = 0, sep_carrying = 0, unique = 0, compared = 0, agree = 0,
      siconos_failed = 0, other_compared = 0, other_agree = 0;
  double worst_check = 0, worst_unique_diff = 0;
  std::array<int, 32> statuses{};
  for (int trial = 0; trial < 10000; ++trial) {
    const int nc = 1 + trial % 8, n = 3 * nc + (trial / 8) % 7;
    const bool small_mu = trial % 3 == 0;
    auto c = obliq::test::random_closed_contact_impact(gen, n, nc, 0.3, 0.1, small_mu ? 0.3 : 1.0, trial % 2 == 0);
    ++total;
    with_sep += !c.separating.empty();
    obliq::FrictionResult info;
    const auto a = obliq::impact(c.s, c.f, &info);
    ++statuses[std::size_t(a.status)];
    if (a.status != Status::ok) continue;
    ++ok;
    const auto chk = obliq::test::check_answer(c.s, c.f, a, info.lambda_t);
    const bool good = chk.active_closed && chk.open_zero && chk.worst() <= 1e-8;
    if (!good) {
      ++wrong_ok;
      ADD_FAILURE() << "wrong ok, trial " << trial << ": natural map " << chk.natural_map << " penetration "
                    << chk.penetration << " u " << chk.u_mismatch << " balance " << chk.balance;
      continue;
    }
    worst_check = std::max(worst_check, chk.worst());
    for (int i : c.separating) sep_carrying += a.lambda(i) > 0;
    // Siconos on the same problem (every closed contact)
    const auto p = obliq::test::closed_problem(c.s, c.f);
    const auto f = fc3d_of(p);
    Eigen::JacobiSVD<Eigen::MatrixXd> svd(f.W);
    const double cond = svd.singularValues()(0) / svd.singularValues().tail(1)(0);
    const bool is_unique = small_mu && cond <= 1e4;
    std::vector<double> r;
    if (!siconos_solve(f, r)) {
      ++siconos_failed;
      continue;
    }
    const Eigen::VectorXd ro = obliq_r(p, a, info.lambda_t);
    const double d = (ro - Eigen::Map<const Eigen::VectorXd>(r.data(), ro.size())).cwiseAbs().maxCoeff() /
                     std::max(ro.cwiseAbs().maxCoeff(), 1e-300);
    if (is_unique) {
      ++unique, ++compared;
      agree += d < 1e-6;
      worst_unique_diff = std::max(worst_unique_diff, d);
      EXPECT_LT(d, 1e-6) << "trial " << trial << " nc " << nc << " cond(W) " << cond;
    } else {
      ++other_compared;
      other_agree += d < 1e-6;
    }
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%d impacts (%d with a contact separating before the impact): ok %d, wrong ok %d (independent check, "
              "worst %.2e); separating contacts carrying an impulse %d\n",
              total, with_sep, ok, wrong_ok, worst_check, sep_carrying);
  std::printf("statuses:");
  for (std::size_t s = 0; s < statuses.size(); ++s)
    if (statuses[s]) std::printf(" %s %d", obliq::status_reason(Status(s)), statuses[s]);
  std::printf("\nSiconos: unique set compared %d, agree to 1e-6 %d (worst %.2e); others compared %d, agree %d; "
              "Siconos not converged %d; %.1f s\n",
              compared, agree, worst_unique_diff, other_compared, other_agree, siconos_failed, secs);
  EXPECT_EQ(wrong_ok, 0);
  EXPECT_EQ(ok, total);
  EXPECT_GT(compared, 1000);
}

}  // namespace

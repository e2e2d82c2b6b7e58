// tests/friction/closed_contacts_test.cpp: every closed contact takes part in a frictional impact
// (docs/friction.md (F10)), also one that separates before the impact, and the answer's own
// certificate from the scenario's data (F11) rejects an answer that leaves such a contact
// penetrating. Answers are checked independently (tests/support/closed_contacts.hpp: W and q
// built here with Eigen over every closed contact, De Saxce's natural map, normal velocities from
// qdot+, the balance).
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <vector>

#include "obliq/core/friction/answer_certificate.hpp"
#include "obliq/friction.hpp"
#include "support/closed_contacts.hpp"

namespace {

using obliq::Friction;
using obliq::FrictionResult;
using obliq::ImpactResult;
using obliq::Scenario;
using obliq::Status;

// The reproducer (plastic, two closed contacts; contact 2 separates before the impact at
// A_u qdot = +0.287): the friction impulse of contact 1 pushes contact 2 into approach.
struct SlidePushesNeighbour {
  Scenario s;
  Friction f;
  SlidePushesNeighbour() {
    s = Scenario::zeros({10, 0, 2});
    s.M << 19.3158, -1.8383, -4.0407, -0.6763, 4.9534, -1.153, 1.6871, -0.9876, -1.7702, 0.9527,  //
        -1.8383, 17.7916, 0.87, -0.1015, -1.1342, -1.2143, 0.2689, 4.7112, 2.4674, -1.1756,        //
        -4.0407, 0.87, 18.8302, 2.569, -6.8208, 0.1101, 4.1103, -1.0601, 2.5845, 1.6939,           //
        -0.6763, -0.1015, 2.569, 20.3731, 1.0953, -0.3062, 1.2712, -4.4827, -1.5384, 6.1472,       //
        4.9534, -1.1342, -6.8208, 1.0953, 22.9292, 2.8837, -1.9417, -2.5622, -4.6996, 2.6954,      //
        -1.153, -1.2143, 0.1101, -0.3062, 2.8837, 14.8337, 1.8973, -1.294, -2.1152, -1.6159,       //
        1.6871, 0.2689, 4.1103, 1.2712, -1.9417, 1.8973, 15.917, -1.1963, 0.0825, -0.7899,         //
        -0.9876, 4.7112, -1.0601, -4.4827, -2.5622, -1.294, -1.1963, 16.8601, 1.1546, -4.045,      //
        -1.7702, 2.4674, 2.5845, -1.5384, -4.6996, -2.1152, 0.0825, 1.1546, 17.431, 0.2653,        //
        0.9527, -1.1756, 1.6939, 6.1472, 2.6954, -1.6159, -0.7899, -4.045, 0.2653, 17.3541;
    s.qdot << -0.6031, 0.159, -0.2205, -1.0854, 0.9707, 0.1023, 1.1037, -0.8898, 0.788, -0.2242;
    s.A_u << -0.4393, 0.784, 0.798, -0.7168, -1.7646, -1.3075, -0.2397, 1.8275, -1.4932, -0.448,  //
        0.8226, 1.0471, -1.1037, 0.929, 1.9386, 0.6823, 0.4129, -0.0694, -1.9398, -1.9672;
    s.e.setZero();
    f = Friction::none(s, 3);
    f.A_t.resize(4, 10);
    f.A_t << 1.0913, -1.6896, 0.4253, -0.8991, 0.0466, -1.0248, -1.2915, -0.8422, 0.3351, -1.5895,  //
        0.0867, 0.1607, -1.0023, -0.6717, -0.1224, 1.3832, -1.6707, 1.0966, 1.1792, 0.2232,          //
        -0.2113, 1.12, 0.4374, -1.3237, 1.1221, -1.3287, 0.9434, 0.4879, 0.8673, -0.1571,            //
        1.542, -2.1638, -0.0608, -0.2231, -0.7316, 0.9995, 2.6075, 0.2593, -0.1774, 1.0439;
    f.mu << 0.9564, 0.9703;
  }
};

// The frictional answer certificate (F11) of a given answer, in double.
double answer_certificate(const Scenario& s, const Friction& f, const ImpactResult& a,
                          const Eigen::VectorXd& lambda_t) {
  using obliq::mat_view;
  using obliq::vec_view;
  using RowMat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const RowMat M = s.M, A_b = s.A_b, A_u = s.A_u, A_t = f.A_t;
  obliq::friction::FrictionView<double> fr;
  fr.dim = f.dim;
  fr.A_t = mat_view<const double>(A_t.data(), int(A_t.rows()), int(A_t.cols()));
  fr.mu = vec_view<const double>(f.mu.data(), int(f.mu.size()));
  fr.formulation = f.formulation;
  obliq::ScenarioView<double> in;
  in.n = int(M.rows()), in.m_b = int(A_b.rows()), in.m_u = int(A_u.rows());
  in.M = mat_view<const double>(M.data(), in.n, in.n);
  in.A_b = mat_view<const double>(A_b.data(), in.m_b, in.n);
  in.A_u = mat_view<const double>(A_u.data(), in.m_u, in.n);
  in.qdot = vec_view<const double>(s.qdot.data(), in.n);
  in.i_u = vec_view<const double>(s.i_u.data(), in.n);
  in.phi_u = vec_view<const double>(s.phi_u.data(), in.m_u);
  in.e = vec_view<const double>(s.e.data(), in.m_u);
  in.gap_tol = s.gap_tol, in.vel_tol = s.vel_tol;
  std::vector<std::uint8_t> active(std::size_t(in.m_u));
  for (int i = 0; i < in.m_u; ++i) active[std::size_t(i)] = std::uint8_t(a.active(i));
  std::vector<double> scratch(std::size_t(in.n));
  return obliq::friction::impact_answer_certificate<double>(
      in, fr, vec_view<const double>(a.qdot_plus.data(), in.n),
      vec_view<const double>(a.lambda.data(), int(a.lambda.size())),
      obliq::VecView<const std::uint8_t>{active.data(), in.m_u, 1},
      vec_view<const double>(lambda_t.data(), int(lambda_t.size())), vec_view(scratch.data(), in.n));
}

TEST(ClosedContacts, SlidePushesNeighbourBothContactsTakePart) {
  const SlidePushesNeighbour p;
  FrictionResult info;
  const ImpactResult a = obliq::impact(p.s, p.f, &info);
  ASSERT_EQ(a.status, Status::ok);
  EXPECT_EQ(a.active(0), 1);
  EXPECT_EQ(a.active(1), 1);
  const Eigen::VectorXd uN = p.s.A_u * a.qdot_plus;  // plastic: the normal velocities themselves
  EXPECT_GE(uN(0), -1e-9);
  EXPECT_GE(uN(1), -1e-9);
  // The second contact carries the impulse that stops it (Siconos fc3d: ~0.60, friction_siconos).
  EXPECT_GT(a.lambda(1), 0.5);
  EXPECT_NEAR(uN(1), 0.0, 1e-9);
  const auto c = obliq::test::check_answer(p.s, p.f, a, info.lambda_t);
  EXPECT_TRUE(c.active_closed);
  EXPECT_LT(c.worst(), 1e-9) << "natural map " << c.natural_map << " penetration " << c.penetration;
  std::printf("reproducer: lambda_N = (%.6f, %.6f), A_u qdot+ = (%.3g, %.3g), independent natural map %.2e\n",
              a.lambda(0), a.lambda(1), uN(0), uN(1), c.natural_map);
}

// The answer of the former rule (contact 2 left out: the impact of contact 1 alone, 0 on
// contact 2) penetrates at contact 2 and is rejected by the answer's certificate, with active
// either way; the certified answer passes; a perturbed one fails.
TEST(ClosedContacts, AnswerCertificateRejectsALeftOutContact) {
  const SlidePushesNeighbour p;
  FrictionResult info;
  const ImpactResult a = obliq::impact(p.s, p.f, &info);
  ASSERT_EQ(a.status, Status::ok);
  EXPECT_LE(answer_certificate(p.s, p.f, a, info.lambda_t), 1e-6);
  // contact 1 alone
  Scenario s1 = Scenario::zeros({10, 0, 1});
  s1.M = p.s.M, s1.qdot = p.s.qdot, s1.A_u = p.s.A_u.topRows(1);
  Friction f1 = Friction::none(s1, 3);
  f1.A_t = p.f.A_t.topRows(2), f1.mu = p.f.mu.head(1);
  FrictionResult info1;
  const ImpactResult a1 = obliq::impact(s1, f1, &info1);
  ASSERT_EQ(a1.status, Status::ok);
  ImpactResult old = a;
  old.qdot_plus = a1.qdot_plus;
  old.lambda << a1.lambda(0), 0.0;
  Eigen::VectorXd lt = Eigen::VectorXd::Zero(4);
  lt.head(2) = info1.lambda_t;
  EXPECT_LT((p.s.A_u.row(1) * old.qdot_plus)(0), -0.4);  // the former answer: -0.486
  EXPECT_GT(answer_certificate(p.s, p.f, old, lt), 1e-2);
  old.active << 1, 0;
  EXPECT_GT(answer_certificate(p.s, p.f, old, lt), 1e-2);
  // perturbations of the certified answer
  ImpactResult b = a;
  b.qdot_plus(3) += 1e-4;  // balance
  EXPECT_GT(answer_certificate(p.s, p.f, b, info.lambda_t), 1e-6);
  Eigen::VectorXd lt2 = info.lambda_t;
  lt2(0) *= 1 - 1e-3;  // a tangential impulse shrunk: dissipation (and balance)
  EXPECT_GT(answer_certificate(p.s, p.f, a, lt2), 1e-6);
  b = a;
  b.active << 1, 0;  // active must be the closed contacts
  EXPECT_GT(answer_certificate(p.s, p.f, b, info.lambda_t), 1e-6);
}

// Contacts drawn on purpose to separate before the impact and to be pushed into approach by a
// neighbour's tangential impulse: the impact of the approaching contacts alone (the former rule)
// leaves such a contact at A_u qdot+ < 0 with friction and >= 0 without (mu = 0). Each such
// scenario must be "ok" with every closed contact active and pass the independent check.
TEST(ClosedContacts, SeparatingContactsPushedByNeighboursFriction) {
  std::mt19937 gen(2027);
  int drawn = 0, pushed = 0, ok = 0, carried = 0, plane = 0;
  for (int trial = 0; pushed < 150 && trial < 4000; ++trial) {
    const int dim = trial % 4 == 0 ? 2 : 3, nc = 2 + trial % 4, n = dim * nc + trial % 5;
    auto c = obliq::test::random_closed_contact_impact(gen, n, nc, 0.4, 0.3, 1.5, trial % 2 == 0, dim);
    ++drawn;
    // the approaching contacts alone, with and without friction
    std::vector<int> app;
    for (int i = 0; i < nc; ++i)
      if (std::find(c.separating.begin(), c.separating.end(), i) == c.separating.end()) app.push_back(i);
    if (app.empty()) continue;
    const int t = dim - 1, k = int(app.size());
    Scenario sa = Scenario::zeros({n, 0, k});
    sa.M = c.s.M, sa.qdot = c.s.qdot;
    Friction fa = Friction::none(sa, dim);
    for (int j = 0; j < k; ++j) {
      sa.A_u.row(j) = c.s.A_u.row(app[std::size_t(j)]), sa.e(j) = c.s.e(app[std::size_t(j)]);
      fa.A_t.middleRows(t * j, t) = c.f.A_t.middleRows(t * app[std::size_t(j)], t);
      fa.mu(j) = c.f.mu(app[std::size_t(j)]);
    }
    const ImpactResult fric = obliq::impact(sa, fa);
    fa.mu.setZero();
    const ImpactResult frictionless = obliq::impact(sa, fa);
    if (fric.status != Status::ok || frictionless.status != Status::ok) continue;
    bool is_pushed = false;
    for (int i : c.separating)
      is_pushed = is_pushed || (c.s.A_u.row(i).dot(fric.qdot_plus) < -1e-6 &&
                                c.s.A_u.row(i).dot(frictionless.qdot_plus) >= 0);
    if (!is_pushed) continue;
    ++pushed;
    plane += dim == 2;
    FrictionResult info;
    const ImpactResult a = obliq::impact(c.s, c.f, &info);
    ASSERT_EQ(a.status, Status::ok) << trial;
    ++ok;
    const auto chk = obliq::test::check_answer(c.s, c.f, a, info.lambda_t);
    EXPECT_TRUE(chk.active_closed) << trial;
    EXPECT_TRUE(chk.open_zero) << trial;
    EXPECT_LT(chk.worst(), 1e-8) << trial << " natural map " << chk.natural_map << " penetration " << chk.penetration
                                 << " u " << chk.u_mismatch << " balance " << chk.balance;
    for (int i : c.separating) carried += a.lambda(i) > 0;
  }
  std::printf("drawn %d, pushed by a neighbour's friction %d (%d in the plane), ok %d, separating contacts carrying "
              "an impulse %d\n",
              drawn, pushed, plane, ok, carried);
  EXPECT_GE(pushed, 150);
  EXPECT_GE(carried, pushed);  // each pushed contact is stopped by an impulse of its own
}

}  // namespace

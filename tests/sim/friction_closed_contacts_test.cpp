// tests/sim: Moreau-Jean's step with friction answers no "ok" that violates Coulomb's law on a
// row of its index set (docs/friction.md (F10), docs/simulator.md "Friction"), checked
// independently of obliq's setup and certificates: the contacts are drawn so that some separate
// before the step and can be pushed into approach by their neighbours' tangential impulses (the
// class that was once answered "ok" while penetrating); every row's predicted gap is <= 0, so
// every contact is in the step's index set with Newton's law u_N = A_u v+ + e A_u v (Siconos's
// MoreauJeanOSI with NewtonImpactFrictionNSL, e_t = 0). The step exposes no impulses: they are
// recovered here from the velocity jump, M (v+ - v_f) = A^T r (A has full row rank: 3 nc <= n),
// and De Saxce's natural map is evaluated on u = W r + q for every contact
// (tests/support/closed_contacts.hpp, Eigen only).
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cstdio>
#include <random>
#include <vector>

#include "obliq/simulator.hpp"
#include "support/closed_contacts.hpp"

namespace {

using obliq::Batch;
using obliq::Friction;
using obliq::Scenario;
using obliq::SimOptions;
using obliq::Simulator;
using obliq::Status;

TEST(MoreauJeanFrictionClosedContacts, NoWrongOkWithContactsPushedByNeighbours) {
  std::mt19937 gen(2027);
  const double h = 1e-3;
  int total = 0, ok = 0, wrong_ok = 0, with_sep = 0, sep_carrying = 0;
  double worst = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const int nc = 1 + trial % 8, n = 3 * nc + (trial / 8) % 7;
    auto c = obliq::test::random_closed_contact_impact(gen, n, nc, 0.3, 0.1, 1.0, trial % 2 == 0);
    Scenario& s = c.s;
    // Every row in the index set: gaps at q = 0 of -1, so phi + h (A_u v) <= 0 for |A_u v| < 1e3.
    s.phi_u.setConstant(-1.0);
    s.h.setZero();
    s.u.setZero();
    Batch<double> batch(s.shape(), 1);
    batch.set(0, s);
    SimOptions o;
    o.threads = 1;
    Simulator<double> sim(batch, std::vector<Friction>{c.f}, o);
    sim.step(h);
    ++total;
    with_sep += !c.separating.empty();
    if (sim.status[0] != Status::ok) {
      ADD_FAILURE() << "trial " << trial << ": status " << obliq::status_reason(sim.status[0]);
      continue;
    }
    ++ok;
    // The step's problem as a frictional impact: every row closed (gap_tol 0 >= phi), every row a
    // candidate with restitution (the index set has no velocity condition), i_u = h (u - h) = 0.
    Scenario chk_s = s;
    chk_s.gap_tol = 0;
    chk_s.vel_tol = std::numeric_limits<double>::infinity();
    chk_s.i_u.setZero();
    const int d = c.f.dim, t = d - 1;
    Eigen::MatrixXd A(d * nc, n);
    A << s.A_u, c.f.A_t;
    obliq::ImpactResult a;
    a.qdot_plus = sim.v.row(0).transpose();
    const Eigen::VectorXd r = A.transpose().colPivHouseholderQr().solve(s.M * (a.qdot_plus - s.qdot));
    a.lambda = r.head(nc);
    a.active.resize(nc);
    for (int i = 0; i < nc; ++i) a.active(i) = sim.active[std::size_t(i)];
    const Eigen::VectorXd lambda_t = r.tail(t * nc);
    const auto chk = obliq::test::check_answer(chk_s, c.f, a, lambda_t);
    if (!(chk.active_closed && chk.worst() <= 1e-8)) {
      ++wrong_ok;
      ADD_FAILURE() << "wrong ok, trial " << trial << " (nc " << nc << ", n " << n << "): natural map "
                    << chk.natural_map << " penetration " << chk.penetration << " u " << chk.u_mismatch
                    << " balance " << chk.balance << " active==closed " << chk.active_closed;
      continue;
    }
    worst = std::max(worst, chk.worst());
    for (int i : c.separating) sep_carrying += r(i) > 1e-9 * r.cwiseAbs().maxCoeff();
  }
  std::printf("%d Moreau-Jean steps (%d with a contact separating before the step): ok %d, wrong ok %d (worst %.2e); "
              "separating contacts carrying an impulse %d\n",
              total, with_sep, ok, wrong_ok, worst, sep_carrying);
  EXPECT_EQ(wrong_ok, 0);
  EXPECT_EQ(ok, total);
  EXPECT_GT(sep_carrying, 100);  // the class is drawn: separating contacts that end up pushed
}

}  // namespace

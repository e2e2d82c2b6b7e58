// tests/friction_siconos/fc3d_peer_test.cpp: obliq's exact-cone solver against Siconos numerics'
// fc3d_nsgs and fc3d_nonsmooth_Newton_AlartCurnier on the same FrictionContactProblems: random
// contact sets (1 to 24 contacts) and problems made by the model layer on the quadruped.
//
// Rule (docs/friction.md "Checks"): obliq must certify every problem (its certificate,
// certificate.hpp) and Siconos's error measure of obliq's answer must be below 1e-9; every answer
// Siconos reports converged (info 0, tolerance 1e-12) must pass obliq's certificate too; and where
// both certify, the impulses agree to 1e-6 relative to |r| when the solution is unique. Uniqueness is
// guaranteed here by mu <= 0.3 on well-conditioned W (for small mu the frictional problem with a
// positive definite W has one solution: Klarbring & Pang, SIAM J. Optim. 8 (1998); the bound
// depends on cond(W), so a mismatch at larger mu is counted and reported, not failed, when both
// answers certify).
#include <gtest/gtest.h>

#include <cstdio>

#include "fc3d_problems.hpp"
#include "siconos_fc3d.hpp"

namespace {

using obliq::Status;
using obliq::test::Fc3d;

struct Tally {
  int problems = 0, obliq_ok = 0, nsgs_ok = 0, nsn_ok = 0, compared = 0, mismatched = 0;
  double worst_diff = 0;
};

double rel_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0, s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) d = std::max(d, std::fabs(a[i] - b[i])), s = std::max(s, std::fabs(a[i]));
  return s > 0 ? d / s : d;
}

void check(const Fc3d& p, bool unique, Tally& t, const char* what) {
  ++t.problems;
  const auto ob = obliq::test::solve_obliq(p, false);
  ASSERT_EQ(ob.status, Status::ok) << what << " nc " << p.nc << " residual " << ob.report.residual;
  ++t.obliq_ok;
  obliq::test::SiconosFc3d sp(p);
  EXPECT_LT(sp.error(ob.r), 1e-9) << what << " " << obliq::friction::method_name(ob.report.method) << " residual "
                                   << ob.report.residual << " iterations " << ob.report.iterations;  // Siconos's measure
  for (int solver : {SICONOS_FRICTION_3D_NSGS, SICONOS_FRICTION_3D_NSN_AC}) {
    std::vector<double> r, u;
    const int info = sp.solve(solver, 1e-12, solver == SICONOS_FRICTION_3D_NSGS ? 100000 : 1000, r, u);
    if (info != 0) continue;  // Siconos did not converge: nothing to compare
    double res = 0;
    const Status st = obliq::test::certify(p, r.data(), &res);
    // Siconos's 1e-12 is relative to |q|; obliq's certificate is per contact against its own
    // scale at 1e-9: a converged Siconos answer must pass it.
    EXPECT_EQ(st, Status::ok) << what << " solver " << solver << " obliq residual of Siconos's answer " << res;
    if (st != Status::ok) continue;
    (solver == SICONOS_FRICTION_3D_NSGS ? t.nsgs_ok : t.nsn_ok)++;
    const double d = rel_diff(ob.r, r);
    ++t.compared;
    t.worst_diff = std::max(t.worst_diff, d);
    if (unique)
      EXPECT_LT(d, 1e-6) << what << " nc " << p.nc << " solver " << solver;
    else if (d >= 1e-6)
      ++t.mismatched;
  }
}

void print(const char* what, const Tally& t) {
  std::printf("%s: %d problems, obliq certified %d, Siconos nsgs certified %d, nsn_ac certified %d, compared %d, "
              "worst |r_obliq - r_siconos| / |r| %.2e, mismatches (both certified) %d\n",
              what, t.problems, t.obliq_ok, t.nsgs_ok, t.nsn_ok, t.compared, t.worst_diff, t.mismatched);
}

TEST(Fc3dPeer, RandomContactSetsSmallMuAgreeWithSiconos) {
  std::mt19937 gen(2026);
  Tally t;
  for (int trial = 0; trial < 120; ++trial) check(obliq::test::random_problem(gen, 1 + trial % 24, 0.3), true, t, "random");
  print("random, mu <= 0.3", t);
  EXPECT_GT(t.nsgs_ok + t.nsn_ok, 120);  // Siconos solves most of them: the comparison has content
}

TEST(Fc3dPeer, RandomContactSetsLargeMuBothCertified) {
  std::mt19937 gen(7);
  Tally t;
  for (int trial = 0; trial < 120; ++trial) check(obliq::test::random_problem(gen, 1 + trial % 24, 1.5), false, t, "random");
  print("random, mu <= 1.5", t);
}

TEST(Fc3dPeer, QuadrupedProblemsAgreeWithSiconos) {
  std::mt19937 gen(4);
  Tally t;
  for (int trial = 0; trial < 100; ++trial)
    check(obliq::test::quadruped_problem(gen, trial % 2 ? 0.2 : 0.8), trial % 2 == 1, t, "quadruped");
  print("quadruped", t);
  EXPECT_GT(t.compared, 100);
}

}  // namespace

// tests/lcp/siconos_peer_test.cpp: obliq's exact solvers on Siconos's own 20 LCP test problems
// (tests/data/siconos-lcp), against what Siconos 4.4.0's solvers did on them (REFERENCE.tsv)
// and its best solutions (solutions/).
//
// Rule (docs/lcp.md): every problem that some Siconos solver solved (info 0, finite error) must
// be solved ("ok") by obliq's `auto` rule with a min-map residual r <= r_siconos + 16 eps s,
// where r_siconos is the smallest min-map of any Siconos solver on that file (the recheck column)
// and s = max(max|q|, max|M| max|z|) the rounding scale of evaluating w; problems no Siconos
// solver solved must come back with a status other than ok, and the test proves by hand that
// they have no solution.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "obliq/lcp.hpp"
#include "oracle.hpp"

namespace {

const std::string kDir = OBLIQ_SOURCE_DIR "/tests/data/siconos-lcp/";

struct Reference {
  bool solved = false;
  double best = std::numeric_limits<double>::infinity();  // smallest min-map among successes
  std::map<std::string, bool> ok_by_solver;
};

std::map<std::string, Reference> read_reference() {
  std::map<std::string, Reference> ref;
  std::ifstream f(kDir + "REFERENCE.tsv");
  std::string line;
  std::getline(f, line);  // header
  while (std::getline(f, line)) {
    std::vector<std::string> c;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, '\t')) c.push_back(cell);
    if (c.size() < 8) continue;
    Reference& r = ref[c[0]];
    const bool info0 = c[4] == "0";
    const double err = c[5].empty() ? NAN : std::strtod(c[5].c_str(), nullptr);
    const double recheck = c[7].empty() ? NAN : std::strtod(c[7].c_str(), nullptr);
    const bool ok = info0 && std::isfinite(err) && std::isfinite(recheck);
    r.ok_by_solver[c[3]] = ok;
    if (ok) {
      r.solved = true;
      r.best = std::min(r.best, recheck);
    }
  }
  return ref;
}

const char* kFiles[] = {"lcp_CPS_1.dat", "lcp_CPS_2.dat", "lcp_CPS_3.dat", "lcp_CPS_4.dat", "lcp_CPS_4bis.dat",
                        "lcp_CPS_5.dat", "lcp_Pang_isolated_sol.dat", "lcp_Pang_isolated_sol_perturbed.dat",
                        "lcp_inf_sol_perturbed.dat", "lcp_deudeu.dat", "lcp_deudeu_block.dat",
                        "lcp_enum_fails.dat", "lcp_exp_murty.dat", "lcp_exp_murty2.dat", "lcp_mmc.dat",
                        "lcp_ortiz.dat", "lcp_ortiz_block.dat", "lcp_tobenna.dat", "lcp_trivial.dat",
                        "lcp_trivial_block.dat"};

lcp_test::Mat to_eigen(const obliq::LcpProblem& p) {
  lcp_test::Mat M(p.m, p.m);
  for (int i = 0; i < p.m; ++i)
    for (int j = 0; j < p.m; ++j) M(i, j) = p.M[std::size_t(i * p.m + j)];
  return M;
}
lcp_test::Vec to_eigen(const std::vector<double>& v) { return Eigen::Map<const lcp_test::Vec>(v.data(), long(v.size())); }

TEST(SiconosPeer, ReferenceCoversAllTwentyFiles) {
  const auto ref = read_reference();
  EXPECT_EQ(ref.size(), 20u);
  for (const char* f : kFiles) EXPECT_TRUE(ref.count(f)) << f;
}

TEST(SiconosPeer, ReaderIsColumnMajor) {
  // README.md: the text lines of lcp_CPS_4.dat's matrix block are columns of M.
  const obliq::LcpProblem p = obliq::read_siconos_lcp_file(kDir + "lcp_CPS_4.dat");
  ASSERT_EQ(p.m, 4);
  const double expect[16] = {11, 0, 10, -1, 0, 11, 10, -1, 10, 10, 21, -1, 1, 1, 1, 0};
  for (int k = 0; k < 16; ++k) EXPECT_EQ(p.M[std::size_t(k)], expect[k]) << "entry " << k;
}

TEST(SiconosPeer, SparseBlockFilesDecodeToTheirDenseTwins) {
  for (const char* stem : {"lcp_ortiz", "lcp_trivial", "lcp_deudeu"}) {
    const auto dense = obliq::read_siconos_lcp_file(kDir + stem + ".dat");
    const auto block = obliq::read_siconos_lcp_file(kDir + stem + "_block.dat");
    EXPECT_EQ(dense.m, block.m) << stem;
    EXPECT_EQ(dense.M, block.M) << stem;
    EXPECT_EQ(dense.q, block.q) << stem;
  }
}

TEST(SiconosPeer, ReaderRejectsMalformedInput) {
  const auto bad = [](const std::string& text) {
    std::istringstream in(text);
    EXPECT_THROW(obliq::read_siconos_lcp(in), std::runtime_error) << text;
  };
  bad("");                              // empty
  bad("2 0 2 2 2 2 1 0 0 1 -1");        // q too short
  bad("2 0 2 3 2 3 1 0 0 1 0 0 -1 -1");  // M not n x n
  bad("2 2 2 2");                        // CSparse storage: not supported
  bad("2 0 2 2 2 2 1 x 0 1 -1 -1");     // not a number
}

// The heart of the peer test: auto (and each exact solver where Siconos's own version of it
// succeeded) against the reference.
TEST(SiconosPeer, EverySolvedProblemIsSolvedWithResidualAtLeastAsSmall) {
  const auto ref = read_reference();
  const double eps = std::numeric_limits<double>::epsilon();
  int solved = 0, unsolved = 0;
  for (const char* f : kFiles) {
    SCOPED_TRACE(f);
    const obliq::LcpProblem p = obliq::read_siconos_lcp_file(kDir + f);
    const Reference& r = ref.at(f);
    const obliq::LcpSolution s = obliq::solve_lcp(p, {});
    const auto M = to_eigen(p);
    const auto q = to_eigen(p.q);
    if (!r.solved) {
      ++unsolved;
      EXPECT_NE(s.status, obliq::Status::ok) << "no Siconos solver solved it; obliq must not claim a solution";
      continue;
    }
    ++solved;
    ASSERT_EQ(s.status, obliq::Status::ok) << obliq::status_reason(s.status) << " solver " << obliq::lcp::solver_name(s.solver);
    const auto z = to_eigen(s.z);
    const double r_indep = lcp_test::minmap(M, q, z);
    const double bound = r.best + 16 * eps * lcp_test::scale(M, q, z);
    EXPECT_LE(r_indep, bound) << "residual " << r_indep << " vs Siconos best " << r.best;
    EXPECT_NEAR(s.residual, r_indep, 4 * eps * lcp_test::scale(M, q, z) + 1e-300);
    // Lemke specifically, wherever Siconos's Lemke succeeded.
    if (r.ok_by_solver.count("lemke") && r.ok_by_solver.at("lemke")) {
      obliq::LcpProblem pl = p;
      pl.solver = obliq::LcpSolver::lemke;
      const auto sl = obliq::solve_lcp(pl, {});
      EXPECT_EQ(sl.status, obliq::Status::ok) << "Siconos lemke solved it, obliq lemke: " << obliq::status_reason(sl.status);
      EXPECT_LE(lcp_test::minmap(M, q, to_eigen(sl.z)), bound);
    }
    // Enumeration wherever Siconos's enumeration succeeded (it timed out on m = 26, 40).
    if (r.ok_by_solver.count("enum") && r.ok_by_solver.at("enum")) {
      obliq::LcpProblem pe = p;
      pe.solver = obliq::LcpSolver::enumerate;
      const auto se = obliq::solve_lcp(pe, {});
      EXPECT_EQ(se.status, obliq::Status::ok) << obliq::status_reason(se.status);
      EXPECT_LE(lcp_test::minmap(M, q, to_eigen(se.z)), bound);
    }
    // Principal pivoting wherever Siconos's pivot-based Murty solver succeeded.
    if (r.ok_by_solver.count("murty") && r.ok_by_solver.at("murty")) {
      obliq::LcpProblem pp = p;
      pp.solver = obliq::LcpSolver::pivot;
      const auto sp = obliq::solve_lcp(pp, {});
      EXPECT_EQ(sp.status, obliq::Status::ok) << obliq::status_reason(sp.status);
      EXPECT_LE(lcp_test::minmap(M, q, to_eigen(sp.z)), bound);
    }
  }
  EXPECT_EQ(solved, 19);
  EXPECT_EQ(unsolved, 1);
}

// Where the solution is unique (P-matrices: REFERENCE.md "P" column), z must match Siconos's.
TEST(SiconosPeer, UniqueSolutionsMatchSiconos) {
  for (const char* f : {"lcp_deudeu.dat", "lcp_deudeu_block.dat", "lcp_exp_murty.dat", "lcp_exp_murty2.dat",
                        "lcp_mmc.dat", "lcp_ortiz.dat", "lcp_ortiz_block.dat", "lcp_trivial.dat",
                        "lcp_trivial_block.dat"}) {
    SCOPED_TRACE(f);
    const auto p = obliq::read_siconos_lcp_file(kDir + f);
    std::string stem(f);
    stem = stem.substr(0, stem.size() - 4);
    std::ifstream sol(kDir + "solutions/" + stem + ".txt");
    std::vector<double> zs;
    double v;
    while (sol >> v) zs.push_back(v);
    ASSERT_EQ(int(zs.size()), p.m);
    for (auto solver : {obliq::LcpSolver::automatic, obliq::LcpSolver::lemke, obliq::LcpSolver::pivot}) {
      obliq::LcpProblem ps = p;
      ps.solver = solver;
      const auto s = obliq::solve_lcp(ps, {});
      ASSERT_EQ(s.status, obliq::Status::ok) << obliq::lcp::solver_name(solver);
      double zmax = 0;
      for (double x : zs) zmax = std::max(zmax, std::fabs(x));
      for (int i = 0; i < p.m; ++i) EXPECT_NEAR(s.z[std::size_t(i)], zs[std::size_t(i)], 1e-9 * (1 + zmax)) << i;
    }
  }
}

// lcp_Pang_isolated_sol_perturbed.dat: README.md's proof of infeasibility (w_0 = -z_1 - z_2 - 1e-4
// for every z), checked on the matrix as read; obliq must say so, with every solver.
TEST(SiconosPeer, InfeasiblePangGetsAnHonestStatus) {
  const auto p = obliq::read_siconos_lcp_file(kDir + "lcp_Pang_isolated_sol_perturbed.dat");
  ASSERT_EQ(p.m, 3);
  EXPECT_EQ(p.M[0], 0.0);
  EXPECT_EQ(p.M[1], -1.0);
  EXPECT_EQ(p.M[2], -1.0);
  EXPECT_EQ(p.q[0], -1e-4);
  const auto M = to_eigen(p);
  EXPECT_EQ(lcp_test::enumerate_solutions(M, to_eigen(p.q)), 0);
  for (auto solver : {obliq::LcpSolver::automatic, obliq::LcpSolver::lemke, obliq::LcpSolver::pivot,
                      obliq::LcpSolver::enumerate, obliq::LcpSolver::pgs}) {
    obliq::LcpProblem ps = p;
    ps.solver = solver;
    const auto s = obliq::solve_lcp(ps, {});
    EXPECT_NE(s.status, obliq::Status::ok) << obliq::lcp::solver_name(solver);
    EXPECT_TRUE(std::isfinite(s.residual) && s.residual > 0) << obliq::lcp::solver_name(solver);
  }
  obliq::LcpProblem pl = p;
  pl.solver = obliq::LcpSolver::lemke;
  EXPECT_EQ(obliq::solve_lcp(pl, {}).status, obliq::Status::lcp_ray);
  pl.solver = obliq::LcpSolver::enumerate;
  EXPECT_EQ(obliq::solve_lcp(pl, {}).status, obliq::Status::infeasible);
}

// Murty (1988, ch. 6): on lcp_exp_murty.dat the least-index principal pivoting method needs
// 2^6 - 1 = 63 pivots (Siconos's murty reports 63 too, REFERENCE.tsv).
TEST(SiconosPeer, MurtyExampleTakesExponentiallyManyPivots) {
  auto p = obliq::read_siconos_lcp_file(kDir + "lcp_exp_murty.dat");
  p.solver = obliq::LcpSolver::pivot;
  const auto s = obliq::solve_lcp(p, {});
  ASSERT_EQ(s.status, obliq::Status::ok);
  EXPECT_EQ(s.iterations, 63);
}

}  // namespace

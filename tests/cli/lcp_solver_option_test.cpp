// `--lcp-solver` of impact/dynamics: every exact LCP method gives the complementarity law the
// same answer on the bundled examples and on a file of random scenarios with independent rows
// (m_b + m_u <= n, so that the contact LCP is positive definite: principal pivoting needs a
// P-matrix); PGS (iterative) agrees to its convergence tolerance; an unknown method is misuse.
#include <gtest/gtest.h>

#include <random>

#include "cli/cli_helpers.hpp"
#include "io/random_scenarios.hpp"
#include "obliq/io/scenario_json.hpp"

using namespace obliq;
using namespace obliq::cli_test;

namespace {
std::string random_file(bool dynamics) {
  std::mt19937_64 rng(99);
  std::string text;
  RandomOptions o = bench_options(dynamics, Law::complementarity);
  o.p_separating = 0.3;
  for (int i = 0; i < 60; ++i) {
    const int n = 4 + i % 9, m_b = i % 3;
    Scenario s = random_scenario(rng, {n, m_b, std::min(1 + i % 6, n - m_b)}, o);
    s.id = "r" + std::to_string(i);
    text += io::scenario_to_json(s).dump() + "\n";
  }
  return write_temp(dynamics ? "lcp_solver_dyn.jsonl" : "lcp_solver_imp.jsonl", text).string();
}
}  // namespace

TEST(LcpSolverOption, ExactMethodsAgree) {
  for (bool dynamics : {false, true}) {
    const std::string cmd = dynamics ? "dynamics " : "impact ";
    const std::string key = dynamics ? "qddot" : "qdot_plus";
    for (const std::string& file : {example(dynamics ? "dynamics.jsonl" : "impact.jsonl"), random_file(dynamics)}) {
      RunResult base = run_obliq(cmd + quote(file));  // default: lemke
      ASSERT_NE(base.exit_code, 2) << base.err;
      std::vector<json> b = parse_lines(base.out);
      ASSERT_FALSE(b.empty());
      for (const char* method : {"auto", "pivot", "enum", "pgs"}) {
        RunResult r = run_obliq(cmd + quote(file) + " --lcp-solver " + method);
        std::vector<json> x = parse_lines(r.out);
        ASSERT_EQ(x.size(), b.size()) << method;
        const double tol = std::string(method) == "pgs" ? 1e-4 : 1e-9;
        int compared = 0;
        for (std::size_t i = 0; i < b.size(); ++i) {
          if (status_of(b[i]) != "ok") continue;
          ASSERT_EQ(status_of(x[i]), "ok") << method << " line " << i;
          EXPECT_TRUE(near(vec(x[i].at(key)), vec(b[i].at(key)), tol)) << method << " line " << i;
          ++compared;
        }
        EXPECT_GT(compared, 0) << method;
      }
    }
  }
}

TEST(LcpSolverOption, UnknownMethodIsMisuse) {
  RunResult r = run_obliq("impact " + quote(example("impact.jsonl")) + " --lcp-solver simplex");
  EXPECT_EQ(r.exit_code, 2);
}

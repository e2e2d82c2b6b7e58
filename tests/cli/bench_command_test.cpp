// `obliq bench`: one JSON object per backend with the documented keys, every generated
// scenario solved ok, and misuse exiting 2. (Throughput is a measurement, never asserted.)
#include <gtest/gtest.h>

#include <set>

#include "cli_helpers.hpp"

namespace obliq {
namespace {

using namespace cli_test;

TEST(BenchCommand, JsonLinePerBackend) {
  const auto r = run_obliq("bench --n 6 --m 3 --batch 32 --min-time 0.01 --json --backend cpu,reference --threads 1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto out = parse_lines(r.out);
  ASSERT_EQ(out.size(), 2u);
  std::set<std::string> backends;
  for (const json& j : out) {
    backends.insert(j.at("backend").get<std::string>());
    EXPECT_EQ(j.at("n"), 6);
    EXPECT_EQ(j.at("m"), 3);
    EXPECT_EQ(j.at("law"), "complementarity");
    EXPECT_EQ(j.at("scalar"), "double");
    EXPECT_EQ(j.at("threads"), 1);
    EXPECT_EQ(j.at("batch"), 32);
    EXPECT_EQ(j.at("kind"), "impact");
    EXPECT_GT(j.at("scenarios_per_second").get<double>(), 0.0);
    EXPECT_GE(j.at("seconds").get<double>(), 0.01);
    EXPECT_GE(j.at("runs").get<long>(), 1);
    EXPECT_EQ(j.at("errors"), 0) << "every generated scenario must solve";
    // Every ok answer passed its certificate (tolerance 1e-6 in double), so the batch's worst
    // residual is at most that, and it is reported as a number.
    EXPECT_GE(j.at("worst_certificate_residual").get<double>(), 0.0);
    EXPECT_LE(j.at("worst_certificate_residual").get<double>(), 1e-6);
  }
  EXPECT_EQ(backends, (std::set<std::string>{"cpu", "reference"}));
}

TEST(BenchCommand, EveryKindLawAndScalarSolves) {
  for (const char* kind : {"impact", "dynamics"})
    for (const char* law : {"projection", "complementarity"})
      for (const char* scalar : {"double", "float"}) {
        const std::string args = std::string("bench --n 12 --m 4 --batch 16 --min-time 0.001 --json --backend cpu") +
                                 " --kind " + kind + " --law " + law + " --scalar " + scalar;
        SCOPED_TRACE(args);
        const auto r = run_obliq(args);
        ASSERT_EQ(r.exit_code, 0) << r.err;
        const auto out = parse_lines(r.out);
        ASSERT_EQ(out.size(), 1u);
        EXPECT_EQ(out[0].at("kind"), kind);
        EXPECT_EQ(out[0].at("law"), law);
        EXPECT_EQ(out[0].at("scalar"), scalar);
        EXPECT_EQ(out[0].at("errors"), 0);
      }
}

TEST(BenchCommand, RepeatedBackendOptionAndTextOutput) {
  const auto r = run_obliq("bench --n 3 --m 2 --batch 8 --min-time 0.001 --backend cpu --backend reference");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("cpu"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("reference"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("scenarios/s"), std::string::npos) << r.out;
}

TEST(BenchCommand, MisuseExitsTwo) {
  EXPECT_EQ(run_obliq("bench --m 3").exit_code, 2);
  EXPECT_EQ(run_obliq("bench --n 3").exit_code, 2);
  EXPECT_EQ(run_obliq("bench --n 0 --m 3").exit_code, 2);
  EXPECT_EQ(run_obliq("bench --n 3 --m -1").exit_code, 2);
  EXPECT_EQ(run_obliq("bench --n 3 --m 1 --law newton").exit_code, 2);
  EXPECT_EQ(run_obliq("bench --n 3 --m 1 --scalar half").exit_code, 2);
  EXPECT_EQ(run_obliq("bench --n 3 --m 1 --backend gpu").exit_code, 2);
  EXPECT_EQ(run_obliq("bench --n 3 --m 1 --batch 0").exit_code, 2);
  EXPECT_EQ(run_obliq("bench --help").exit_code, 0);
}

}  // namespace
}  // namespace obliq

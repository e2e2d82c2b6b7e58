// tests/lcp/cli_test.cpp: `obliq lcp` end to end (JSON Lines, Siconos files, exit codes 0/3/2).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

struct CliRun {
  int code;
  std::vector<nlohmann::json> lines;
};

CliRun run(const std::string& args, const std::string& stdin_text = "") {
  // ctest runs each test in its own process, several at once: the file name carries the pid.
  const std::string in = ::testing::TempDir() + "lcp_cli_in_" + std::to_string(::getpid()) + ".txt";
  std::ofstream(in) << stdin_text;
  const std::string cmd = std::string(OBLIQ_CLI_PATH) + " lcp " + args + " < " + in + " 2>/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  while (std::size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  const int status = pclose(p);
  CliRun r{WIFEXITED(status) ? WEXITSTATUS(status) : -1, {}};
  std::istringstream ss(out);
  std::string line;
  while (std::getline(ss, line)) r.lines.push_back(nlohmann::json::parse(line));
  return r;
}

TEST(LcpCli, JsonLinesInOrderWithErrorsAndBlankLines) {
  const std::string text =
      "{\"id\": \"seed004\", \"M\": [[2,1],[1,2]], \"q\": [-3,-3]}\n"
      "\n"
      "{\"M\": [[-1]], \"q\": [-1], \"solver\": \"lemke\"}\n"
      "{\"id\": 7, \"M\": [[1,2]], \"q\": [1]}\n"
      "not json\n"
      "{\"id\": \"e\", \"M\": [[2,1],[1,2]], \"q\": [-3,-3], \"solver\": \"enum\"}\n";
  const CliRun r = run("-", text);
  EXPECT_EQ(r.code, 3);
  ASSERT_EQ(r.lines.size(), 5u);
  EXPECT_EQ(r.lines[0]["id"], "seed004");
  EXPECT_EQ(r.lines[0]["status"], "ok");
  EXPECT_DOUBLE_EQ(r.lines[0]["z"][0].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(r.lines[0]["z"][1].get<double>(), 1.0);
  EXPECT_EQ(r.lines[0]["solver"], "lemke");  // auto starts with Lemke
  EXPECT_EQ(r.lines[1]["id"], 3);            // physical line number (line 2 is blank)
  EXPECT_EQ(r.lines[1]["status"], "error: no solution found (ray termination)");
  EXPECT_FALSE(r.lines[1].contains("z"));
  EXPECT_EQ(r.lines[2]["id"], 7);
  EXPECT_EQ(r.lines[2]["status"].get<std::string>().rfind("error: bad shape", 0), 0u);
  EXPECT_EQ(r.lines[3]["id"], 5);
  EXPECT_EQ(r.lines[3]["status"].get<std::string>().rfind("error: not a JSON object", 0), 0u);
  EXPECT_EQ(r.lines[4]["status"], "ok");
  EXPECT_EQ(r.lines[4]["solver"], "enum");
}

TEST(LcpCli, AllOkExitsZeroAndSolverFlag) {
  const CliRun r = run("- --solver pivot --threads 2", "{\"id\": 1, \"M\": [[2,1],[1,2]], \"q\": [-3,-3]}\n");
  EXPECT_EQ(r.code, 0);
  ASSERT_EQ(r.lines.size(), 1u);
  EXPECT_EQ(r.lines[0]["solver"], "pivot");
  EXPECT_EQ(r.lines[0]["w"].size(), 2u);
}

TEST(LcpCli, SiconosFiles) {
  const std::string dir = OBLIQ_SOURCE_DIR "/tests/data/siconos-lcp/";
  CliRun r = run(dir + "lcp_tobenna.dat");
  EXPECT_EQ(r.code, 0);
  ASSERT_EQ(r.lines.size(), 1u);
  EXPECT_EQ(r.lines[0]["id"], "lcp_tobenna.dat");
  EXPECT_EQ(r.lines[0]["z"].size(), 40u);
  r = run(dir + "lcp_trivial_block.dat --solver lemke");
  EXPECT_EQ(r.code, 0);
  EXPECT_DOUBLE_EQ(r.lines[0]["z"][2].get<double>(), 1.0 / 3.0);  // M = diag(1..9), q = -1
  r = run(dir + "lcp_Pang_isolated_sol_perturbed.dat");
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.lines[0]["status"], "ok");
}

TEST(LcpCli, OutputFileAndMisuse) {
  const std::string out = ::testing::TempDir() + "lcp_cli_out_" + std::to_string(::getpid()) + ".jsonl";
  CliRun r = run("- -o " + out, "{\"M\": [[1]], \"q\": [-1]}\n");
  EXPECT_EQ(r.code, 0);
  EXPECT_TRUE(r.lines.empty());
  std::ifstream f(out);
  std::string line;
  ASSERT_TRUE(std::getline(f, line));
  EXPECT_EQ(nlohmann::json::parse(line)["z"][0], 1.0);
  EXPECT_EQ(run("/nonexistent/file.jsonl").code, 2);
  EXPECT_EQ(run("- --solver simplex", "").code, 2);
  EXPECT_EQ(run("-", "3 0 3 3 3 3 1 2").code, 2);  // truncated Siconos file
}

// The "warm" key: the active set printed by one line warm-starts the next; the answer is the
// same, with 0 pivots and "warm": true; a wrong set falls back ("warm": false, same answer); a
// malformed one is an error line naming it.
TEST(LcpCli, WarmKey) {
  const std::string text =
      "{\"id\": 1, \"M\": [[2,1,0],[1,2,0],[0,0,1]], \"q\": [-3,-3,1]}\n"
      "{\"id\": 2, \"M\": [[2,1,0],[1,2,0],[0,0,1]], \"q\": [-3,-3,1], \"warm\": [0, 1]}\n"
      "{\"id\": 3, \"M\": [[2,1,0],[1,2,0],[0,0,1]], \"q\": [-3,-3,1], \"warm\": [2]}\n"
      "{\"id\": 4, \"M\": [[2,1,0],[1,2,0],[0,0,1]], \"q\": [-3,-3,1], \"warm\": [3]}\n"
      "{\"id\": 5, \"M\": [[2,1,0],[1,2,0],[0,0,1]], \"q\": [-3,-3,1], \"warm\": [1, 1]}\n"
      "{\"id\": 6, \"M\": [[2,1,0],[1,2,0],[0,0,1]], \"q\": [-3,-3,1], \"warm\": \"all\"}\n";
  const CliRun r = run("-", text);
  EXPECT_EQ(r.code, 3);
  ASSERT_EQ(r.lines.size(), 6u);
  EXPECT_EQ(r.lines[0]["active"], nlohmann::json::parse("[0, 1]"));
  EXPECT_FALSE(r.lines[0].contains("warm"));
  EXPECT_GT(r.lines[0]["iterations"].get<int>(), 0);
  EXPECT_EQ(r.lines[1]["status"], "ok");
  EXPECT_EQ(r.lines[1]["warm"], true);
  EXPECT_EQ(r.lines[1]["iterations"], 0);
  EXPECT_NEAR(r.lines[1]["z"][0].get<double>(), 1.0, 1e-12);
  EXPECT_EQ(r.lines[1]["active"], r.lines[0]["active"]);
  EXPECT_EQ(r.lines[2]["status"], "ok");
  EXPECT_EQ(r.lines[2]["warm"], false);
  EXPECT_EQ(r.lines[2]["z"], r.lines[0]["z"]);
  EXPECT_EQ(r.lines[2]["iterations"], r.lines[0]["iterations"]);
  EXPECT_EQ(r.lines[3]["status"], "error: warm: expected an array of distinct indices 0..2 (warm[0] = 3)");
  EXPECT_EQ(r.lines[4]["status"], "error: warm: expected an array of distinct indices 0..2 (warm[1] = 1 repeats)");
  EXPECT_EQ(r.lines[5]["status"], "error: warm: expected an array of distinct indices 0..2, got a string");
}

}  // namespace

// Issue 9: with one global scale, enum and pgs answered "ok" with z = 0, w = (-2, 1e10) here.
// Per-row acceptance: every solver returns the solution z = (2, 0).
TEST(LcpCli, LargeRowDoesNotHideAViolatedRow) {
  for (const char* solver : {"enum", "pgs", "lemke", "pivot", "auto"}) {
    const CliRun r = run(std::string("- --solver ") + solver, "{\"M\":[[1,0],[0,1]],\"q\":[-2,1e10]}\n");
    ASSERT_EQ(r.lines.size(), 1u) << solver;
    EXPECT_EQ(r.code, 0) << solver;
    EXPECT_EQ(r.lines[0]["status"], "ok") << solver;
    EXPECT_NEAR(r.lines[0]["z"][0].get<double>(), 2.0, 1e-9) << solver;
    EXPECT_EQ(r.lines[0]["z"][1].get<double>(), 0.0) << solver;
  }
}

// Rows 1e300 (and 1e-200) times apart: lemke, pivot and auto answered "error: no convergence"
// and enum "error: infeasible" for these feasible problems, whose answer is z = (1, 1). A
// problem whose q differs by 1e150 between two uncoupled rows was answered "ok" by lemke, enum
// and auto with z = (1e150, 0), w = (0, -1). Every solver now returns the solution.
TEST(LcpCli, RowsManyOrdersApartAreSolved) {
  const std::string text =
      "{\"id\": \"big\", \"M\": [[1e300,0],[0,1]], \"q\": [-1e300,-1]}\n"
      "{\"id\": \"tiny\", \"M\": [[1e-200,0],[0,1]], \"q\": [-1e-200,-1]}\n"
      "{\"id\": \"q\", \"M\": [[1,0],[0,1]], \"q\": [-1e150,-1]}\n";
  const double z0[] = {1.0, 1.0, 1e150};
  for (const char* solver : {"lemke", "pivot", "enum", "auto"}) {
    const CliRun r = run(std::string("- --solver ") + solver, text);
    EXPECT_EQ(r.code, 0) << solver;
    ASSERT_EQ(r.lines.size(), 3u) << solver;
    for (int k = 0; k < 3; ++k) {
      EXPECT_EQ(r.lines[k]["status"], "ok") << solver << " line " << k;
      ASSERT_TRUE(r.lines[k].contains("z")) << solver << " line " << k;
      EXPECT_NEAR(r.lines[k]["z"][0].get<double>() / z0[k], 1.0, 1e-12) << solver << " line " << k;
      EXPECT_NEAR(r.lines[k]["z"][1].get<double>(), 1.0, 1e-12) << solver << " line " << k;
      EXPECT_GE(r.lines[k]["w"][1].get<double>(), 0.0) << solver << " line " << k;
    }
  }
}

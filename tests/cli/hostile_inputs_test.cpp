// Hostile and huge inputs (issue 10) for `obliq impact` / `obliq dynamics`: each one gives its
// own error line (or a misuse exit) and the good lines beside it are solved; streaming, signals,
// write errors and an output naming the input lose nothing. The bounds are io/limits.hpp's and
// docs/limits.md's.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <csignal>
#include <filesystem>

#include "cli_helpers.hpp"
#include "io/limits.hpp"
#include "support/child_process.hpp"

namespace obliq {
namespace {

using namespace cli_test;
using test_support::Child;

const std::string kGood = R"({"id": "good", "M": [[2, 0], [0, 1]], "qdot": [0, -1], "A_u": [[0, 1]], "e": 0})";
// For dynamics: the same body resting on its row under gravity (h = (0, 9.81)).
const std::string kGoodResting = R"({"id": "rest", "M": [[2, 0], [0, 1]], "qdot": [0, 0], "h": [0, 9.81], "A_u": [[0, 1]]})";
const std::string& good_line(const std::string& command) { return command == "dynamics" ? kGoodResting : kGood; }

// The good line's answer: the ball stops (e = 0), impulse (0, 1), energy 1/2 -> 0.
void expect_good(const json& j) {
  ASSERT_EQ(status_of(j), "ok") << j.dump();
  EXPECT_EQ(j.at("id"), "good");
  EXPECT_TRUE(near(vec(j.at("qdot_plus")), Eigen::Vector2d(0, 0), 1e-14));
  EXPECT_TRUE(near(vec(j.at("impulse")), Eigen::Vector2d(0, 1), 1e-14));
}

void expect_no_null_on_ok_lines(const std::string& out) {
  for (const json& j : parse_lines(out))
    if (status_of(j) == "ok") EXPECT_FALSE(has_null(j)) << j.dump();
}

RunResult run_lines(const std::string& command, const std::vector<std::string>& lines, const std::string& extra = "") {
  std::string text;
  for (const auto& l : lines) text += l + "\n";
  static int k = 0;
  const auto path = write_temp("hostile" + std::to_string(++k) + ".jsonl", text);
  return run_obliq(command + " " + quote(path.string()) + " " + extra);
}

TEST(HostileInputs, IdNested100000LevelsDeep) {
  const std::string deep = "{\"id\": " + std::string(100000, '[') + std::string(100000, ']') + ", \"M\": [[1]], \"qdot\": [0]}";
  for (const char* command : {"impact", "dynamics"}) {
    const auto r = run_lines(command, {good_line(command), deep, good_line(command)});
    EXPECT_EQ(r.exit_code, 3) << r.err;
    const auto out = parse_lines(r.out);
    ASSERT_EQ(out.size(), 3u);
    EXPECT_EQ(out[1].at("id"), 2);
    EXPECT_EQ(status_of(out[1]), "error: too deeply nested (more than 64 levels of [ and {)");
    EXPECT_EQ(status_of(out[0]), "ok");
    EXPECT_EQ(status_of(out[2]), "ok");
  }
}

TEST(HostileInputs, TwentyThousandRowsInAuIsTooLarge) {
  std::string rows;
  for (int i = 0; i < 20000; ++i) rows += std::string(i ? "," : "") + "[0, 1]";
  const std::string big = R"({"id": "big", "M": [[1, 0], [0, 1]], "qdot": [0, -1], "A_u": [)" + rows + "]}";
  for (const char* command : {"impact", "dynamics"}) {
    const auto r = run_lines(command, {good_line(command), big, good_line(command)}, "--threads 2");
    EXPECT_EQ(r.exit_code, 3) << r.err;
    const auto out = parse_lines(r.out);
    ASSERT_EQ(out.size(), 3u);
    EXPECT_EQ(out[1].at("id"), "big");
    EXPECT_EQ(status_of(out[1]), "error: too large (m_b + m_u = 20000 rows in A_b and A_u; at most 1024)");
    EXPECT_EQ(status_of(out[0]), "ok");
    EXPECT_EQ(status_of(out[2]), "ok");
  }
}

TEST(HostileInputs, MoreThan1024DofsIsTooLarge) {
  std::string row = "[0";
  for (int k = 1; k < 1025; ++k) row += ",0";
  row += "]";
  std::string M = "[" + row;
  for (int k = 1; k < 1025; ++k) M += "," + row;
  M += "]";
  const auto r = run_lines("impact", {kGood, "{\"id\": \"wide\", \"M\": " + M + ", \"qdot\": [0]}", kGood});
  EXPECT_EQ(r.exit_code, 3);
  const auto out = parse_lines(r.out);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(status_of(out[1]), "error: too large (n = 1025 from M; at most 1024)");
  expect_good(out[0]);
  expect_good(out[2]);
}

TEST(HostileInputs, ThreadCountOutOfRangeIsMisuse) {
  const auto r = run_lines("impact", {kGood}, "--threads 65536");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("--threads"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("256"), std::string::npos) << r.err;
  const auto ok = run_lines("impact", {kGood}, "--threads 256");  // the bound itself works
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  ASSERT_EQ(parse_lines(ok.out).size(), 1u);
  expect_good(parse_lines(ok.out)[0]);
}

TEST(HostileInputs, OutputNamingTheInputIsRefusedAndTheInputKept) {
  const auto path = write_temp("same.jsonl", kGood + "\n");
  const auto link = temp_dir() / "same_link.jsonl";
  std::filesystem::remove(link);
  std::filesystem::create_hard_link(path, link);
  for (const auto& out : {path, link}) {
    const auto r = run_obliq("impact " + quote(path.string()) + " -o " + quote(out.string()));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("it is the input file"), std::string::npos) << r.err;
    EXPECT_EQ(read_text(path), kGood + "\n");
  }
}

TEST(HostileInputs, NonFiniteLiteralAndSyntaxErrorsKeepTheirOwnId) {
  const auto r = run_lines("impact", {R"({"id": "nan line", "M": [[1]], "qdot": [NaN]})",
                                      R"({"id": "inf line", "M": [[1]], "qdot": [-Infinity]})",
                                      R"({"id": "overflow", "M": [[1e999]], "qdot": [1]})",
                                      R"({"id": {"k": [1, 2]}, "M": [[1]], "qdot": [1], oops})", kGood});
  EXPECT_EQ(r.exit_code, 3);
  const auto out = parse_lines(r.out);
  ASSERT_EQ(out.size(), 5u);
  EXPECT_EQ(out[0].at("id"), "nan line");
  EXPECT_EQ(status_of(out[0]), "error: non-finite number in qdot[0]");
  EXPECT_EQ(out[1].at("id"), "inf line");
  EXPECT_EQ(status_of(out[1]), "error: non-finite number in qdot[0]");
  EXPECT_EQ(out[2].at("id"), "overflow");
  EXPECT_EQ(status_of(out[2]), "error: non-finite number in M[0][0]");
  EXPECT_EQ(out[3].at("id"), json::parse(R"({"k": [1, 2]})"));
  EXPECT_EQ(status_of(out[3]).rfind("error: not a JSON object (invalid JSON: ", 0), 0u);
  expect_good(out[4]);
}

TEST(HostileInputs, LineLongerThanTheBound) {
  const std::string pad(io::kMaxLineBytes, 'a');
  const auto r = run_lines("impact", {kGood, "{\"id\": \"long\", \"pad\": \"" + pad + "\"}", kGood});
  EXPECT_EQ(r.exit_code, 3);
  const auto out = parse_lines(r.out);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[1].at("id"), 2);
  EXPECT_EQ(status_of(out[1]), "error: line too long (more than 134217728 bytes)");
  expect_good(out[0]);
  expect_good(out[2]);
}

TEST(HostileInputs, OverflowingResultsAreErrorsNeverNull) {
  const auto r = run_lines("impact", {R"({"id": "e", "M": [[1e300]], "qdot": [1e300], "A_u": [[1e300]], "e": 1})",
                                      R"({"id": "q", "M": [[1]], "qdot": [1e300]})", kGood});
  EXPECT_EQ(r.exit_code, 3);
  const auto out = parse_lines(r.out);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(status_of(out[0]).rfind("error: non-finite result: ", 0), 0u) << out[0].dump();
  EXPECT_EQ(status_of(out[1]), "error: non-finite result: kinetic_energy_pre overflows double precision");
  expect_good(out[2]);
  expect_no_null_on_ok_lines(r.out);
  EXPECT_EQ(r.out.find("null"), std::string::npos);
}

TEST(HostileInputs, NoNullOnAnyOkLineOfTheExamples) {
  for (const char* command : {"impact", "dynamics"})
    for (const char* file : {"impact.jsonl", "dynamics.jsonl", "bad_lines.jsonl"}) {
      const auto r = run_obliq(std::string(command) + " " + quote(example(file)));
      EXPECT_NE(r.out, "");
      expect_no_null_on_ok_lines(r.out);
    }
}

// A slow producer gets each answer before it writes the next line (the test waits for the
// output before writing: without streaming it would wait until its deadline and fail).
TEST(HostileInputs, SlowProducerGetsEachAnswerBeforeTheNextLine) {
  Child c({OBLIQ_CLI_PATH, "impact", "-"}, (temp_dir() / "slow.err").string());
  ASSERT_TRUE(c.started());
  ASSERT_TRUE(c.write(kGood + "\n"));
  const std::string first = c.read_lines(1);
  ASSERT_EQ(parse_lines(first).size(), 1u) << "no output for the first line while the input stays open";
  expect_good(parse_lines(first)[0]);
  ASSERT_TRUE(c.write(kGood + "\n"));
  ASSERT_EQ(parse_lines(c.read_lines(2)).size(), 2u);
  c.close_input();
  EXPECT_EQ(c.read_all().size(), 2 * first.size());
  EXPECT_EQ(c.wait(), 0);
}

// The same for `obliq lcp -` (it read the whole input before solving) and `obliq model --state -`:
// each answer comes while the input is still open.
TEST(HostileInputs, LcpAndModelStreamToo) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{OBLIQ_CLI_PATH, "lcp", "-"}, R"({"id": "p", "M": [[2, 1], [1, 2]], "q": [-3, -3]})"},
      {{OBLIQ_CLI_PATH, "model", "ball", "--state", "-"}, R"({"id": "s", "q": [0, 0, 1], "qdot": [0, 0, -1]})"}};
  for (const auto& [argv, line] : cases) {
    Child c(argv, (temp_dir() / "stream.err").string());
    ASSERT_TRUE(c.started());
    ASSERT_TRUE(c.write(line + "\n"));
    const auto first = parse_lines(c.read_lines(1));
    ASSERT_EQ(first.size(), 1u) << argv[1] << ": no output for the first line while the input stays open";
    EXPECT_EQ(status_of(first[0]), "ok") << first[0].dump();
    ASSERT_TRUE(c.write(line + "\n"));
    ASSERT_EQ(parse_lines(c.read_lines(2)).size(), 2u) << argv[1];
    c.close_input();
    c.read_all();
    EXPECT_EQ(c.wait(), 0) << argv[1];
  }
}

// SIGINT / SIGTERM: the lines read are answered, whole, and the exit code is 128 + signal; a line
// cut by the signal (half written by the producer) is dropped.
TEST(HostileInputs, SignalsFinishTheLinesReadAndExit130Or143) {
  for (int sig : {SIGINT, SIGTERM}) {
    const auto err = temp_dir() / "signal.err";
    Child c({OBLIQ_CLI_PATH, "dynamics", "-"}, err.string());
    ASSERT_TRUE(c.started());
    ASSERT_TRUE(c.write(kGoodResting + "\n"));
    ASSERT_EQ(parse_lines(c.read_lines(1)).size(), 1u);
    ASSERT_TRUE(c.write(kGoodResting.substr(0, kGoodResting.size() / 2)));  // half a line
    c.signal(sig);
    const std::string out = c.read_all();
    EXPECT_EQ(c.wait(), 128 + sig);
    EXPECT_FALSE(c.killed_by_signal());  // it exited with that code, it was not killed
    ASSERT_FALSE(out.empty());
    EXPECT_EQ(out.back(), '\n');
    const auto lines = parse_lines(out);
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_EQ(status_of(lines[0]), "ok");
    EXPECT_NE(read_text(err).find("stopped by signal"), std::string::npos) << read_text(err);
  }
}

TEST(HostileInputs, FullDiskIsReportedAtOnce) {
  const auto r = run_lines("impact", {kGood}, "-o /dev/full");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("cannot write '/dev/full': No space left on device"), std::string::npos) << r.err;
  // At once: the first answer fails while the input is still open, and obliq exits.
  Child c({OBLIQ_CLI_PATH, "impact", "-", "-o", "/dev/full"}, (temp_dir() / "full.err").string());
  ASSERT_TRUE(c.started());
  ASSERT_TRUE(c.write(kGood + "\n"));
  EXPECT_EQ(c.wait(), 2);
}

TEST(HostileInputs, ClosedPipeIsReportedWithNonzeroExit) {
  std::string text;
  for (int k = 0; k < 4000; ++k) text += kGood + "\n";  // far more output than a pipe holds
  const auto path = write_temp("many.jsonl", text);
  const auto err = temp_dir() / "pipe.err";
  const std::string cmd = "bash -c " + quote(quote(OBLIQ_CLI_PATH) + " impact " + quote(path.string()) + " 2> " +
                                             quote(err.string()) + " | true; exit ${PIPESTATUS[0]}");
  const int st = std::system(cmd.c_str());
  EXPECT_EQ(WIFEXITED(st) ? WEXITSTATUS(st) : -1, 2);
  EXPECT_NE(read_text(err).find("cannot write '-': Broken pipe"), std::string::npos) << read_text(err);
}

}  // namespace
}  // namespace obliq

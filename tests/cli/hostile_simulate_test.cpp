// Hostile inputs for `obliq simulate` (issue 10's rules on the command added after it): a bad line
// (nested too deeply, a non-finite literal, a state whose numbers overflow) is its own error line,
// keeping its id, and the others run; no null on an ok line; --threads past the bound and -o naming
// the state file are misuse (exit 2, the file kept); SIGINT/SIGTERM stops a long run after a whole
// record with exit 130/143; a closed pipe is reported at once.
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>

#include "cli_helpers.hpp"
#include "support/child_process.hpp"

namespace obliq {
namespace {

using namespace cli_test;
using test_support::Child;

const std::string kBall = R"({"id": "ball", "q": [0, 0, 0.5], "qdot": [0, 0, 0]})";

RunResult simulate(const std::vector<std::string>& lines, const std::string& extra) {
  std::string text;
  for (const auto& l : lines) text += l + "\n";
  static int k = 0;
  const auto path = write_temp("hostile_sim" + std::to_string(++k) + ".jsonl", text);
  return run_obliq("simulate ball --state " + quote(path.string()) + " --quiet " + extra);
}

TEST(HostileSimulate, BadLinesKeepTheirIdsAndTheOthersRun) {
  const std::string deep = "{\"id\": " + std::string(100000, '[') + std::string(100000, ']') + ", \"q\": [0, 0, 1]}";
  const auto r = simulate({kBall, deep, R"({"id": "nan", "q": [0, 0, NaN], "qdot": [0, 0, 0]})",
                           R"({"id": "u", "q": [0, 0, 1], "qdot": [0, 0, 0], "u": [0, 1e999, 0]})"},
                          "--dt 0.01 --steps 2");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  const auto out = parse_lines(r.out);
  ASSERT_EQ(out.size(), 3u + 3u);  // three error lines first, then three records of "ball"
  EXPECT_EQ(out[0].at("id"), 2);
  EXPECT_EQ(status_of(out[0]), "error: too deeply nested (more than 64 levels of [ and {)");
  EXPECT_EQ(out[1].at("id"), "nan");
  EXPECT_EQ(status_of(out[1]), "error: non-finite number in q[2]");
  EXPECT_EQ(out[2].at("id"), "u");
  EXPECT_EQ(status_of(out[2]), "error: non-finite number in u[1]");
  for (int k = 3; k < 6; ++k) {
    EXPECT_EQ(out[k].at("id"), "ball");
    EXPECT_EQ(status_of(out[k]), "ok");
  }
}

// A velocity near the largest double: the first step overflows q. The scenario gets one error line
// naming the quantity (never an ok line with null) and the good scenario runs on.
TEST(HostileSimulate, OverflowIsAnErrorLineNeverNull) {
  const auto r = simulate({R"({"id": "fast", "q": [0, 0, 1e308], "qdot": [1e308, 0, 1e308]})", kBall},
                          "--dt 10 --steps 3");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  const auto out = parse_lines(r.out);
  ASSERT_FALSE(out.empty());
  bool fast_error = false;
  int ball_records = 0;
  for (const json& j : out) {
    if (status_of(j) == "ok") EXPECT_FALSE(has_null(j)) << j.dump();
    if (j.at("id") == "fast" && status_of(j) != "ok") {
      EXPECT_EQ(status_of(j).rfind("error: non-finite result: ", 0), 0u) << j.dump();
      fast_error = true;
    }
    ball_records += j.at("id") == "ball";
  }
  EXPECT_TRUE(fast_error) << r.out;
  EXPECT_EQ(ball_records, 4);
  EXPECT_EQ(r.out.find("null"), std::string::npos) << r.out;
}

// A floating base's quaternion that is zero or not of unit norm: the error names the quaternion
// (it once said "bad shape", though every size was right); the good state runs on.
TEST(HostileSimulate, BadQuaternionIsNamed) {
  const auto state = [](const std::string& id, const std::string& quat) {
    std::string q = "[0, 0, 0.6, " + quat;
    for (int k = 0; k < 12; ++k) q += ", 0";
    std::string v = "[0";
    for (int k = 1; k < 18; ++k) v += ", 0";
    return R"({"id": ")" + id + R"(", "q": )" + q + R"(], "qdot": )" + v + "]}";
  };
  std::string text = state("zero", "0, 0, 0, 0") + "\n" + state("long", "0, 0, 0, 2") + "\n" +
                     state("good", "0, 0, 0, 1") + "\n";
  const auto path = write_temp("hostile_sim_quaternion.jsonl", text);
  const auto r = run_obliq("simulate quadruped --state " + quote(path.string()) + " --quiet --dt 0.001 --steps 2");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  const std::string reason = "error: free-flyer quaternion (qx, qy, qz, qw) is zero, not finite or not of unit norm";
  int good = 0;
  bool zero = false, lng = false;
  for (const json& j : parse_lines(r.out)) {
    const std::string id = j.at("id");
    zero = zero || id == "zero";
    lng = lng || id == "long";
    good += id == "good";
    EXPECT_EQ(status_of(j), id == "good" ? std::string("ok") : reason) << j.dump();
  }
  EXPECT_TRUE(zero && lng) << r.out;
  EXPECT_EQ(good, 3);  // the initial state and two steps
}

TEST(HostileSimulate, ThreadsPastTheBoundIsMisuse) {
  const auto r = simulate({kBall}, "--dt 0.01 --steps 1 --threads 65536");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("256"), std::string::npos) << r.err;
}

TEST(HostileSimulate, OutputNamingTheStateFileIsRefused) {
  const auto path = write_temp("sim_same.jsonl", kBall + "\n");
  const auto r = run_obliq("simulate ball --state " + quote(path.string()) + " --dt 0.01 --steps 1 -o " +
                           quote(path.string()));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("it is the input file"), std::string::npos) << r.err;
  EXPECT_EQ(read_text(path), kBall + "\n");
}

// A run far longer than the test: the signal stops it after a whole record; every line is whole,
// the records written so far are ok lines, and the exit code is 128 + signal.
TEST(HostileSimulate, SignalStopsALongRunAfterAWholeRecord) {
  for (int sig : {SIGINT, SIGTERM}) {
    const auto err = temp_dir() / "sim_signal.err";
    Child c({OBLIQ_CLI_PATH, "simulate", "ball", "--state", "-", "--dt", "1e-6", "--steps", "1000000000000", "--record",
             "1000", "--quiet"},
            err.string());
    ASSERT_TRUE(c.started());
    ASSERT_TRUE(c.write(kBall + "\n"));
    c.close_input();
    ASSERT_GE(parse_lines(c.read_lines(3)).size(), 3u);  // it runs and writes as it goes
    c.signal(sig);
    const std::string out = c.read_all();
    EXPECT_EQ(c.wait(), 128 + sig);
    EXPECT_FALSE(c.killed_by_signal());
    ASSERT_FALSE(out.empty());
    EXPECT_EQ(out.back(), '\n');
    for (const json& j : parse_lines(out)) EXPECT_EQ(status_of(j), "ok");
    EXPECT_NE(read_text(err).find("stopped by signal"), std::string::npos) << read_text(err);
  }
}

TEST(HostileSimulate, ClosedPipeIsReportedAtOnce) {
  const auto path = write_temp("sim_pipe.jsonl", kBall + "\n");
  const auto err = temp_dir() / "sim_pipe.err";
  // Far more output than a pipe holds; `head -c 1` reads one byte and closes the pipe.
  const std::string cmd = "bash -c " + quote(quote(OBLIQ_CLI_PATH) + " simulate ball --quiet --dt 1e-6 --steps 100000000 --state " +
                                             quote(path.string()) + " 2> " + quote(err.string()) +
                                             " | head -c 1 > /dev/null; exit ${PIPESTATUS[0]}");
  const int st = std::system(cmd.c_str());
  EXPECT_EQ(WIFEXITED(st) ? WEXITSTATUS(st) : -1, 2);
  EXPECT_NE(read_text(err).find("cannot write '-': Broken pipe"), std::string::npos) << read_text(err);
}

}  // namespace
}  // namespace obliq

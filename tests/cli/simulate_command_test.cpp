// `obliq simulate` end to end: records per scenario, both integrators on a built-in model and on
// the bundled URDF, raw scenario lines, bad lines as error lines (exit 3), misuse (exit 2).
#include <string>

#include "cli/cli_helpers.hpp"

namespace obliq::cli_test {
namespace {

const std::string kBall = R"({"id":"a","q":[0,0,0.6],"qdot":[0.1,0,0]})" "\n"
                          R"({"id":"b","q":[0,0,0.3],"qdot":[0,0,-1],"e":0.9})" "\n";

TEST(SimulateCommand, RecordsEveryNthStepPerScenario) {
  for (const char* integ : {"moreau", "event"}) {
    const auto states = write_temp("ball_states.jsonl", kBall);
    const RunResult r = run_obliq("simulate ball --state " + quote(states.string()) +
                                  " --dt 0.001 --steps 600 --record 200 --e 0.5 --integrator " + integ);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto lines = parse_lines(r.out);
    ASSERT_EQ(lines.size(), 2u * 4u);  // t = 0, 0.2, 0.4, 0.6 for a and b, interleaved
    for (std::size_t k = 0; k < lines.size(); ++k) {
      EXPECT_EQ(lines[k]["id"], k % 2 ? "b" : "a");
      EXPECT_EQ(lines[k]["status"], "ok");
      EXPECT_NEAR(lines[k]["t"].get<double>(), 0.2 * double(k / 2), 1e-12);
      EXPECT_EQ(lines[k]["q"].size(), 3u);
      EXPECT_EQ(lines[k]["qdot"].size(), 3u);
      EXPECT_TRUE(lines[k].contains("kinetic_energy") && lines[k].contains("potential_energy"));
    }
    // Both balls have landed by t = 0.6 s; b with its own e = 0.9.
    EXPECT_GT(lines[6]["impacts"].get<int>(), 0);
    EXPECT_GT(lines[7]["impacts"].get<int>(), 0);
    EXPECT_TRUE(lines[7].contains("last_impact_t"));
  }
}

TEST(SimulateCommand, UrdfAndRawScenario) {
  const std::string urdf = std::string(OBLIQ_SOURCE_DIR) + "/models/double_pendulum.urdf";
  const auto states = write_temp("pendulum_states.jsonl", R"({"id":"p","q":[0.3,-0.2],"qdot":[0,0]})" "\n");
  for (const char* integ : {"moreau", "event"}) {
    const RunResult r = run_obliq("simulate " + quote(urdf) + " --state " + quote(states.string()) +
                                  " --dt 0.001 --steps 100 --record 100 --integrator " + integ);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto lines = parse_lines(r.out);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[1]["status"], "ok");
    EXPECT_NE(lines[1]["q"][0].get<double>(), 0.3);  // it swung
  }
  // A raw system: a unit mass over a floor 0.5 below, gravity in h; lands by t = 0.5.
  const auto raw = write_temp("raw.jsonl",
                              R"({"id":"r","M":[[1]],"h":[9.81],"A_u":[[1]],"phi_u":[0.5],"qdot":[0],"e":0.5})" "\n");
  const RunResult r = run_obliq("simulate scenario --state " + quote(raw.string()) +
                                " --dt 0.001 --steps 500 --record 500 --integrator event");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = parse_lines(r.out);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[1]["impacts"], 1);
  EXPECT_NEAR(lines[1]["last_impact_t"].get<double>(), std::sqrt(2 * 0.5 / 9.81), 1e-12);
}

TEST(SimulateCommand, BadLinesAreErrorLines) {
  const auto states = write_temp("bad_states.jsonl", std::string(R"({"id":"good","q":[0,0,0.5],"qdot":[0,0,0]})") +
                                                         "\n" + R"({"id":"short","q":[0,0],"qdot":[0,0,0]})" + "\n" +
                                                         R"({"id":"e","q":[0,0,0.5],"qdot":[0,0,0],"e":2})" + "\n" +
                                                         "not json\n");
  const RunResult r = run_obliq("simulate ball --state " + quote(states.string()) + " --dt 0.01 --steps 3");
  EXPECT_EQ(r.exit_code, 3);
  const auto lines = parse_lines(r.out);
  ASSERT_EQ(lines.size(), 3u + 4u);  // three error lines, then four records of "good"
  EXPECT_EQ(lines[0]["id"], "short");
  EXPECT_EQ(lines[1]["id"], "e");
  EXPECT_EQ(lines[2]["id"], 4);
  for (int k = 0; k < 3; ++k) EXPECT_EQ(lines[k]["status"].get<std::string>().rfind("error: ", 0), 0u);
  for (int k = 3; k < 7; ++k) EXPECT_EQ(lines[k]["id"], "good");
  EXPECT_EQ(run_obliq("simulate ball --state " + quote(states.string()) + " --dt -1 --steps 3").exit_code, 2);
  EXPECT_EQ(run_obliq("simulate nomodel --state " + quote(states.string()) + " --dt 0.1 --steps 3").exit_code, 2);
  EXPECT_TRUE(run_obliq("simulate ball --state " + quote(states.string()) + " --dt 0.01 --steps 3 --quiet").err.empty());
}

}  // namespace
}  // namespace obliq::cli_test

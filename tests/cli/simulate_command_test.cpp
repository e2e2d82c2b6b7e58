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

// Friction (Moreau-Jean): --mu on a model (the ball slides to a stop after v0^2 / (2 mu g), the
// trapezoid rule's distance to within mu g h^2), a line's own "mu" (0: no friction), --mu 0 is
// byte for byte the run without it, raw lines with "mu" and "A_t" (a ball rolling at 5/7 v0),
// a negative mu is an error line; event-driven: the stop distance exactly.
TEST(SimulateCommand, Friction) {
  const auto states = write_temp("slide_states.jsonl", std::string(R"({"id":"s","q":[0,0,0.1],"qdot":[1.5,0,0]})") +
                                                           "\n" + R"({"id":"free","q":[0,0,0.1],"qdot":[1.5,0,0],"mu":0})" +
                                                           "\n" + R"({"id":"neg","q":[0,0,0.1],"qdot":[1,0,0],"mu":-0.1})" + "\n");
  const std::string common = "simulate ball --state " + quote(states.string()) + " --dt 0.001 --steps 800 --record 800";
  const RunResult r = run_obliq(common + " --mu 0.3");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  const auto lines = parse_lines(r.out);
  ASSERT_EQ(lines.size(), 1u + 2u * 2u);
  EXPECT_EQ(lines[0]["id"], "neg");
  EXPECT_EQ(lines[0]["status"], "error: mu negative");
  const double mu = 0.3, g = 9.81, v0 = 1.5;
  EXPECT_EQ(lines[3]["id"], "s");
  EXPECT_EQ(lines[3]["qdot"][0].get<double>(), 0.0);
  EXPECT_NEAR(lines[3]["q"][0].get<double>(), v0 * v0 / (2 * mu * g), mu * g * 1e-6);
  EXPECT_EQ(lines[4]["id"], "free");
  EXPECT_EQ(lines[4]["qdot"][0].get<double>(), v0);  // its own mu = 0
  EXPECT_EQ(run_obliq(common).out, run_obliq(common + " --mu 0").out);
  const RunResult ev = run_obliq(common + " --mu 0.3 --integrator event");  // the same stop, event-driven
  EXPECT_EQ(ev.exit_code, 3) << ev.err;                                      // (the "neg" line)
  const auto evl = parse_lines(ev.out);
  ASSERT_EQ(evl.size(), 5u);
  EXPECT_NEAR(evl[3]["q"][0].get<double>(), v0 * v0 / (2 * mu * g), 1e-9);
  EXPECT_EQ(run_obliq(common + " --mu -1").exit_code, 2);

  // Planar ball (x, z, w), m 2, R 0.1, I = 2/5 m R^2, sliding without spin: rolls at 5/7 v0.
  const auto raw = write_temp("roll.jsonl", R"({"id":"r","M":[[2,0,0],[0,2,0],[0,0,0.008]],"h":[0,19.62,0],)"
                                            R"("A_u":[[0,1,0]],"phi_u":[0],"qdot":[2,0,0],"mu":0.25,"A_t":[[1,0,0.1]]})" "\n");
  const RunResult rr = run_obliq("simulate scenario --state " + quote(raw.string()) + " --dt 0.001 --steps 1000 --record 1000");
  ASSERT_EQ(rr.exit_code, 0) << rr.err;
  const auto roll = parse_lines(rr.out);
  ASSERT_EQ(roll.size(), 2u);
  EXPECT_NEAR(roll[1]["qdot"][0].get<double>(), 5.0 / 7.0 * 2.0, 1e-9);
  EXPECT_NEAR(roll[1]["qdot"][0].get<double>() + 0.1 * roll[1]["qdot"][2].get<double>(), 0.0, 1e-9);
}

}  // namespace
}  // namespace obliq::cli_test

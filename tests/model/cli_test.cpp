// `obliq model` end to end: a bundled URDF (models/double_pendulum.urdf) against its closed-form
// mass matrix, gravity terms and contact row; piped into `obliq impact -`; a built-in model with
// --impact; bad state lines as error lines with exit status 3.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

using nlohmann::json;

namespace {

struct CliRun {
  int status = -1;
  std::vector<json> lines;
};

CliRun run(const std::string& command) {
  CliRun r;
  FILE* p = popen(command.c_str(), "r");
  if (!p) return r;
  std::string out;
  char buf[4096];
  while (size_t k = fread(buf, 1, sizeof buf, p)) out.append(buf, k);
  const int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  size_t start = 0;
  while (start < out.size()) {
    size_t end = out.find('\n', start);
    if (end == std::string::npos) end = out.size();
    if (end > start) r.lines.push_back(json::parse(out.substr(start, end - start)));
    start = end + 1;
  }
  return r;
}

std::string write_states(const std::string& name, const std::string& text) {
  // ctest runs each test in its own process, several at once: the file name carries the pid.
  const std::string path = std::string(::testing::TempDir()) + std::to_string(::getpid()) + "_" + name;
  std::ofstream(path) << text;
  return path;
}

const std::string cli = OBLIQ_CLI_PATH;
const std::string urdf = std::string(OBLIQ_SOURCE_DIR) + "/models/double_pendulum.urdf";

}  // namespace

TEST(ModelCli, UrdfDoublePendulumClosedForm) {
  const double q1 = 0.3, q2 = -0.5, v1 = 1.0, v2 = -2.0, g = 9.81;
  const double m1 = 1, c1 = 0.25, I1 = 0.01, l1 = 0.5, m2 = 0.5, c2 = 0.2, I2 = 0.02, l2 = 0.4;
  const std::string states = write_states("dp.jsonl", "{\"id\": \"s\", \"q\": [0.3, -0.5], \"qdot\": [1.0, -2.0]}\n");
  const CliRun r = run(cli + " model " + urdf + " --state " + states + " --contact tip");
  ASSERT_EQ(r.status, 0);
  ASSERT_EQ(r.lines.size(), 1u);
  const json& j = r.lines[0];
  EXPECT_EQ(j["joint_names"], json({"shoulder", "elbow"}));
  const double M11 = I1 + m1 * c1 * c1 + I2 + m2 * (l1 * l1 + c2 * c2 + 2 * l1 * c2 * std::cos(q2));
  const double M12 = I2 + m2 * (c2 * c2 + l1 * c2 * std::cos(q2));
  const double M22 = I2 + m2 * c2 * c2;
  EXPECT_NEAR(j["M"][0][0].get<double>(), M11, 1e-14);
  EXPECT_NEAR(j["M"][0][1].get<double>(), M12, 1e-14);
  EXPECT_NEAR(j["M"][1][0].get<double>(), M12, 1e-14);
  EXPECT_NEAR(j["M"][1][1].get<double>(), M22, 1e-14);
  // h = C qdot + dV/dq; Coriolis of the double pendulum: with s = m2 l1 c2 sin(q2),
  // C qdot = (-s (2 v1 v2 + v2^2), s v1^2).
  const double s = m2 * l1 * c2 * std::sin(q2);
  const double h1 = -s * (2 * v1 * v2 + v2 * v2) + g * (m1 * c1 * std::sin(q1) + m2 * (l1 * std::sin(q1) + c2 * std::sin(q1 + q2)));
  const double h2 = s * v1 * v1 + g * m2 * c2 * std::sin(q1 + q2);
  EXPECT_NEAR(j["h"][0].get<double>(), h1, 1e-13);
  EXPECT_NEAR(j["h"][1].get<double>(), h2, 1e-13);
  // Tip height z = -l1 cos q1 - l2 cos(q1 + q2), its row dz/dq and its drift d/dt(dz/dq) qdot.
  EXPECT_NEAR(j["phi_u"][0].get<double>(), -l1 * std::cos(q1) - l2 * std::cos(q1 + q2), 1e-15);
  EXPECT_NEAR(j["A_u"][0][0].get<double>(), l1 * std::sin(q1) + l2 * std::sin(q1 + q2), 1e-15);
  EXPECT_NEAR(j["A_u"][0][1].get<double>(), l2 * std::sin(q1 + q2), 1e-15);
  const double w12 = v1 + v2;
  EXPECT_NEAR(j["Adot_qdot"][0].get<double>(), l1 * std::cos(q1) * v1 * v1 + l2 * std::cos(q1 + q2) * w12 * w12, 1e-14);
}

// The pendulum's tip strikes the ground (placed at the tip's height): piped into the solver,
// the tip's vertical velocity reverses with e, by Newton's law.
TEST(ModelCli, UrdfPipedIntoImpact) {
  const double q1 = 0.3, q2 = -0.5, l1 = 0.5, l2 = 0.4;
  const double z = -l1 * std::cos(q1) - l2 * std::cos(q1 + q2);
  const double a1 = l1 * std::sin(q1) + l2 * std::sin(q1 + q2), a2 = l2 * std::sin(q1 + q2);
  const double v1 = -1.0, v2 = 0.5;  // tip moving down: a1 v1 + a2 v2 < 0
  ASSERT_LT(a1 * v1 + a2 * v2, 0);
  char ground[64];
  std::snprintf(ground, sizeof ground, "%.17g", z);
  const std::string states = write_states("dp2.jsonl", "{\"q\": [0.3, -0.5], \"qdot\": [-1.0, 0.5]}\n");
  const CliRun r = run(cli + " model " + urdf + " --state " + states + " --contact tip --ground " + ground +
                    " --e 0.5 | " + cli + " impact -");
  ASSERT_EQ(r.status, 0);
  ASSERT_EQ(r.lines.size(), 1u);
  const json& j = r.lines[0];
  ASSERT_EQ(j["status"], "ok");
  EXPECT_EQ(j["id"], 1);
  const double w1 = j["qdot_plus"][0], w2 = j["qdot_plus"][1];
  EXPECT_NEAR(a1 * w1 + a2 * w2, -0.5 * (a1 * v1 + a2 * v2), 1e-12);
  EXPECT_GT(j["lambda"][0].get<double>(), 0);
}

TEST(ModelCli, BuiltinCradleWithImpactAndBadLines) {
  const std::string states = write_states(
      "cradle.jsonl", "{\"id\": 7, \"q\": [0, 0, 0], \"qdot\": [-1, 0, 0]}\n\n{\"q\": [0, 0], \"qdot\": [0, 0, 0]}\nnot json\n"
                      "{\"q\": [0, 0, 0], \"qdot\": [0, 1e999, 0]}\n");
  const CliRun r = run(cli + " model cradle --state " + states + " --impact --e 1 --gravity 0,0,0");
  EXPECT_EQ(r.status, 3);
  ASSERT_EQ(r.lines.size(), 4u);
  const json& j = r.lines[0];
  ASSERT_EQ(j["status"], "ok");
  EXPECT_EQ(j["id"], 7);
  EXPECT_NEAR(j["qdot_plus"][0].get<double>(), 1.0 / 3, 1e-12);
  EXPECT_NEAR(j["qdot_plus"][1].get<double>(), -2.0 / 3, 1e-12);
  EXPECT_NEAR(j["qdot_plus"][2].get<double>(), -2.0 / 3, 1e-12);
  // Hanging straight down, the strings are vertical: no pivot passes an x impulse, each ball's x
  // momentum jump is the net contact impulse on it.
  ASSERT_EQ(j["joint_impulses"].size(), 3u);
  for (int b = 0; b < 3; ++b) EXPECT_NEAR(j["joint_impulses"][b][0].get<double>(), 0.0, 1e-12);
  EXPECT_EQ(j["momentum"].size(), 6u);
  EXPECT_EQ(r.lines[1]["id"], 3);  // blank line 2 skipped but counted
  EXPECT_EQ(r.lines[1]["status"], "error: 'q' has 2 entries, the model needs 3");
  EXPECT_EQ(r.lines[2]["status"].get<std::string>().rfind("error: not a JSON object (invalid JSON: column 2: ", 0), 0u)
      << r.lines[2]["status"];
  EXPECT_EQ(r.lines[3]["id"], 5);
  EXPECT_EQ(r.lines[3]["status"].get<std::string>().rfind("error: ", 0), 0u);
}

TEST(ModelCli, ListAndMisuse) {
  const CliRun list = run(cli + " model --list | wc -l | sed 's/^/{\"n\": /; s/$/}/'");
  ASSERT_EQ(list.lines.size(), 1u);
  EXPECT_EQ(list.lines[0]["n"], 8);  // ball, dimer, cradle, cradle5, block, biped5, foot, quadruped
  EXPECT_EQ(run(cli + " model nosuchmodel --state /dev/null 2>/dev/null").status, 2);
  EXPECT_EQ(run(cli + " model " + urdf + " --state /dev/null --contact nolink 2>/dev/null").status, 2);
}

// `obliq impact` / `obliq dynamics` with friction keys (docs/friction.md "Format"): a sliding
// ball hitting the floor against its closed form, mu = 0 lines identical to lines without mu,
// --friction pyramid, bad friction keys as error lines beside good lines, and dynamics on an
// incline (sticks / slides).
#include <gtest/gtest.h>

#include "cli_helpers.hpp"

namespace obliq {
namespace {

using namespace cli_test;

// Ball of mass 2 at (vx, vy, vz) = (3, 0, -2) hitting the floor, e = 0.5, mu = 0.25, space:
// P_N = 2 * 1.5 * 2 = 6, slip 3 needs P_T = -6 to stop, the cone allows 1.5: slides, vx+ = 3 - 0.75.
const char* kBall =
    R"({"id":"ball","M":[[2,0,0],[0,2,0],[0,0,2]],"qdot":[3,0,-2],"A_u":[[0,0,1]],"e":0.5,"mu":0.25,)"
    R"("A_t":[[1,0,0],[0,1,0]]})";

// `obliq <command> FILE <options>` on a file holding `text`.
RunResult run_text(const std::string& command, const std::string& text, const std::string& options = "") {
  static int k = 0;
  const auto path = write_temp("friction_" + std::to_string(++k) + ".jsonl", text + "\n");
  return run_obliq(command + " " + quote(path.string()) + " " + options);
}

TEST(FrictionCommand, SlidingBallAgainstTheClosedForm) {
  for (const char* form : {"cone", "pyramid"}) {
    const auto r = run_text("impact", kBall, std::string("--friction ") + form);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto lines = parse_lines(r.out);
    ASSERT_EQ(lines.size(), 1u);
    const json& j = lines[0];
    ASSERT_EQ(status_of(j), "ok");
    EXPECT_TRUE(near(vec(j.at("qdot_plus")), Eigen::Vector3d(2.25, 0, 1), 1e-12));
    EXPECT_TRUE(near(vec(j.at("lambda_t")), Eigen::Vector2d(-1.5, 0), 1e-12));
    EXPECT_TRUE(near(j.at("lambda").at(0).get<double>(), 6.0, 1e-12));
    EXPECT_EQ(j.at("friction").at("method"), std::string(form) == "cone" ? "newton" : "lemke");
    EXPECT_LE(j.at("friction").at("residual").get<double>(), 1e-9);
  }
}

TEST(FrictionCommand, MuZeroIsTheFrictionlessLine) {
  const std::string without = R"({"id":1,"M":[[2,0,0],[0,2,0],[0,0,2]],"qdot":[3,0,-2],"A_u":[[0,0,1]],"e":0.5})";
  const std::string with = R"({"id":1,"M":[[2,0,0],[0,2,0],[0,0,2]],"qdot":[3,0,-2],"A_u":[[0,0,1]],"e":0.5,"mu":0,)"
                           R"("A_t":[[1,0,0],[0,1,0]]})";
  const auto a = run_text("impact", without);
  const auto b = run_text("impact", with);
  ASSERT_EQ(a.exit_code, 0);
  EXPECT_EQ(a.out, b.out);
}

TEST(FrictionCommand, BadFrictionKeysAreErrorLinesBesideGoodOnes) {
  const std::string text = std::string(kBall) + "\n" +
                           R"({"id":"neg","M":[[1]],"qdot":[-1],"A_u":[[1]],"mu":-1,"A_t":[[0]]})" "\n" +
                           R"({"id":"noA_t","M":[[1,0],[0,1]],"qdot":[0,-1],"A_u":[[0,1]],"mu":0.5})" "\n" +
                           R"({"id":"shape","M":[[1,0],[0,1]],"qdot":[0,-1],"A_u":[[0,1]],"mu":0.5,"A_t":[[1,0],[0,1],[1,1]]})" "\n" +
                           kBall + "\n";
  const auto r = run_obliq("impact " + quote(write_temp("friction_bad.jsonl", text).string()));
  EXPECT_EQ(r.exit_code, 3);
  const auto lines = parse_lines(r.out);
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(status_of(lines[0]), "ok");
  EXPECT_EQ(status_of(lines[1]).rfind("error: mu negative", 0), 0u) << status_of(lines[1]);
  EXPECT_NE(status_of(lines[2]).find("A_t"), std::string::npos);
  EXPECT_NE(status_of(lines[3]).find("bad shape: A_t"), std::string::npos);
  EXPECT_EQ(lines[4], lines[0]);
}

TEST(FrictionCommand, DynamicsOnAnInclineSticksOrSlides) {
  // Point mass 1 on a 30 degree incline in the plane: sticks for mu = 0.7 > tan 30, slides for 0.3.
  const double s = 0.5, c = std::sqrt(3.0) / 2, g = 9.81;
  for (double mu : {0.7, 0.3}) {
    const json line = {{"M", {{1.0, 0.0}, {0.0, 1.0}}}, {"qdot", {0.0, 0.0}}, {"h", {0.0, g}},
                       {"A_u", {{-s, c}}}, {"mu", mu}, {"A_t", {{c, s}}}};
    const auto r = run_text("dynamics", line.dump());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json j = parse_lines(r.out).at(0);
    ASSERT_EQ(status_of(j), "ok");
    const Eigen::VectorXd a = vec(j.at("qddot"));
    const double along = a(0) * c + a(1) * s;
    EXPECT_NEAR(along, mu > 0.6 ? 0.0 : -g * (s - mu * c), 1e-9);
    EXPECT_EQ(j.at("sliding").at(0), 0);
  }
}

// Two output lines alike: the same keys, the same strings, integers and flags (iterations aside),
// numbers within 1e-7 of b's relative to 1 + |b|.
void expect_alike(const json& a, const json& b, const std::string& where) {
  ASSERT_EQ(a.type(), b.type()) << where;
  if (b.is_object()) {
    ASSERT_EQ(a.size(), b.size()) << where << ": " << a.dump() << " vs " << b.dump();
    for (const auto& [key, value] : b.items())
      if (key != "iterations") expect_alike(a.at(key), value, where + "." + key);
  } else if (b.is_array()) {
    ASSERT_EQ(a.size(), b.size()) << where;
    for (std::size_t k = 0; k < b.size(); ++k) expect_alike(a[k], b[k], where + "[" + std::to_string(k) + "]");
  } else if (b.is_number_float()) {
    EXPECT_LE(std::abs(a.get<double>() - b.get<double>()), 1e-7 * (1 + std::abs(b.get<double>()))) << where;
  } else {
    EXPECT_EQ(a, b) << where;
  }
}

// --backend cuda solves the frictional lines on the device and writes the cpu's lines (the same
// keys, statuses and methods; numbers to 1e-7), beside frictionless, mu = 0 and bad lines.
// Skips where the cuda backend cannot run (then tests/cli/cuda_backend_choice_test.cpp checks
// the refusal).
TEST(FrictionCommand, CudaBackendWritesTheCpuLines) {
  const std::string rod = R"("M":[[1,0,0],[0,1,0],[0,0,0.08333333333333333]],"A_u":[[0,1,-0.4330127018922193]],)"
                          R"("A_t":[[1,0,0.25]],"qdot":[-1,0,0],"h":[0,9.81,0],)";
  const std::string impacts = std::string(kBall) + "\n" +
                              R"({"id":"plain","M":[[2,0],[0,2]],"qdot":[0,-1],"A_u":[[0,1]],"e":0.5})" "\n" +
                              R"({"id":"neg","M":[[1]],"qdot":[-1],"A_u":[[1]],"mu":-1,"A_t":[[0]]})" "\n" +
                              R"({"id":"rod","e":0.5,"mu":0.4,)" + rod + R"("u":[0,0,0]})" "\n" + kBall + "\n";
  const std::string rests = "{\"id\":\"none\"," + rod + R"("mu":3,"u":[0,0,0]})" "\n" + "{\"id\":\"two\"," + rod +
                            R"("mu":3,"u":[0,19.62,0]})" "\n" + "{\"id\":\"one\"," + rod + R"("mu":0.5,"u":[0,0,0]})" "\n" +
                            "{\"id\":\"zero\"," + rod + R"("mu":0,"u":[0,0,0]})" "\n";
  for (const char* form : {"cone", "pyramid"})
    for (const auto& [command, text] : {std::pair{"impact", impacts}, std::pair{"dynamics", rests}}) {
      const auto gpu = run_text(command, text, std::string("--backend cuda --friction ") + form);
      if (gpu.exit_code == 2 && gpu.err.rfind("obliq: backend cuda: ", 0) == 0) GTEST_SKIP() << gpu.err;
      const auto cpu = run_text(command, text, std::string("--friction ") + form);
      ASSERT_EQ(gpu.exit_code, cpu.exit_code) << gpu.err;
      const auto a = parse_lines(gpu.out), b = parse_lines(cpu.out);
      ASSERT_EQ(a.size(), b.size());
      for (std::size_t k = 0; k < b.size(); ++k) expect_alike(a[k], b[k], std::string(command) + " " + form + " line " + std::to_string(k));
    }
}

}  // namespace
}  // namespace obliq

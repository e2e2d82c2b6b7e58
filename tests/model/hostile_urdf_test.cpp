// Hostile URDF files and states (issue 10): a joint whose parent is its child, a loop, a chain
// past the link bound, a deeply nested XML, invalid inertial data (each an error naming the link
// and exit 2, with no URDF parser noise on standard error), and a state whose dynamics overflow
// (an error line naming the quantity, never an ok line with nulls).
#include <gtest/gtest.h>

#include <string>

#include "cli/cli_helpers.hpp"
#include "obliq/model/host.hpp"

namespace obliq {
namespace {

using namespace cli_test;

std::string link(const std::string& name, const std::string& mass = "1", const std::string& ixx = "0.1",
                 const std::string& iyy = "0.1", const std::string& izz = "0.1") {
  return "<link name=\"" + name + "\"><inertial><mass value=\"" + mass + "\"/><inertia ixx=\"" + ixx +
         "\" ixy=\"0\" ixz=\"0\" iyy=\"" + iyy + "\" iyz=\"0\" izz=\"" + izz + "\"/></inertial></link>";
}
std::string joint(const std::string& name, const std::string& parent, const std::string& child) {
  return "<joint name=\"" + name + "\" type=\"revolute\"><parent link=\"" + parent + "\"/><child link=\"" + child +
         "\"/><axis xyz=\"0 0 1\"/><limit effort=\"1\" velocity=\"1\" lower=\"-1\" upper=\"1\"/></joint>";
}
std::string robot(const std::string& body) { return "<robot name=\"r\">" + body + "</robot>"; }

// Runs `obliq model FILE --state {q: [0]*nq}`; returns the run.
RunResult run_model(const std::string& name, const std::string& urdf, int nq = 1) {
  const auto path = write_temp(name + ".urdf", urdf);
  std::string zeros = "0";
  for (int k = 1; k < nq; ++k) zeros += ",0";
  const auto states = write_temp(name + ".jsonl", "{\"q\": [" + zeros + "], \"qdot\": [" + zeros + "]}\n");
  return run_obliq("model " + quote(path.string()) + " --state " + quote(states.string()));
}

void expect_error(const RunResult& r, const std::string& message) {
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one message, no parser noise:\n" << r.err;
}

TEST(HostileUrdf, JointWhoseParentIsItsChild) {
  expect_error(run_model("self", robot(link("base") + link("a") + joint("j0", "base", "a") + joint("j1", "a", "a"))),
               "joint 'j1' has link 'a' as both parent and child");
}

// urdfdom links a self-parent joint's link to itself before it fails on a joint whose parent link
// does not exist, and then returns no model: the joint is named from the XML text instead (the
// fuzz/urdf.cpp LeakSanitizer finding, seed self_then_missing_parent).
TEST(HostileUrdf, JointWhoseParentIsItsChildBeforeAMissingLink) {
  expect_error(run_model("self_missing", robot(link("a") + joint("I1", "a", "a") + joint("j0", "base", "a"))),
               "joint 'I1' has link 'a' as both parent and child");
}

TEST(HostileUrdf, KinematicLoop) {
  expect_error(run_model("loop", robot(link("base") + link("a") + link("b") + joint("j0", "base", "a") +
                                       joint("j1", "a", "b") + joint("j2", "b", "a"))),
               "is reached twice (a kinematic loop");
}

TEST(HostileUrdf, ChainOf12000LinksIsPastTheBound) {
  std::string body;
  for (int i = 0; i < 12000; ++i) body += link("l" + std::to_string(i));
  for (int i = 0; i + 1 < 12000; ++i) body += joint("j" + std::to_string(i), "l" + std::to_string(i), "l" + std::to_string(i + 1));
  expect_error(run_model("chain", robot(body)), "too many links (more than 1024)");
}

TEST(HostileUrdf, ChainAtTheBoundIsWalkedWithoutRecursion) {
  std::string body;
  for (int i = 0; i < 1024; ++i) body += link("l" + std::to_string(i));
  for (int i = 0; i + 1 < 1024; ++i) body += joint("j" + std::to_string(i), "l" + std::to_string(i), "l" + std::to_string(i + 1));
  const model::Model m = model::load_urdf_string(robot(body), false, "chain");
  EXPECT_EQ(m.nv, 1023);
  EXPECT_EQ(m.nbodies(), 1023);
  for (int b = 0; b < m.nbodies(); ++b) EXPECT_EQ(m.parent[std::size_t(b)], b - 1);  // depth-first order kept
}

TEST(HostileUrdf, DeeplyNestedXml) {
  std::string xml = "<robot name=\"r\">";
  for (int k = 0; k < 100000; ++k) xml += "<x>";
  for (int k = 0; k < 100000; ++k) xml += "</x>";
  expect_error(run_model("deep", xml + "</robot>"), "XML nested too deeply (more than 32 levels)");
}

TEST(HostileUrdf, InvalidInertialDataNamesTheLink) {
  const auto one = [](const std::string& l) { return robot(link("base") + l + joint("j0", "base", "arm")); };
  expect_error(run_model("nan", one(link("arm", "nan"))), "link 'arm': mass nan is not finite");
  expect_error(run_model("inf", one(link("arm", "inf"))), "link 'arm': mass inf is not finite");
  expect_error(run_model("word", one(link("arm", "heavy"))), "link 'arm': mass \"heavy\" is not a number");
  expect_error(run_model("neg", one(link("arm", "-1"))), "link 'arm': negative mass -1");
  expect_error(run_model("inan", one(link("arm", "1", "nan"))), "link 'arm': inertia ixx = nan is not finite");
  expect_error(run_model("npd", one(link("arm", "1", "-0.1"))), "link 'arm': inertia is not positive definite");
  expect_error(run_model("tri", one(link("arm", "1", "1", "1", "3"))), "link 'arm': inertia violates the triangle inequality");
  // The edge of the triangle inequality (a thin disc: I3 = I1 + I2) and a point mass are valid.
  EXPECT_EQ(run_model("disc", one(link("arm", "1", "1", "1", "2"))).exit_code, 0);
  EXPECT_EQ(run_model("point", one(link("arm", "1", "0", "0", "0"))).exit_code, 0);
}

TEST(HostileUrdf, OverflowingStateIsAnErrorLineNamingTheQuantity) {
  const auto states = write_temp("ball_states.jsonl",
                                 "{\"id\": \"huge\", \"q\": [0, 0, 1], \"qdot\": [1e160, 0, -1e160]}\n"
                                 "{\"id\": \"fine\", \"q\": [0, 0, 1], \"qdot\": [1, 0, -1]}\n"
                                 "{\"id\": \"nan\", \"q\": [0, 0, NaN], \"qdot\": [1, 0, -1]}\n");
  for (const std::string extra : {"", " --impact"}) {
    const auto r = run_obliq("model ball --state " + quote(states.string()) + extra);
    EXPECT_EQ(r.exit_code, 3);
    const auto out = parse_lines(r.out);
    ASSERT_EQ(out.size(), 3u);
    EXPECT_EQ(out[0].at("id"), "huge");
    EXPECT_EQ(status_of(out[0]), "error: non-finite result: h overflows double precision");
    EXPECT_EQ(status_of(out[1]), "ok");
    EXPECT_EQ(out[2].at("id"), "nan");
    EXPECT_EQ(status_of(out[2]), "error: non-finite number in q[2]");
    EXPECT_EQ(r.out.find("null"), std::string::npos) << r.out;
  }
}

}  // namespace
}  // namespace obliq

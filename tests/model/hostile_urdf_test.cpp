// Hostile URDF files and states (issue 10): a joint whose parent is its child, a loop, a chain
// past the link bound, a deeply nested XML, invalid inertial data (each an error naming the link
// and exit 2, with no URDF parser noise on standard error), and a state whose dynamics overflow
// (an error line naming the quantity, never an ok line with nulls). The inertial checks' two
// modes (docs/model.md "Inertial checks"): what standard loads with a warning, strict refuses;
// rounding-level semi-definite inertias (published robots' own numbers) load silently; verdicts
// do not depend on the units.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cstdio>
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

// A link with a full inertial: six inertia entries "ixx ixy ixz iyy iyz izz" and the centre of
// mass "x y z" (its inertial origin in the link frame).
std::string inertial_link(const std::string& name, const std::string& mass, const double (&I)[6],
                          const std::string& xyz = "0 0 0") {
  const char* keys[6] = {"ixx", "ixy", "ixz", "iyy", "iyz", "izz"};
  std::string entries;
  for (int k = 0; k < 6; ++k) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", I[k]);
    entries += std::string(keys[k]) + "=\"" + buf + "\" ";
  }
  return "<link name=\"" + name + "\"><inertial><origin xyz=\"" + xyz + "\" rpy=\"0 0 0\"/><mass value=\"" + mass +
         "\"/><inertia " + entries + "/></inertial></link>";
}

// Runs `obliq model FILE --state {q: [0]*nq} [options]`; returns the run.
RunResult run_model(const std::string& name, const std::string& urdf, int nq = 1, const std::string& options = "") {
  const auto path = write_temp(name + ".urdf", urdf);
  std::string zeros = "0";
  for (int k = 1; k < nq; ++k) zeros += ",0";
  const auto states = write_temp(name + ".jsonl", "{\"q\": [" + zeros + "], \"qdot\": [" + zeros + "]}\n");
  return run_obliq("model " + quote(path.string()) + " --state " + quote(states.string()) + options);
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

// One link "arm" on a revolute joint under "base".
std::string one_arm(const std::string& arm) { return robot(link("base") + arm + joint("j0", "base", "arm")); }

TEST(HostileUrdf, InvalidInertialDataNamesTheLink) {
  // Errors in both modes.
  for (const std::string mode : {"", " --inertia-check standard", " --inertia-check strict"}) {
    SCOPED_TRACE(mode);
    expect_error(run_model("nan", one_arm(link("arm", "nan")), 1, mode), "link 'arm': mass nan is not finite");
    expect_error(run_model("inf", one_arm(link("arm", "inf")), 1, mode), "link 'arm': mass inf is not finite");
    expect_error(run_model("word", one_arm(link("arm", "heavy")), 1, mode), "link 'arm': mass \"heavy\" is not a number");
    expect_error(run_model("neg", one_arm(link("arm", "-1")), 1, mode), "link 'arm': negative mass -1");
    expect_error(run_model("inan", one_arm(link("arm", "1", "nan")), 1, mode), "link 'arm': inertia ixx = nan is not finite");
    expect_error(run_model("npd", one_arm(link("arm", "1", "-0.1")), 1, mode),
                 "link 'arm': inertia is not positive definite, moment ixx = -0.1 is negative");
    // The edge of the triangle inequality (a thin disc: I3 = I1 + I2) and a point mass are valid.
    const auto disc = run_model("disc", one_arm(link("arm", "1", "1", "1", "2")), 1, mode);
    EXPECT_EQ(disc.exit_code, 0);
    EXPECT_TRUE(disc.err.empty()) << disc.err;
    EXPECT_EQ(run_model("point", one_arm(link("arm", "1", "0", "0", "0")), 1, mode).exit_code, 0);
  }
}

// Standard mode loads the model and writes one warning line naming the link; strict refuses it.
void expect_warning_then_refusal(const std::string& name, const std::string& urdf, const std::string& warning,
                                 const std::string& refusal) {
  SCOPED_TRACE(name);
  for (const std::string mode : {"", " --inertia-check standard"}) {
    const RunResult r = run_model(name, urdf, 1, mode);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    ASSERT_EQ(parse_lines(r.out).size(), 1u) << r.out;
    EXPECT_EQ(status_of(parse_lines(r.out)[0]), "ok");
    EXPECT_EQ(r.err.rfind("obliq model: warning: URDF '", 0), 0u) << r.err;
    EXPECT_NE(r.err.find("link 'arm': inertia " + warning), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  expect_error(run_model(name, urdf, 1, " --inertia-check strict"), "link 'arm': inertia " + refusal);
  // The older spelling of strict.
  expect_error(run_model(name, urdf, 1, " --inertia-check full"), "link 'arm': inertia " + refusal);
}

// Standard mode loads the model silently; strict refuses it.
void expect_valid_then_refusal(const std::string& name, const std::string& urdf, const std::string& refusal) {
  SCOPED_TRACE(name);
  const RunResult r = run_model(name, urdf);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  expect_error(run_model(name, urdf, 1, " --inertia-check strict"), "link 'arm': inertia " + refusal);
}

TEST(HostileUrdf, StrictRefusesWhatStandardLoadsWithAWarning) {
  // Principal moments (1, 1, 3): no rigid body has them.
  expect_warning_then_refusal("tri", one_arm(link("arm", "1", "1", "1", "3")),
                              "violates the triangle inequality (principal moments 1, 1, 3)",
                              "violates the triangle inequality (principal moments 1, 1, 3)");
  // TIAGo's antenna links (example-robot-data): positive moments, products of inertia too large,
  // principal moments (-3.5e-8, 3.5e-8, 9.1e-8).
  const double antenna[6] = {2.371e-08, 6.119e-08, 1.179e-08, 2.833e-08, 7.74e-09, 3.849e-08};
  expect_warning_then_refusal("antenna", one_arm(inertial_link("arm", "0.000001", antenna)),
                              "is not positive semi-definite (principal moments -3.53", "is not positive definite");
  // Go1's "base" link (every entry 1e-6): semi-definite to rounding (principal moments -1.3e-22,
  // 2.2e-22, 3e-6: one nonzero moment), so valid for (I3), but (I4) fails.
  const double go1[6] = {1e-06, 1e-06, 1e-06, 1e-06, 1e-06, 1e-06};
  expect_warning_then_refusal("go1", one_arm(inertial_link("arm", "1e-6", go1)),
                              "violates the triangle inequality (principal moments -", "is not positive definite");
}

TEST(HostileUrdf, SemiDefiniteToRoundingIsAValidBody) {
  // A thin rod (moments 0, 1e-3, 1e-3): degenerate, valid; strict asks for positive definite.
  expect_valid_then_refusal("rod", one_arm(link("arm", "2", "0", "1e-3", "1e-3")),
                            "is not positive definite (principal moments 0, 0.001, 0.001)");
  // iCub's "head" link (example-robot-data): a point mass 0.11 m from the link origin whose
  // inertia has one product of inertia of 2.4e-35 (principal moments -2.4e-35, 0, 2.4e-35). About
  // the link origin its inertia is 1.7e-2 (I1): zero to rounding, a point mass.
  const double head[6] = {0, 0, 2.40741e-35, 0, 0, 0};
  const std::string icub = one_arm(inertial_link("arm", "1.33687", head, "0.0185 -0.1108 6.78454e-18"));
  expect_valid_then_refusal("icub_head", icub, "is not positive definite (principal moments -2.40741e-35, 0, 2.40741e-35)");
  // The same tensor at the link origin is its own scale: -1 relative, not rounding.
  const RunResult at_origin = run_model("head_at_origin", one_arm(inertial_link("arm", "1.33687", head)));
  EXPECT_EQ(at_origin.exit_code, 0);
  EXPECT_NE(at_origin.err.find("link 'arm': inertia is not positive semi-definite"), std::string::npos) << at_origin.err;
}

// The principal moments (-delta, 1, 1) rotated by a generic rotation (every entry nonzero, the
// moments ixx, iyy, izz positive), written to 17 digits: tau of (I2) is 16 eps = 3.6e-15 here.
std::string rotated_arm(double delta, double mass_scale = 1, double length_scale = 1) {
  const Eigen::Matrix3d R = Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized()).toRotationMatrix();
  const Eigen::Matrix3d I = mass_scale * length_scale * length_scale * R * Eigen::Vector3d(-delta, 1, 1).asDiagonal() * R.transpose();
  const double entries[6] = {I(0, 0), I(0, 1), I(0, 2), I(1, 1), I(1, 2), I(2, 2)};
  char mass[40], xyz[80];
  std::snprintf(mass, sizeof mass, "%.17g", 0.5 * mass_scale);
  std::snprintf(xyz, sizeof xyz, "%.17g %.17g %.17g", 0.3 * length_scale, -0.2 * length_scale, 0.1 * length_scale);
  return one_arm(inertial_link("arm", mass, entries, xyz));
}

enum class Verdict { valid, warning, refused };
Verdict verdict_of(const std::string& urdf, model::InertiaCheck mode) {
  try {
    const model::Model m = model::load_urdf_string(urdf, false, "r", mode);
    return m.warnings.empty() ? Verdict::valid : Verdict::warning;
  } catch (const std::runtime_error&) {
    return Verdict::refused;
  }
}

TEST(HostileUrdf, RoundingToleranceIsRelativeToTheLinksScale) {
  using model::InertiaCheck;
  // Scale s of (I1) = 1 + 0.5 * 0.14 = 1.07 (lever arm 0.3, -0.2, 0.1): tau = 3.8e-15.
  for (const double ms : {1e-20, 1.0, 1e20})
    for (const double ls : {1e-10, 1.0, 1e10}) {
      SCOPED_TRACE(testing::Message() << "mass scale " << ms << ", length scale " << ls);
      EXPECT_EQ(verdict_of(rotated_arm(0, ms, ls), InertiaCheck::standard), Verdict::valid);
      EXPECT_EQ(verdict_of(rotated_arm(1e-17, ms, ls), InertiaCheck::standard), Verdict::valid);   // within rounding
      EXPECT_EQ(verdict_of(rotated_arm(1e-13, ms, ls), InertiaCheck::standard), Verdict::warning); // 26 tau below 0
      EXPECT_EQ(verdict_of(rotated_arm(0.1, ms, ls), InertiaCheck::standard), Verdict::warning);
      EXPECT_EQ(verdict_of(rotated_arm(-0.5, ms, ls), InertiaCheck::standard), Verdict::valid);   // (0.5, 1, 1)
      EXPECT_EQ(verdict_of(rotated_arm(-0.5, ms, ls), InertiaCheck::strict), Verdict::valid);
      EXPECT_EQ(verdict_of(rotated_arm(-3, ms, ls), InertiaCheck::standard), Verdict::warning);   // (3, 1, 1)
      EXPECT_EQ(verdict_of(rotated_arm(-3, ms, ls), InertiaCheck::strict), Verdict::refused);
      EXPECT_EQ(verdict_of(rotated_arm(1e-13, ms, ls), InertiaCheck::strict), Verdict::refused);
    }
}

TEST(HostileUrdf, UnknownInertiaCheckIsRefused) {
  const RunResult r = run_model("mode", one_arm(link("arm")), 1, " --inertia-check loose");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--inertia-check"), std::string::npos) << r.err;
  model::InertiaCheck mode;
  EXPECT_FALSE(model::parse_inertia_check("loose", mode));
  ASSERT_TRUE(model::parse_inertia_check("strict", mode));
  EXPECT_EQ(mode, model::InertiaCheck::strict);
}

// A massless link merged by a fixed joint keeps its rotational inertia, as in Pinocchio (Bolt's
// feet): about the joint axis z, M = 0.1 (arm) + 0.05 (massless foot) + 0 (no lever arm).
TEST(HostileUrdf, MasslessLinkKeepsItsRotationalInertia) {
  const std::string foot = link("foot", "0", "0.01", "0.02", "0.05");
  const std::string weld = "<joint name=\"weld\" type=\"fixed\"><parent link=\"arm\"/><child link=\"foot\"/>"
                           "<origin xyz=\"0 0 0.2\"/></joint>";
  const model::Model m = model::load_urdf_string(robot(link("base") + link("arm") + foot + joint("j0", "base", "arm") + weld), false);
  Scenario sc;
  ASSERT_EQ(model::evaluate(m, Eigen::VectorXd::Zero(1), Eigen::VectorXd::Zero(1), sc), Status::ok);
  EXPECT_NEAR(sc.M(0, 0), 0.15, 1e-15);
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

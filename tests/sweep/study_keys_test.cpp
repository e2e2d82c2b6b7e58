// tests/sweep/study_keys_test.cpp: a study file's keys (docs/sweep.md "The study file"): a key
// the study does not know, at any level, is an error naming it and the closest known key; JSON
// null is refused anywhere (a summary echoes the study and never carries a null).
#include <gtest/gtest.h>

#include <string>

#include "obliq/sweep.hpp"
#include "support.hpp"

namespace obliq::sweep {
namespace {

// The error a study gives, or "no error".
std::string error_of(const std::string& text) {
  try {
    test::study(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

const std::string kBall = R"("mechanism": {"model": "ball", "q": [0, 0, 0.1], "qdot": [0, 0, -1]}, "samples": 10, "seed": 1)";
const std::string kRaw = R"("mechanism": {"scenario": {"M": [[1]], "A_u": [[1]], "qdot": [-1]}}, "samples": 10, "seed": 1)";

TEST(SweepStudyKeys, TheStudiesBelowAreValidWithoutTheMisspelling) {
  // The same studies, spelt right, are accepted (so each error below is the misspelling's).
  for (const std::string& ok :
       {"{" + kBall + R"(, "restitution": 0.5})", "{" + kRaw + R"(, "restitution": 0.5})",
        "{" + kBall + R"(, "restitution": {"ball_bottom": {"dist": "beta", "a": 2, "b": 5}, "default": 0.2}})",
        "{" + kBall + R"(, "friction": {"dist": "uniform", "low": 0, "high": 1}})",
        "{" + kBall + R"(, "perturb": {"q": {"dist": "uniform", "half_width": 0.01}, "qdot": {"dist": "normal", "sd": 0.1}}})",
        "{" + kBall + R"(, "collect": {"bins": 10, "ranges": {"energy_ratio": [0, 1], "e": [0, 1], "qdot_plus.z": [-1, 1]},
                                       "rows_format": ["csv"]}})",
        "{" + kBall + R"(, "trajectory": {"T": 1, "dt": 0.1, "zeno_velocity": 0.1}})"})
    EXPECT_EQ(error_of(ok), "no error") << ok;
}

// Every level of a study file: the top, the mechanism (a model and a raw scenario), the
// distributions (one for all contacts, per contact, the default), the perturbations, collect and
// its ranges and row formats, the trajectory.
TEST(SweepStudyKeys, AnUnknownKeyAtAnyLevelNamesItAndTheClosestKnownKey) {
  struct Case {
    std::string study, error;
  } cases[] = {
      {"{" + kBall + R"(, "restitutoin": 0.5})", "unknown key 'restitutoin' in study (did you mean 'restitution'?)"},
      {R"({"mechanism": {"model": "ball", "q": [0, 0, 0.1], "qdot": [0, 0, -1], "gap": "model"}, "samples": 10, "seed": 1})",
       "unknown key 'gap' in mechanism (did you mean 'gaps'?)"},
      {R"({"mechanism": {"scenario": {"M": [[1]], "A_u": [[1]], "qdot": [-1], "phi_U": [0]}}, "samples": 10, "seed": 1})",
       "unknown key 'phi_U' in mechanism.scenario (did you mean 'phi_u'?)"},
      {"{" + kBall + R"(, "restitution": {"dist": "uniform", "low": 0.1, "hihg": 0.3}})",
       "unknown key 'hihg' in restitution (did you mean 'high'?)"},
      {"{" + kBall + R"(, "restitution": {"ball_botom": 0.5}})",
       "unknown key 'ball_botom' in restitution (did you mean 'ball_bottom'?)"},
      {"{" + kBall + R"(, "restitution": {"ball_bottom": {"dist": "beta", "a": 2, "bb": 5}}})",
       "unknown key 'bb' in restitution.ball_bottom (did you mean 'b'?)"},
      {"{" + kBall + R"(, "restitution": {"default": {"dist": "truncated_normal", "mean": 0.4, "sdd": 0.1}}})",
       "unknown key 'sdd' in restitution.default (did you mean 'sd'?)"},
      {"{" + kBall + R"(, "friction": {"dist": "fixed", "valeu": 0.3}})",
       "unknown key 'valeu' in friction (did you mean 'value'?)"},
      {"{" + kBall + R"(, "perturb": {"qdott": {"dist": "normal", "sd": 0.1}}})",
       "unknown key 'qdott' in perturb (did you mean 'qdot'?)"},
      {"{" + kBall + R"(, "perturb": {"qdot": {"dist": "normal", "sd": 0.1, "mean": 0}}})",
       "unknown key 'mean' in perturb.qdot (known keys: dist, sd)"},
      {"{" + kBall + R"(, "perturb": {"q": {"dist": "uniform", "half_widht": 0.1}}})",
       "unknown key 'half_widht' in perturb.q (did you mean 'half_width'?)"},
      {"{" + kBall + R"(, "collect": {"bin": 10}})", "unknown key 'bin' in collect (did you mean 'bins'?)"},
      {"{" + kBall + R"(, "collect": {"ranges": {"energy_ration": [0, 1]}}})",
       "unknown key 'energy_ration' in collect.ranges (did you mean 'energy_ratio'?)"},
      {"{" + kBall + R"(, "collect": {"rows_format": ["cvs"]}})",
       "unknown value 'cvs' in collect.rows_format (did you mean 'csv'?)"},
      {"{" + kBall + R"(, "trajectory": {"T": 1, "dt": 0.1, "zeno_velocty": 0.1}})",
       "unknown key 'zeno_velocty' in trajectory (did you mean 'zeno_velocity'?)"},
      {"{" + kRaw + R"(, "trajectory": {"T": 1, "dt": 0.1}, "perturb": {"qdot": {"dist": "normal", "sd": 0.1, "s": 1}}})",
       "unknown key 's' in perturb.qdot (did you mean 'sd'?)"},
  };
  for (const Case& c : cases) EXPECT_EQ(error_of(c.study), c.error) << c.study;
}

// Far from every known key: the known keys are listed instead of a guess.
TEST(SweepStudyKeys, AFarKeyListsTheKnownKeys) {
  EXPECT_EQ(error_of("{" + kBall + R"(, "collect": {"xyzzy": 1}})"),
            "unknown key 'xyzzy' in collect (known keys: joint_impulses, rows, rows_format, bins, ranges, quantiles, "
            "sketch_k, scatter, plots)");
  // A raw-scenario mechanism knows only its scenario; a model and a scenario together are refused.
  EXPECT_EQ(error_of(R"({"mechanism": {"scenario": {"M": [[1]], "A_u": [[1]], "qdot": [-1]}, "qdot": [1]},
                         "samples": 10, "seed": 1})"),
            "unknown key 'qdot' in mechanism (known keys: scenario)");
  EXPECT_NE(error_of(R"({"mechanism": {"model": "ball", "qdot": [0, 0, -1], "scenario": {}}, "samples": 10, "seed": 1})")
                .find("either 'model' or 'scenario'"),
            std::string::npos);
}

TEST(SweepStudyKeys, NullIsRefusedAnywhere) {
  EXPECT_EQ(error_of("{" + kBall + R"(, "name": null})"), "study: null is not a value (at name)");
  EXPECT_EQ(error_of("{" + kRaw + R"(, "collect": {"ranges": null}})"), "study: null is not a value (at collect.ranges)");
  EXPECT_EQ(error_of(R"({"mechanism": {"scenario": {"M": [[1]], "A_u": [[1]], "qdot": [-1], "h": null}},
                         "samples": 10, "seed": 1})"),
            "study: null is not a value (at mechanism.scenario.h)");
  EXPECT_EQ(error_of("{" + kBall + R"(, "collect": {"quantiles": [0.5, null]}})"),
            "study: null is not a value (at collect.quantiles[1])");
}

// A histogram range whose width overflows double would bin nothing and plot nothing.
TEST(SweepStudyKeys, AHistogramRangeMustHaveAFiniteWidth) {
  EXPECT_NE(error_of("{" + kBall + R"(, "collect": {"ranges": {"energy_ratio": [-1e308, 1e308]}}})").find("collect.ranges.energy_ratio"),
            std::string::npos);
}

}  // namespace
}  // namespace obliq::sweep

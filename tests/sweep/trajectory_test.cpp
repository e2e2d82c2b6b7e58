// tests/sweep/trajectory_test.cpp: trajectory samples (docs/sweep.md "Trajectory samples"): the
// bouncing ball against its closed form, and whole trajectory sweeps identical across threads,
// chunk sizes and sample-range shards.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>

#include "obliq/sweep.hpp"
#include "sweep/samples.hpp"
#include "sweep/statistics.hpp"
#include "support.hpp"

namespace obliq::sweep {
namespace {

using json = nlohmann::ordered_json;

using test::study;

// A ball (radius r) released at height z0 with downward speed w hits the floor at speed
// v1 = sqrt(w^2 + 2 g (z0 - r)) at t_0 = (v1 - w) / g; impact k comes at speed e^k v1 and, when
// it rebounds, the next one 2 e^(k+1) v1 / g later. An impact slower than the Zeno speed vz is
// plastic: the ball rests from there (z = r, v = 0). Between impacts k and k + 1, at tau after
// t_k: v = e^(k+1) v1 - g tau, z = r + e^(k+1) v1 tau - g tau^2 / 2.
struct BallClosedForm {
  int impacts = 0;        // impacts in [0, T]
  double last_impact = NAN;
  double z = 0, vz = 0;   // at T
  bool at_rest = false;
  bool near_threshold = false;  // T or vz within 1e-6 (relative) of an event: count not tested
};

BallClosedForm ball_closed_form(double e, double z0, double w, double r, double g, double vz_zeno, double T) {
  BallClosedForm c;
  const double v1 = std::sqrt(w * w + 2 * g * (z0 - r));
  double t = (v1 - w) / g, u = v1;  // impact time and approach speed
  if (t > T) {  // still falling
    c.z = z0 - w * T - 0.5 * g * T * T;
    c.vz = -w - g * T;
    c.near_threshold = std::abs(t - T) < 1e-6 * T;
    return c;
  }
  for (;;) {
    ++c.impacts;
    c.last_impact = t;
    if (std::abs(u - vz_zeno) < 1e-6 * vz_zeno) c.near_threshold = true;
    if (u < vz_zeno) {  // plastic: rest
      c.z = r, c.vz = 0, c.at_rest = true;
      return c;
    }
    const double up = e * u, next = t + 2 * up / g;
    if (std::abs(next - T) < 1e-6 * T) c.near_threshold = true;
    if (next > T) {
      const double tau = T - t;
      c.vz = up - g * tau;
      c.z = r + up * tau - 0.5 * g * tau * tau;
      return c;
    }
    t = next, u = up;
  }
}

// examples/bouncing_ball.json without its perturbation of qdot (600 of its samples): z0 = 1.1,
// w = 1, e uniform in [0.3, 0.8], event-driven, T = 3 s, Zeno speed 0.05 m/s.
TEST(SweepTrajectory, BouncingBallExampleMatchesItsClosedForm) {
  const double z0 = 1.1, w = 1.0, r = 0.1, g = 9.81, vz = 0.05, T = 3.0;
  std::ifstream in(std::string(OBLIQ_SOURCE_DIR) + "/examples/bouncing_ball.json");
  json j = json::parse(in);
  ASSERT_EQ(j["mechanism"]["q"][2].get<double>(), z0);
  ASSERT_EQ(j["mechanism"]["qdot"][2].get<double>(), -w);
  ASSERT_EQ(j["trajectory"]["T"].get<double>(), T);
  ASSERT_EQ(j["trajectory"]["zeno_velocity"].get<double>(), vz);
  j.erase("perturb");
  const Study st = parse_study(j, std::string(OBLIQ_SOURCE_DIR) + "/examples");
  SampleTable t;
  run_samples(st, 0, 600, 2, t);
  const Layout L = layout(st);
  int checked = 0, rested = 0, flying = 0;
  for (std::size_t s = 0; s < t.count; ++s) {
    ASSERT_EQ(t.status[s], Status::ok);
    const double e = t.values(s, L.e);
    const BallClosedForm c = ball_closed_form(e, z0, w, r, g, vz, T);
    if (c.near_threshold) continue;
    ++checked;
    EXPECT_EQ(t.values(s, L.impacts), double(c.impacts)) << "e = " << e;
    EXPECT_NEAR(t.values(s, L.last_impact_time), c.last_impact, 1e-9) << "e = " << e;
    EXPECT_NEAR(t.values(s, L.q_T + 2), c.z, 1e-9) << "e = " << e;
    EXPECT_NEAR(t.values(s, L.qdot_T + 2), c.vz, 1e-9) << "e = " << e;
    EXPECT_EQ(t.values(s, L.q_T + 0), 0.0);
    EXPECT_NEAR(t.values(s, L.energy_ratio_T), c.vz * c.vz / (w * w), 1e-9) << "e = " << e;  // KE(T) / KE(0), m = 1
    EXPECT_EQ(bool(t.at_rest[s]), c.at_rest) << "e = " << e;
    if (c.at_rest) EXPECT_EQ(t.values(s, L.impacts_before_rest), double(c.impacts)) << "e = " << e;
    else EXPECT_TRUE(std::isnan(t.values(s, L.impacts_before_rest))) << "e = " << e;
    rested += c.at_rest;
    flying += !c.at_rest;
  }
  // Both regimes occur (e = 0.3 rests after about 5 impacts at 1.3 s; e = 0.8 is still bouncing).
  EXPECT_GT(checked, 590);
  EXPECT_GT(rested, 100);
  EXPECT_GT(flying, 50);
}

// The same ball as raw data (one coordinate z measured from the contact, M = 1, h = m g, gap
// phi_u = z0 - r at q = 0): the Simulator's linear-system path, the same closed form.
TEST(SweepTrajectory, RawScenarioBallMatchesItsClosedForm) {
  const Study st = study(R"({"mechanism": {"scenario": {"M": [[1]], "h": [9.81], "A_u": [[1]], "phi_u": [1.0],
                                                        "qdot": [-1.0]}},
                             "samples": 200, "seed": 9,
                             "restitution": {"dist": "uniform", "low": 0.3, "high": 0.8},
                             "trajectory": {"integrator": "event", "T": 3.0, "dt": 0.1, "zeno_velocity": 0.05}})");
  SampleTable t;
  run_samples(st, 0, 200, 2, t);
  const Layout L = layout(st);
  int checked = 0;
  for (std::size_t s = 0; s < t.count; ++s) {
    ASSERT_EQ(t.status[s], Status::ok);
    const double e = t.values(s, L.e);
    const BallClosedForm c = ball_closed_form(e, 1.0, 1.0, 0.0, 9.81, 0.05, 3.0);
    if (c.near_threshold) continue;
    ++checked;
    EXPECT_EQ(t.values(s, L.impacts), double(c.impacts)) << "e = " << e;
    EXPECT_NEAR(t.values(s, L.q_T) + 1.0, c.z, 1e-9) << "e = " << e;  // q = z - z0
    EXPECT_NEAR(t.values(s, L.qdot_T), c.vz, 1e-9) << "e = " << e;
    EXPECT_EQ(bool(t.at_rest[s]), c.at_rest) << "e = " << e;
  }
  EXPECT_GT(checked, 190);
}

// Energy after n bounces: with no Zeno speed and a horizon that ends in flight, the kinetic plus
// potential energy above the contact after n impacts is e^(2n) times that at the first impact.
TEST(SweepTrajectory, EnergyAfterNBouncesIsGeometric) {
  const Study st = study(R"({"mechanism": {"model": "ball", "q": [0, 0, 1.1], "qdot": [0, 0, 0]},
                             "samples": 200, "seed": 4, "restitution": {"dist": "uniform", "low": 0.5, "high": 0.9},
                             "trajectory": {"integrator": "event", "T": 2.0, "dt": 0.05}})");
  SampleTable t;
  run_samples(st, 0, 200, 1, t);
  const Layout L = layout(st);
  const double g = 9.81, e0 = g * 1.0;  // energy per unit mass above the contact point at release
  for (std::size_t s = 0; s < t.count; ++s) {
    ASSERT_EQ(t.status[s], Status::ok);
    const double e = t.values(s, L.e), n = t.values(s, L.impacts);
    const double z = t.values(s, L.q_T + 2), v = t.values(s, L.qdot_T + 2);
    EXPECT_NEAR(0.5 * v * v + g * (z - 0.1), std::pow(e, 2 * n) * e0, 1e-8) << "e = " << e << ", " << n << " bounces";
  }
}

// Trajectory sweeps with friction draws: one summary whatever the threads, the chunk size and the
// block-aligned split of the samples (what MPI ranks do).
TEST(SweepTrajectory, IdenticalAcrossThreadsChunksAndShards) {
  const Study st = load_study(std::string(OBLIQ_SOURCE_DIR) + "/tests/sweep/data/ball_trajectory_small.json");
  const std::string ref = test::summary_of(st, 1, 8192);
  EXPECT_EQ(test::summary_of(st, 2, 1000), ref);
  EXPECT_EQ(test::summary_of(st, 1, 4097), ref);
  EXPECT_EQ(test::sharded_summary(st, 2), ref);
  const json s = json::parse(ref);
  EXPECT_EQ(s["sample_kind"], "trajectory");
  EXPECT_EQ(s["counts"]["status"]["ok"].get<std::uint64_t>(), st.samples);
  EXPECT_GT(s["counts"]["at_rest"]["count"].get<std::uint64_t>(), 0u);
  EXPECT_EQ(s["outputs"]["mu.ball_bottom"]["count"].get<std::uint64_t>(), st.samples);
}

// mu = 0 in a trajectory study is the frictionless Simulator, bit for bit (the Simulator takes its
// frictional path only for a mu that is not exactly 0).
TEST(SweepTrajectory, ZeroMuIsTheFrictionlessTrajectoryBitForBit) {
  const std::string base = R"("mechanism": {"model": "ball", "q": [0, 0, 0.6], "qdot": [0.5, 0, -1.0]}, "samples": 300,
    "seed": 77, "restitution": {"dist": "uniform", "low": 0.2, "high": 0.7},
    "perturb": {"qdot": {"dist": "normal", "sd": [0.1, 0.1, 0.2]}},
    "trajectory": {"integrator": "event", "T": 0.6, "dt": 0.2, "zeno_velocity": 0.05})";
  const Study plain = study("{" + base + "}"), zero = study("{" + base + R"(, "friction": 0})");
  SampleTable a, b;
  run_samples(plain, 0, 300, 2, a);
  run_samples(zero, 0, 300, 2, b);
  ASSERT_EQ(columns(zero).size(), columns(plain).size() + 1);  // mu.ball_bottom
  EXPECT_GT(test::expect_shared_outputs_bitwise(plain, a, zero, b), 10);
  EXPECT_EQ(a.at_rest, b.at_rest);
}

TEST(SweepTrajectory, BadTrajectoriesAreNamed) {
  const std::string mech = R"("mechanism": {"model": "ball", "q": [0, 0, 1], "qdot": [0, 0, 0]}, "samples": 1, "seed": 1)";
  for (const char* bad : {R"("trajectory": {"dt": 0.1})", R"("trajectory": {"T": 1, "dt": 0.3})",
                          R"("trajectory": {"T": 1, "dt": 0.1, "integrator": "rk4"})",
                          R"("trajectory": {"T": 1, "dt": 0.1, "steps": 3})",
                          R"("trajectory": {"T": 1, "dt": 0.1}, "restitution": {"dist": "power_law", "e0": 0.5, "v0": 1, "exponent": 0.2})"}) {
    try {
      study("{" + mech + ", " + bad + "}");
      ADD_FAILURE() << "accepted: " << bad;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("trajectory"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace obliq::sweep

// tests/sweep/sweep_test.cpp: draws, physics of the sampled outcomes, and reproducibility of
// whole sweeps across threads, chunk sizes and sample-range shards.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "obliq/sweep.hpp"
#include "sweep/distribution.hpp"
#include "sweep/random.hpp"
#include "sweep/samples.hpp"
#include "sweep/statistics.hpp"
#include "support.hpp"

namespace obliq::sweep {
namespace {

using json = nlohmann::ordered_json;

using test::sharded_summary;
using test::strip_run;
using test::study;
using test::summary_of;

TEST(SweepRandom, CounterBasedAndInOpenUnitInterval) {
  EXPECT_EQ(uniform01(1, Stream::q, 5, 2), uniform01(1, Stream::q, 5, 2));
  EXPECT_NE(uniform01(1, Stream::q, 5, 2), uniform01(1, Stream::qdot, 5, 2));
  EXPECT_NE(uniform01(1, Stream::q, 5, 2), uniform01(2, Stream::q, 5, 2));
  EXPECT_NE(uniform01(1, Stream::q, 5, 2), uniform01(1, Stream::q, 6, 2));
  double sum = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    const double u = uniform01(9, Stream::restitution, i, 0);
    ASSERT_GT(u, 0.0);
    ASSERT_LT(u, 1.0);
    sum += u;
  }
  EXPECT_NEAR(sum / n, 0.5, 5 * std::sqrt(1.0 / 12 / n));  // 5 standard errors
}

// Sample means against the distributions' means (5 standard errors), and the clamps.
TEST(SweepRandom, DistributionsMatchTheirMoments) {
  struct Case {
    const char* spec;
    double mean, sd;
  } cases[] = {
      {R"({"dist": "uniform", "low": 0.2, "high": 0.6})", 0.4, 0.4 / std::sqrt(12.0)},
      {R"({"dist": "beta", "a": 2, "b": 5})", 2.0 / 7, std::sqrt(10.0 / (49 * 8))},
      {R"({"dist": "fixed", "value": 0.3})", 0.3, 0},
  };
  const int n = 100000;
  for (const auto& c : cases) {
    const Distribution d = parse_coefficient(json::parse(c.spec), "test", Coefficient::restitution);
    double sum = 0;
    for (int i = 0; i < n; ++i) sum += draw(d, uniform01(3, Stream::restitution, i, 0));
    EXPECT_NEAR(sum / n, c.mean, 5 * c.sd / std::sqrt(double(n)) + 1e-12) << c.spec;  // + summation round-off
  }
  // Truncated normal: every value in [low, high]; symmetric truncation keeps the mean.
  const Distribution tn = parse_coefficient(json::parse(R"({"dist": "truncated_normal", "mean": 0.5, "sd": 0.3,
                                                            "low": 0.2, "high": 0.8})"), "test", Coefficient::restitution);
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    const double x = draw(tn, uniform01(4, Stream::restitution, i, 0));
    ASSERT_GE(x, 0.2);
    ASSERT_LE(x, 0.8);
    sum += x;
  }
  EXPECT_NEAR(sum / n, 0.5, 5 * 0.3 / std::sqrt(double(n)));
  // Power law e(v) = e0 (v / v0)^-p, clamped.
  const Distribution pl = parse_coefficient(json::parse(R"({"dist": "power_law", "e0": 0.5, "v0": 1, "exponent": 0.25,
                                                            "high": 0.9})"), "test", Coefficient::restitution);
  EXPECT_DOUBLE_EQ(draw(pl, 0.3, 16.0), 0.25);
  EXPECT_DOUBLE_EQ(draw(pl, 0.3, 1e-8), 0.9);
  EXPECT_THROW(parse_coefficient(json::parse(R"({"dist": "uniform", "low": 0.2, "high": 1.5})"), "t", Coefficient::restitution),
               std::invalid_argument);
  EXPECT_THROW(parse_coefficient(json::parse(R"({"dist": "gamma"})"), "t", Coefficient::restitution), std::invalid_argument);
}

// A ball falling at 2 m/s: separation velocity = 2 e exactly, energy ratio = e^2 (no tangential
// speed), the impulse m (1 + e) 2 for m = 1.
TEST(SweepSamples, BallOutcomesFollowRestitution) {
  const Study st = study(R"({"mechanism": {"model": "ball", "q": [0, 0, 0.1], "qdot": [0, 0, -2]}, "samples": 500,
                             "seed": 3, "restitution": {"dist": "uniform", "low": 0, "high": 1}})");
  SampleTable t;
  run_samples(st, 0, 500, 2, t);
  const Layout L = layout(st);
  for (std::size_t s = 0; s < t.count; ++s) {
    ASSERT_EQ(t.status[s], Status::ok);
    const double e = t.values(s, L.e);
    EXPECT_NEAR(t.values(s, L.separation), 2 * e, 1e-12);
    EXPECT_NEAR(t.values(s, L.energy_ratio), e * e, 1e-12);
    EXPECT_NEAR(t.values(s, L.impulse), 2 * (1 + e), 1e-12);
    EXPECT_NEAR(t.values(s, L.qdot_plus + 2), 2 * e, 1e-12);
  }
}

// The foot example at test size: one summary whatever the threads, the chunk size and the split
// into shards (what MPI ranks do), merged exactly.
TEST(SweepRun, FootIdenticalAcrossThreadsChunksAndShards) {
  const Study st = load_study(std::string(OBLIQ_SOURCE_DIR) + "/tests/sweep/data/foot_small.json");
  const std::string ref = summary_of(st, 1, 8192);
  EXPECT_EQ(summary_of(st, 2, 8192), ref);
  EXPECT_EQ(summary_of(st, 2, 1000), ref);
  EXPECT_EQ(summary_of(st, 1, 4097), ref);
  for (int parts : {2, 3}) EXPECT_EQ(sharded_summary(st, parts), ref) << parts << " shards";
  // And the physics: every sample solved, energy never gained when the law certifies it.
  const json s = json::parse(ref);
  EXPECT_EQ(s["counts"]["status"]["ok"].get<std::uint64_t>(), st.samples);
  EXPECT_LE(s["outputs"]["energy_ratio"]["max"].get<double>(), 1.0 + 1e-12);
  EXPECT_EQ(s["outputs"]["energy_ratio"]["count"].get<std::uint64_t>(), st.samples);
}

// mu = 0 drawn for every contact goes through the core's frictional impact (obliq::impact with
// a Friction) and must reproduce the frictionless batch solve bit for bit, output by output.
TEST(SweepFriction, ZeroMuReproducesTheFrictionlessSweepBitForBit) {
  std::ifstream in(std::string(OBLIQ_SOURCE_DIR) + "/tests/sweep/data/foot_small.json");
  json j = json::parse(in);
  j["samples"] = std::uint64_t(1500);
  const Study plain = parse_study(j, ".");
  j["friction"] = 0.0;
  const Study zero = parse_study(j, ".");
  SampleTable a, b;
  run_samples(plain, 0, 1500, 2, a);
  run_samples(zero, 0, 1500, 2, b);
  ASSERT_EQ(columns(zero).size(), columns(plain).size() + 2 * 4);  // mu and tangential_impulse per contact
  EXPECT_GT(test::expect_shared_outputs_bitwise(plain, a, zero, b), 30);
  EXPECT_EQ(a.energy_consistent, b.energy_consistent);
  EXPECT_EQ(a.released, b.released);
  const Layout L = layout(zero);
  for (std::size_t s = 0; s < b.count; ++s)
    if (b.status[s] == Status::ok)
      for (int r = 0; r < L.m_u; ++r) ASSERT_EQ(b.values(s, L.tangential_impulse + r), 0.0);
}

// Friction draws: each contact's mu from its own distribution (the kinds of e), mu >= 0.
TEST(SweepFriction, MuDrawsFollowTheirDistributions) {
  const Study st = study(R"({"mechanism": {"model": "block", "q": [0, 0.2, 0], "qdot": [0.5, -1.0, 0.0]},
                             "samples": 4000, "seed": 8, "restitution": 0.2,
                             "friction": {"corner_left": {"dist": "uniform", "low": 0.2, "high": 0.8},
                                          "corner_right": {"dist": "truncated_normal", "mean": 0.1, "sd": 0.3}}})");
  SampleTable t;
  run_samples(st, 0, 4000, 2, t);
  const Layout L = layout(st);
  double sum = 0, slid = 0;
  for (std::size_t s = 0; s < t.count; ++s) {
    ASSERT_EQ(t.status[s], Status::ok);
    const double a = t.values(s, L.mu), b = t.values(s, L.mu + 1);
    ASSERT_GE(a, 0.2);
    ASSERT_LE(a, 0.8);
    ASSERT_GE(b, 0.0);
    sum += a;
    // The block lands flat moving sideways at 0.5 m/s, 1 m/s down: the floor's tangential impulse
    // is at most mu times the normal one at each corner (Coulomb), and some is there.
    for (int r = 0; r < 2; ++r) {
      const double lt = t.values(s, L.tangential_impulse + r), ln = t.values(s, L.impulse + r);
      ASSERT_LE(lt, t.values(s, L.mu + r) * ln * (1 + 1e-9) + 1e-12);
      slid += lt;
    }
  }
  EXPECT_NEAR(sum / 4000, 0.5, 5 * 0.6 / std::sqrt(12.0 * 4000));
  EXPECT_GT(slid, 0.0);
  EXPECT_THROW(study(R"({"mechanism": {"model": "ball", "q": [0, 0, 1], "qdot": [0, 0, 0]}, "samples": 1, "seed": 1,
                          "friction": -0.1})"), std::invalid_argument);
}

TEST(SweepStudy, BadStudiesAreNamed) {
  auto error = [](const std::string& text) {
    try {
      study(text);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error(R"({"samples": 10, "seed": 1})").find("mechanism"), std::string::npos);
  EXPECT_NE(error(R"({"mechanism": {"model": "ball", "qdot": [0, 0]}, "samples": 10, "seed": 1})").find("qdot"),
            std::string::npos);
  EXPECT_NE(error(R"({"mechanism": {"model": "ball", "qdot": [0, 0, -1]}, "samples": 10, "seed": 1,
                      "restitution": {"nosuchcontact": 0.5}})").find("nosuchcontact"), std::string::npos);
  EXPECT_NE(error(R"({"mechanism": {"model": "ball", "qdot": [0, 0, -1]}, "seed": 1})").find("samples"),
            std::string::npos);
}

// A study's "inertia_check" is `obliq model --inertia-check`: a link breaking the triangle
// inequality (principal moments 1, 1, 3) loads with a warning by default and is refused by strict.
TEST(SweepStudy, InertiaCheckAsTheCommandLine) {
  const auto urdf = std::filesystem::temp_directory_path() / "obliq_sweep_triangle.urdf";
  std::ofstream(urdf) << "<robot name='r'><link name='base'/><link name='arm'><inertial><mass value='1'/>"
                         "<inertia ixx='1' ixy='0' ixz='0' iyy='1' iyz='0' izz='3'/></inertial></link>"
                         "<joint name='j0' type='revolute'><parent link='base'/><child link='arm'/><axis xyz='0 0 1'/>"
                         "<limit effort='1' velocity='1' lower='-1' upper='1'/></joint></robot>";
  const auto with = [&](const std::string& check) {
    json j = json::parse(R"({"mechanism": {"qdot": [1], "contacts": ["arm:1,0,0"]}, "samples": 1, "seed": 1})");
    j["mechanism"]["model"] = urdf.string();
    if (!check.empty()) j["mechanism"]["inertia_check"] = check;
    return j;
  };
  const std::string message = "link 'arm': inertia violates the triangle inequality (principal moments 1, 1, 3)";
  for (const std::string check : {"", "standard"}) {
    const Study st = parse_study(with(check), ".");
    ASSERT_TRUE(st.model.has_value());
    ASSERT_EQ(st.model->warnings.size(), 1u);
    EXPECT_NE(st.model->warnings[0].find(message), std::string::npos) << st.model->warnings[0];
  }
  try {
    parse_study(with("strict"), ".");
    ADD_FAILURE() << "strict loaded the model";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_study(with("loose"), "."), std::invalid_argument);
  std::filesystem::remove(urdf);
}

}  // namespace
}  // namespace obliq::sweep

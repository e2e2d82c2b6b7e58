// The line writer's numbers (io/json_text.hpp): std::to_chars's shortest digits laid out as
// nlohmann::json's dump lays them out. Every double written reads back to the same bits
// (strtod, and nlohmann's parser), is never longer than nlohmann's Grisu2 text, and whole
// objects are written exactly as nlohmann writes them when the digits agree.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "io/json_text.hpp"
#include "obliq/io/scenario_json.hpp"

namespace obliq {
namespace {

std::string text_of(double x) {
  std::string s;
  io::append_double(s, x);
  return s;
}

std::uint64_t bits(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

TEST(JsonText, LayoutIsNlohmanns) {
  EXPECT_EQ(text_of(1.0), "1.0");
  EXPECT_EQ(text_of(-0.0), "-0.0");
  EXPECT_EQ(text_of(0.0), "0.0");
  EXPECT_EQ(text_of(9.000000000000002), "9.000000000000002");
  EXPECT_EQ(text_of(1.5), "1.5");
  EXPECT_EQ(text_of(0.0001), "0.0001");
  EXPECT_EQ(text_of(1e-05), "1e-05");
  EXPECT_EQ(text_of(-2.5e-300), "-2.5e-300");
  EXPECT_EQ(text_of(123456789012345.0), "123456789012345.0");
  EXPECT_EQ(text_of(1e15), "1e+15");
  EXPECT_EQ(text_of(1.25e16), "1.25e+16");
  EXPECT_EQ(text_of(5e-324), "5e-324");
  EXPECT_EQ(text_of(std::numeric_limits<double>::max()), "1.7976931348623157e+308");
  EXPECT_EQ(text_of(std::nan("")), "null");
  // The same text as nlohmann's dump on numbers where Grisu2's digits are the shortest.
  for (double x : {1.0, -3.0, 0.1, 2.0 / 3.0, 1e-7, 6.02214076e23, 100.0, 1234.5678, 1e100, 0.5e-4})
    EXPECT_EQ(text_of(x), nlohmann::json(x).dump()) << x;
}

TEST(JsonText, EveryDoubleReadsBackBitForBit) {
  std::mt19937_64 rng(16);
  std::uniform_real_distribution<double> unit(-1, 1);
  int shorter = 0;
  for (int trial = 0; trial < 300000; ++trial) {
    double x;
    if (trial % 3 == 0) {  // any finite bit pattern: subnormals, huge, tiny
      const std::uint64_t b = rng();
      std::memcpy(&x, &b, sizeof x);
      if (!std::isfinite(x)) continue;
    } else if (trial % 3 == 1) {
      x = unit(rng);  // the typical solver output
    } else {
      x = unit(rng) * std::pow(10.0, double(int(rng() % 40) - 20));
    }
    const std::string t = text_of(x);
    ASSERT_EQ(bits(std::strtod(t.c_str(), nullptr)), bits(x)) << t;
    ASSERT_EQ(bits(nlohmann::json::parse(t).get<double>()), bits(x)) << t;
    const std::string grisu = nlohmann::json(x).dump();
    ASSERT_LE(t.size(), grisu.size()) << t << " vs " << grisu;
    shorter += t.size() < grisu.size();
  }
  RecordProperty("shorter_than_grisu2", shorter);
}

TEST(JsonText, ObjectsAsNlohmannWritesThem) {
  const io::ojson j = io::ojson::parse(
      R"({"id":"a\"b\u0001","status":"ok","x":[1.5,-2,3,true,false,null,[],{}],"n":18446744073709551615,"m":-9223372036854775808,"u":"é"})");
  EXPECT_EQ(io::dump_line(j), j.dump());
  nlohmann::json bad = std::string("\xff ok");  // invalid UTF-8 is replaced, never thrown
  EXPECT_EQ(io::dump_line(bad), bad.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

TEST(JsonText, ResultLinesAreTheObjectsAsNlohmannWouldWriteThem) {
  ImpactResult r;
  r.qdot_plus = Eigen::Vector3d(1.0 / 3, -0.0, 1e-310);
  r.impulse = Eigen::Vector3d(0.1, 2.5e20, -7);
  r.lambda = Eigen::Vector2d(1, 2);
  r.active = Eigen::Vector2i(1, 0);
  r.kinetic_energy_pre = 0.7;
  r.kinetic_energy_post = 0.3;
  r.energy_consistent = false;
  const io::ojson id = io::ojson::parse(R"({"run":[1,"a\u0001"]})");
  // The object built key by key with nlohmann (the writer before it wrote text directly).
  io::ojson j;
  j["id"] = id;
  j["status"] = "ok";
  for (const auto& [key, v] : {std::pair<const char*, const Eigen::VectorXd*>{"qdot_plus", &r.qdot_plus},
                               {"impulse", &r.impulse}, {"lambda", &r.lambda}}) {
    io::ojson a = io::ojson::array();
    for (double x : *v) a.push_back(x);
    j[key] = a;
  }
  j["active"] = {1, 0};
  j["kinetic_energy_pre"] = 0.7;
  j["kinetic_energy_post"] = 0.3;
  j["energy_consistent"] = false;
  bool ok = false;
  EXPECT_EQ(io::impact_result_line(id, r, &ok), io::dump_line(j));
  EXPECT_TRUE(ok);
  EXPECT_EQ(io::ojson::parse(io::impact_result_line(id, r)), j);  // and nlohmann reads it back equal
  DynamicsResult d;
  d.qddot = Eigen::Vector2d(0.1, -9.81);
  d.lambda = Eigen::VectorXd::Zero(0);
  d.active = Eigen::VectorXi::Zero(0);
  const io::ojson k = {{"id", 3}, {"status", "ok"}, {"qddot", {0.1, -9.81}}, {"lambda", io::ojson::array()},
                       {"active", io::ojson::array()}};
  EXPECT_EQ(io::dynamics_result_line(3, d, &ok), io::dump_line(k));
  d.status = Status::not_spd;
  EXPECT_EQ(io::dynamics_result_line(3, d, &ok), R"({"id":3,"status":"error: )" + std::string(status_reason(Status::not_spd)) + "\"}");
  EXPECT_FALSE(ok);
}

}  // namespace
}  // namespace obliq

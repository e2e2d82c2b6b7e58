// The scenario-line reader's two parsers (io/scenario_line.hpp): simdjson first, nlohmann's DOM
// for every line simdjson or the reader refuses. On every line, good or hostile, the answer must
// be the one nlohmann's reader alone gives: the same id, the same error text, the same numbers
// bit for bit. The lines: the README's ball, lines with every key, the corner cases of number
// syntax (-0, -0.0, 1e-320, integers past int64, exponents), repeated keys, ids of every JSON
// type, escapes, and 20000 random mutations of them (the fuzz target scenario_line runs the same
// check on libFuzzer's inputs in CI).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "io/scenario_line.hpp"
#include "mutate.hpp"
#include "obliq/io/scenario_json.hpp"

namespace obliq {
namespace {

using io::Use;

const std::vector<std::string> kLines = {
    R"({"id":"ball","M":[[2,0,0],[0,2,0],[0,0,2]],"qdot":[1,0,-3],"A_u":[[0,0,1]],"e":0.5})",
    R"({"id": 7, "M": [[2, 0], [0, 1]], "qdot": [0, -1], "A_u": [[0, 1]], "e": 0})",
    R"({"id": -7, "M": [[2.5e0, 1E-3], [0.001, 1]], "qdot": [-0.0, -0], "A_b": [[1, 0]], "A_u": [[0, 1]], "e": [1]})",
    R"({"id": 1.5, "M": [[1e-320]], "qdot": [18446744073709551615], "A_u": [[9223372036854775807]], "e": 0.25})",
    R"({"id": null, "M": [[1]], "qdot": [1], "h": [2], "u": [-3], "Adot_qdot": [0.5], "i_u": [1], "A_u": [[1]]})",
    R"({"id": true, "M": [[1]], "qdot": [1], "phi_u": [0.1], "A_u": [[1]], "law": "projection", "gap_tol": 1e-12})",
    R"({"id": [1, "x", {"a": 2}], "M": [[1]], "qdot": [1]})",
    R"({"id": {"b": 1, "a": [2, 3], "b": 4}, "M": [[1]], "qdot": [1]})",
    R"({"M": [[1]], "qdot": [1], "M": [[2]], "id": "repeated keys: the last wins"})",
    R"({"id": "esc\"aped\u00e9", "M": [[1]], "qdot": [1]})",
    R"({"id": "utf-8 é ✓", "M": [[1]], "qdot": [1]})",
    R"({"id": "fric", "M": [[1, 0], [0, 1]], "qdot": [1, -1], "A_u": [[0, 1]], "mu": 0.5, "A_t": [[1, 0]], "e_t": [0.2]})",
    R"({"id": "fric3", "M": [[1, 0, 0], [0, 1, 0], [0, 0, 1]], "qdot": [1, 0, -1], "A_u": [[0, 0, 1]], "mu": [0.5],)"
    R"( "A_t": [[1, 0, 0], [0, 1, 0]], "dim": 3, "Adot_qdot_t": [0, 0]})",
    R"(  {"M":[[1]],"qdot":[1]}  )",
    "{\"M\":[[1]],\"qdot\":[1]}\r",
    "   \t ",
    "",
    R"({"M": [[1]], "qdot": [NaN]})",
    R"({"M": [[1]], "qdot": [1e999]})",
    R"({"M": [[1]], "qdot": [1], "extra": -Infinity})",
    R"({"M": [[1]], "qdot": [100000000000000000000000]})",
    R"({"M": [[1]], "qdot": [1]} trailing)",
    R"({"M": [[1]], "qdot": [1],})",
    R"({"M": [[1, 2]], "qdot": [1]})",
    R"({"M": [[1]], "qdot": [1], "e": 2, "A_u": [[1]]})",
    R"({"M": [[1]], "qdot": [1], "law": "x"})",
    R"({"M": [[1]], "qdot": ["1"]})",
    R"([1, 2])",
    R"("just a string")",
    "{\"M\": [[1]], \"qdot\": [1], \"id\": \"\x01\"}",
    "{\"M\": [[1]], \"qdot\": [1], \"id\": \"\xff\"}",
    "\xEF\xBB\xBF{\"M\": [[1]], \"qdot\": [1]}",
};

void expect_same(const std::string& line) {
  for (Use use : {Use::impact, Use::dynamics, Use::all}) {
    const io::ScenarioLine fast = io::parse_scenario_line(line, 5, use);
    const io::ScenarioLine slow = io::parse_scenario_line_nlohmann(line, 5, use);
    ASSERT_TRUE(io::same_scenario_line(fast, slow))
        << "line: " << line << "\nerror: '" << fast.error << "' vs nlohmann's '" << slow.error << "'\nid: "
        << fast.id.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << " vs "
        << slow.id.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
}

TEST(FastReader, SameAsNlohmannOnEveryLine) {
  int ok = 0;
  for (const auto& line : kLines) {
    expect_same(line);
    ok += io::parse_scenario_line(line, 1, Use::all).error.empty();
  }
  EXPECT_GE(ok, 14);  // the good lines are read, not all refused alike
}

TEST(FastReader, SameAsNlohmannAroundTheDepthBound) {
  for (int depth : {63, 64, 65, 66}) {  // the object is level 1; io::kMaxJsonDepth = 64
    const std::string line = R"({"M": [[1]], "qdot": [1], "deep": )" + std::string(std::size_t(depth - 1), '[') + "1" +
                             std::string(std::size_t(depth - 1), ']') + "}";
    expect_same(line);
    EXPECT_EQ(io::parse_scenario_line(line, 1, Use::impact).error.empty(), depth <= 64) << depth;
  }
}

TEST(FastReader, RepeatedKeyLastWinsAndIdsKeepTheirType) {
  const io::ScenarioLine a = io::parse_scenario_line(kLines[8], 1, Use::impact);
  ASSERT_EQ(a.error, "");
  EXPECT_EQ(a.scenario.M(0, 0), 2.0);
  const io::ScenarioLine b = io::parse_scenario_line(kLines[7], 1, Use::impact);
  EXPECT_EQ(b.id.dump(), R"({"b":4,"a":[2,3]})");
  const io::ScenarioLine c = io::parse_scenario_line(kLines[2], 1, Use::impact);
  ASSERT_EQ(c.error, "");
  EXPECT_TRUE(std::signbit(c.scenario.qdot[0]));   // -0.0 is a float
  EXPECT_FALSE(std::signbit(c.scenario.qdot[1]));  // -0 is the integer 0
}

TEST(FastReader, SameAsNlohmannOnMutatedLines) {
  const std::string alphabet = "{}[],:\"-+.0123456789eENaIfinity nul\\u";
  std::mt19937_64 rng(16);
  for (int trial = 0; trial < 20000; ++trial) {
    const std::string line = cli_test::mutate_line(kLines[std::size_t(trial) % 14], rng, alphabet);
    expect_same(line);
    if (HasFatalFailure()) return;
  }
}

}  // namespace
}  // namespace obliq

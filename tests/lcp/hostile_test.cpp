// Hostile inputs for `obliq lcp` (issue 10): the format is decided without trusting a damaged
// first line, a non-finite literal keeps its line's id, m past the bound and a 100,000-deep id
// are error lines, the good lines beside them are solved, and no ok line carries a null.
#include <gtest/gtest.h>

#include "cli/cli_helpers.hpp"

namespace obliq {
namespace {

using namespace cli_test;

const std::string kGood = R"({"id": "good", "M": [[2, 1], [1, 2]], "q": [-3, -3]})";  // z = (1, 1), w = 0

void expect_good(const json& j) {
  ASSERT_EQ(status_of(j), "ok") << j.dump();
  EXPECT_EQ(j.at("id"), "good");
  EXPECT_TRUE(near(vec(j.at("z")), Eigen::Vector2d(1, 1), 1e-14));
  EXPECT_TRUE(near(vec(j.at("w")), Eigen::Vector2d(0, 0), 1e-14));
}

RunResult run_lcp_text(const std::string& name, const std::string& text, const std::string& extra = "") {
  const auto path = write_temp(name, text);
  return run_obliq("lcp " + quote(path.string()) + " " + extra);
}

TEST(HostileLcp, DamagedFirstLineIsOneErrorLineNotASiconosFile) {
  for (const std::string first : {"garbage", "{\"id\": \"cut\", \"M\": [[1", "[1, 2]"}) {
    const auto r = run_lcp_text("damaged.txt", first + "\n" + kGood + "\n");  // no telling extension
    EXPECT_EQ(r.exit_code, 3) << r.err;
    const auto out = parse_lines(r.out);
    ASSERT_EQ(out.size(), 2u) << r.out;
    EXPECT_EQ(status_of(out[0]).rfind("error: not a JSON object", 0), 0u) << out[0].dump();
    expect_good(out[1]);
  }
  // Through standard input as well, and with --format jsonl on a .dat name.
  const auto path = write_temp("damaged_stdin.txt", "garbage\n" + kGood + "\n");
  auto r = run_obliq("lcp - < " + quote(path.string()));
  EXPECT_EQ(r.exit_code, 3);
  ASSERT_EQ(parse_lines(r.out).size(), 2u);
  r = run_lcp_text("damaged.dat", "garbage\n" + kGood + "\n", "--format jsonl");
  EXPECT_EQ(r.exit_code, 3);
  ASSERT_EQ(parse_lines(r.out).size(), 2u);
  expect_good(parse_lines(r.out)[1]);
}

TEST(HostileLcp, SiconosDetectedByExtensionFirstTokenOrFlag) {
  const std::string dat = "2\n0\n2\n2\n2 2\n2 1\n1 2\n-3 -3\n";  // the good problem, column-major
  for (const auto& [name, extra] : std::vector<std::pair<std::string, std::string>>{
           {"p.dat", ""}, {"p.txt", ""}, {"p.jsonl", "--format siconos"}}) {
    const auto r = run_lcp_text(name, dat, extra);
    EXPECT_EQ(r.exit_code, 0) << name << " " << r.err;
    const auto out = parse_lines(r.out);
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].at("id"), name);
    EXPECT_TRUE(near(vec(out[0].at("z")), Eigen::Vector2d(1, 1), 1e-14));
  }
}

// A sparse-block Siconos file whose index1_data rises past nbblocks before it falls back (found by
// fuzz/siconos_reader.cpp under ASan: the reader read index2_data past its end). Now a
// malformed file: exit 2 with the reason, nothing written.
TEST(HostileLcp, SiconosBlockIndexPastTheBlockCountIsMalformed) {
  const std::string dat = "3\n1\n3\n3\n2\n2 2\n1 3\n1 3\n3 2\n0 9 2\n\n0\n1\n1\n2 02\n-1 -1 -1\n";
  const auto r = run_lcp_text("index1.dat", dat);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_NE(r.err.find("index1_data not increasing"), std::string::npos) << r.err;
}

TEST(HostileLcp, NonFiniteLiteralKeepsItsId) {
  const auto r = run_lcp_text("nan.jsonl", R"({"id": "x", "M": [[NaN]], "q": [1]})" "\n" R"({"id": "y", "M": [[1]], "q": [-1e999]})"
                                                                                         "\n" + kGood + "\n");
  EXPECT_EQ(r.exit_code, 3);
  const auto out = parse_lines(r.out);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].at("id"), "x");
  EXPECT_EQ(status_of(out[0]), "error: non-finite number in M[0][0]");
  EXPECT_EQ(out[1].at("id"), "y");
  EXPECT_EQ(status_of(out[1]), "error: non-finite number in q[0]");
  expect_good(out[2]);
}

TEST(HostileLcp, TooLargeAndTooDeepAreErrorLines) {
  std::string row = "[0", M;
  for (int k = 1; k < 1025; ++k) row += ",0";
  row += "]";
  M = "[" + row;
  for (int k = 1; k < 1025; ++k) M += "," + row;
  M += "]";
  const std::string deep = "{\"id\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
  const auto r = run_lcp_text("big.jsonl", "{\"id\": \"big\", \"M\": " + M + ", \"q\": [0]}\n" + deep + "\n" + kGood + "\n");
  EXPECT_EQ(r.exit_code, 3);
  const auto out = parse_lines(r.out);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(status_of(out[0]), "error: too large (m = 1025 from M; at most 1024)");
  EXPECT_EQ(out[1].at("id"), 2);
  EXPECT_EQ(status_of(out[1]), "error: too deeply nested (more than 64 levels of [ and {)");
  expect_good(out[2]);
  // A Siconos file past the bound is refused before anything is allocated.
  const auto s = run_lcp_text("big.dat", "100000\n0\n100000\n100000\n100000 100000\n");
  EXPECT_EQ(s.exit_code, 2);
  EXPECT_NE(s.err.find("too large (n = 100000; at most 1024)"), std::string::npos) << s.err;
}

TEST(HostileLcp, NoNullOnAnyLine) {
  const auto r = run_lcp_text("mixed.jsonl", kGood + "\n" + R"({"id": "ray", "M": [[-1]], "q": [-1]})" "\n" +
                                                 R"({"id": "huge", "M": [[1e-300]], "q": [-1e300]})" "\n");
  EXPECT_EQ(r.exit_code, 3);
  const auto out = parse_lines(r.out);
  ASSERT_EQ(out.size(), 3u);
  expect_good(out[0]);
  EXPECT_NE(status_of(out[1]), "ok");
  EXPECT_NE(status_of(out[2]), "ok");  // z = 1e600 overflows: an error line (it once carried "residual": null)
  EXPECT_EQ(r.out.find("null"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace obliq

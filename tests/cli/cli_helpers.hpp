// tests/cli/cli_helpers.hpp: run the `obliq` binary and read its JSON Lines output.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <Eigen/Dense>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace obliq::cli_test {

using json = nlohmann::ordered_json;

struct RunResult {
  int exit_code = -1;
  std::string out, err;
};

// One scratch folder per test process, removed when the process exits.
inline std::filesystem::path temp_dir() {
  struct Dir {
    std::filesystem::path path;
    Dir() : path(std::filesystem::temp_directory_path() / ("obliq_cli_tests_" + std::to_string(::getpid()))) {
      std::filesystem::create_directories(path);
    }
    ~Dir() {
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
    }
  };
  static const Dir dir;
  return dir.path;
}

inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::filesystem::path write_temp(const std::string& name, const std::string& content) {
  auto p = temp_dir() / name;
  std::ofstream(p, std::ios::binary) << content;
  return p;
}

inline std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs `obliq ARGS` through the shell (ARGS may hold redirections such as "< FILE").
inline RunResult run_obliq(const std::string& args) {
  static int counter = 0;
  const auto base = temp_dir() / ("run" + std::to_string(++counter));
  const std::string out = base.string() + ".out", err = base.string() + ".err";
  const std::string cmd = quote(OBLIQ_CLI_PATH) + " " + args + " > " + quote(out) + " 2> " + quote(err);
  const int status = std::system(cmd.c_str());
  RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_text(out);
  r.err = read_text(err);
  return r;
}

inline std::vector<json> parse_lines(const std::string& text) {
  std::vector<json> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(json::parse(line));
  return lines;
}

inline std::string example(const std::string& name) { return std::string(OBLIQ_SOURCE_DIR) + "/examples/" + name; }

inline std::vector<std::string> file_lines(const std::string& path) {
  std::vector<std::string> lines;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

inline Eigen::VectorXd vec(const json& a) {
  Eigen::VectorXd v(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) v[Eigen::Index(i)] = a[i].get<double>();
  return v;
}

inline std::string status_of(const json& j) { return j.at("status").get<std::string>(); }

// Whether a null appears anywhere in j (no ok line may carry one: JSON has no Infinity or NaN).
inline bool has_null(const json& j) {
  if (j.is_null()) return true;
  if (j.is_structured())
    for (const auto& v : j)
      if (has_null(v)) return true;
  return false;
}

// Entry-wise |a - b| <= tol * (1 + |b|).
inline ::testing::AssertionResult near(const Eigen::VectorXd& a, const Eigen::VectorXd& b, double tol) {
  if (a.size() != b.size())
    return ::testing::AssertionFailure() << "sizes " << a.size() << " and " << b.size();
  for (Eigen::Index i = 0; i < a.size(); ++i)
    if (!(std::abs(a[i] - b[i]) <= tol * (1 + std::abs(b[i]))))
      return ::testing::AssertionFailure() << "entry " << i << ": " << a[i] << " vs " << b[i] << " (tol " << tol
                                           << ")\n  a = " << a.transpose() << "\n  b = " << b.transpose();
  return ::testing::AssertionSuccess();
}

inline ::testing::AssertionResult near(double a, double b, double tol) {
  return near(Eigen::VectorXd::Constant(1, a), Eigen::VectorXd::Constant(1, b), tol);
}

}  // namespace obliq::cli_test

// tests/sweep/cli_test.cpp: `obliq sweep` as a user runs it: every example, the same summary
// for other thread counts and chunk sizes, plots and rows written, bad studies, Ctrl-C.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>
#include <vector>

namespace {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

// One scratch folder per test process, removed when the process exits.
fs::path scratch() {
  struct Dir {
    fs::path path = fs::temp_directory_path() / ("obliq_sweep_tests_" + std::to_string(::getpid()));
    Dir() { fs::create_directories(path); }
    ~Dir() {
      std::error_code ec;
      fs::remove_all(path, ec);
    }
  };
  static const Dir dir;
  return dir.path;
}

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

int obliq(const std::string& args, std::string* out = nullptr) {
  const fs::path o = scratch() / "stdout.txt";
  const int st = std::system((quote(OBLIQ_CLI_PATH) + " " + args + " > " + quote(o.string()) + " 2>&1").c_str());
  if (out) {
    std::ifstream in(o);
    std::stringstream ss;
    ss << in.rdbuf();
    *out = ss.str();
  }
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

json summary(const fs::path& dir) {
  std::ifstream in(dir / "summary.json");
  json s = json::parse(in);
  s.erase("run");
  return s;
}

std::string example(const std::string& name) { return std::string(OBLIQ_SOURCE_DIR) + "/examples/" + name; }

// A smaller copy of an example (CI time): samples and rows cut down.
std::string small_copy(const std::string& name, std::uint64_t samples) {
  std::ifstream in(example(name));
  json s = json::parse(in);
  s["samples"] = samples;
  const fs::path p = scratch() / name;
  std::ofstream(p) << s.dump(2);
  return p.string();
}

TEST(SweepCli, EveryExampleRunsAndWritesItsFiles) {
  for (const char* name : {"foot_landing.json", "quadruped_touchdown.json", "rocking_block.json", "cradle5.json"}) {
    const std::string study = small_copy(name, 3000);
    const fs::path dir = scratch() / (std::string(name) + ".out");
    std::string text;
    ASSERT_EQ(obliq("sweep " + quote(study) + " -o " + quote(dir.string()), &text), 0) << text;
    EXPECT_NE(text.find("energy_ratio"), std::string::npos) << text;
    const json s = summary(dir);
    EXPECT_EQ(s["samples_done"].get<std::uint64_t>(), 3000u) << name;
    EXPECT_FALSE(s["partial"].get<bool>());
    EXPECT_EQ(s["counts"]["status"]["ok"].get<std::uint64_t>(), 3000u) << name << ": " << s["counts"].dump();
    for (const char* f : {"rows.csv", "rows.h5", "energy_ratio.png", "impulses.png", "e_vs_separation.png"})
      EXPECT_GT(fs::file_size(dir / f), 100u) << name << " " << f;
    // rows.csv: a header and one line per row asked for.
    std::ifstream csv(dir / "rows.csv");
    std::string line;
    int lines = 0;
    while (std::getline(csv, line)) ++lines;
    EXPECT_EQ(lines, 1 + 1000) << name;
  }
}

TEST(SweepCli, TrajectoryExampleRunsAndWritesItsFiles) {
  const std::string study = small_copy("bouncing_ball.json", 1500);
  const fs::path dir = scratch() / "bouncing_ball.out";
  std::string text;
  ASSERT_EQ(obliq("sweep " + quote(study) + " -o " + quote(dir.string()), &text), 0) << text;
  EXPECT_NE(text.find("at rest at T"), std::string::npos) << text;
  const json s = summary(dir);
  EXPECT_EQ(s["sample_kind"], "trajectory");
  EXPECT_EQ(s["counts"]["status"]["ok"].get<std::uint64_t>(), 1500u) << s["counts"].dump();
  for (const char* f : {"rows.csv", "rows.h5", "energy_ratio_T.png", "impacts.png", "e_vs_impacts.png"})
    EXPECT_GT(fs::file_size(dir / f), 100u) << f;
}

// The numbers of a CSV row by column name (the sweep's rows.csv: header, then sample 0).
std::map<std::string, double> first_row(const fs::path& csv) {
  std::ifstream in(csv);
  std::string head, row;
  std::getline(in, head);
  std::getline(in, row);
  std::map<std::string, double> m;
  std::stringstream hs(head), rs(row);
  std::string name, cell;
  while (std::getline(hs, name, ',') && std::getline(rs, cell, ','))
    if (name != "status") m[name] = cell.empty() ? NAN : std::stod(cell);
  return m;
}

json last_json_line(const std::string& text) {
  std::stringstream in(text);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty() && line[0] == '{') last = line;
  return json::parse(last);
}

// A fixed mu in a study reproduces `obliq model --impact --mu` exactly (the same frictional
// impact of the core on the same scenario), written with %.17g on both sides.
TEST(SweepCli, FixedMuReproducesModelImpact) {
  const fs::path study = scratch() / "block_mu.json", dir = scratch() / "block_mu.out";
  std::ofstream(study) << R"({"mechanism": {"model": "block", "q": [0, 0.2, 0], "qdot": [0.2, -0.1, 1.0], "gaps": "model"},
    "samples": 1, "seed": 1, "restitution": 0.3, "friction": 0.5,
    "collect": {"rows": 1, "rows_format": ["csv"], "plots": false}})";
  ASSERT_EQ(obliq("sweep " + quote(study.string()) + " -o " + quote(dir.string()) + " --quiet"), 0);
  const fs::path state = scratch() / "block_state.jsonl";
  std::ofstream(state) << R"({"id": 1, "q": [0, 0.2, 0], "qdot": [0.2, -0.1, 1.0]})" << "\n";
  std::string text;
  ASSERT_EQ(obliq("model block --state " + quote(state.string()) + " --impact --e 0.3 --mu 0.5", &text), 0) << text;
  const json m = last_json_line(text);
  const auto row = first_row(dir / "rows.csv");
  const char* coord[3] = {"x", "z", "pitch"};
  for (int k = 0; k < 3; ++k)
    EXPECT_EQ(row.at(std::string("qdot_plus.") + coord[k]), m["qdot_plus"][k].get<double>()) << coord[k];
  int r = 0;  // impulse.<contact> columns in contact order (std::map: by name; the block's are
              // named so that name order is contact order, checked by the count below)
  for (const auto& [name, value] : row)
    if (name.rfind("impulse.", 0) == 0) EXPECT_EQ(value, m["lambda"][r++].get<double>()) << name;
  EXPECT_EQ(r, 2);
  r = 0;
  for (const auto& [name, value] : row)
    if (name.rfind("tangential_impulse.", 0) == 0) {
      const double t1 = m["lambda_t"][2 * r].get<double>(), t2 = m["lambda_t"][2 * r + 1].get<double>();
      EXPECT_EQ(value, std::sqrt(t1 * t1 + t2 * t2)) << name;
      ++r;
    }
  EXPECT_EQ(r, 2);
  EXPECT_GT(row.at("energy_ratio"), 0.0);
}

// A fixed mu and e in a trajectory study reproduce `obliq simulate --mu --e` exactly: the same
// Simulator on the same state.
TEST(SweepCli, FixedMuReproducesSimulate) {
  const fs::path study = scratch() / "ball_mu.json", dir = scratch() / "ball_mu.out";
  std::ofstream(study) << R"({"mechanism": {"model": "ball", "q": [0, 0, 0.5], "qdot": [1.0, 0.3, -1.0]},
    "samples": 1, "seed": 1, "restitution": 0.4, "friction": 0.3,
    "trajectory": {"integrator": "event", "T": 1.0, "dt": 0.1},
    "collect": {"rows": 1, "rows_format": ["csv"], "plots": false}})";
  ASSERT_EQ(obliq("sweep " + quote(study.string()) + " -o " + quote(dir.string()) + " --quiet"), 0);
  const fs::path state = scratch() / "ball_state.jsonl";
  std::ofstream(state) << R"({"id": 1, "q": [0, 0, 0.5], "qdot": [1.0, 0.3, -1.0]})" << "\n";
  std::string text;
  ASSERT_EQ(obliq("simulate ball --state " + quote(state.string()) +
                  " --dt 0.1 --steps 10 --integrator event --e 0.4 --mu 0.3 --quiet", &text), 0) << text;
  const json m = last_json_line(text);
  ASSERT_NEAR(m["t"].get<double>(), 1.0, 1e-12);
  const auto row = first_row(dir / "rows.csv");
  const char* coord[3] = {"x", "y", "z"};
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(row.at(std::string("q_T.") + coord[k]), m["q"][k].get<double>()) << coord[k];
    EXPECT_EQ(row.at(std::string("qdot_T.") + coord[k]), m["qdot"][k].get<double>()) << coord[k];
  }
  EXPECT_EQ(row.at("impacts"), m["impacts"].get<double>());
  EXPECT_EQ(row.at("kinetic_energy_T"), m["kinetic_energy"].get<double>());
  EXPECT_GT(row.at("impacts"), 1.0);
  EXPECT_NE(row.at("qdot_T.x"), 1.0);  // friction acted
}

TEST(SweepCli, SameSummaryForThreadsAndChunks) {
  const std::string study = small_copy("rocking_block.json", 20000);
  const fs::path a = scratch() / "t1", b = scratch() / "t2";
  ASSERT_EQ(obliq("sweep " + quote(study) + " -o " + quote(a.string()) + " --threads 1 --chunk 8192 --no-plots"), 0);
  ASSERT_EQ(obliq("sweep " + quote(study) + " -o " + quote(b.string()) + " --threads 2 --chunk 999 --no-plots"), 0);
  EXPECT_EQ(summary(a).dump(), summary(b).dump());
}

// The progress bar: drawn on a terminal (util-linux `script` gives the command one), absent when
// standard error is a file.
TEST(SweepCli, ProgressBarOnlyOnATerminal) {
  const std::string study = small_copy("rocking_block.json", 6000);
  const fs::path err = scratch() / "progress.err", tty = scratch() / "progress.tty";
  ASSERT_EQ(obliq("sweep " + quote(study) + " -o " + quote((scratch() / "p1").string()) + " --no-plots --chunk 1000 2> " +
                  quote(err.string())),
            0);
  EXPECT_EQ(fs::file_size(err), 0u);
  if (std::system("command -v script > /dev/null 2>&1") != 0) GTEST_SKIP() << "no script(1) to give a terminal";
  const std::string cmd = quote(OBLIQ_CLI_PATH) + " sweep " + quote(study) + " -o " +
                          quote((scratch() / "p2").string()) + " --no-plots --chunk 1000 > /dev/null";
  ASSERT_EQ(std::system(("script -qec " + quote(cmd) + " " + quote(tty.string()) + " > /dev/null").c_str()), 0);
  std::ifstream in(tty);
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_NE(ss.str().find("6000/6000"), std::string::npos) << ss.str();
  EXPECT_NE(ss.str().find("samples/s"), std::string::npos);
  EXPECT_NE(ss.str().find("ETA"), std::string::npos);
}

TEST(SweepCli, BadStudyIsMisuse) {
  const fs::path bad = scratch() / "bad.json";
  std::ofstream(bad) << R"({"mechanism": {"model": "nosuchmodel", "qdot": []}, "samples": 10, "seed": 1})";
  std::string text;
  EXPECT_EQ(obliq("sweep " + quote(bad.string()), &text), 2);
  EXPECT_NE(text.find("nosuchmodel"), std::string::npos) << text;
  EXPECT_EQ(obliq("sweep /nonexistent/study.json", &text), 2);
  EXPECT_NE(text.find("cannot read"), std::string::npos) << text;
}

// Every number in a summary: none is null (JSON has no Infinity or NaN; nlohmann writes them as
// null), and `path` names the first one that is.
std::string first_null(const json& j, const std::string& path = "") {
  if (j.is_null()) return path.empty() ? "(top)" : path;
  if (j.is_number_float() && !std::isfinite(j.get<double>())) return path;
  if (j.is_object())
    for (auto it = j.begin(); it != j.end(); ++it)
      if (auto p = first_null(it.value(), path + "." + it.key()); !p.empty()) return p;
  if (j.is_array())
    for (std::size_t k = 0; k < j.size(); ++k)
      if (auto p = first_null(j[k], path + "[" + std::to_string(k) + "]"); !p.empty()) return p;
  return "";
}

std::vector<std::vector<std::string>> csv_cells(const fs::path& csv) {
  std::ifstream in(csv);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream ls(line);
    std::string cell;
    while (std::getline(ls, cell, ',')) cells.push_back(cell);
    if (!line.empty() && line.back() == ',') cells.push_back("");
    rows.push_back(cells);
  }
  return rows;
}

// Draws that overflow (qdot perturbed with sd 1e300): no sample's outputs can be written (the
// velocity norm and the kinetic energies overflow double), so, by the rule `obliq impact` applies
// to its ok lines (docs/format-notes.md), none is ok. Each is an error named after its first
// non-finite output, counted in the status table and left out of the statistics; summary.json,
// rows.csv and the plots' data carry no null, Infinity or NaN.
TEST(SweepCli, OverflowingDrawsAreNonFiniteStatusesAndTheSummaryHasNoNull) {
  const fs::path study = scratch() / "overflow.json", dir = scratch() / "overflow.out";
  std::ofstream(study) << R"({"name": "overflow", "mechanism": {"model": "ball", "q": [0, 0, 0.1], "qdot": [0, 0, -1]},
    "samples": 3000, "seed": 5, "restitution": {"dist": "uniform", "low": 0, "high": 1},
    "perturb": {"qdot": {"dist": "normal", "sd": 1e300}}, "collect": {"rows": "all"}})";
  std::string text;
  ASSERT_EQ(obliq("sweep " + quote(study.string()) + " -o " + quote(dir.string()) + " --quiet", &text), 0) << text;
  // The same rule in `obliq model --impact` on one such state (the writers' check, not the sweep's).
  const fs::path state = scratch() / "overflow_state.jsonl";
  std::ofstream(state) << R"({"id": 1, "q": [0, 0, 0.1], "qdot": [1e300, -1e300, -1e300]})" << "\n";
  std::string line;
  EXPECT_EQ(obliq("model ball --state " + quote(state.string()) + " --impact --e 0.5", &line), 3) << line;
  EXPECT_NE(line.find("error: non-finite result: "), std::string::npos) << line;

  std::ifstream in(dir / "summary.json");
  const json s = json::parse(in);
  EXPECT_EQ(first_null(s), "") << "null in summary.json";
  // |qdot_i| > 1.3e154 on every coordinate of every sample (P(|N(0,1)| < 1e-146) is nil): the
  // norm sqrt(sum qdot_plus_i^2) overflows first, in column order.
  const json& status = s["counts"]["status"];
  EXPECT_EQ(status.dump(), R"({"non-finite result: qdot_plus_norm overflows double precision":3000})");
  for (const char* k : {"qdot_plus_norm", "energy_ratio", "impulse.ball_bottom", "qdot_plus.z"}) {
    const json& o = s["outputs"][k];
    EXPECT_EQ(o["count"].get<std::uint64_t>(), 0u) << k;
    EXPECT_FALSE(o.contains("mean")) << k << ": " << o.dump();
  }
  EXPECT_EQ(s["outputs"]["e.ball_bottom"]["count"].get<std::uint64_t>(), 3000u);  // the draws still count
  EXPECT_EQ(s["counts"]["energy_consistent"]["count"].get<std::uint64_t>(), 0u);
  const auto rows = csv_cells(dir / "rows.csv");
  ASSERT_EQ(rows.size(), 3001u);
  for (std::size_t r = 1; r < rows.size(); ++r) {
    ASSERT_EQ(rows[r][1], "non-finite result: qdot_plus_norm overflows double precision") << r;
    for (std::size_t c = 3; c < rows[r].size(); ++c) ASSERT_EQ(rows[r][c], "") << r << " " << rows[0][c];
  }
  for (const char* f : {"energy_ratio.dat", "impulses.dat", "energy_ratio.gp", "impulses.gp"})
    if (fs::exists(dir / f)) {
      std::ifstream d(dir / f);
      const std::string t((std::istreambuf_iterator<char>(d)), std::istreambuf_iterator<char>());
      EXPECT_EQ(t.find("inf"), std::string::npos) << f;
      EXPECT_EQ(t.find("nan"), std::string::npos) << f;
    }
  EXPECT_EQ(text.find("nan"), std::string::npos) << text;
}

// Some draws overflow, others do not (a unit mass on one coordinate, qdot perturbed with sd
// 1e154): the ok samples' statistics are those of the ok rows alone (recomputed here in long
// double from rows.csv), the others are counted by the output that overflowed, and no statistic
// is null: one that does not fit in a double is left out and named under "overflowed".
TEST(SweepCli, PartlyOverflowingDrawsKeepTheOkSamplesStatistics) {
  const fs::path study = scratch() / "mixed.json", dir = scratch() / "mixed.out";
  std::ofstream(study) << R"({"name": "mixed", "mechanism": {"scenario": {"M": [[1]], "A_u": [[1]], "qdot": [-1]}},
    "samples": 3000, "seed": 5, "restitution": {"dist": "uniform", "low": 0, "high": 1},
    "perturb": {"qdot": {"dist": "normal", "sd": 1e154}}, "collect": {"rows": "all", "rows_format": ["csv"]}})";
  std::string text;
  ASSERT_EQ(obliq("sweep " + quote(study.string()) + " -o " + quote(dir.string()) + " --quiet", &text), 0) << text;
  std::ifstream in(dir / "summary.json");
  const json s = json::parse(in);
  EXPECT_EQ(first_null(s), "") << "null in summary.json";
  const auto rows = csv_cells(dir / "rows.csv");
  ASSERT_EQ(rows.size(), 3001u);
  const std::vector<std::string>& head = rows[0];
  std::map<std::string, std::uint64_t> status;
  std::map<std::string, std::vector<long double>> values;
  for (std::size_t r = 1; r < rows.size(); ++r) {
    ++status[rows[r][1]];
    for (std::size_t c = 2; c < head.size(); ++c)
      if (!rows[r][c].empty()) {
        const double x = std::stod(rows[r][c]);
        ASSERT_TRUE(std::isfinite(x)) << r << " " << head[c];
        values[head[c]].push_back(x);
      }
    if (rows[r][1] != "ok") continue;
    // An ok row: unit mass, one row A_u = 1: qdot = qdot_plus - impulse; every output finite and
    // as the closed form says (norm |v+|; energy ratio (v+ / v)^2).
    const double vp = std::stod(rows[r][3]), norm = std::stod(rows[r][4]), imp = std::stod(rows[r][5]);
    const long double v = (long double)vp - imp;
    EXPECT_EQ(norm, std::abs(vp)) << r;
    EXPECT_NEAR(double(std::stold(rows[r][7]) / ((long double)vp * vp / (v * v))), 1.0, 1e-12) << r;
  }
  // Every status of the rows is in the summary's table with the same count, and there are both.
  EXPECT_EQ(s["counts"]["status"].size(), status.size()) << s["counts"]["status"].dump();
  for (const auto& [reason, n] : status) EXPECT_EQ(s["counts"]["status"].value(reason, 0u), n) << reason;
  EXPECT_GT(status["ok"], 1000u);
  EXPECT_GT(status["non-finite result: qdot_plus_norm overflows double precision"], 100u);
  // The statistics of every output are those of the finite values of the rows.
  for (std::size_t c = 2; c < head.size(); ++c) {
    const json& o = s["outputs"][head[c]];
    const std::vector<long double>& x = values[head[c]];
    ASSERT_EQ(o["count"].get<std::uint64_t>(), x.size()) << head[c];
    long double sum = 0, lo = INFINITY, hi = -INFINITY;
    for (long double v : x) {
      sum += v;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    const long double mean = sum / x.size();
    long double ss = 0;
    for (long double v : x) ss += (v - mean) * (v - mean);
    const long double var = ss / (x.size() - 1);
    EXPECT_EQ(o["min"].get<double>(), double(lo)) << head[c];
    EXPECT_EQ(o["max"].get<double>(), double(hi)) << head[c];
    const auto listed = [&](const char* k) {
      return o.contains("overflowed") && o["overflowed"].dump().find(std::string("\"") + k + "\"") != std::string::npos;
    };
    const long double scale = std::max(std::abs(lo), std::abs(hi));
    if (o.contains("mean")) EXPECT_LE(std::abs(o["mean"].get<double>() - mean), 1e-12L * scale) << head[c];
    else EXPECT_TRUE(listed("mean")) << head[c];
    if (o.contains("variance")) EXPECT_NEAR(double(o["variance"].get<double>() / var), 1.0, 1e-9) << head[c];
    else EXPECT_TRUE(listed("variance") && var > 1e300L) << head[c] << " " << double(var);
    if (o.contains("sd")) EXPECT_NEAR(double(o["sd"].get<double>() / std::sqrt(var)), 1.0, 1e-9) << head[c];
    else EXPECT_TRUE(listed("sd")) << head[c];
  }
}

// A misspelt key is misuse (exit 2) with a message naming it and the closest known key; nothing
// is written, and a summary already in the folder is left as it was.
TEST(SweepCli, AnUnknownKeyIsMisuseAndWritesNothing) {
  const fs::path study = scratch() / "misspelt.json", dir = scratch() / "misspelt.out", fresh = scratch() / "never";
  std::ofstream(study) << R"({"mechanism": {"model": "ball", "q": [0, 0, 0.1], "qdot": [0, 0, -1]},
    "samples": 10, "seed": 1, "restitutoin": 0.5})";
  fs::create_directories(dir);
  std::ofstream(dir / "summary.json") << "earlier run\n";
  std::string text;
  EXPECT_EQ(obliq("sweep " + quote(study.string()) + " -o " + quote(dir.string()), &text), 2);
  EXPECT_EQ(text, "obliq sweep: unknown key 'restitutoin' in study (did you mean 'restitution'?)\n");
  std::ifstream kept(dir / "summary.json");
  EXPECT_EQ(std::string((std::istreambuf_iterator<char>(kept)), std::istreambuf_iterator<char>()), "earlier run\n");
  EXPECT_EQ(obliq("sweep " + quote(study.string()) + " -o " + quote(fresh.string()), &text), 2);
  EXPECT_FALSE(fs::exists(fresh));
}

// Hostile study files and options (issue 10): a study nested 100,000 levels deep is refused (the
// JSON parser recurses), --threads past 256 is misuse, and the study file is never one of the
// files the sweep writes (it would be truncated): each exit 2 with a message, nothing written.
TEST(SweepCli, HostileStudiesAndOptionsAreRefused) {
  std::string text;
  const fs::path deep = scratch() / "deep.json";
  std::ofstream(deep) << "{\"name\": " << std::string(100000, '[') << std::string(100000, ']') << "}";
  EXPECT_EQ(obliq("sweep " + quote(deep.string()), &text), 2);
  EXPECT_NE(text.find("too deeply nested (more than 64 levels"), std::string::npos) << text;

  const std::string study = small_copy("foot_landing.json", 100);
  EXPECT_EQ(obliq("sweep " + quote(study) + " --threads 65536 -o " + quote((scratch() / "t").string()), &text), 2);
  EXPECT_NE(text.find("256"), std::string::npos) << text;

  const fs::path dir = scratch() / "over";
  fs::create_directories(dir);
  fs::copy_file(study, dir / "summary.json", fs::copy_options::overwrite_existing);
  std::ifstream in(study);
  const std::string original((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(obliq("sweep " + quote((dir / "summary.json").string()) + " -o " + quote(dir.string()), &text), 2);
  EXPECT_NE(text.find("would be overwritten"), std::string::npos) << text;
  std::ifstream kept(dir / "summary.json");
  EXPECT_EQ(std::string((std::istreambuf_iterator<char>(kept)), std::istreambuf_iterator<char>()), original);
}

// Ctrl-C: SIGINT (and SIGTERM) stops after the chunk in flight; the summary of the samples done is
// written and marked partial, with every statistic counting exactly those samples; exit code 130
// (143).
TEST(SweepCli, InterruptWritesAPartialSummary) {
  for (int sig : {SIGINT, SIGTERM}) {
    const std::string study = small_copy("quadruped_touchdown.json", 50000000);
    const fs::path dir = scratch() / ("interrupted" + std::to_string(sig));
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      const std::string out = (scratch() / "interrupted.txt").string();
      std::freopen(out.c_str(), "w", stdout);
      ::execl(OBLIQ_CLI_PATH, "obliq", "sweep", study.c_str(), "-o", dir.c_str(), "--chunk", "2000", "--threads", "1",
              "--no-plots", static_cast<char*>(nullptr));
      std::_Exit(127);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2500));
    ASSERT_EQ(::kill(pid, sig), 0);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 128 + sig);
    const json s = summary(dir);
    EXPECT_TRUE(s["partial"].get<bool>());
    const auto done = s["samples_done"].get<std::uint64_t>();
    EXPECT_GT(done, 0u);
    EXPECT_LT(done, 50000000u);
    EXPECT_EQ(done % 2000, 0u);  // whole chunks
    EXPECT_EQ(s["counts"]["samples"].get<std::uint64_t>(), done);
    EXPECT_EQ(s["outputs"]["e.FL_foot"]["count"].get<std::uint64_t>(), done);
  }
}

}  // namespace

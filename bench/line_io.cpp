// bench_line_io FILE [--threads T] [--reps R] [--profile parse|format]: the text path of `obliq impact` taken apart, on
// one JSON Lines file of scenarios of one shape (bench/cli_throughput.sh writes them), beside
// the host API's solve of the same scenarios:
//   parse   io::parse_scenario_line on every line, one thread (simdjson, nlohmann for what it
//           refuses), and nlohmann's DOM reader alone (io/scenario_line.hpp, one run) for comparison;
//   solve   solve_impact on a Batch of the parsed scenarios, T threads (0: all), no text;
//   format  io::impact_result_line of every result, one thread.
// Best of R runs each (default 3); prints one JSON object (seconds, MB/s of the input for parse,
// of the output for format, scenarios/s for solve). Wall-clock times on whatever machine runs it.
// --profile PART repeats only that part (the fast parse, or the format) R times, for perf.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "io/scenario_line.hpp"
#include "obliq/batch.hpp"
#include "obliq/io/scenario_json.hpp"

namespace {

using clock_type = std::chrono::steady_clock;

template <class F> double best_of(int reps, F&& f) {
  double best = 1e300;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = clock_type::now();
    f();
    best = std::min(best, std::chrono::duration<double>(clock_type::now() - t0).count());
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: bench_line_io FILE [--threads T] [--reps R]\n";
    return 2;
  }
  int threads = 0, reps = 3;
  std::string profile;
  for (int a = 2; a + 1 < argc; a += 2) {
    const std::string k = argv[a];
    if (k == "--threads") threads = std::atoi(argv[a + 1]);
    else if (k == "--reps") reps = std::atoi(argv[a + 1]);
    else if (k == "--profile") profile = argv[a + 1];
  }
  std::ifstream in(argv[1]);
  std::vector<std::string> lines;
  double in_bytes = 0;
  for (std::string l; std::getline(in, l);) {
    in_bytes += double(l.size() + 1);
    lines.push_back(std::move(l));
  }
  if (lines.empty()) {
    std::cerr << "bench_line_io: no lines in " << argv[1] << "\n";
    return 2;
  }
  using namespace obliq;
  std::vector<io::ScenarioLine> parsed(lines.size());
  const double t_parse = best_of(profile == "format" ? 1 : reps, [&] {
    for (std::size_t k = 0; k < lines.size(); ++k) parsed[k] = io::parse_scenario_line(lines[k], long(k + 1), io::Use::impact);
  });
  if (profile == "parse") return 0;
  const double t_parse_nlohmann = best_of(1, [&] {  // the slow reader, for comparison: once
    for (std::size_t k = 0; k < lines.size(); ++k)
      parsed[k] = io::parse_scenario_line_nlohmann(lines[k], long(k + 1), io::Use::impact);
  });
  for (std::size_t k = 0; k < lines.size(); ++k) {
    parsed[k] = io::parse_scenario_line(lines[k], long(k + 1), io::Use::impact);
    if (!parsed[k].error.empty() || parsed[k].friction) {
      std::cerr << "bench_line_io: line " << k + 1 << " is not a frictionless scenario: " << parsed[k].error << "\n";
      return 2;
    }
  }
  const Shape shape = parsed[0].scenario.shape();
  Batch<double> batch(shape, parsed.size());
  for (std::size_t s = 0; s < parsed.size(); ++s) {
    if (parsed[s].scenario.shape() != shape) {
      std::cerr << "bench_line_io: the lines must have one shape\n";
      return 2;
    }
    batch.set(s, parsed[s].scenario);
  }
  ImpactResults<double> res;
  RunOptions run;
  run.threads = threads;
  solve_impact(batch, res, run);  // sizes the results once
  const double t_solve = best_of(profile.empty() ? reps : 1, [&] { solve_impact(batch, res, run); });
  std::size_t ok = 0;
  for (std::size_t s = 0; s < parsed.size(); ++s) ok += res.status[s] == Status::ok;
  std::vector<std::string> text(parsed.size());
  const double t_format = best_of(reps, [&] {
    for (std::size_t s = 0; s < parsed.size(); ++s) text[s] = io::impact_result_line(parsed[s].id, res.get(s));
  });
  double out_bytes = 0;
  for (const auto& t : text) out_bytes += double(t.size() + 1);
  std::printf(
      "{\"file\":\"%s\",\"lines\":%zu,\"n\":%d,\"m\":%d,\"ok\":%zu,\"input_MB\":%.3f,\"output_MB\":%.3f,"
      "\"parse_s\":%.4f,\"parse_MBps\":%.1f,\"parse_nlohmann_s\":%.4f,\"parse_nlohmann_MBps\":%.1f,"
      "\"solve_threads\":%d,\"solve_s\":%.4f,\"solve_per_s\":%.0f,\"format_s\":%.4f,\"format_MBps\":%.1f}\n",
      argv[1], lines.size(), shape.n, shape.m_b + shape.m_u, ok, in_bytes / 1e6, out_bytes / 1e6, t_parse,
      in_bytes / 1e6 / t_parse, t_parse_nlohmann, in_bytes / 1e6 / t_parse_nlohmann, threads, t_solve,
      double(parsed.size()) / t_solve, t_format, out_bytes / 1e6 / t_format);
  return 0;
}

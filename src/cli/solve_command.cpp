// obliq impact FILE / obliq dynamics FILE (docs/format.md): JSON Lines in, one JSON object per
// non-blank input line out, in input order.
//
// The input is read in chunks (so that `obliq model ... | obliq impact -` streams and memory
// stays bounded). Within a chunk the good lines are grouped by shape (n, m_b, m_u), each group
// filled into one Batch<double> and solved with the chosen backend; then the chunk's lines are
// written in input order. A bad line becomes an error line and never touches the others.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/streams.hpp"
#include "io/scenario_json.hpp"
#include "obliq/batch.hpp"
#include "obliq/friction.hpp"

#include <omp.h>

namespace obliq::cli {
namespace {

struct SolveOptions {
  bool dynamics = false;
  std::string file;
  std::string output;
  std::string backend = "cpu";
  std::string lcp_solver = "lemke";
  std::string friction = "cone";
  int facets = 8;
  int threads = 0;
};

constexpr std::size_t kChunkLines = 1 << 15;

// Solves the good lines of one chunk and writes every line of it in order. Returns whether
// any line was an error.
bool solve_chunk(std::vector<io::ScenarioLine>& lines, const SolveOptions& opt, const RunOptions& run,
                 std::ostream& out) {
  std::vector<std::string> text(lines.size());
  bool any_error = false;

  // Group the good lines by shape; lines with friction (some mu > 0) are solved one by one by the
  // core's frictional solvers on the CPU (docs/friction.md), in parallel.
  std::map<Shape, std::vector<std::size_t>> groups;
  std::vector<std::size_t> frictional;
  for (std::size_t k = 0; k < lines.size(); ++k) {
    if (!lines[k].error.empty()) {
      text[k] = io::dump_line(io::error_to_json(lines[k].id, lines[k].error));
      any_error = true;
    } else if (lines[k].friction) {
      frictional.push_back(k);
    } else {
      groups[lines[k].scenario.shape()].push_back(k);
    }
  }
  bool friction_error = false;
#pragma omp parallel for schedule(dynamic) num_threads(run.threads > 0 ? run.threads : omp_get_max_threads()) \
    reduction(|| : friction_error)
  for (std::size_t t = 0; t < frictional.size(); ++t) {
    io::ScenarioLine& line = lines[frictional[t]];
    Friction& f = *line.friction;
    f.formulation = opt.friction == "pyramid" ? friction::Formulation::pyramid : friction::Formulation::cone;
    f.directions = opt.facets;
    f.lcp_solver = run.lcp_solver;
    FrictionResult info;
    io::ojson j = opt.dynamics ? io::dynamics_result_to_json(line.id, obliq::dynamics(line.scenario, f, &info))
                               : io::impact_result_to_json(line.id, obliq::impact(line.scenario, f, &info));
    io::add_friction_keys(j, info, opt.dynamics);
    friction_error = friction_error || j.at("status") != "ok";
    text[frictional[t]] = io::dump_line(j);
  }
  any_error = any_error || friction_error;

  for (const auto& [shape, members] : groups) {
    Batch<double> batch(shape, members.size());
    for (std::size_t s = 0; s < members.size(); ++s) batch.set(s, lines[members[s]].scenario);
    if (opt.dynamics) {
      DynamicsResults<double> res;
      solve_dynamics(batch, res, run);
      for (std::size_t s = 0; s < members.size(); ++s) {
        const io::ojson j = io::dynamics_result_to_json(lines[members[s]].id, res.get(s));
        any_error = any_error || j.at("status") != "ok";
        text[members[s]] = io::dump_line(j);
      }
    } else {
      ImpactResults<double> res;
      solve_impact(batch, res, run);
      for (std::size_t s = 0; s < members.size(); ++s) {
        const io::ojson j = io::impact_result_to_json(lines[members[s]].id, res.get(s));
        any_error = any_error || j.at("status") != "ok";
        text[members[s]] = io::dump_line(j);
      }
    }
  }

  for (const auto& t : text) {
    out << t << '\n';
  }
  return any_error;
}

int run_solve(const SolveOptions& opt) {
  RunOptions run;
  if (!parse_backend(opt.backend, run.backend)) {
    std::cerr << "obliq: unknown backend '" << opt.backend << "' (expected cpu, reference or cuda)\n";
    return 2;
  }
  run.threads = opt.threads;
  for (lcp::Solver s : {lcp::Solver::lemke, lcp::Solver::pivot, lcp::Solver::pgs, lcp::Solver::enumerate,
                        lcp::Solver::automatic})
    if (opt.lcp_solver == lcp::solver_name(s)) run.lcp_solver = s;
  std::ios::sync_with_stdio(false);  // only iostreams are used below

  // Input: a file or standard input; output: standard output or -o OUT.
  std::ifstream file_in;
  std::istream* in = open_input(opt.file, file_in, "obliq");
  if (!in) return 2;
  std::ofstream file_out;
  std::ostream* out = open_output(opt.output, file_out, "obliq");
  if (!out) return 2;

  const io::Use use = opt.dynamics ? io::Use::dynamics : io::Use::impact;
  bool any_error = false;
  long line_number = 0;
  std::string line;
  std::vector<io::ScenarioLine> chunk;
  chunk.reserve(1024);
  while (std::getline(*in, line)) {
    ++line_number;
    io::ScenarioLine parsed = io::parse_scenario_line(line, line_number, use);
    if (parsed.blank) continue;  // counted, not written
    chunk.push_back(std::move(parsed));
    if (chunk.size() >= kChunkLines) {
      any_error = solve_chunk(chunk, opt, run, *out) || any_error;
      chunk.clear();
    }
  }
  if (in->bad()) {
    std::cerr << "obliq: error while reading '" << opt.file << "'\n";
    return 2;
  }
  if (!chunk.empty()) any_error = solve_chunk(chunk, opt, run, *out) || any_error;

  out->flush();
  if (!*out) {
    std::cerr << "obliq: error while writing '" << (opt.output.empty() ? "-" : opt.output) << "'\n";
    return 2;
  }
  return any_error ? 3 : 0;
}

void add_solve_command(CLI::App& app, Action& run, bool dynamics) {
  auto opt = std::make_shared<SolveOptions>();
  opt->dynamics = dynamics;
  CLI::App* sub = app.add_subcommand(
      dynamics ? "dynamics" : "impact",
      dynamics ? "Constrained accelerations and contact forces for every scenario line of FILE (docs/format.md)"
               : "Post-impact velocities, impulses and energies for every scenario line of FILE (docs/format.md)");
  sub->add_option("FILE", opt->file, "Scenario file, JSON Lines (one object per line); - reads standard input")
      ->required();
  sub->add_option("-o,--output", opt->output, "Write the results to OUT instead of standard output");
  sub->add_option("--backend", opt->backend, "Solver backend: cpu, reference or cuda (default cpu)")
      ->check(CLI::IsMember({"cpu", "reference", "cuda"}));
  sub->add_option("--threads", opt->threads, "Threads for the cpu backend (default 0: all hardware threads)")
      ->check(CLI::Range(0, 1 << 16));
  sub->add_option("--lcp-solver", opt->lcp_solver,
                  "LCP method of the complementarity law (cpu backend): lemke (default: exact for the PSD contact "
                  "LCP, its ray proves infeasibility), pivot (P-matrices: independent contacts), pgs (iterative), "
                  "enum (small m) or auto (docs/lcp.md)")
      ->check(CLI::IsMember({"lemke", "pivot", "pgs", "enum", "auto"}));
  sub->add_option("--friction", opt->friction,
                  "Formulation for lines with friction (mu > 0): cone (exact Coulomb cone, Newton on Alart-Curnier "
                  "with Gauss-Seidel fallback; default) or pyramid (faceted cone as an LCP) (docs/friction.md)")
      ->check(CLI::IsMember({"cone", "pyramid"}));
  sub->add_option("--facets", opt->facets, "Pyramid facets per contact in space (default 8)")->check(CLI::Range(3, 64));
  sub->callback([&run, opt] { run = [opt] { return run_solve(*opt); }; });
}

}  // namespace

void register_solve_commands(CLI::App& app, Action& run) {
  add_solve_command(app, run, false);
  add_solve_command(app, run, true);
}

}  // namespace obliq::cli

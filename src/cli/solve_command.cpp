// obliq impact FILE / obliq dynamics FILE (docs/format.md): JSON Lines in, one JSON object per
// non-blank input line out, in input order.
//
// The input streams through cli::pump (src/cli/pump.hpp): lines are held in chunks (bounded in
// lines, bytes and waiting time). A chunk's lines are parsed in parallel (cli/parallel_lines.hpp,
// --threads), each into its own slot, so the order is kept. Within a chunk the good lines are grouped by shape
// (n, m_b, m_u), each group filled into one Batch<double> and solved with the chosen backend;
// then the chunk's output lines are formatted in parallel, again each into its own slot, and
// written in input order. A bad line becomes an error line and never
// touches the others; a group whose memory cannot be allocated is solved line by line, and a
// line that alone cannot have it gets "error: too large (...)". Lines with friction (some
// mu > 0) are solved one by one on the cpu, or with --backend cuda together on the device
// (obliq::impact_batch / dynamics_batch; docs/friction.md, docs/cuda.md).
#include <iostream>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/parallel_lines.hpp"
#include "cli/pump.hpp"
#include "cpu/cuda_backend.hpp"
#include "io/limits.hpp"
#include "obliq/batch.hpp"
#include "obliq/friction.hpp"
#include "obliq/io/scenario_json.hpp"

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

class ScenarioBatch final : public HeldLines {
 public:
  ScenarioBatch(const SolveOptions& opt, const RunOptions& run) : opt_(opt), run_(run) {}

  bool flush(std::string& out) override {
    const io::Use use = opt_.dynamics ? io::Use::dynamics : io::Use::impact;
    lines_ = parse_held<io::ScenarioLine>(
        run_.threads,
        [&](const std::string& text, long number) -> std::optional<io::ScenarioLine> {
          io::ScenarioLine l = io::parse_scenario_line(text, number, use);
          if (l.blank) return std::nullopt;
          return l;
        });
    std::vector<std::string> text(lines_.size());
    bool any_error = false;
    // The good lines by shape; lines with friction (some mu > 0) by the core's frictional
    // solvers on the chosen backend (solve_frictional).
    std::map<Shape, std::vector<std::size_t>> groups;
    std::vector<std::size_t> frictional;
    for (std::size_t k = 0; k < lines_.size(); ++k) {
      if (!lines_[k].error.empty()) {
        text[k] = io::dump_line(io::error_to_json(lines_[k].id, lines_[k].error));
        any_error = true;
      } else if (lines_[k].friction) {
        frictional.push_back(k);
      } else {
        groups[lines_[k].scenario.shape()].push_back(k);
      }
    }
    for (const auto& [shape, members] : groups) {
      try {
        any_error = solve_group(shape, members, text) || any_error;
      } catch (const std::bad_alloc&) {  // one line at a time; a line that alone fails is too large
        for (std::size_t k : members) {
          try {
            any_error = solve_group(shape, {k}, text) || any_error;
          } catch (const std::bad_alloc&) {
            text[k] = io::dump_line(io::error_to_json(lines_[k].id, too_large(shape)));
            any_error = true;
          }
        }
      }
    }
    any_error = solve_frictional(frictional, text) || any_error;
    for (const auto& t : text) (out += t) += '\n';
    lines_.clear();
    return any_error;
  }

 private:
  static std::string too_large(Shape shape) {
    return "too large (n = " + std::to_string(shape.n) + ", m_b = " + std::to_string(shape.m_b) +
           ", m_u = " + std::to_string(shape.m_u) + ": its memory cannot be allocated)";
  }

  // Solves the frictional lines `members` into text: with --backend cuda all of them in one
  // obliq::impact_batch / dynamics_batch call on the device (grouped there by shape and friction
  // options), otherwise one by one over OpenMP threads on the cpu. A line whose memory cannot be
  // allocated (all of them, when the device batch's cannot) is "too large", and no exception
  // crosses the region (cpu/omp_guard.hpp: any other one is rethrown after it).
  bool solve_frictional(const std::vector<std::size_t>& members, std::vector<std::string>& text) {
    for (std::size_t k : members) {
      Friction& f = *lines_[k].friction;
      f.formulation = formulation_named(opt_.friction);
      f.directions = opt_.facets;
      f.lcp_solver = run_.lcp_solver;
    }
    if (run_.backend == Backend::cuda && !members.empty()) return solve_frictional_on_the_device(members, text);
    return for_each_line(
        members.size(), run_.threads,
        [&](std::size_t t) {
          io::ScenarioLine& line = lines_[members[t]];
          io::ojson j;
          try {
            FrictionResult info;
            j = opt_.dynamics ? io::dynamics_result_to_json(line.id, obliq::dynamics(line.scenario, *line.friction, &info))
                              : io::impact_result_to_json(line.id, obliq::impact(line.scenario, *line.friction, &info));
            io::add_friction_keys(j, info, opt_.dynamics);
          } catch (const std::bad_alloc&) {
            j = io::error_to_json(line.id, too_large(line.scenario.shape()));
          }
          text[members[t]] = io::dump_line(j);
          return j.at("status") != "ok";
        },
        1);
  }

  bool solve_frictional_on_the_device(const std::vector<std::size_t>& members, std::vector<std::string>& text) {
    std::vector<FrictionalScenario> batch;
    for (std::size_t k : members) batch.push_back({&lines_[k].scenario, &*lines_[k].friction});
    std::vector<ImpactResult> impacts;
    std::vector<DynamicsResult> dynamics;
    std::vector<FrictionResult> info;
    try {
      if (opt_.dynamics) dynamics = dynamics_batch<double>(batch, Backend::cuda, &info);
      else impacts = impact_batch<double>(batch, Backend::cuda, &info);
    } catch (const std::bad_alloc&) {
      for (std::size_t k : members) text[k] = io::dump_line(io::error_to_json(lines_[k].id, too_large(lines_[k].scenario.shape())));
      return true;
    }
    return for_each_line(members.size(), run_.threads, [&](std::size_t t) {
      const io::ScenarioLine& line = lines_[members[t]];
      io::ojson j = opt_.dynamics ? io::dynamics_result_to_json(line.id, dynamics[t]) : io::impact_result_to_json(line.id, impacts[t]);
      io::add_friction_keys(j, info[t], opt_.dynamics);
      text[members[t]] = io::dump_line(j);
      return j.at("status") != "ok";
    });
  }

  // Formats result s of a solved group (line members[s]) into text[members[s]] on all threads;
  // `line(s, ok)` gives the output line. Returns whether any line is not ok.
  template <class Line>
  bool write_group(const std::vector<std::size_t>& members, std::vector<std::string>& text, Line&& line) {
    return for_each_line(members.size(), run_.threads, [&](std::size_t s) {
      bool ok = false;
      text[members[s]] = line(s, &ok);
      return !ok;
    });
  }

  // Solves lines `members` (all of shape `shape`) into text. Throws std::bad_alloc.
  bool solve_group(Shape shape, const std::vector<std::size_t>& members, std::vector<std::string>& text) {
    Batch<double> batch(shape, members.size());
    for (std::size_t s = 0; s < members.size(); ++s) batch.set(s, lines_[members[s]].scenario);
    if (opt_.dynamics) {
      DynamicsResults<double> res;
      solve_dynamics(batch, res, run_);
      return write_group(members, text, [&](std::size_t s, bool* ok) {
        return io::dynamics_result_line(lines_[members[s]].id, res.get(s), ok);
      });
    }
    ImpactResults<double> res;
    solve_impact(batch, res, run_);
    return write_group(members, text, [&](std::size_t s, bool* ok) {
      return io::impact_result_line(lines_[members[s]].id, res.get(s), ok);
    });
  }

  const SolveOptions& opt_;
  const RunOptions& run_;
  std::vector<io::ScenarioLine> lines_;  // parsed, non-blank, in input order
};

int run_solve(const SolveOptions& opt) {
  RunOptions run;
  if (!parse_backend(opt.backend, run.backend)) {
    std::cerr << "obliq: unknown backend '" << opt.backend << "' (expected cpu, reference or cuda)\n";
    return 2;
  }
  run.threads = opt.threads;
  // The cuda backend loaded (or refused, exit 2 with "backend cuda: ...") before any file is opened.
  if (run.backend == Backend::cuda) cpu::cuda_backend();
  for (lcp::Solver s : {lcp::Solver::lemke, lcp::Solver::pivot, lcp::Solver::pgs, lcp::Solver::enumerate,
                        lcp::Solver::automatic})
    if (opt.lcp_solver == lcp::solver_name(s)) run.lcp_solver = s;

  StopSignals signals;
  InputLines in;
  if (!in.open(opt.file, "obliq")) return 2;
  OutputLines out;
  if (!out.open(opt.output, in, "obliq")) return 2;
  ScenarioBatch batch(opt, run);
  return pump(in, out, batch, "obliq");
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
      ->check(CLI::Range(0, io::kMaxThreads));
  sub->add_option("--lcp-solver", opt->lcp_solver,
                  "LCP method of the complementarity law (cpu backend): lemke (default: exact for the PSD contact "
                  "LCP, its ray proves infeasibility), pivot (P-matrices: independent contacts), pgs (iterative), "
                  "enum (small m) or auto (docs/lcp.md)")
      ->check(CLI::IsMember({"lemke", "pivot", "pgs", "enum", "auto"}));
  sub->add_option("--friction", opt->friction,
                  "Formulation for lines with friction (mu > 0): cone (exact Coulomb cone, Newton on Alart-Curnier "
                  "with Gauss-Seidel fallback; default) or pyramid (faceted cone as an LCP) (docs/friction.md)")
      ->check(CLI::IsMember(formulation_names));
  sub->add_option("--facets", opt->facets, "Pyramid facets per contact in space (default 8)")->check(CLI::Range(min_facets, max_facets));
  sub->callback([&run, opt] { run = [opt] { return run_solve(*opt); }; });
}

}  // namespace

void register_solve_commands(CLI::App& app, Action& run) {
  add_solve_command(app, run, false);
  add_solve_command(app, run, true);
}

}  // namespace obliq::cli

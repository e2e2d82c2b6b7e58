// obliq lcp FILE: solve linear complementarity problems (docs/lcp.md).
//
// FILE ("-" for stdin) holds either JSON Lines, one problem a line
// ({"id", "M" row-major, "q", "solver"?}), or one LCP in Siconos's test-data format. --format
// says which; `auto` (the default) takes Siconos for a .dat file, JSON Lines for .jsonl/.json,
// and otherwise looks at the first non-blank line: a first token that is an integer (Siconos's
// problem size) means Siconos, anything else JSON Lines, read line by line, so that a damaged
// line is one error line and the others are solved. JSON Lines stream through cli::pump (src/cli/pump.hpp).
// Output: one JSON object per problem, in input order, {"id", "status", "z", "w", "iterations",
// "residual", "solver"}. Exit status (docs/format.md): 0 when every problem is "ok", 3 when some line
// is an error, 2 on misuse, an unreadable or malformed Siconos file, or a failed write.
#include <iostream>
#include <memory>
#include <new>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/parallel_lines.hpp"
#include "cli/pump.hpp"
#include "cpu/cuda_backend.hpp"
#include "io/limits.hpp"
#include "obliq/io/lcp_json.hpp"
#include "obliq/io/scenario_json.hpp"
#include "obliq/lcp.hpp"

namespace obliq::cli {
namespace {

struct LcpArgs {
  std::string file;
  std::string output;
  std::string solver = "auto";
  std::string backend = "cpu";
  std::string format = "auto";
  int threads = 0;
  int max_iterations = 0;
};

// The id of a Siconos file: its name without the directory.
std::string base_name(const std::string& path) {
  const auto k = path.find_last_of('/');
  return k == std::string::npos ? path : path.substr(k + 1);
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Siconos's first token is the problem size: a line whose first token is an integer.
bool starts_with_integer(const std::string& line) {
  std::istringstream ss(line);
  std::string token;
  if (!(ss >> token)) return false;
  for (char c : token)
    if (c < '0' || c > '9') return false;
  return true;
}

std::string render(const nlohmann::json& o) { return io::dump_line(o) + "\n"; }

// Solves the problems; a batch whose memory cannot be had is solved one problem at a time.
std::vector<LcpSolution> solve_all(const std::vector<LcpProblem>& problems, const LcpOptions& opt, const LcpArgs& a) {
  if (a.backend == "cuda") return solve_lcp_batch_cuda(problems, opt);
  return solve_lcp_batch(problems, opt);
}

class LcpBatch final : public HeldLines {
 public:
  LcpBatch(const LcpOptions& opt, const LcpArgs& a) : opt_(opt), a_(a) {}

  bool flush(std::string& out) override {
    lines_ = parse_held<LcpLine>(
        a_.threads,
        [](const std::string& line, long number) -> std::optional<LcpLine> {
          if (line.find_first_not_of(" \t\r") == std::string::npos) return std::nullopt;  // blank: skipped, counted
          return parse_lcp_json_line(line, number);
        });
    std::vector<LcpProblem> problems;
    std::vector<std::size_t> line_of;
    for (std::size_t k = 0; k < lines_.size(); ++k)
      if (lines_[k].error.empty()) {
        line_of.push_back(k);
        problems.push_back(std::move(lines_[k].problem));
      }
    std::vector<LcpSolution> solutions;
    std::vector<std::string> too_large(problems.size());
    try {
      solutions = solve_all(problems, opt_, a_);
    } catch (const std::bad_alloc&) {
      solutions.resize(problems.size());
      for (std::size_t p = 0; p < problems.size(); ++p) try {
          solutions[p] = solve_all({problems[p]}, opt_, a_).at(0);
        } catch (const std::bad_alloc&) {
          too_large[p] = "too large (m = " + std::to_string(problems[p].m) + ": its memory cannot be allocated)";
        }
    }
    // Each line's output text in its own slot, on all threads (line k's problem is line_of's p).
    std::vector<std::size_t> problem_of(lines_.size());
    for (std::size_t p = 0; p < line_of.size(); ++p) problem_of[line_of[p]] = p;
    std::vector<std::string> text(lines_.size());
    const bool any_error = for_each_line(lines_.size(), a_.threads, [&](std::size_t k) {
      const std::size_t p = problem_of[k];
      const nlohmann::json o = !lines_[k].error.empty() ? lcp_error_json(lines_[k].id, lines_[k].error)
                               : !too_large[p].empty()  ? lcp_error_json(lines_[k].id, too_large[p])
                                                        : lcp_result_json(lines_[k].id, solutions[p], problems[p].warm.has_value());
      text[k] = render(o);
      return o.at("status") != "ok";
    });
    for (const auto& t : text) out += t;
    lines_.clear();
    return any_error;
  }

 private:
  const LcpOptions& opt_;
  const LcpArgs& a_;
  std::vector<LcpLine> lines_;
};

// One Siconos problem: the whole input (at most io::kMaxLineBytes bytes) is read, then solved.
int run_siconos(InputLines& in, OutputLines& out, const LcpOptions& opt, const LcpArgs& a) {
  const std::string name = a.file == "-" ? std::string("stdin") : a.file;
  std::string text, line;
  for (;;) {
    const InputLines::Event ev = in.next(line, std::chrono::steady_clock::time_point::max());
    if (ev == InputLines::Event::end) break;
    if (ev == InputLines::Event::stopped) return StopSignals::exit_code();
    if (ev == InputLines::Event::error) {
      std::cerr << "obliq lcp: " << in.error() << "\n";
      return 2;
    }
    if (ev == InputLines::Event::too_long || text.size() + line.size() > io::kMaxLineBytes) {
      std::cerr << "obliq lcp: " << name << ": Siconos LCP file larger than " << io::kMaxLineBytes << " bytes\n";
      return 2;
    }
    (text += line) += '\n';
  }
  LcpProblem problem;
  try {
    std::istringstream ss(text);
    problem = read_siconos_lcp(ss);
  } catch (const std::exception& e) {
    std::cerr << "obliq lcp: " << name << ": " << e.what() << "\n";
    return 2;
  }
  const nlohmann::json id = a.file == "-" ? std::string("stdin") : base_name(a.file);
  const LcpSolution s = solve_all({problem}, opt, a).at(0);
  const nlohmann::json o = lcp_result_json(id, s);
  if (!out.write(render(o))) return 2;
  return o.at("status") == "ok" ? 0 : 3;
}

int run_lcp(const LcpArgs& a) {
  LcpOptions opt;
  opt.solver = *parse_lcp_solver(a.solver);  // validated by CLI11
  opt.threads = a.threads;
  opt.max_iterations = a.max_iterations;
  // The cuda backend loaded (or refused, exit 2 with "backend cuda: ...") before any file is opened.
  if (a.backend == "cuda") cpu::cuda_backend();
  StopSignals signals;
  InputLines in;
  if (!in.open(a.file, "obliq lcp")) return 2;
  OutputLines out;
  if (!out.open(a.output, in, "obliq lcp")) return 2;

  std::string format = a.format;
  if (format == "auto" && ends_with(a.file, ".dat")) format = "siconos";
  if (format == "auto" && (ends_with(a.file, ".jsonl") || ends_with(a.file, ".json"))) format = "jsonl";
  LcpBatch batch(opt, a);
  if (format == "auto") {  // the first non-blank line decides
    std::string line;
    InputLines::Event ev;
    while ((ev = in.next(line, std::chrono::steady_clock::time_point::max())) == InputLines::Event::line &&
           line.find_first_not_of(" \t\r") == std::string::npos) {
    }
    format = ev == InputLines::Event::line && starts_with_integer(line) ? "siconos" : "jsonl";
    if (ev == InputLines::Event::line) in.unread(line);
    if (ev == InputLines::Event::too_long) batch.add_error(in.line_number(), too_long_reason());
  }
  if (format == "siconos") return run_siconos(in, out, opt, a);
  return pump(in, out, batch, "obliq lcp");
}

}  // namespace

void register_lcp_command(CLI::App& app, Action& run) {
  auto args = std::make_shared<LcpArgs>();
  CLI::App* sub = app.add_subcommand(
      "lcp",
      "Solve linear complementarity problems: z >= 0, w = M z + q >= 0, z^T w = 0 (JSON Lines or a Siconos .dat file)");
  sub->add_option("FILE", args->file, "JSON Lines ({\"id\", \"M\" row-major, \"q\", \"solver\"?}) or a Siconos LCP file; - for stdin")
      ->required();
  sub->add_option("-o,--output", args->output, "write the JSON Lines here instead of stdout");
  sub->add_option("--solver", args->solver, "lemke | pivot | pgs | enum | auto (default; rule in docs/lcp.md)")
      ->check(CLI::IsMember({"lemke", "pivot", "pgs", "enum", "auto"}));
  sub->add_option("--format", args->format,
                  "auto (default: .dat is Siconos, .jsonl/.json JSON Lines, else a first line whose first token is "
                  "an integer means Siconos), jsonl or siconos")
      ->check(CLI::IsMember({"auto", "jsonl", "siconos"}));
  sub->add_option("--backend", args->backend, "cpu (default) or cuda (one GPU thread per problem)")
      ->check(CLI::IsMember({"cpu", "cuda"}));
  sub->add_option("--threads", args->threads, "OpenMP threads (default: all)")->check(CLI::Range(0, io::kMaxThreads));
  sub->add_option("--max-iterations", args->max_iterations,
                  "iteration budget per solver (default: per solver, docs/lcp.md)")
      ->check(CLI::NonNegativeNumber);
  sub->callback([args, &run] { run = [args] { return run_lcp(*args); }; });
}

}  // namespace obliq::cli

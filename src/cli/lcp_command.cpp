// obliq lcp FILE: solve linear complementarity problems (docs/lcp.md).
//
// FILE ("-" for stdin) holds either JSON Lines, one problem a line
// ({"id", "M" row-major, "q", "solver"?}), or one LCP in Siconos's test-data format (the first
// non-blank character decides: "{" means JSON Lines). Output: one JSON object per problem, in
// input order, {"id", "status", "z", "w", "iterations", "residual", "solver"}. Exit status
// (docs/format.md): 0 when every problem is "ok", 3 when some line is an error, 2 on misuse or an
// unreadable file.
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/streams.hpp"
#include "obliq/lcp.hpp"
#if defined(OBLIQ_HAVE_CUDA)
#include "obliq/cuda.hpp"
#endif

namespace obliq::cli {
namespace {

struct LcpArgs {
  std::string file;
  std::string output;
  std::string solver = "auto";
  std::string backend = "cpu";
  int threads = 0;
  int max_iterations = 0;
};

// The id of a Siconos file: its name without the directory.
std::string base_name(const std::string& path) {
  const auto k = path.find_last_of('/');
  return k == std::string::npos ? path : path.substr(k + 1);
}

int run_lcp(const LcpArgs& a) {
  // Read everything first: a file that cannot be read is misuse (exit 2) before any output.
  std::ifstream file_in;
  std::istream* in = open_input(a.file, file_in, "obliq lcp");
  if (!in) return 2;
  std::ostringstream ss;
  ss << in->rdbuf();
  const std::string text = ss.str();
  LcpOptions opt;
  opt.solver = *parse_lcp_solver(a.solver);  // validated by CLI11
  opt.threads = a.threads;
  opt.max_iterations = a.max_iterations;

  // Parse: JSON Lines or one Siconos problem.
  std::vector<nlohmann::json> ids;
  std::vector<std::string> errors;  // per output line; "" = solve it
  std::vector<LcpProblem> problems;
  std::vector<long> problem_of;  // output line -> index into problems (-1: error line)
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && text[first] != '{') {
    try {
      std::istringstream in(text);
      problems.push_back(read_siconos_lcp(in));
    } catch (const std::exception& e) {
      std::cerr << "obliq lcp: " << (a.file == "-" ? std::string("stdin") : a.file) << ": " << e.what() << "\n";
      return 2;
    }
    ids.emplace_back(a.file == "-" ? std::string("stdin") : base_name(a.file));
    problem_of.push_back(0);
  } else {
    std::istringstream in(text);
    std::string line;
    long number = 0;
    while (std::getline(in, line)) {
      ++number;
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;  // blank: skipped, counted
      LcpLine l = parse_lcp_json_line(line, number);
      ids.push_back(l.id);
      if (!l.error.empty()) {
        errors.resize(ids.size());
        errors.back() = l.error;
        problem_of.push_back(-1);
      } else {
        problem_of.push_back(long(problems.size()));
        problems.push_back(std::move(l.problem));
      }
    }
  }
  errors.resize(ids.size());

  std::vector<LcpSolution> solutions;
  if (a.backend == "cuda") {
#if defined(OBLIQ_HAVE_CUDA)
    solutions = cuda::solve_lcp_batch(problems, opt);  // throws (exit 2) when no device is usable
#else
    std::cerr << "obliq lcp: this build of obliq has no CUDA backend (nvcc was not found at configure time)\n";
    return 2;
#endif
  } else {
    solutions = solve_lcp_batch(problems, opt);
  }

  std::ofstream file_out;
  std::ostream* out_stream = open_output(a.output, file_out, "obliq lcp");
  if (!out_stream) return 2;
  std::ostream& out = *out_stream;
  bool all_ok = true;
  for (std::size_t k = 0; k < ids.size(); ++k) {
    nlohmann::json o;
    if (problem_of[k] < 0) {
      o = lcp_error_json(ids[k], errors[k]);
      all_ok = false;
    } else {
      const LcpSolution& s = solutions[std::size_t(problem_of[k])];
      o = lcp_result_json(ids[k], s);
      all_ok = all_ok && s.status == Status::ok;
    }
    out << o.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  }
  out.flush();
  if (!out) {
    std::cerr << "obliq lcp: write failed\n";
    return 2;
  }
  return all_ok ? 0 : 3;
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
  sub->add_option("--backend", args->backend, "cpu (default) or cuda (one GPU thread per problem)")
      ->check(CLI::IsMember({"cpu", "cuda"}));
  sub->add_option("--threads", args->threads, "OpenMP threads (default: all)")->check(CLI::NonNegativeNumber);
  sub->add_option("--max-iterations", args->max_iterations,
                  "iteration budget per solver (default: per solver, docs/lcp.md)")
      ->check(CLI::NonNegativeNumber);
  sub->callback([args, &run] { run = [args] { return run_lcp(*args); }; });
}

}  // namespace obliq::cli

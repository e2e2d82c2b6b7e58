// obliq sweep STUDY.json (docs/sweep.md): a Monte Carlo restitution sweep. Prints a readable
// summary, writes DIR/summary.json (every statistic), the per-sample rows the study asks for and
// the plots. A progress bar goes to standard error when it is a terminal; SIGINT or SIGTERM
// (cli::StopSignals) stops after the chunk in flight and writes the summary of the samples done,
// marked partial (exit 130 or 143). The study file is never one of the files written.
// Under mpirun (Open MPI) each rank runs a block-aligned share and rank 0 merges them exactly.
// --backend cuda: the solves on the GPU (sweep::Options::backend; drawing, model evaluation and
// statistics stay on the host); without the CUDA backend or a device the command refuses before
// it creates the output folder: exit 2, "obliq: backend cuda: <why>".
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "cli/commands.hpp"
#include "cpu/cuda_backend.hpp"
#include "cli/streams.hpp"
#include "io/limits.hpp"
#include "obliq/io/scenario_json.hpp"
#include "obliq/sweep.hpp"
#include "sweep/mpi.hpp"
#include "sweep/outputs.hpp"
#include "sweep/statistics.hpp"

namespace obliq::cli {
namespace {

struct SweepOptions {
  std::string study;
  std::string dir;
  int threads = 0;
  std::size_t chunk = 8192;
  std::string backend = "cpu";
  bool no_plots = false;
  bool quiet = false;
};

// "[#####.....]  45%  12345/100000  23.4k samples/s  ETA 3 s" on one refreshed line.
class ProgressBar {
 public:
  explicit ProgressBar(bool on) : on_(on), t0_(std::chrono::steady_clock::now()) {}
  void operator()(std::uint64_t done, std::uint64_t total) {
    if (!on_) return;
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
    const double rate = t > 0 ? double(done) / t : 0.0, frac = total ? double(done) / double(total) : 1.0;
    const int width = 30, filled = int(frac * width);
    std::string bar = std::string(filled, '#') + std::string(width - filled, '.');
    std::fprintf(stderr, "\r[%s] %3.0f%%  %llu/%llu  %.3g samples/s  ETA %.0f s   ", bar.c_str(), 100 * frac,
                 (unsigned long long)done, (unsigned long long)total, rate,
                 rate > 0 ? double(total - done) / rate : 0.0);
    std::fflush(stderr);
  }
  void end() {
    if (on_) std::fprintf(stderr, "\n");
  }

 private:
  bool on_;
  std::chrono::steady_clock::time_point t0_;
};

int run_sweep(const SweepOptions& opt) {
  sweep::Mpi mpi;  // a no-op outside mpirun
  sweep::Study study;
  try {
    study = sweep::load_study(opt.study);
  } catch (const std::exception& e) {
    if (mpi.rank() == 0) std::cerr << "obliq sweep: " << e.what() << "\n";
    return 2;
  }
  if (study.model && mpi.rank() == 0)
    for (const auto& w : study.model->warnings) std::cerr << "obliq sweep: warning: " << w << "\n";
  Backend backend = Backend::cpu;
  parse_backend(opt.backend, backend);  // cpu or cuda (checked by the option)
  if (backend == Backend::cuda) {  // loaded with a device, or refused, before any file is written
    try {
      cpu::cuda_backend();
    } catch (const std::runtime_error& e) {
      if (mpi.rank() == 0) std::cerr << "obliq: " << e.what() << "\n";
      return 2;
    }
  }
  std::string dir = opt.dir;
  if (dir.empty()) dir = std::filesystem::path(opt.study).stem().string() + "-sweep";
  std::error_code ec;
  if (mpi.rank() == 0) {
    std::filesystem::create_directories(dir, ec);
    if (ec || !std::filesystem::is_directory(dir)) {
      std::cerr << "obliq sweep: cannot write '" << dir << "': " << (ec ? ec.message() : "not a directory") << "\n";
      return 2;
    }
  }

  if (sweep::writes_over_study(opt.study, dir)) {
    if (mpi.rank() == 0)
      std::cerr << "obliq sweep: cannot write into '" << dir << "': the study file '" << opt.study
                << "' would be overwritten\n";
    return 2;
  }

  StopSignals signals;

  sweep::Options run;
  run.threads = opt.threads;
  run.chunk = opt.chunk;
  run.backend = backend;
  std::tie(run.begin, run.end) = sweep::shard(study.samples, mpi.rank(), mpi.size());
  run.stop = StopSignals::flag();
  ProgressBar bar(!opt.quiet && mpi.rank() == 0 && ::isatty(STDERR_FILENO));
  run.progress = [&](std::uint64_t d, std::uint64_t t) { bar(d, t); };
  sweep::RowWriter rows(study, dir, mpi.rank(), mpi.size());
  run.on_chunk = [&](const sweep::SampleTable& t) { rows.add(t); };

  sweep::Result result;
  try {
    result = sweep::run(study, run);
    rows.close();
  } catch (const std::exception& e) {
    bar.end();
    std::cerr << "obliq sweep: " << e.what() << "\n";
    return 2;
  }
  bar.end();
  result.partial = mpi.any(result.partial);  // collective calls: every rank makes each of them
  result.wall_s = mpi.max(result.wall_s);
  mpi.gather_merge(*result.stats);
  if (mpi.rank() != 0) return 0;
  result.begin = result.stats->begin();
  result.end = result.stats->end();

  const auto sum = sweep::summary(study, result, sweep::run_info(result, opt.threads, opt.chunk, mpi.size(), backend));
  std::string path;
  try {
    path = sweep::write_summary(sum, dir);
  } catch (const std::runtime_error& e) {
    std::cerr << "obliq sweep: " << e.what() << "\n";
    return 2;
  }
  std::vector<std::string> written = {path};
  for (const auto& f : rows.files()) written.push_back(f);
  if (study.plots && !opt.no_plots) {
    std::string why;
    const auto plots = sweep::write_plots(study, sum, rows.scatter(), dir, why);
    written.insert(written.end(), plots.begin(), plots.end());
    if (!why.empty()) std::cerr << "obliq sweep: no plots: " << why << "\n";
  }
  std::cout << sweep::summary_text(sum);
  std::cout << "  wrote:";
  for (const auto& f : written) std::cout << " " << f;
  std::cout << "\n";
  std::cout.flush();
  if (!std::cout) {
    std::cerr << "obliq sweep: cannot write the summary to standard output\n";
    return 2;
  }
  return result.partial ? (StopSignals::received() ? StopSignals::exit_code() : 130) : 0;
}

}  // namespace

void register_sweep_command(CLI::App& app, Action& run) {
  auto opt = std::make_shared<SweepOptions>();
  CLI::App* sub = app.add_subcommand(
      "sweep", "Monte Carlo restitution sweep of a study file: summary statistics, per-sample rows and plots");
  sub->add_option("STUDY", opt->study, "The study file (JSON, docs/sweep.md)")->required();
  sub->add_option("-o,--output", opt->dir, "Output folder (default: <study name>-sweep in the current folder)");
  sub->add_option("--threads", opt->threads, "Threads (default 0: all)")->check(CLI::Range(0, io::kMaxThreads));
  sub->add_option("--backend", opt->backend,
                  "cpu (default) or cuda: the impacts or trajectories solved on the GPU; drawing and statistics on the host")
      ->check(CLI::IsMember({"cpu", "cuda"}));
  sub->add_option("--chunk", opt->chunk, "Samples per chunk (default 8192); results do not depend on it")
      ->check(CLI::Range(1, 1 << 26));
  sub->add_flag("--no-plots", opt->no_plots, "Write no plots");
  sub->add_flag("--quiet", opt->quiet, "No progress bar");
  sub->callback([&run, opt] { run = [opt] { return run_sweep(*opt); }; });
}

}  // namespace obliq::cli

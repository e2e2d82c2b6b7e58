// obliq bench: throughput of the solve alone (no file I/O) on random scenarios of one shape
// (n, m_b = 0, m_u = m), in scenarios per second, for each requested backend. The scenarios
// come from obliq::random_scenario (io/random_scenarios.hpp), the generator the benchmarks and
// property tests share: every unilateral row closed and approaching (impact) or closed and
// resting (dynamics), per-row e in [0, 1], cond(M) = 100. Every backend gets the same batch.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cpu/omp_guard.hpp"
#include "cpu/scenario_views.hpp"
#include "io/limits.hpp"
#include "io/random_scenarios.hpp"
#include "obliq/io/scenario_json.hpp"
#include "obliq/batch.hpp"
#include "obliq/core/mechanics/certificate.hpp"

namespace obliq::cli {
namespace {

struct BenchOptions {
  int n = 0, m = 0;
  std::string law = "complementarity";
  std::string scalar = "double";
  std::vector<std::string> backends;
  int threads = 0;
  long batch = 1024;
  std::string kind = "impact";
  bool json = false;
  unsigned long long seed = 1;
  double min_time = 0.3;
};

struct Measurement {
  double scenarios_per_second = 0;
  double seconds = 0;  // measured time
  long runs = 0;       // solves of the whole batch within `seconds`
  long errors = 0;     // scenarios whose status was not ok
  double worst_certificate = 0;  // largest certificate residual (certificate.hpp) of the ok answers
};

// Time solves of the whole batch until at least min_time has passed, after an untimed warm-up
// on a few scenarios. The first solve (which also sizes the result buffers) is only counted
// when it alone takes min_time.
template <class T> Measurement measure(const Batch<T>& batch, bool dynamics, const RunOptions& run, double min_time) {
  using clock = std::chrono::steady_clock;
  ImpactResults<T> impact;
  DynamicsResults<T> dyn;
  auto solve = [&] {
    if (dynamics) solve_dynamics(batch, dyn, run);
    else solve_impact(batch, impact, run);
  };
  // Warm up (thread pool start, first touches) on a few scenarios, untimed.
  {
    const std::size_t k = std::min<std::size_t>(batch.count, 64);
    Batch<T> warm(batch.shape, k);
    for (std::size_t s = 0; s < k; ++s) warm.set(s, batch.get(s));
    if (dynamics) solve_dynamics(warm, dyn, run);
    else solve_impact(warm, impact, run);
  }
  Measurement m;
  auto t0 = clock::now();
  solve();
  auto t1 = clock::now();
  double first = std::chrono::duration<double>(t1 - t0).count();
  if (first >= min_time) {
    m.seconds = first;
    m.runs = 1;
  } else {
    double elapsed = 0;
    while (elapsed < min_time) {
      solve();
      ++m.runs;
      elapsed = std::chrono::duration<double>(clock::now() - t1).count();
    }
    m.seconds = elapsed;
  }
  m.scenarios_per_second = double(m.runs) * double(batch.count) / m.seconds;
  const auto& status = dynamics ? dyn.status : impact.status;
  m.errors = long(std::count_if(status.begin(), status.end(), [](Status s) { return s != Status::ok; }));
  // The certificate of every ok answer of the last solve, recomputed here from the batch's input
  // (whatever the backend, so a backend's own check is checked too).
  HostBatchView<T> v = host_view(batch);
  if (dynamics) set_outputs(v, dyn);
  else set_outputs(v, impact);
  for (std::size_t s = 0; s < batch.count; ++s) {
    if (status[s] != Status::ok) continue;
    const ScenarioView<T> in = cpu::scenario_view(v, s);
    const T r = dynamics ? dynamics_certificate(in, cpu::dynamics_view(v, s)) : impact_certificate(in, cpu::impact_view(v, s));
    m.worst_certificate = std::max(m.worst_certificate, double(r));
  }
  return m;
}

int run_bench(BenchOptions opt) {
  if (opt.backends.empty()) opt.backends = {"cpu", "reference"};
  std::vector<Backend> backends;
  for (const auto& name : opt.backends) {
    Backend b;
    if (!parse_backend(name, b)) {
      std::cerr << "obliq bench: unknown backend '" << name << "'\n";
      return 2;
    }
    if (std::find(backends.begin(), backends.end(), b) == backends.end()) backends.push_back(b);
  }
  const bool dynamics = opt.kind == "dynamics";
  const Law law = opt.law == "projection" ? Law::projection : Law::complementarity;
  const Shape shape{opt.n, 0, opt.m};
  const int threads = cpu::thread_count(opt.threads);

  std::mt19937_64 rng(opt.seed);
  const bool single = opt.scalar == "float";
  const RandomOptions ropt = bench_options(dynamics, law, single);
  Batch<double> bd;
  Batch<float> bf;
  if (single) bf = random_batch<float>(rng, shape, std::size_t(opt.batch), ropt);
  else bd = random_batch<double>(rng, shape, std::size_t(opt.batch), ropt);

  if (!opt.json)
    std::printf("obliq bench: %s, n = %d, m = %d, law %s, %s, batch %ld, threads %d\n", opt.kind.c_str(), opt.n,
                opt.m, opt.law.c_str(), opt.scalar.c_str(), opt.batch, threads);
  int rc = 0;
  std::vector<std::pair<Backend, double>> rates;
  for (Backend b : backends) {
    RunOptions run{b, opt.threads};
    Measurement m;
    try {
      m = single ? measure(bf, dynamics, run, opt.min_time) : measure(bd, dynamics, run, opt.min_time);
    } catch (const std::exception& e) {
      std::cerr << "obliq bench: backend " << backend_name(b) << ": " << e.what() << "\n";
      rc = 2;
      continue;
    }
    rates.emplace_back(b, m.scenarios_per_second);
    if (opt.json) {
      io::ojson j;
      j["backend"] = backend_name(b);
      j["kind"] = opt.kind;
      j["n"] = opt.n;
      j["m"] = opt.m;
      j["m_b"] = 0;
      j["law"] = opt.law;
      j["scalar"] = opt.scalar;
      j["threads"] = threads;
      j["batch"] = opt.batch;
      j["scenarios_per_second"] = m.scenarios_per_second;
      j["seconds"] = m.seconds;
      j["runs"] = m.runs;
      j["errors"] = m.errors;
      j["worst_certificate_residual"] = m.worst_certificate;
      std::cout << io::dump_line(j) << '\n';
    } else {
      std::printf("  %-10s %12.4g scenarios/s  (%ld runs in %.3f s, %ld of %ld scenarios not ok, worst certificate "
                  "residual %.3g)\n",
                  backend_name(b), m.scenarios_per_second, m.runs, m.seconds, m.errors, opt.batch, m.worst_certificate);
    }
  }
  if (!opt.json) {
    double ref = 0;
    for (auto& [b, r] : rates)
      if (b == Backend::reference) ref = r;
    if (ref > 0)
      for (auto& [b, r] : rates)
        if (b != Backend::reference) std::printf("  %s / reference: %.2fx\n", backend_name(b), r / ref);
  }
  std::cout.flush();
  return rc;
}

}  // namespace

void register_bench_command(CLI::App& app, Action& run) {
  auto opt = std::make_shared<BenchOptions>();
  CLI::App* sub = app.add_subcommand(
      "bench", "Throughput (scenarios per second) of the solve alone on random scenarios of one shape");
  sub->add_option("--n", opt->n, "Generalized velocities n")->required()->check(CLI::Range(1, io::kMaxDofs));
  sub->add_option("--m", opt->m, "Unilateral constraints m (all closed; approaching for impact, resting for dynamics)")
      ->required()
      ->check(CLI::Range(0, io::kMaxRows));
  sub->add_option("--law", opt->law, "projection or complementarity (default complementarity)")
      ->check(CLI::IsMember({"projection", "complementarity"}));
  sub->add_option("--scalar", opt->scalar, "double or float (default double)")
      ->check(CLI::IsMember({"double", "float"}));
  sub->add_option("--backend", opt->backends,
                  "Backends to time: cpu, reference, cuda; repeatable or a comma list (default cpu,reference)")
      ->delimiter(',')
      ->check(CLI::IsMember({"cpu", "reference", "cuda"}));
  sub->add_option("--threads", opt->threads, "Threads (default 0: all hardware threads)")->check(CLI::Range(0, io::kMaxThreads));
  sub->add_option("--batch", opt->batch, "Scenarios per batch (default 1024)")->check(CLI::Range(1L, 1L << 30));
  sub->add_option("--kind", opt->kind, "impact or dynamics (default impact)")
      ->check(CLI::IsMember({"impact", "dynamics"}));
  sub->add_flag("--json", opt->json, "One JSON object per backend line");
  sub->add_option("--seed", opt->seed, "Random seed (default 1)");
  sub->add_option("--min-time", opt->min_time, "Least time to measure per backend, seconds (default 0.3)")
      ->check(CLI::PositiveNumber);
  sub->callback([&run, opt] { run = [opt] { return run_bench(*opt); }; });
}

}  // namespace obliq::cli

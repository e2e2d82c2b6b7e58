// Throughput of the solvers (scenarios per second): the Eigen reference path, the per-scenario
// core on one thread, and the core on all threads, for impact and dynamics, both laws, double
// and float, at the shapes (n, m) of issue 2. bench/run_solver_bench.sh runs it and prints the
// ratios core / reference measured side by side in one run.
#include <benchmark/benchmark.h>
#include <omp.h>

#include <random>

#include "io/random_scenarios.hpp"
#include "obliq/batch.hpp"

using namespace obliq;

namespace {

enum Kind { impact_kind = 0, dynamics_kind = 1 };

template <class T> void solve_batch(benchmark::State& state, Backend backend, int threads) {
  const int n = int(state.range(0)), m = int(state.range(1));
  const Kind kind = Kind(state.range(2));
  const Law law = Law(state.range(3));
  const bool single = std::is_same_v<T, float>;
  // Enough scenarios to spread over the threads, few enough for the reference to finish.
  const std::size_t count = backend == Backend::reference ? 128 : 1024;
  std::mt19937_64 rng(42);
  RandomOptions opt = bench_options(kind == dynamics_kind, law, single);
  Batch<T> batch = random_batch<T>(rng, {n, 0, m}, count, opt);
  RunOptions run{backend, threads};
  ImpactResults<T> ri;
  DynamicsResults<T> rd;
  for (auto _ : state) {
    if (kind == impact_kind) {
      solve_impact(batch, ri, run);
      benchmark::DoNotOptimize(ri.qdot_plus.data());
    } else {
      solve_dynamics(batch, rd, run);
      benchmark::DoNotOptimize(rd.qddot.data());
    }
  }
  // Every scenario must have been solved, or the throughput would be meaningless.
  std::size_t ok = 0;
  for (std::size_t s = 0; s < count; ++s) ok += (kind == impact_kind ? ri.status[s] : rd.status[s]) == Status::ok;
  if (ok != count) state.SkipWithError("some scenarios failed");
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(count));
  state.counters["threads"] = threads;
}

template <class T> void BM_reference(benchmark::State& s) { solve_batch<T>(s, Backend::reference, 1); }
template <class T> void BM_core_1thread(benchmark::State& s) { solve_batch<T>(s, Backend::cpu, 1); }
template <class T> void BM_core_all_threads(benchmark::State& s) { solve_batch<T>(s, Backend::cpu, omp_get_max_threads()); }

void shapes(benchmark::internal::Benchmark* b) {
  for (int kind : {0, 1})
    for (int law : {0, 1})
      for (auto [n, m] : {std::pair{6, 3}, {12, 4}, {18, 8}, {30, 12}, {40, 24}}) b->Args({n, m, kind, law});
  b->ArgNames({"n", "m", "kind", "law"})->Unit(benchmark::kMicrosecond)->MinTime(0.2)->UseRealTime();
}

}  // namespace

BENCHMARK(BM_reference<double>)->Apply(shapes);
BENCHMARK(BM_core_1thread<double>)->Apply(shapes);
BENCHMARK(BM_core_all_threads<double>)->Apply(shapes);
BENCHMARK(BM_core_1thread<float>)->Apply(shapes);
BENCHMARK(BM_core_all_threads<float>)->Apply(shapes);

BENCHMARK_MAIN();

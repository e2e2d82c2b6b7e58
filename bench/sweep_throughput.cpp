// bench/sweep_throughput.cpp: samples/s of `obliq sweep`'s work against the bare core, side by
// side in one run (Google Benchmark, real time). Per study (examples/foot_landing.json,
// examples/quadruped_touchdown.json) and thread count (1, all):
//   bare:    the model layer's evaluate_batch + the core's solve_impact on states drawn beforehand
//            (what a host-API loop over the same samples does at the least);
//   samples: the sweep's chunk work without statistics (draws, evaluation, solve, outputs,
//            joint impulses: sweep/samples.hpp);
//   sweep:   sweep::run, everything obliq sweep does but writing files (statistics included).
// Chunks of 8192 samples; each iteration does 16384 samples. bench/sweep_bench.sh adds the
// command-line pipeline and MPI ranks.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <string>

#include "obliq/sweep.hpp"
#include "sweep/samples.hpp"

namespace {

using namespace obliq;

constexpr std::size_t kSamples = 16384, kChunk = 8192;

const sweep::Study& study(int which) {
  static const sweep::Study foot = sweep::load_study(std::string(OBLIQ_SOURCE_DIR) + "/examples/foot_landing.json");
  static const sweep::Study quad =
      sweep::load_study(std::string(OBLIQ_SOURCE_DIR) + "/examples/quadruped_touchdown.json");
  return which == 0 ? foot : quad;
}

// One pass of the bare core over kSamples pre-drawn samples, kept out of line so that callgrind's
// --toggle-collect counts exactly the timed work (bench/sweep_instructions.sh).
[[gnu::noinline]] void bare_pass(const model::Model& m, const RowMat<double>& Q, const RowMat<double>& V,
                                 const sweep::SampleTable& pre, const sweep::Layout& L, int threads, Batch<double>& batch,
                                 std::vector<Status>& status, ImpactResults<double>& res, const RunOptions& run) {
  for (std::size_t at = 0; at < kSamples; at += kChunk) {
    model::evaluate_batch(m, RowMat<double>(Q.middleRows(at, kChunk)), RowMat<double>(V.middleRows(at, kChunk)), batch,
                          status, threads);
    std::fill(batch.phi_u.begin(), batch.phi_u.end(), 0.0);  // the studies' closed contacts
    for (std::size_t s = 0; s < kChunk; ++s)
      for (int r = 0; r < L.m_u; ++r) batch.e[s * L.m_u + r] = pre.values(at + s, L.e + r);
    solve_impact(batch, res, run);
    benchmark::DoNotOptimize(res.qdot_plus.data());
  }
}

void BM_Bare(benchmark::State& state) {
  const sweep::Study& st = study(int(state.range(0)));
  const int threads = int(state.range(1));
  // The states and e of the first kSamples samples, drawn once (not timed).
  sweep::SampleTable pre;
  sweep::run_samples(st, 0, kSamples, threads, pre);
  RowMat<double> Q, V;
  sweep::draw_states(st, 0, kSamples, threads, Q, V);
  const sweep::Layout L = sweep::layout(st);
  Batch<double> batch;
  std::vector<Status> status;
  ImpactResults<double> res;
  RunOptions run;
  run.threads = threads;
  for (auto _ : state) bare_pass(*st.model, Q, V, pre, L, threads, batch, status, res, run);
  state.SetItemsProcessed(state.iterations() * kSamples);
}

void BM_Samples(benchmark::State& state) {
  const sweep::Study& st = study(int(state.range(0)));
  const int threads = int(state.range(1));
  sweep::SampleTable t;
  sweep::ChunkBuffers buffers;
  for (auto _ : state) {
    for (std::size_t at = 0; at < kSamples; at += kChunk) sweep::run_samples(st, at, kChunk, threads, t, buffers);
    benchmark::DoNotOptimize(t.values.data());
  }
  state.SetItemsProcessed(state.iterations() * kSamples);
}

void BM_Sweep(benchmark::State& state) {
  sweep::Study st = study(int(state.range(0)));
  st.samples = kSamples;
  sweep::Options o;
  o.threads = int(state.range(1));
  o.chunk = kChunk;
  for (auto _ : state) {
    const sweep::Result r = sweep::run(st, o);
    benchmark::DoNotOptimize(r.end);
  }
  state.SetItemsProcessed(state.iterations() * kSamples);
}

// Args: study (0 foot, 1 quadruped), threads (1, 0 = all).
void args(benchmark::internal::Benchmark* b) {
  for (int s : {0, 1})
    for (int t : {1, 0}) b->Args({s, t});
  b->ArgNames({"study", "threads"})->UseRealTime()->Unit(benchmark::kMillisecond)->MinTime(1.0);
}
BENCHMARK(BM_Bare)->Apply(args);
BENCHMARK(BM_Samples)->Apply(args);
BENCHMARK(BM_Sweep)->Apply(args);

}  // namespace

BENCHMARK_MAIN();

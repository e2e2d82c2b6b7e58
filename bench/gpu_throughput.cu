// bench/gpu_throughput.cu: impact throughput of the cuda backend (run by bench/gpu_check.sh).
//
// For each shape (n, m) (m unilateral rows, all closed and approaching, per-row e: the
// bench preset of `obliq bench`), scalar type and batch size, a pool of 4096 random scenarios is
// drawn on the host, uploaded once and replicated on the device to the batch size; then each
// variant is timed with CUDA events on device-resident data (no transfers):
//   fused/interleaved, fused/contiguous   the per-scenario core, one thread per scenario
//   library/contiguous                    cuBLAS/cuSOLVER batched (projection law)
//   fused/interleaved complementarity     the other law, for reference
// Printed per run: time, scenarios/s, effective bandwidth (compulsory bytes: inputs read once
// and outputs written once, over the time) and a model FLOP rate (the dense work of the
// projection law by Cholesky and the Delassus matrix: n^3/3 + 2 n^2 m + 2 n m^2 + m^3/3 +
// 8 n^2 + 4 n m), each against the H200's datasheet peak. The fused kernels do more arithmetic
// than the model (an SVD for the rank decision, the energy test), so the model rate is a floor.
//
// Bounded: batches whose inputs exceed --mem-gb are skipped, and a run projected to take longer
// than --run-s (from the previous batch size) or past the --budget-s deadline is skipped, each
// with a line saying so.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "io/random_scenarios.hpp"
#include "obliq/cuda.hpp"

namespace {

namespace cu = obliq::cuda;
using obliq::Law;
using obliq::Shape;
using Clock = std::chrono::steady_clock;

// H200 SXM datasheet peaks.
constexpr double kPeakBandwidth = 4.8e12;  // bytes/s, HBM3e
constexpr double kPeakFp64 = 34e12;        // FLOP/s, FP64 vector (67e12 on tensor cores)
constexpr double kPeakFp32 = 67e12;        // FLOP/s, FP32

struct Config {
  std::vector<std::pair<int, int>> shapes = {{6, 3}, {12, 4}, {18, 8}, {30, 12}, {40, 24}};
  std::vector<std::size_t> batches = {1000, 10000, 100000, 1000000};
  double mem_gb = 48;     // cap on one batch's input bytes
  double run_s = 6;       // cap on one variant's projected time (warm-up + timed runs)
  double budget_s = 300;  // deadline for the whole benchmark
  int min_reps = 3;
  double min_time_s = 0.2;
};

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "gpu_throughput: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

template <class T> std::size_t input_bytes(int n, int m) {  // what the impact reads
  return sizeof(T) * (std::size_t(n) * n + 2 * n + std::size_t(m) * n + 2 * m + 2) + 1;
}
template <class T> std::size_t output_bytes(int n, int m) {  // what it writes
  return sizeof(T) * (2 * n + m + 2) + m + 1 + sizeof(int);
}
template <class T> std::size_t allocated_bytes(int n, int m) {  // every input array of a DeviceBatch + outputs
  return sizeof(T) * (std::size_t(n) * n + 4 * n + std::size_t(m) * n + 3 * m + 2) + 1 + output_bytes<T>(n, m);
}
double model_flops(int n, int m) {
  const double N = n, Mm = m;
  return N * N * N / 3 + 2 * N * N * Mm + 2 * N * Mm * Mm + Mm * Mm * Mm / 3 + 8 * N * N + 4 * N * Mm;
}

// Measured device-to-device copy bandwidth (bytes read + written per second).
double measure_copy_bandwidth() {
  const std::size_t bytes = std::size_t(2) << 30;
  void *a = nullptr, *b = nullptr;
  check(cudaMalloc(&a, bytes), "cudaMalloc");
  check(cudaMalloc(&b, bytes), "cudaMalloc");
  check(cudaMemset(a, 1, bytes), "cudaMemset");
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  check(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice), "copy");
  cudaEventRecord(e0);
  for (int i = 0; i < 5; ++i) cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice);
  cudaEventRecord(e1);
  check(cudaEventSynchronize(e1), "copy");
  float ms = 0;
  cudaEventElapsedTime(&ms, e0, e1);
  cudaFree(a);
  cudaFree(b);
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  return 5 * 2.0 * double(bytes) / (ms * 1e-3);
}

struct Variant {
  const char* name;
  cu::Method method;
  cu::Layout layout;
  Law law;
};
const Variant kVariants[] = {
    {"fused", cu::Method::fused, cu::Layout::interleaved, Law::projection},
    {"fused", cu::Method::fused, cu::Layout::contiguous, Law::projection},
    {"library", cu::Method::library, cu::Layout::contiguous, Law::projection},
    {"fused", cu::Method::fused, cu::Layout::interleaved, Law::complementarity},
};
constexpr int kVariantCount = sizeof(kVariants) / sizeof(kVariants[0]);

// Time one variant: one warm-up run, then runs until min_reps and min_time_s. Seconds per run.
template <class T> double time_variant(cu::DeviceBatch<T>& b, const cu::Options& opt, const Config& cfg) {
  cu::impact(b, opt);  // warm-up: allocates outputs and scratch, creates library handles
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  int reps = 0;
  double total = 0;
  while (reps < cfg.min_reps || total < cfg.min_time_s) {
    cudaEventRecord(e0);
    cu::impact(b, opt);
    cudaEventRecord(e1);
    check(cudaEventSynchronize(e1), "impact");
    float ms = 0;
    cudaEventElapsedTime(&ms, e0, e1);
    total += ms * 1e-3;
    ++reps;
    if (reps >= 50) break;
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  return total / reps;
}

// Fraction of scenarios that came back ok (a run that fails everything is no benchmark).
template <class T> double ok_fraction(const cu::DeviceBatch<T>& b) {
  std::vector<int> st(b.count);
  check(cudaMemcpy(st.data(), b.status.data, st.size() * sizeof(int), cudaMemcpyDeviceToHost), "status");
  return double(std::count(st.begin(), st.end(), 0)) / double(std::max<std::size_t>(1, b.count));
}

template <class T>
void run_shape(int n, int m, const std::vector<obliq::Scenario>& pool_proj, const std::vector<obliq::Scenario>& pool_comp,
               const Config& cfg, Clock::time_point start, double copy_bw) {
  const Shape shape{n, 0, m};
  const char* tname = sizeof(T) == 8 ? "double" : "float";
  const double peak_flops = sizeof(T) == 8 ? kPeakFp64 : kPeakFp32;
  // Pools on the device, contiguous, one per law.
  auto upload_pool = [&](const std::vector<obliq::Scenario>& scs) {
    obliq::Batch<T> hb(shape, scs.size());
    for (std::size_t s = 0; s < scs.size(); ++s) hb.set(s, scs[s]);
    cu::DeviceBatch<T> db(shape, scs.size(), cu::Layout::contiguous);
    db.upload(hb);
    return db;
  };
  cu::DeviceBatch<T> pool[2] = {upload_pool(pool_proj), upload_pool(pool_comp)};

  double last_time[kVariantCount];
  std::size_t last_batch[kVariantCount];
  for (int v = 0; v < kVariantCount; ++v) last_time[v] = 0, last_batch[v] = 0;

  for (std::size_t batch : cfg.batches) {
    const double gb = double(allocated_bytes<T>(n, m)) * double(batch) / 1e9;
    if (gb > cfg.mem_gb) {
      std::printf("%3d %3d %-6s %8zu  skipped: inputs %.1f GB > --mem-gb %.0f\n", n, m, tname, batch, gb, cfg.mem_gb);
      continue;
    }
    for (cu::Layout layout : {cu::Layout::interleaved, cu::Layout::contiguous}) {
      for (int lawi = 0; lawi < 2; ++lawi) {
        const Law law = lawi == 0 ? Law::projection : Law::complementarity;
        bool wanted = false;
        for (int v = 0; v < kVariantCount; ++v) wanted |= kVariants[v].layout == layout && kVariants[v].law == law;
        if (!wanted) continue;
        cu::DeviceBatch<T> b(shape, batch, layout);
        cu::replicate(pool[lawi], b);
        for (int v = 0; v < kVariantCount; ++v) {
          const Variant& var = kVariants[v];
          if (var.layout != layout || var.law != law) continue;
          const char* lname = law == Law::projection ? "projection" : "complementarity";
          // Projection from the previous batch size: skip what would run past the caps.
          const double projected =
              last_batch[v] ? last_time[v] * double(batch) / double(last_batch[v]) * (cfg.min_reps + 1) : 0;
          const double left = cfg.budget_s - seconds_since(start);
          if (projected > cfg.run_s || projected > left || left <= 0) {
            std::printf("%3d %3d %-6s %8zu %-8s %-12s %-15s skipped: projected %.1f s (cap %.1f s, %.0f s left)\n", n, m,
                        tname, batch, var.name, cu::layout_name(layout), lname, projected, cfg.run_s, std::max(0.0, left));
            continue;
          }
          cu::Options opt;
          opt.method = var.method;
          opt.scratch_layout = layout;
          opt.scratch_bytes = std::size_t(4) << 30;
          const double t = time_variant(b, opt, cfg);
          last_time[v] = t;
          last_batch[v] = batch;
          const double rate = double(batch) / t;
          const double bw = double(input_bytes<T>(n, m) + output_bytes<T>(n, m)) * rate;
          const double fl = model_flops(n, m) * rate;
          std::printf("%3d %3d %-6s %8zu %-8s %-12s %-15s %10.3f ms %11.3e /s %8.1f GB/s %5.1f%% %5.1f%%cp %9.1f GF/s %5.2f%% ok %.3f\n",
                      n, m, tname, batch, var.name, cu::layout_name(layout), lname, t * 1e3, rate, bw / 1e9,
                      100 * bw / kPeakBandwidth, 100 * bw / copy_bw, fl / 1e9, 100 * fl / peak_flops, ok_fraction(b));
          std::fflush(stdout);
        }
      }
    }
  }
}

std::vector<obliq::Scenario> draw_pool(int n, int m, Law law, std::size_t count, unsigned seed) {
  std::mt19937_64 rng(seed);
  obliq::RandomOptions o;
  o.law = law;
  o.cond_M = 1e2;
  o.p_approaching = 1;  // every row closed and approaching: the full work of an impact
  o.per_row_e = true;
  std::vector<obliq::Scenario> out;
  out.reserve(count);
  for (std::size_t s = 0; s < count; ++s) out.push_back(obliq::random_scenario(rng, Shape{n, 0, m}, o));
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  Config cfg;
  bool quick = false;
  std::vector<std::string> types = {"double", "float"};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() { return i + 1 < argc ? std::string(argv[++i]) : std::string(); };
    if (a == "--quick") quick = true;
    else if (a == "--mem-gb") cfg.mem_gb = std::atof(next().c_str());
    else if (a == "--run-s") cfg.run_s = std::atof(next().c_str());
    else if (a == "--budget-s") cfg.budget_s = std::atof(next().c_str());
    else if (a == "--type") types = {next()};
    else {
      std::fprintf(stderr,
                   "usage: obliq_gpu_bench [--quick] [--mem-gb G] [--run-s S] [--budget-s S] [--type double|float]\n");
      return 2;
    }
  }
  if (quick) {
    cfg.shapes = {{12, 4}};
    cfg.batches = {1000, 100000};
  }
  std::string why;
  if (!cu::device_available(&why)) {
    std::printf("gpu_throughput: %s; nothing measured\n", why.c_str());
    return 0;
  }
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  const auto start = Clock::now();
  const double copy_bw = measure_copy_bandwidth();
  std::printf("device: %s, %d SMs, %.1f GiB, L2 %.0f MB; measured copy bandwidth %.2f TB/s\n", prop.name,
              prop.multiProcessorCount, prop.totalGlobalMem / 1073741824.0, prop.l2CacheSize / 1e6, copy_bw / 1e12);
  std::printf("peaks (H200 datasheet): %.1f TB/s HBM, %.0f TFLOP/s FP64, %.0f TFLOP/s FP32\n", kPeakBandwidth / 1e12,
              kPeakFp64 / 1e12, kPeakFp32 / 1e12);
  std::printf("  n   m type      batch method   layout       law                  time   scenarios/s   eff. bandwidth %%peak %%copy  model FLOP rate %%peak ok\n");
  for (auto [n, m] : cfg.shapes) {
    const auto proj = draw_pool(n, m, Law::projection, 4096, 1000 + n * 100 + m);
    const auto comp = draw_pool(n, m, Law::complementarity, 4096, 1000 + n * 100 + m);
    for (const std::string& t : types) {
      if (t == "double") run_shape<double>(n, m, proj, comp, cfg, start, copy_bw);
      else run_shape<float>(n, m, proj, comp, cfg, start, copy_bw);
    }
  }
  std::printf("total %.1f s\n", seconds_since(start));
  return 0;
}

// bench/gpu_throughput.cu: obliq_gpu_bench, the GPU side of bench/gpu_check.sh.
//
//   obliq_gpu_bench --probe     the device (name, SMs, memory), or "no CUDA device found" and
//                               exit status 3
//   obliq_gpu_bench --compare   GPU vs CPU: for each class of scenarios (projection law,
//                               complementarity law, dependent rows, dynamics) a pool of 4096
//                               drawn scenarios is replicated on the device to a batch of 1e6,
//                               solved by each method, and 1,000 scenarios sampled from the
//                               batch are solved again by the cpu backend: statuses must agree
//                               and values to rounding, and every ok answer of the GPU must pass
//                               the core's a-posteriori certificate (impact_certificate /
//                               dynamics_certificate, recomputed here on the host from the
//                               inputs; its worst residual printed). Exit status 1 when not.
//   obliq_gpu_bench [--quick]   impact throughput: for (n, m) = (6, 3), (12, 4), (30, 8), double
//                               and float, batches 1e3 to 1e6 replicated from a pool of 4096
//                               (every row closed and approaching, per-row e, projection law),
//                               each method timed with CUDA events on device-resident data
//                               (fused/interleaved, fused/contiguous, library/contiguous,
//                               warp/contiguous). Printed per run: time, scenarios/s, the
//                               fraction of the bandwidth limit (compulsory bytes, inputs read
//                               once and outputs written once, at the 4.8 TB/s datasheet peak
//                               and at the copy bandwidth measured first) and the fraction of
//                               the FP64/FP32 peak of a model FLOP count. --shapes 12x4,6x3
//                               picks and orders the shapes (bench/gpu_check.sh times (12, 4)
//                               first, its headline).
// With no usable device every mode prints why and exits with status 3: a run that measured
// nothing is not a success. Bounded: batches whose inputs exceed --mem-gb are skipped, and a
// run projected to take longer than --run-s or past the --budget-s deadline is skipped, each
// with a line saying so.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cpu/scenario_views.hpp"
#include "io/random_scenarios.hpp"
#include "obliq/core/mechanics/certificate.hpp"
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
  std::vector<std::pair<int, int>> shapes = {{6, 3}, {12, 4}, {30, 8}};
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
    {"warp", cu::Method::warp, cu::Layout::contiguous, Law::projection},
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

// --- GPU vs CPU on samples of a large batch --------------------------------------------------

struct CompareClass {
  const char* name;
  Shape shape;
  Law law;
  bool dynamics;
  int dependent;
};

std::vector<obliq::Scenario> draw_class(const CompareClass& c, std::size_t count, bool single, unsigned seed) {
  std::mt19937_64 rng(seed);
  obliq::RandomOptions o = obliq::bench_options(c.dynamics, c.law, single);
  o.dependent_rows = c.dependent;
  if (!c.dynamics) {  // every kind of row, as the GPU tests draw them
    o.p_approaching = 3;
    o.p_resting = 1;
    o.p_separating = 1;
    o.p_open = 1;
    o.applied_impulse = true;
  }
  std::vector<obliq::Scenario> out;
  for (std::size_t s = 0; s < count; ++s) out.push_back(obliq::random_scenario(rng, c.shape, o));
  return out;
}

template <class U> std::vector<U> fetch(const cu::DeviceArray<U>& a, std::size_t n) {
  std::vector<U> h(n);
  check(cudaMemcpy(h.data(), a.data, n * sizeof(U), cudaMemcpyDeviceToHost), "download");
  return h;
}

// One class, one scalar type, every method: returns false when the GPU disagrees with the CPU.
template <class T> bool compare_class(const CompareClass& c, std::size_t batch, std::size_t samples) {
  const bool single = sizeof(T) == 4;
  const double tol = (single ? 3e-3 : 1e-7) * (c.dependent ? 10 : 1);
  const std::size_t pool_n = 4096;
  const std::vector<obliq::Scenario> pool = draw_class(c, pool_n, single, 77 + c.dependent);
  obliq::Batch<T> hp(c.shape, pool_n);
  for (std::size_t s = 0; s < pool_n; ++s) hp.set(s, pool[s]);
  cu::DeviceBatch<T> dp(c.shape, pool_n, cu::Layout::contiguous);
  dp.upload(hp);
  cu::DeviceBatch<T> big(c.shape, batch, cu::Layout::contiguous);
  cu::replicate(dp, big);
  // The samples and their CPU answers.
  std::mt19937_64 rng(2024);
  std::uniform_int_distribution<std::size_t> pick(0, batch - 1);
  std::vector<std::size_t> idx(samples);
  obliq::Batch<T> hs(c.shape, samples);
  for (std::size_t k = 0; k < samples; ++k) {
    idx[k] = pick(rng);
    hs.set(k, pool[idx[k] % pool_n]);
  }
  obliq::ImpactResults<T> ci;
  obliq::DynamicsResults<T> cd;
  if (c.dynamics) obliq::solve_dynamics(hs, cd, {obliq::Backend::cpu, 0});
  else obliq::solve_impact(hs, ci, {obliq::Backend::cpu, 0});
  const int n = c.shape.n, m = c.shape.m_b + c.shape.m_u;
  bool good = true;
  for (cu::Method method : {cu::Method::fused, cu::Method::library, cu::Method::warp}) {
    cu::Options opt;
    opt.method = method;
    if (c.dynamics) cu::dynamics(big, opt);
    else cu::impact(big, opt);
    const std::vector<int> st = fetch(big.status, batch);
    const std::vector<T> x = fetch(c.dynamics ? big.qddot : big.qdot_plus, batch * n);
    const std::vector<T> lam = fetch(big.lambda, batch * m);
    const std::vector<std::uint8_t> act = fetch(big.active, batch * c.shape.m_u);
    // The GPU's answers of the samples as host results, for the certificate.
    obliq::ImpactResults<T> gi;
    obliq::DynamicsResults<T> gd;
    std::vector<T> imp, ke0, ke1;
    std::vector<std::uint8_t> cons;
    if (c.dynamics) gd.resize(c.shape, samples);
    else {
      gi.resize(c.shape, samples);
      imp = fetch(big.impulse, batch * n);
      ke0 = fetch(big.kinetic_energy_pre, batch);
      ke1 = fetch(big.kinetic_energy_post, batch);
      cons = fetch(big.energy_consistent, batch);
    }
    for (std::size_t k = 0; k < samples; ++k) {
      const std::size_t s = idx[k];
      T* xo = c.dynamics ? gd.qddot.data() : gi.qdot_plus.data();
      T* lo = c.dynamics ? gd.lambda.data() : gi.lambda.data();
      std::uint8_t* ao = c.dynamics ? gd.active.data() : gi.active.data();
      for (int i = 0; i < n; ++i) xo[k * n + i] = x[s * n + i];
      for (int i = 0; i < m; ++i) lo[k * m + i] = lam[s * m + i];
      for (int i = 0; i < c.shape.m_u; ++i) ao[k * c.shape.m_u + i] = act[s * c.shape.m_u + i];
      (c.dynamics ? gd.status : gi.status)[k] = obliq::Status(st[s]);
      if (!c.dynamics) {
        for (int i = 0; i < n; ++i) gi.impulse[k * n + i] = imp[s * n + i];
        gi.kinetic_energy_pre[k] = ke0[s];
        gi.kinetic_energy_post[k] = ke1[s];
        gi.energy_consistent[k] = cons[s];
      }
    }
    obliq::HostBatchView<T> hv = obliq::host_view(hs);
    if (c.dynamics) obliq::set_outputs(hv, gd);
    else obliq::set_outputs(hv, gi);
    double worst_cert = 0;
    std::size_t uncertified = 0;
    for (std::size_t k = 0; k < samples; ++k) {
      if (st[idx[k]] != 0) continue;
      const obliq::ScenarioView<T> in = obliq::cpu::scenario_view(hv, k);
      const T r = c.dynamics ? obliq::dynamics_certificate(in, obliq::cpu::dynamics_view(hv, k))
                             : obliq::impact_certificate(in, obliq::cpu::impact_view(hv, k));
      uncertified += !obliq::certified(r);
      worst_cert = std::isnan(double(r)) ? INFINITY : std::max(worst_cert, double(r));
    }
    std::size_t ok = 0, mismatch = 0;
    double dx = 0, dl = 0;
    for (std::size_t k = 0; k < samples; ++k) {
      const std::size_t s = idx[k];
      const int want = int(c.dynamics ? cd.status[k] : ci.status[k]);
      if (st[s] != want) {
        ++mismatch;
        continue;
      }
      if (want != 0) continue;
      ++ok;
      const std::vector<T>& rx = c.dynamics ? cd.qddot : ci.qdot_plus;
      const std::vector<T>& rl = c.dynamics ? cd.lambda : ci.lambda;
      double sx = 1, sl = 1, ex = 0, el = 0;
      for (int i = 0; i < n; ++i) {
        sx = std::max(sx, 1 + std::abs(double(rx[k * n + i])));
        ex = std::max(ex, std::abs(double(x[s * n + i]) - double(rx[k * n + i])));
      }
      for (int i = 0; i < m; ++i) {
        sl = std::max(sl, 1 + std::abs(double(rl[k * m + i])));
        el = std::max(el, std::abs(double(lam[s * m + i]) - double(rl[k * m + i])));
      }
      dx = std::max(dx, ex / sx);
      dl = std::max(dl, el / sl);
    }
    const bool pass = mismatch == 0 && dx <= tol && dl <= tol && uncertified == 0;
    good = good && pass;
    std::printf("compare %-16s %-6s %-8s batch %zu: %zu/%zu ok, %zu status mismatches, max rel diff %s %.2e lambda %.2e (tol %.0e), "
                "worst certificate %.2e (tol %.0e, %zu over) %s\n",
                c.name, single ? "float" : "double", cu::method_name(method), batch, ok, samples, mismatch,
                c.dynamics ? "qddot" : "qdot_plus", dx, dl, tol, worst_cert, double(obliq::certificate_tolerance<T>::rel),
                uncertified, pass ? "PASS" : "FAIL");
    std::fflush(stdout);
  }
  return good;
}

int run_compare() {
  const CompareClass classes[] = {{"projection", {12, 1, 4}, Law::projection, false, 0},
                                  {"complementarity", {12, 1, 4}, Law::complementarity, false, 0},
                                  {"dependent rows", {12, 1, 4}, Law::projection, false, 1},
                                  {"dynamics", {12, 1, 4}, Law::projection, true, 0}};
  bool good = true;
  for (const CompareClass& c : classes) {
    good = compare_class<double>(c, 1000000, 1000) && good;
    good = compare_class<float>(c, 1000000, 1000) && good;
  }
  std::printf("compare: %s\n", good ? "PASS" : "FAIL");
  return good ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  Config cfg;
  bool quick = false, probe = false, compare = false;
  std::vector<std::string> types = {"double", "float"};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() { return i + 1 < argc ? std::string(argv[++i]) : std::string(); };
    if (a == "--quick") quick = true;
    else if (a == "--probe") probe = true;
    else if (a == "--compare") compare = true;
    else if (a == "--mem-gb") cfg.mem_gb = std::atof(next().c_str());
    else if (a == "--run-s") cfg.run_s = std::atof(next().c_str());
    else if (a == "--budget-s") cfg.budget_s = std::atof(next().c_str());
    else if (a == "--type") types = {next()};
    else if (a == "--shapes") {
      cfg.shapes.clear();
      std::string list = next();
      for (std::size_t p = 0; p < list.size();) {
        std::size_t q = list.find(',', p);
        if (q == std::string::npos) q = list.size();
        int n = 0, m = 0;
        if (std::sscanf(list.substr(p, q - p).c_str(), "%dx%d", &n, &m) != 2 || n < 1 || m < 1) {
          std::fprintf(stderr, "obliq_gpu_bench: --shapes wants NxM[,NxM...], got '%s'\n", list.c_str());
          return 2;
        }
        cfg.shapes.push_back({n, m});
        p = q + 1;
      }
    }
    else {
      std::fprintf(stderr,
                   "usage: obliq_gpu_bench [--probe | --compare | [--quick] [--mem-gb G] [--run-s S] [--budget-s S] "
                   "[--type double|float] [--shapes 12x4,6x3,...]]\n");
      return 2;
    }
  }
  if (quick) {
    cfg.shapes = {{12, 4}};
    cfg.batches = {1000, 100000};
  }
  std::string why;
  if (!cu::device_available(&why)) {
    std::printf("obliq_gpu_bench: %s; nothing measured\n", why.c_str());
    return 3;
  }
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  std::printf("device: %s, sm_%d%d, %d SMs, %.1f GiB, L2 %.0f MB\n", prop.name, prop.major, prop.minor,
              prop.multiProcessorCount, prop.totalGlobalMem / 1073741824.0, prop.l2CacheSize / 1e6);
  if (probe) return 0;
  if (compare) return run_compare();
  const auto start = Clock::now();
  const double copy_bw = measure_copy_bandwidth();
  std::printf("measured copy bandwidth %.2f TB/s; peaks (H200 datasheet): %.1f TB/s HBM, %.0f TFLOP/s FP64, %.0f TFLOP/s FP32\n",
              copy_bw / 1e12, kPeakBandwidth / 1e12, kPeakFp64 / 1e12, kPeakFp32 / 1e12);
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

// tests/cuda_emulation/sweep_backend_test.cpp: `obliq sweep --backend cuda` (sweep::Options::backend)
// through an emulated CUDA backend. This program defines the backend table's symbol itself
// (obliq_cuda_backend_v1, exported: ENABLE_EXPORTS), which the host library's loader takes
// before it tries dlopen (src/cpu/cuda_backend.cpp), so Backend::cuda here runs, on the host,
// the glue and kernel bodies the device runs: the fused impact kernel's body over interleaved
// host arrays (host_glue.hpp), cuda/friction_glue.hpp's sequence with friction_body, and
// cuda/sim_glue.hpp's sequence with the Simulator's kernel bodies (sim_emulation.hpp: the
// Moreau-Jean phases, or the event-driven step), each in several chunks. What is not emulated
// is the real table's upload / method choice / launch (cuda/device_batch.cpp) and the device.
//
// A sweep on the emulated device must give the cpu sweep's answers: the same status, count and
// flag of every sample and summary (counts, released, energy-consistent or at rest), every value
// within 1e-9 of the cpu's relative to 1 + its size (the frictional and Simulator bodies give
// the cpu's bits; the fused impact body differs from the cpu backend's solve in the last bits
// on the quadruped, 1e-15 relative), for impact samples with and without friction and for
// trajectory samples; every solve must have gone
// through the table (counted); and with the device gone, the sweep must fail with
// "backend cuda: no CUDA device found: ...", the form of the real loader. (Without the CUDA
// backend in the build the loader never looks for the symbol: these tests skip.)
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "cpu/cuda_backend.hpp"
#include "friction_glue.hpp"
#include "host_glue.hpp"
#include "host_memory.hpp"
#include "obliq/sweep.hpp"
#include "sim_emulation.hpp"
#include "sim_glue.hpp"
#include "support/friction_batch.hpp"
#include "sweep/samples.hpp"
#include "sweep/statistics.hpp"

namespace {

namespace cu = obliq::cuda::detail;
using obliq::Backend;
using obliq::Batch;
using obliq::ImpactResults;
using obliq::RunOptions;

std::atomic<bool> g_device{true};   // false: the emulated device is gone
std::atomic<long> g_impact_calls{0}, g_friction_calls{0}, g_sim_calls{0};

bool device_available(std::string* why) {
  if (g_device) return true;
  if (why) *why = "no CUDA device found: the emulated device was removed by the test";
  return false;
}

// solve_impact on the "device": the fused kernel's body over the batch in the interleaved layout,
// scratch for 3 scenarios per chunk (so every chunk loop runs several times).
template <class T> void impact(const Batch<T>& in, ImpactResults<T>& out, const RunOptions& run) {
  if (run.threads != 0) throw std::runtime_error("backend cuda: threads applies to the cpu backend only");
  ++g_impact_calls;
  if (in.count == 0) {
    out.resize(in.shape, 0);
    return;
  }
  obliq::emulation::HostBatch<T> hb(in, obliq::cuda::Layout::interleaved);
  const std::size_t ws = cu::fused_impact_scratch<T>(in.shape.n, in.shape.m_b, in.shape.m_u);
  obliq::emulation::HostLaunch launch(3 * ws * sizeof(T), in.count, true);
  const cu::ImpactOutputs<T> io = hb.impact_outputs();
  obliq::emulation::fused<T>(hb.inputs(), &io, nullptr, launch.l);
  out = hb.impact_results();
}

template <class T, class Result>
std::vector<Result> friction(const std::vector<obliq::FrictionalScenario>& batch, std::vector<obliq::FrictionResult>* info) {
  ++g_friction_calls;
  const std::size_t ws = obliq::test::largest_workspace<T>(batch, std::is_same_v<Result, obliq::DynamicsResult>);
  return cu::run_friction<T, Result, obliq::emulation::HostMemory<T>>(
      batch, info, 5 * ws * sizeof(T),
      [&](const cu::FrictionArrays<T>& a, std::size_t s0, std::size_t n, T* scratch, std::size_t w) {
        for (std::size_t i = n; i-- > 0;) cu::friction_body(a, s0, n, i, scratch, w);
      });
}

template <class T>
void simulate(const obliq::sim::BatchArrays<T>& h, const obliq::sim::StepParams<T>& p, T dt, int steps, std::size_t) {
  ++g_sim_calls;
  const std::size_t ws = cu::sim_scratch(h, p, cu::any_friction(h));
  obliq::emulation::emulated_simulate(h, p, dt, steps, 5 * ws * sizeof(T));
}

const obliq::cpu::CudaBackend kEmulated{obliq::cpu::kCudaBackendAbi,
                                        &device_available,
                                        &impact<double>,
                                        &impact<float>,
                                        nullptr,
                                        nullptr,
                                        nullptr,
                                        &simulate<double>,
                                        &simulate<float>,
                                        &friction<double, obliq::ImpactResult>,
                                        &friction<float, obliq::ImpactResult>,
                                        &friction<double, obliq::DynamicsResult>,
                                        &friction<float, obliq::DynamicsResult>};

}  // namespace

extern "C" __attribute__((visibility("default"))) const obliq::cpu::CudaBackend* obliq_cuda_backend_v1() {
  return &kEmulated;
}

namespace obliq::sweep {
namespace {

using json = nlohmann::ordered_json;

Study study(const std::string& text) { return parse_study(json::parse(text), "."); }

// The emulated table is the loaded backend, or the build has none (then skip).
bool emulated_backend_loaded() {
  try {
    return &cpu::cuda_backend() == &kEmulated;
  } catch (const std::runtime_error&) {
    return false;
  }
}

json summary_on(const Study& st, Backend backend, std::size_t chunk) {
  Options o;
  o.threads = 2;
  o.chunk = chunk;
  o.backend = backend;
  return summary(st, run(st, o), json::object());
}

// The sweep on the emulated device against the cpu: the same summary, and every chunk's solves
// (the pilot's too) through the table's `calls` counter.
void expect_same_sweep(const Study& st, std::atomic<long>& calls, std::size_t chunk) {
  if (!emulated_backend_loaded()) GTEST_SKIP() << "this build has no CUDA backend: Backend::cuda never reaches the table";
  const json cpu = summary_on(st, Backend::cpu, chunk);
  const long before = calls;
  const json cuda = summary_on(st, Backend::cuda, chunk);
  const long chunks = long((st.samples + chunk - 1) / chunk);
  EXPECT_GE(calls - before, chunks) << "a chunk was not solved through the cuda backend";
  EXPECT_EQ(cpu["counts"].dump(), cuda["counts"].dump());
  for (auto it = cpu["outputs"].begin(); it != cpu["outputs"].end(); ++it) {
    const json& o = cuda["outputs"][it.key()];
    EXPECT_EQ(it.value()["count"], o["count"]) << it.key();
    if (it.value().contains("mean")) {
      EXPECT_NEAR(it.value()["mean"].get<double>(), o["mean"].get<double>(), 1e-9 * (1 + std::abs(o["mean"].get<double>())))
          << it.key();
    }
  }
  // Sample by sample.
  SampleTable a, b;
  run_samples(st, 0, std::size_t(st.samples), 1, a, Backend::cpu);
  run_samples(st, 0, std::size_t(st.samples), 1, b, Backend::cuda);
  ASSERT_EQ(a.values.rows(), b.values.rows());
  ASSERT_EQ(a.values.cols(), b.values.cols());
  const std::vector<Column> cols = columns(st);
  int shown = 0;
  for (Eigen::Index s = 0; s < a.values.rows(); ++s)
    for (Eigen::Index c = 0; c < a.values.cols(); ++c) {
      const double x = a.values(s, c), y = b.values(s, c);
      const bool same = std::isnan(x) ? std::isnan(y) : std::abs(x - y) <= 1e-9 * (1 + std::abs(x));
      if (!same && shown++ < 5)
        ADD_FAILURE() << cols[std::size_t(c)].name << " of sample " << s << ": cpu " << x << ", cuda " << y;
    }
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.energy_consistent, b.energy_consistent);
  EXPECT_EQ(a.at_rest, b.at_rest);
  EXPECT_EQ(a.candidate, b.candidate);
  EXPECT_EQ(a.released, b.released);
}

TEST(SweepCudaEmulated, ImpactSamplesAreTheCpus) {
  const Study st = study(R"({"mechanism": {"model": "quadruped",
      "q": [0, 0, 0.5, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
      "qdot": [0.5, 0, -0.8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], "gaps": "closed"},
      "law": "complementarity", "samples": 300, "seed": 7,
      "restitution": {"dist": "uniform", "low": 0.0, "high": 0.4},
      "perturb": {"qdot": {"dist": "normal", "sd": [0.1, 0.1, 0.1, 0.2, 0.2, 0.2, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3,
                                                    0.3, 0.3, 0.3, 0.3, 0.3, 0.3]}}})");
  expect_same_sweep(st, g_impact_calls, 128);
}

TEST(SweepCudaEmulated, FrictionalImpactSamplesAreTheCpus) {
  const Study st = study(R"({"mechanism": {"model": "block", "q": [0, 0.2, 0], "qdot": [0.5, -1.0, 0.0]},
      "samples": 400, "seed": 8, "restitution": 0.2,
      "friction": {"corner_left": {"dist": "uniform", "low": 0.0, "high": 0.8},
                   "corner_right": {"dist": "truncated_normal", "mean": 0.1, "sd": 0.3}}})");
  expect_same_sweep(st, g_friction_calls, 150);
}

TEST(SweepCudaEmulated, TrajectorySamplesAreTheCpus) {
  const Study st = study(R"({"mechanism": {"model": "ball", "q": [0, 0, 0.6], "qdot": [0.5, 0, -1.0]},
      "samples": 120, "seed": 3, "restitution": {"dist": "uniform", "low": 0.2, "high": 0.8},
      "friction": {"dist": "uniform", "low": 0.0, "high": 0.6},
      "trajectory": {"integrator": "moreau", "T": 0.5, "dt": 0.01}})");
  expect_same_sweep(st, g_sim_calls, 50);
}

// No device: the sweep stops at its first solve with the loader's message naming the device.
TEST(SweepCudaEmulated, NoDeviceIsAClearError) {
  if (!emulated_backend_loaded()) GTEST_SKIP() << "this build has no CUDA backend: Backend::cuda never reaches the table";
  const Study st = study(R"({"mechanism": {"model": "ball", "q": [0, 0, 0.1], "qdot": [0, 0, -1.0]},
      "samples": 10, "seed": 1, "restitution": 0.5})");
  g_device = false;
  Options o;
  o.backend = Backend::cuda;
  std::string what;
  try {
    run(st, o);
  } catch (const std::runtime_error& e) {
    what = e.what();
  }
  g_device = true;
  EXPECT_EQ(what.rfind("backend cuda: no CUDA device found: ", 0), 0u) << what;
}

}  // namespace
}  // namespace obliq::sweep

// tests/cuda_emulation/sweep_backend_test.cpp: `obliq sweep --backend cuda` (sweep::Options::backend)
// through the emulated CUDA backend of emulated_backend.hpp (Backend::cuda runs, on the host, the
// glue and kernel bodies the device runs).
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

#include "emulated_backend.hpp"
#include "obliq/sweep.hpp"
#include "sweep/samples.hpp"
#include "sweep/statistics.hpp"

namespace obliq::sweep {
namespace {

using json = nlohmann::ordered_json;
using emulation::emulated_backend_loaded;
using emulation::g_device;
using emulation::g_friction_calls;
using emulation::g_impact_calls;
using emulation::g_sim_calls;

Study study(const std::string& text) { return parse_study(json::parse(text), "."); }

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

// tests/cuda_emulation/emulated_backend.cpp: the emulated CUDA backend's table
// (emulated_backend.hpp): each entry runs the device's glue and kernel bodies on the host.
#include "emulated_backend.hpp"

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cpu/cuda_backend.hpp"
#include "friction_glue.hpp"
#include "host_glue.hpp"
#include "host_memory.hpp"
#include "obliq/sim/pd_tracking.hpp"
#include "sim_emulation.hpp"
#include "sim_glue.hpp"
#include "support/friction_batch.hpp"

namespace obliq::emulation {

std::atomic<bool> g_device{true};
std::atomic<long> g_impact_calls{0}, g_friction_calls{0}, g_sim_calls{0}, g_sim_pd_calls{0}, g_resident_calls{0};

namespace {

namespace cu = obliq::cuda::detail;
using obliq::Backend;
using obliq::Batch;
using obliq::ImpactResults;
using obliq::RunOptions;

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
  HostBatch<T> hb(in, obliq::cuda::Layout::interleaved);
  const std::size_t ws = cu::fused_impact_scratch<T>(in.shape.n, in.shape.m_b, in.shape.m_u);
  HostLaunch launch(3 * ws * sizeof(T), in.count, true);
  const cu::ImpactOutputs<T> io = hb.impact_outputs();
  fused<T>(hb.inputs(), &io, nullptr, launch.l);
  out = hb.impact_results();
}

template <class T, class Result>
std::vector<Result> friction(const std::vector<obliq::FrictionalScenario>& batch, std::vector<obliq::FrictionResult>* info) {
  ++g_friction_calls;
  const std::size_t ws = obliq::test::largest_workspace<T>(batch, std::is_same_v<Result, obliq::DynamicsResult>);
  return cu::run_friction<T, Result, HostMemory<T>>(
      batch, info, 5 * ws * sizeof(T),
      [&](const cu::FrictionArrays<T>& a, std::size_t s0, std::size_t n, T* scratch, std::size_t w) {
        for (std::size_t i = n; i-- > 0;) cu::friction_body(a, s0, n, i, scratch, w);
      });
}

template <class T>
void simulate(const obliq::sim::BatchArrays<T>& h, const obliq::sim::StepParams<T>& p, T dt, int steps, std::size_t) {
  ++g_sim_calls;
  const std::size_t ws = cu::sim_scratch(h, p, cu::any_friction(h));
  emulated_simulate(h, p, dt, steps, 5 * ws * sizeof(T));
}

template <class T>
void simulate_pd(const obliq::sim::BatchArrays<T>& h, const obliq::sim::StepParams<T>& p,
                 const obliq::sim::PdArrays<T>& pd, T dt, int frame_skip, std::size_t) {
  ++g_sim_pd_calls;
  const std::size_t ws = cu::sim_scratch(h, p, cu::any_friction(h));
  emulated_simulate_pd(h, p, pd, dt, frame_skip, 5 * ws * sizeof(T));
}

template <class T>
std::unique_ptr<obliq::cpu::ResidentSimulation<T>> resident(const obliq::sim::BatchArrays<T>& h, std::size_t scratch) {
  ++g_resident_calls;
  return std::make_unique<EmulatedResident<T>>(h, scratch);
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
                                        &simulate_pd<double>,
                                        &simulate_pd<float>,
                                        &resident<double>,
                                        &resident<float>,
                                        &friction<double, obliq::ImpactResult>,
                                        &friction<float, obliq::ImpactResult>,
                                        &friction<double, obliq::DynamicsResult>,
                                        &friction<float, obliq::DynamicsResult>};

}  // namespace

bool emulated_backend_loaded() {
  try {
    return &cpu::cuda_backend() == &kEmulated;
  } catch (const std::runtime_error&) {
    return false;
  }
}

}  // namespace obliq::emulation

extern "C" __attribute__((visibility("default"))) const obliq::cpu::CudaBackend* obliq_cuda_backend_v1() {
  return &obliq::emulation::kEmulated;
}


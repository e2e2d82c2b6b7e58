// src/cpu/cuda_backend.hpp: the CUDA backend as the host library sees it, a table of entry
// points that the separate library libobliq_cuda.so exports (cuda/backend_table.cpp). The host
// library opens that library with dlopen the first time a caller asks for Backend::cuda, so a
// CPU run never loads the CUDA runtime.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "obliq/batch.hpp"
#include "obliq/lcp.hpp"

namespace obliq {
struct FrictionalScenario;
struct FrictionResult;
}  // namespace obliq

namespace obliq::sim {
template <class T> struct BatchArrays;
template <class T> struct StepParams;
template <class T> struct PdArrays;
}  // namespace obliq::sim

namespace obliq::cpu {

struct CudaBackend {
  int abi = 0;  // kCudaBackendAbi of the library that built the table
  bool (*device_available)(std::string* reason) = nullptr;
  void (*impact_d)(const Batch<double>&, ImpactResults<double>&, const RunOptions&) = nullptr;
  void (*impact_f)(const Batch<float>&, ImpactResults<float>&, const RunOptions&) = nullptr;
  void (*dynamics_d)(const Batch<double>&, DynamicsResults<double>&, const RunOptions&) = nullptr;
  void (*dynamics_f)(const Batch<float>&, DynamicsResults<float>&, const RunOptions&) = nullptr;
  std::vector<LcpSolution> (*lcp)(const std::vector<LcpProblem>&, const LcpOptions&) = nullptr;
  // The Simulator's step on the device (host arrays in and out; scratch_bytes 0: the default).
  void (*simulate_d)(const sim::BatchArrays<double>&, const sim::StepParams<double>&, double dt, int steps,
                     std::size_t scratch_bytes) = nullptr;
  void (*simulate_f)(const sim::BatchArrays<float>&, const sim::StepParams<float>&, float dt, int steps,
                     std::size_t scratch_bytes) = nullptr;
  // Simulator::step_pd on the device (host arrays in and out, the effort too).
  void (*simulate_pd_d)(const sim::BatchArrays<double>&, const sim::StepParams<double>&, const sim::PdArrays<double>&,
                        double dt, int frame_skip, std::size_t scratch_bytes) = nullptr;
  void (*simulate_pd_f)(const sim::BatchArrays<float>&, const sim::StepParams<float>&, const sim::PdArrays<float>&,
                        float dt, int frame_skip, std::size_t scratch_bytes) = nullptr;
  // Frictional scenarios on the device (obliq::impact_batch / dynamics_batch, cuda/friction_glue.hpp).
  using FrictionBatch = const std::vector<FrictionalScenario>&;
  std::vector<ImpactResult> (*friction_impact_d)(FrictionBatch, std::vector<FrictionResult>*) = nullptr;
  std::vector<ImpactResult> (*friction_impact_f)(FrictionBatch, std::vector<FrictionResult>*) = nullptr;
  std::vector<DynamicsResult> (*friction_dynamics_d)(FrictionBatch, std::vector<FrictionResult>*) = nullptr;
  std::vector<DynamicsResult> (*friction_dynamics_f)(FrictionBatch, std::vector<FrictionResult>*) = nullptr;

  template <class T> void impact(const Batch<T>& in, ImpactResults<T>& out, const RunOptions& opt) const {
    if constexpr (std::is_same_v<T, double>) impact_d(in, out, opt);
    else impact_f(in, out, opt);
  }
  template <class T> void dynamics(const Batch<T>& in, DynamicsResults<T>& out, const RunOptions& opt) const {
    if constexpr (std::is_same_v<T, double>) dynamics_d(in, out, opt);
    else dynamics_f(in, out, opt);
  }
  template <class T>
  void simulate(const sim::BatchArrays<T>& b, const sim::StepParams<T>& p, T dt, int steps, std::size_t scratch) const {
    if (!simulate_d || !simulate_f) throw std::runtime_error("backend cuda: this CUDA backend library has no Simulator");
    if constexpr (std::is_same_v<T, double>) simulate_d(b, p, dt, steps, scratch);
    else simulate_f(b, p, dt, steps, scratch);
  }
  template <class T>
  void simulate_pd(const sim::BatchArrays<T>& b, const sim::StepParams<T>& p, const sim::PdArrays<T>& pd, T dt,
                   int frame_skip, std::size_t scratch) const {
    if (!simulate_pd_d || !simulate_pd_f)
      throw std::runtime_error("backend cuda: this CUDA backend library has no PD-tracked step");
    if constexpr (std::is_same_v<T, double>) simulate_pd_d(b, p, pd, dt, frame_skip, scratch);
    else simulate_pd_f(b, p, pd, dt, frame_skip, scratch);
  }
  template <class T> std::vector<ImpactResult> friction_impact(FrictionBatch b, std::vector<FrictionResult>* info) const {
    if constexpr (std::is_same_v<T, double>) return friction_impact_d(b, info);
    else return friction_impact_f(b, info);
  }
  template <class T> std::vector<DynamicsResult> friction_dynamics(FrictionBatch b, std::vector<FrictionResult>* info) const {
    if constexpr (std::is_same_v<T, double>) return friction_dynamics_d(b, info);
    else return friction_dynamics_f(b, info);
  }
};

// Bumped whenever CudaBackend changes.
inline constexpr int kCudaBackendAbi = 4;
// The C symbol libobliq_cuda.so exports: const CudaBackend* obliq_cuda_backend_v1().
inline constexpr const char* kCudaBackendSymbol = "obliq_cuda_backend_v1";

// The loaded backend, with a device present. Throws std::runtime_error("backend cuda: ...")
// saying why not: the build has no CUDA backend, its library cannot be loaded, or no device.
const CudaBackend& cuda_backend();

}  // namespace obliq::cpu

// src/cpu/cuda_backend.hpp: the CUDA backend as the host library sees it, a table of entry
// points that the separate library libobliq_cuda.so exports (cuda/backend_table.cpp). The host
// library opens that library with dlopen the first time a caller asks for Backend::cuda, so a
// CPU run never loads the CUDA runtime.
#pragma once

#include <cstddef>
#include <memory>
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

// A Simulator's batch kept in the backend's memory between calls (obliq::DeviceSimulator,
// include/obliq/device_simulator.hpp; cuda/sim_resident.hpp): systems, state and controls copied
// in once, every step launched on that copy, the state copied out only when asked. Each call
// returns when its work is done (the device synchronized).
template <class T> class ResidentSimulation {
 public:
  virtual ~ResidentSimulation() = default;
  // The copy's arrays, pointers into the backend's memory (the Simulator's layout, u count x nv).
  virtual const sim::BatchArrays<T>& arrays() const = 0;
  // `steps` steps of every scenario with the torques of the copy's u.
  virtual void step(const sim::StepParams<T>& p, T dt, int steps) = 0;
  // Simulator::step_pd on the copy: pd's targets, hold flags and effort in the backend's memory
  // (any strides), its index lists on the host.
  virtual void step_pd(const sim::StepParams<T>& p, const sim::PdArrays<T>& pd, T dt, int frame_skip) = 0;
  // The host batch's state and controls (not its systems) into the copy, or the copy's out.
  virtual void upload(const sim::BatchArrays<T>& host) = 0;
  virtual void download(const sim::BatchArrays<T>& host) = 0;
  // Where the memory is, as DLPack names it: device type (2 CUDA; 1 CPU: an emulation's host
  // memory) and device number.
  int dlpack_device_type = 2;
  int device_id = 0;
};

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
  // A batch resident on the device (scratch_bytes 0: the default).
  std::unique_ptr<ResidentSimulation<double>> (*resident_d)(const sim::BatchArrays<double>&, std::size_t scratch_bytes) =
      nullptr;
  std::unique_ptr<ResidentSimulation<float>> (*resident_f)(const sim::BatchArrays<float>&, std::size_t scratch_bytes) =
      nullptr;
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
  template <class T>
  std::unique_ptr<ResidentSimulation<T>> resident(const sim::BatchArrays<T>& b, std::size_t scratch) const {
    if (!resident_d || !resident_f)
      throw std::runtime_error("backend cuda: this CUDA backend library cannot keep a Simulator on the device");
    if constexpr (std::is_same_v<T, double>) return resident_d(b, scratch);
    else return resident_f(b, scratch);
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
inline constexpr int kCudaBackendAbi = 5;
// The C symbol libobliq_cuda.so exports: const CudaBackend* obliq_cuda_backend_v1().
inline constexpr const char* kCudaBackendSymbol = "obliq_cuda_backend_v1";

// The loaded backend, with a device present. Throws std::runtime_error("backend cuda: ...")
// saying why not: the build has no CUDA backend, its library cannot be loaded, or no device.
const CudaBackend& cuda_backend();

}  // namespace obliq::cpu

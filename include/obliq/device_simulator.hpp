// obliq/device_simulator.hpp: a Simulator's batch kept on the GPU between calls (the cuda
// backend; docs/cuda.md "The state on the device"). A DeviceSimulator copies a host Simulator's
// systems, state and controls to the device once; each step() or step_pd() then runs the
// Simulator's kernels on that copy with nothing copied in or out, and its arrays (device
// pointers, the Simulator's layout: row s = scenario s) are there for the caller to read and
// write in place: observations and rewards computed on the device, a torch tensor of targets
// handed over through DLPack. upload() and download() move the state and controls between the
// host Simulator and the copy when the caller asks (energies(), a checkpoint).
//
// Results are the host Simulator's, bit for bit (the same per-scenario steppers); each call
// returns when the device is done. A per-scenario failure is that scenario's status in the copy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "obliq/cuda.hpp"
#include "obliq/sim/batch_views.hpp"
#include "obliq/sim/pd_tracking.hpp"
#include "obliq/simulator.hpp"

namespace obliq {

namespace cpu {
template <class T> class ResidentSimulation;
}

template <class T> class DeviceSimulator {
 public:
  // `host`'s systems, state and controls copied to the device. `host` must outlive this object
  // (its options are read by every call: integrator, law, tolerances, scratch). Throws
  // std::runtime_error("backend cuda: ...") when this build has no CUDA backend or no device is
  // found, whatever host.options.backend is.
  explicit DeviceSimulator(Simulator<T>& host);
  ~DeviceSimulator();
  DeviceSimulator(DeviceSimulator&&) noexcept;
  DeviceSimulator& operator=(DeviceSimulator&&) noexcept;

  std::size_t count() const;

  // Every scenario advances `steps` times by dt (Simulator::step) with the torques of the
  // device's u.
  void step(T dt, int steps = 1);
  // Simulator::step_pd on the device: target (count x n), hold (count; null: none) and effort
  // (count; null: not written) in device memory at the given strides, read and written in place.
  // The same checks and errors as Simulator::step_pd (on pointers and strides; a NaN target is
  // the scenario's status, as on the host).
  void step_pd(T dt, int frame_skip, const PdTracking& pd, cuda::DeviceArray<const T> target,
               cuda::DeviceArray<const std::uint8_t> hold = {}, cuda::DeviceArray<T> effort = {});

  // The host Simulator's state and controls (q, v, t, active, impacts, lcp_solves, status,
  // last_impact_time, last_impact_v; u, e, mu, gravity) into the device copy, or the copy's back.
  void upload();
  void download();

  // The device copy's arrays: state and controls (u count x nv, row-major) as device pointers,
  // with the systems; written by step() and step_pd().
  const sim::BatchArrays<T>& arrays() const;
  // Where they are, as DLPack names it: device type 2 (CUDA) and the device's number; a CPU
  // emulation of the backend (tests) says 1 (CPU).
  int dlpack_device_type() const;
  int device_id() const;

 private:
  Simulator<T>* host_ = nullptr;
  std::unique_ptr<cpu::ResidentSimulation<T>> resident_;
};

extern template class DeviceSimulator<double>;
extern template class DeviceSimulator<float>;

}  // namespace obliq

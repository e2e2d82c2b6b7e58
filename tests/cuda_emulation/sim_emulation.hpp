// tests/cuda_emulation/sim_emulation.hpp: the cuda backend's Simulator step and PD-tracked step
// on the host: what cuda/sim_dispatch.cpp and cuda/sim_kernels.cuh do (the kernels of the batch's
// configuration, cuda/sim_glue.hpp's and cuda/sim_pd.hpp's sequences), with host vectors as the
// memory and, in place of each kernel launch, a host loop over that kernel's body
// (cuda/sim_body.hpp's, cuda/sim_pd.hpp's actuators), scenarios in reverse order: the launches
// of a chunk in sim_chunk_launches' order (Moreau-Jean: per step, each phase over the whole
// chunk before the next; event-driven: per step begin, then rounds of control and services).
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <memory>

#include "cpu/cuda_backend.hpp"
#include "host_memory.hpp"
#include "sim_glue.hpp"
#include "sim_pd.hpp"
#include "sim_resident.hpp"

namespace obliq::emulation {

// Called after each phase launch of a chunk: (the copy d, s0, n, scratch, ws, phase: a
// sim::MoreauJeanPhase's or sim::EventDrivenPhase's value, `event_driven` says which).
template <class T>
using AfterPhase = std::function<void(const sim::BatchArrays<T>& d, std::size_t s0, std::size_t n, T* scratch,
                                      std::size_t ws, int phase, bool event_driven)>;

// What StepLaunch (cuda/sim_kernels.cuh) launches for one chunk, `steps` steps, as host loops;
// the round's flag of the event-driven rounds is a host word.
template <class T, cuda::detail::SimSystems K, sim::Integrator I, bool Frictional>
void emulated_chunk(const sim::BatchArrays<T>& d, const sim::StepParams<T>& p, T dt, int steps, std::size_t s0,
                    std::size_t n, T* scratch, std::size_t ws, const AfterPhase<T>& after_phase = {}) {
  namespace cu = obliq::cuda::detail;
  unsigned requested = 0;
  cu::sim_chunk_launches<I, Frictional>(
      steps,
      [&]<auto P>() {
        for (std::size_t i = n; i-- > 0;) cu::sim_phase_body<T, K, Frictional, P>(d, p, dt, s0, n, i, scratch, ws, &requested);
        if (after_phase) after_phase(d, s0, n, scratch, ws, int(P), I == sim::Integrator::event_driven);
      },
      [&] {
        const bool any = requested != 0;
        requested = 0;
        return any;
      });
}

// One step of batch h with scratch_bytes of scratch; returns the number of chunks run, and the
// configuration of the body that ran (its template arguments) in `ran` when given; after_phase
// after each phase launch when given.
template <class T>
int emulated_simulate(const sim::BatchArrays<T>& h, const sim::StepParams<T>& p, T dt, int steps,
                      std::size_t scratch_bytes, cuda::detail::SimConfiguration* ran = nullptr,
                      const AfterPhase<T>& after_phase = {}) {
  namespace cu = obliq::cuda::detail;
  HostMemory<T> mem;
  int chunks = 0;
  cu::with_configuration(cu::sim_configuration(h, p), [&]<cu::SimSystems K, sim::Integrator I, bool Frictional>() {
    if (ran != nullptr) *ran = cu::SimConfiguration{K, I, Frictional};
    cu::run_simulation(h, p, scratch_bytes, mem,
                       [&](const sim::BatchArrays<T>& d, std::size_t s0, std::size_t n, T* scratch, std::size_t ws) {
                         ++chunks;
                         emulated_chunk<T, K, I, Frictional>(d, p, dt, steps, s0, n, scratch, ws, after_phase);
                       });
  });
  return chunks;
}

// One step_pd of batch h (the actuators pd, host arrays) with scratch_bytes of scratch; returns
// the number of chunk launches (chunks times frame_skip).
template <class T>
int emulated_simulate_pd(const sim::BatchArrays<T>& h, const sim::StepParams<T>& p, const sim::PdArrays<T>& pd, T dt,
                         int frame_skip, std::size_t scratch_bytes) {
  namespace cu = obliq::cuda::detail;
  HostMemory<T> mem;
  int launches = 0;
  cu::with_configuration(cu::sim_configuration(h, p), [&]<cu::SimSystems K, sim::Integrator I, bool Frictional>() {
    cu::run_pd_simulation(
        h, p, pd, frame_skip, scratch_bytes, mem,
        [&](const sim::BatchArrays<T>& d, const cu::PdDeviceArrays<T>& a) {
          for (std::size_t i = d.count; i-- > 0;) cu::pd_actuate_body(d, a, i);
        },
        [&](const sim::BatchArrays<T>& d, std::size_t s0, std::size_t n, T* scratch, std::size_t ws) {
          ++launches;
          emulated_chunk<T, K, I, Frictional>(d, p, dt, 1, s0, n, scratch, ws);
        });
  });
  return launches;
}

// The backend table's resident batch (cuda/sim_dispatch.cpp's DeviceResident) in host memory:
// cuda/sim_resident.hpp's ResidentBatch with, in place of each launch, a host loop over the
// kernel's body (the actuators', the effort's, emulated_chunk). Its memory says DLPack CPU.
// Scratch: 5 scenarios' worth of the larger of the two integrators' (so that the chunk loops run
// several times), unless the caller gives some.
template <class T> class EmulatedResident final : public cpu::ResidentSimulation<T> {
 public:
  EmulatedResident(const sim::BatchArrays<T>& h, std::size_t scratch_bytes)
      : batch_(h, scratch_bytes != 0 ? scratch_bytes : default_scratch(h)) {
    this->dlpack_device_type = 1;
  }
  const sim::BatchArrays<T>& arrays() const override { return batch_.arrays(); }
  void step(const sim::StepParams<T>& p, T dt, int steps) override {
    namespace cu = obliq::cuda::detail;
    ++steps_run;
    cu::with_configuration(batch_.configuration(p), [&]<cu::SimSystems K, sim::Integrator I, bool Frictional>() {
      batch_.step(p, [&](const sim::BatchArrays<T>& d, std::size_t s0, std::size_t n, T* scratch, std::size_t ws) {
        emulated_chunk<T, K, I, Frictional>(d, p, dt, steps, s0, n, scratch, ws);
      });
    });
  }
  void step_pd(const sim::StepParams<T>& p, const sim::PdArrays<T>& pd, T dt, int frame_skip) override {
    namespace cu = obliq::cuda::detail;
    ++steps_run;
    cu::with_configuration(batch_.configuration(p), [&]<cu::SimSystems K, sim::Integrator I, bool Frictional>() {
      batch_.step_pd(
          p, pd, frame_skip,
          [](const sim::BatchArrays<T>& d, const cu::PdDeviceArrays<T>& a) {
            for (std::size_t i = d.count; i-- > 0;) cu::pd_actuate_body(d, a, i);
          },
          [&](std::size_t count, const cu::PdDeviceArrays<T>& a) {
            for (std::size_t i = count; i-- > 0;) cu::pd_effort_body(count, a, frame_skip, i);
          },
          [&](const sim::BatchArrays<T>& d, std::size_t s0, std::size_t n, T* scratch, std::size_t ws) {
            emulated_chunk<T, K, I, Frictional>(d, p, dt, 1, s0, n, scratch, ws);
          });
    });
  }
  void upload(const sim::BatchArrays<T>& h) override { batch_.upload(h); }
  void download(const sim::BatchArrays<T>& h) override { batch_.download(h); }

  long steps_run = 0;  // step() and step_pd() calls

 private:
  static std::size_t default_scratch(const sim::BatchArrays<T>& h) {
    namespace cu = obliq::cuda::detail;
    sim::StepParams<T> mj, ed;
    ed.integrator = sim::Integrator::event_driven;
    const bool fr = h.state.m_u > 0;
    return 5 * std::max(cu::sim_scratch(h, mj, fr), cu::sim_scratch(h, ed, fr)) * sizeof(T);
  }
  cuda::detail::ResidentBatch<T, HostMemory<T>> batch_;
};

}  // namespace obliq::emulation

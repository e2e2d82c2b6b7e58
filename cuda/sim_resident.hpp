// cuda/sim_resident.hpp: a Simulator's batch resident in a memory between calls (the backend's
// ResidentSimulation, src/cpu/cuda_backend.hpp; obliq::DeviceSimulator): the systems, state and
// controls mirrored once (cuda/sim_glue.hpp's mirror), then every step() and step_pd() runs the
// same chunks and kernels as the per-call sequences (run_simulation, cuda/sim_pd.hpp's
// pd_rounds) on that copy, with no copy in or out; upload / download move the state and controls
// only when the caller asks. step_pd reads its targets and hold flags and writes its effort in
// the same memory, at the caller's strides.
//
// The copy always runs the frictional configuration when it has contacts: its mu lives in the
// memory and the caller may change it between calls without the host seeing it; the frictional
// kernels take each scenario's frictionless branch where its mu is all 0 (sim::frictional), so a
// frictionless batch gets the cpu's bits either way.
//
// Host code, no CUDA headers: cuda/sim_kernels.cuh runs it with DeviceMemory and kernel launches,
// tests/cuda_emulation with host memory and host loops over the same bodies.
// Mem (besides cuda/sim_glue.hpp's): void zero(U* copy, std::size_t n)   n zero elements
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "sim_glue.hpp"
#include "sim_pd.hpp"

namespace obliq::cuda::detail {

template <class T, class Mem> class ResidentBatch {
 public:
  ResidentBatch(const sim::BatchArrays<T>& h, std::size_t scratch_bytes) : scratch_bytes_(scratch_bytes) {
    d_ = mirror(h, mem_);
    if (h.count > 0) effort_sum_ = mem_.scratch(h.count);
    const int nv = h.state.nv;
    if (nv > 0) {  // the actuators' index lists: at most nv each (distinct velocity indices)
      const std::vector<int> none(std::size_t(nv), 0);
      v_index_ = mem_.up(none.data(), none.size());
      q_index_ = mem_.up(none.data(), none.size());
    }
  }
  ResidentBatch(const ResidentBatch&) = delete;
  ResidentBatch& operator=(const ResidentBatch&) = delete;

  const sim::BatchArrays<T>& arrays() const { return d_; }

  // The configuration whose kernels step the copy (its integrator from p).
  SimConfiguration configuration(const sim::StepParams<T>& p) const {
    return {d_.is_model ? SimSystems::model : SimSystems::raw, p.integrator, d_.state.m_u > 0};
  }

  void upload(const sim::BatchArrays<T>& h) { upload_state_and_controls(h, d_, mem_); }
  void download(const sim::BatchArrays<T>& h) { download_state_and_controls(h, d_, mem_); }

  // One step() of the copy: launch(d, s0, chunk, scratch, ws) over the chunks.
  template <class Launch> void step(const sim::StepParams<T>& p, Launch&& launch) {
    if (d_.count == 0) return;
    const auto [ws, scratch] = scratch_for(p);
    for_each_chunk<T>(d_.count, ws, scratch_elements_ * sizeof(T),
                      [&](std::size_t s0, std::size_t n) { launch(d_, s0, n, scratch, ws); });
  }

  // One step_pd() of the copy: pd's arrays in this memory (index lists on the host); the running
  // sums zeroed, pd_rounds, then effort(count, a) writes each scenario's effort where pd has one.
  template <class Actuate, class Effort, class Launch>
  void step_pd(const sim::StepParams<T>& p, const sim::PdArrays<T>& pd, int frame_skip, Actuate&& actuate,
               Effort&& effort, Launch&& launch) {
    if (d_.count == 0) return;
    PdDeviceArrays<T> a;
    a.pd = pd;
    a.pd.gains.v_index = index_list(pd.gains.v_index, pd.gains.n, v_index_, v_cached_);
    a.pd.gains.q_index = index_list(pd.gains.q_index, pd.gains.n, q_index_, q_cached_);
    a.effort_sum = effort_sum_;
    mem_.zero(effort_sum_, d_.count);
    const auto [ws, scratch] = scratch_for(p);
    pd_rounds(d_, a, frame_skip, ws, scratch_elements_ * sizeof(T), scratch, actuate, launch);
    if (pd.effort != nullptr) effort(d_.count, a);
  }

 private:
  // A step's scratch with p's steppers: ws elements per scenario (sim_scratch) and the buffer,
  // the one taken at the first call, or a larger one when p asks for more per scenario than it
  // holds.
  std::pair<std::size_t, T*> scratch_for(const sim::StepParams<T>& p) {
    const std::size_t ws = sim_scratch(d_, p, configuration(p).frictional);
    if (scratch_elements_ < ws) scratch_ = chunk_scratch<T>(d_.count, ws, scratch_bytes_, mem_, &scratch_elements_);
    return {ws, scratch_};
  }

  // An index list in this memory: copied in only when it differs from the last one.
  const int* index_list(const int* host, int n, int* copy, std::vector<int>& cached) {
    if (n > 0 && !std::equal(host, host + n, cached.begin(), cached.end())) {
      mem_.to(copy, host, std::size_t(n));
      cached.assign(host, host + n);
    }
    return copy;
  }

  Mem mem_;
  sim::BatchArrays<T> d_;
  std::size_t scratch_bytes_ = 0, scratch_elements_ = 0;
  T* scratch_ = nullptr;
  T* effort_sum_ = nullptr;
  int* v_index_ = nullptr;
  int* q_index_ = nullptr;
  std::vector<int> v_cached_, q_cached_;
};

}  // namespace obliq::cuda::detail

// cuda/sim_pd.hpp: the Simulator's PD-tracked step (Simulator::step_pd, an environment's step;
// include/obliq/sim/pd_tracking.hpp) on the device: frame_skip rounds of the actuators of every
// scenario (one thread each: pd_actuate, (PD1) into the torques, (PD2)'s sum advanced) and then
// one step of every scenario (the kernel of the batch's configuration, cuda/sim_body.hpp, with
// those torques). The cpu runs the same two per-scenario calls in the same order, scenario by
// scenario (pd_tracked_advance), so the states and the effort agree bit for bit.
//
// The call sequence is a memory object's, as cuda/sim_glue.hpp's run_simulation: the batch and
// the actuators' arrays copied in (targets and hold flags gathered per scenario), the rounds, the
// state and the effort copied back. cuda/sim_kernels.cuh runs it with device memory and two
// launches per round; tests/cuda_emulation with host vectors and host loops. Host code and
// OBLIQ_HD bodies, no CUDA headers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "obliq/sim/pd_tracking.hpp"
#include "sim_glue.hpp"

namespace obliq::cuda::detail {

// The actuators' arrays in device memory: the gains with their index lists there, targets, hold
// flags and effort as the caller's strided arrays (sim::PdArrays: entry j of scenario s at
// data[s ss + j es]; hold null: none held; effort null: not written on the device), and (PD2)'s
// running sum per scenario.
template <class T> struct PdDeviceArrays {
  sim::PdArrays<T> pd;
  T* effort_sum = nullptr;
};

// What one thread of the actuator kernel does: scenario i's torques (its row of the copy's
// controls, count x nv contiguous: mirror()) and running sum.
template <class T> OBLIQ_HD void pd_actuate_body(const sim::BatchArrays<T>& d, const PdDeviceArrays<T>& a, std::size_t i) {
  if (i >= d.count) return;
  const int nv = d.state.nv;
  // The copy's own torques buffer (mirror(..., Torques::written_on_device)), written here before
  // each step: every entry (pd_torques zeroes the row first).
  const VecView<T> u{const_cast<T*>(d.controls.u) + std::ptrdiff_t(i) * nv, nv, 1};
  sim::pd_actuate(a.pd.gains, sim::pd_target_at(a.pd, i), sim::pd_hold_at(a.pd, i), sim::state_at(d.state, i), u,
                  a.effort_sum[i]);
}

// What one thread of the effort kernel does after the rounds: scenario i's effort (PD2) from its
// running sum, where the arrays carry an effort.
template <class T>
OBLIQ_HD void pd_effort_body(std::size_t count, const PdDeviceArrays<T>& a, int frame_skip, std::size_t i) {
  if (i >= count || a.pd.effort == nullptr) return;
  *sim::pd_effort_at(a.pd, i) = sim::pd_mean_effort(a.effort_sum[i], frame_skip);
}

// The actuators' host arrays copied into `mem` (targets and hold flags gathered per scenario,
// count x n and count contiguous; the effort left to the host: null), the running sums zero.
template <class T, class Mem> PdDeviceArrays<T> mirror_pd(std::size_t count, const sim::PdArrays<T>& h, Mem& mem) {
  PdDeviceArrays<T> d;
  const int n = h.gains.n;
  d.pd.gains = h.gains;
  d.pd.gains.v_index = mem.up(h.gains.v_index, std::size_t(n));
  d.pd.gains.q_index = mem.up(h.gains.q_index, std::size_t(n));
  std::vector<T> target(count * std::size_t(n));
  for (std::size_t s = 0; s < count; ++s) {
    const VecView<const T> row = sim::pd_target_at(h, s);
    for (int j = 0; j < n; ++j) target[s * std::size_t(n) + std::size_t(j)] = row[j];
  }
  d.pd.target = mem.up(target.data(), target.size());
  d.pd.target_ss = n;
  d.pd.target_es = 1;
  if (h.hold != nullptr) {
    std::vector<std::uint8_t> hold(count);
    for (std::size_t s = 0; s < count; ++s) hold[s] = sim::pd_hold_at(h, s) ? 1 : 0;
    d.pd.hold = mem.up(hold.data(), count);
    d.pd.hold_ss = 1;
  }
  const std::vector<T> zero(count, T(0));
  d.effort_sum = mem.up(zero.data(), count);
  return d;
}

// The rounds of a step_pd() over a copy d already in memory: frame_skip times actuate(d, a)
// (every scenario's torques) and launch(d, s0, chunk, scratch, ws) over the chunks (one step
// each). The per-call sequence below and the resident one (cuda/sim_resident.hpp) both run it.
template <class T, class Actuate, class Launch>
void pd_rounds(const sim::BatchArrays<T>& d, const PdDeviceArrays<T>& a, int frame_skip, std::size_t ws,
               std::size_t scratch_bytes, T* scratch, Actuate&& actuate, Launch&& launch) {
  for (int k = 0; k < frame_skip; ++k) {
    actuate(d, a);
    for_each_chunk<T>(d.count, ws, scratch_bytes, [&](std::size_t s0, std::size_t n) { launch(d, s0, n, scratch, ws); });
  }
}

// One step_pd() of the whole batch (the host torques h.controls.u are not read): the batch and
// the actuators' arrays copied in, pd_rounds, then the state and (when asked) each scenario's
// effort (PD2) back in the host arrays.
template <class T, class Mem, class Actuate, class Launch>
void run_pd_simulation(const sim::BatchArrays<T>& h, const sim::StepParams<T>& p, const sim::PdArrays<T>& pd,
                       int frame_skip, std::size_t scratch_bytes, Mem& mem, Actuate&& actuate, Launch&& launch) {
  if (h.count == 0) return;
  const sim::BatchArrays<T> d = mirror(h, mem, Torques::written_on_device);  // the host u is not read
  const PdDeviceArrays<T> a = mirror_pd(h.count, pd, mem);
  const std::size_t ws = sim_scratch(d, p, any_friction(h));
  T* scratch = chunk_scratch<T>(h.count, ws, scratch_bytes, mem);
  pd_rounds(d, a, frame_skip, ws, scratch_bytes, scratch, actuate, launch);
  download_state(h, d, mem);
  if (pd.effort == nullptr) return;
  std::vector<T> sum(h.count);
  mem.down(sum.data(), a.effort_sum, h.count);
  for (std::size_t s = 0; s < h.count; ++s) *sim::pd_effort_at(pd, s) = sim::pd_mean_effort(sum[s], frame_skip);
}

}  // namespace obliq::cuda::detail

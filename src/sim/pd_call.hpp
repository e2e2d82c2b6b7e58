// src/sim/pd_call.hpp: a step_pd call's arguments checked on the host and laid out as the
// per-scenario code reads them (sim::PdArrays), for Simulator::step_pd (host arrays) and
// DeviceSimulator::step_pd (arrays in the device's memory: only their pointers and strides are
// looked at here). std::invalid_argument naming what is wrong; nothing is stepped then.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "obliq/sim/pd_tracking.hpp"
#include "obliq/simulator.hpp"

namespace obliq::sim {

inline void check_pd_tracking(const PdTracking& pd, int frame_skip, int nq, int nv) {
  const auto fail = [](const std::string& what) { throw std::invalid_argument("Simulator::step_pd: " + what); };
  if (frame_skip < 1) fail("frame_skip must be >= 1, not " + std::to_string(frame_skip));
  if (pd.v_index.size() != pd.q_index.size())
    fail("v_index and q_index must have the same length, not " + std::to_string(pd.v_index.size()) + " and " +
         std::to_string(pd.q_index.size()));
  std::vector<bool> seen(std::size_t(nv), false);
  for (std::size_t j = 0; j < pd.v_index.size(); ++j) {
    const int a = pd.v_index[j], c = pd.q_index[j];
    if (a < 0 || a >= nv)
      fail("v_index[" + std::to_string(j) + "] = " + std::to_string(a) + " is outside [0, nv) = [0, " +
           std::to_string(nv) + ")");
    if (c < 0 || c >= nq)
      fail("q_index[" + std::to_string(j) + "] = " + std::to_string(c) + " is outside [0, nq) = [0, " +
           std::to_string(nq) + ")");
    if (seen[std::size_t(a)]) fail("v_index[" + std::to_string(j) + "] = " + std::to_string(a) + " is repeated");
    seen[std::size_t(a)] = true;
  }
  if (!std::isfinite(pd.kp) || !std::isfinite(pd.kd))
    fail("kp and kd must be finite, not " + std::to_string(pd.kp) + " and " + std::to_string(pd.kd));
  if (!(pd.max_torque >= 0)) fail("max_torque must be >= 0, not " + std::to_string(pd.max_torque));
}

// The call's actuators, targets, hold flags and effort (Array: HostArray or cuda::DeviceArray,
// the same fields), checked: pd against nq and nv, a target with data, an effort that does not
// write every scenario into one place. The index lists point into pd.
template <class T, class Target, class Hold, class Effort>
PdArrays<T> pd_call_arrays(const PdTracking& pd, int frame_skip, std::size_t count, int nq, int nv, Target target,
                           Hold hold, Effort effort) {
  check_pd_tracking(pd, frame_skip, nq, nv);
  const int n = int(pd.v_index.size());
  if (target.data == nullptr && count > 0 && n > 0)
    throw std::invalid_argument("Simulator::step_pd: the targets array has no data");
  if (effort.data != nullptr && effort.scenario_stride == 0 && count > 1)
    throw std::invalid_argument("Simulator::step_pd: effort is an output: its scenario_stride must not be 0");
  PdArrays<T> a;
  a.gains = {n, pd.v_index.data(), pd.q_index.data(), T(pd.kp), T(pd.kd), T(pd.max_torque)};
  a.target = target.data;
  a.target_ss = target.scenario_stride;
  a.target_es = target.element_stride;
  a.hold = hold.data;
  a.hold_ss = hold.scenario_stride;
  a.effort = effort.data;
  a.effort_ss = effort.scenario_stride;
  return a;
}

}  // namespace obliq::sim

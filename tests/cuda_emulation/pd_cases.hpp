// tests/cuda_emulation/pd_cases.hpp: what the emulated step_pd tests share (simulator_pd_test.cpp,
// device_simulator_test.cpp): the actuators of the model scenes and of the raw bar, the options
// of a case on one thread, and a bitwise comparison.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "obliq/simulator.hpp"
#include "support/sim_scenes.hpp"

namespace obliq::test {

// A model's actuators: every revolute joint (a free base gets none; biped5's torso pitch, a
// revolute joint of its planar base, gets one: a generalized force, fine for these comparisons).
inline PdTracking joint_actuators(const model::Model& m) { return revolute_actuators(m, 8, 0.2, 6); }

// The raw bar's actuator: its pitch (v 2, q 2).
inline PdTracking pitch_actuator() {
  PdTracking pd;
  pd.v_index = {2};
  pd.q_index = {2};
  pd.kp = 3;
  pd.kd = 0.1;
  pd.max_torque = 2;
  return pd;
}

inline SimOptions options_on(const Case& c, Backend backend) {
  SimOptions o = options_of(c);
  o.threads = 1;
  o.backend = backend;
  return o;
}

template <class T> bool same_bits(const T* a, const T* b, std::size_t n) { return std::memcmp(a, b, n * sizeof(T)) == 0; }

// For every model scene and case, twins of 7 dropped copies (chunks of 5 and 2 in the
// emulation), the first on the cpu backend, the second on `second`, handed to run(cpu, twin, pd,
// dt, frame_skip, what), which returns the contacts the cpu counted (> 0 expected: a comparison
// where nothing landed shows little).
template <class T, class Run> void for_each_model_pair(Backend second, Run&& run) {
  for (const char* name : {"quadruped", "biped5", "hopper", "cradle"}) {
    const model::Model m = scene_model(name);
    const PdTracking pd = joint_actuators(m);
    ASSERT_FALSE(pd.v_index.empty()) << name;
    for (const Case& c : kCases) {
      const bool friction = std::string(c.friction) != "none";
      Simulator<T> cpu = dropped<T>(m, 7, options_on(c, Backend::cpu), friction);
      Simulator<T> twin = dropped<T>(m, 7, options_on(c, second), friction);
      const bool mj = c.integrator == sim::Integrator::moreau_jean;
      const std::string what = std::string(name) + " " + sim::integrator_name(c.integrator) + " " + c.friction;
      const std::int64_t hits = run(cpu, twin, pd, T(mj ? 2e-3 : 5e-3), mj ? 4 : 2, what);
      EXPECT_GT(hits, 0) << what << ": nothing landed, the comparison shows little";
    }
  }
}

// The same with the raw bars (7 copies, the pitch actuator, dt 5e-3, 3 sub-steps).
template <class T, class Run> void for_each_raw_pair(Backend second, Run&& run) {
  for (const Case& c : kCases) {
    const bool friction = std::string(c.friction) != "none";
    Simulator<T> cpu = raw_bars<T>(7, options_on(c, Backend::cpu), friction);
    Simulator<T> twin = raw_bars<T>(7, options_on(c, second), friction);
    const std::string what = std::string("raw bar ") + sim::integrator_name(c.integrator) + " " + c.friction;
    EXPECT_GT(run(cpu, twin, pitch_actuator(), T(5e-3), 3, what), 0) << what;
  }
}

}  // namespace obliq::test

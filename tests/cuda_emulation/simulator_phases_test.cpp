// tests/cuda_emulation/simulator_phases_test.cpp: Moreau-Jean's step and the event-driven
// advance as the cuda backend runs them. Moreau-Jean: one kernel per phase (evaluate, contact solve, finish; with friction the contact solve as its
// five stages, setup, frictionless, Newton, other solvers, finish: cuda/sim_body.hpp's
// sim_phase_body in sim_chunk_launches' order), emulated on the host: each phase over the whole
// chunk before the next, chunks smaller than the batch. The phases may hand each other only the
// scenario's frames (include/obliq/sim/moreau_jean.hpp: the step's frame, and between the contact
// solve's stages its own and the impact's, moreau_jean_handoff_size): between phases the rest of
// every scenario's arena is filled with NaN, and the state must still be the cpu
// Simulator's bit for bit, in every Moreau-Jean configuration (model or raw systems, with or
// without friction), double and float, with scenarios that fail in the evaluate phase (a NaN
// configuration or velocity) and in the contact solve (e > 1, mu < 0) beside good ones. The
// harness checks itself: the same poison reaching one element into the frame is seen.
// Event-driven: per advance a begin kernel, then rounds of the control kernel and the three
// services (acceleration, impact, projection; include/obliq/sim/event_driven.hpp: with friction
// the acceleration and the impact in stages, and the frictionless core's contact law apart,
// prepare passes, one contact-law kernel, conclude passes) until no control requests a service,
// with the same poison beyond what the scenario's frame says its parts hand each other after
// every launch, against the cpu Simulator bit for bit, in every event-driven configuration.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "obliq/sim/batch_views.hpp"
#include "obliq/simulator.hpp"
#include "sim_emulation.hpp"
#include "sim_glue.hpp"
#include "support/sim_scenes.hpp"

namespace {

using obliq::SimOptions;
using obliq::Simulator;
using obliq::Status;
using obliq::sim::Integrator;
using obliq::sim::EventDrivenPhase;
using obliq::sim::MoreauJeanPhase;
namespace cu = obliq::cuda::detail;
namespace sim = obliq::sim;

// The elements of scenario s's arena (`arena`, its ws elements) that phase `after` hands the
// later ones, as its phases carve them (with the tangent rows when it is frictional); the step's
// frame alone when `frame_only`. Event-driven: what the scenario's frame says its parts hand
// each other (event_driven_handoff: the advance's frame, a staged service's frames while it is
// requested, everything before a pending contact law's mark).
template <class T>
std::size_t frame_of(const sim::BatchArrays<T>& d, std::size_t s, int after, bool event_driven, bool frame_only,
                     T* arena, std::size_t ws) {
  const sim::ControlView<T> c = sim::controls_at(d.controls, s);
  auto size = [&](const auto& sys) {
    const int dim = sim::frictional(c, sys.m_u()) ? sys.dim() : 0;
    if (event_driven)
      return frame_only ? sim::event_driven_frame_size<T>(sys.nq(), sys.nv(), sys.m_b(), sys.m_u(), dim)
                        : sim::event_driven_handoff(sys, dim, obliq::Arena<T>{arena, ws});
    return frame_only ? sim::moreau_jean_frame_size<T>(sys.nv(), sys.m_b(), sys.m_u(), dim)
                      : sim::moreau_jean_handoff_size<T>(sys.nv(), sys.m_b(), sys.m_u(), dim, MoreauJeanPhase(after));
  };
  return d.is_model ? size(sim::model_system_at(d.model, d.gravity, s)) : size(sim::linear_system_at(d.raw, s));
}

// After phase `when` (every phase when `every`), scenario arenas from element frame - reach on
// are filled with NaN: reach 0 leaves what the phase hands on alone, reach 1 poisons its last
// element; with frame_only the frame is the step's alone (not the contact solve's stages').
template <class T> struct Poison {
  std::size_t reach = 0;
  bool every = true;
  bool frame_only = false;
  int when = int(MoreauJeanPhase::evaluate);  // a MoreauJeanPhase's or EventDrivenPhase's value
  int calls = 0;       // phase launches seen
  std::size_t filled = 0;  // elements poisoned
  void operator()(const sim::BatchArrays<T>& d, std::size_t s0, std::size_t n, T* scratch, std::size_t ws, int phase,
                  bool event_driven) {
    ++calls;
    if (!every && phase != when) return;
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t frame = frame_of(d, s0 + i, phase, event_driven, frame_only, scratch + i * ws, ws);
      EXPECT_LE(frame, ws);
      for (std::size_t k = frame - reach; k < ws; ++k, ++filled)
        scratch[i * ws + k] = std::numeric_limits<T>::quiet_NaN();  // arena stride 1: scenario i's slice
    }
  }
};

template <class T> bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(T) * a.size()) == 0;
}
template <class M> bool same_bits(const M& a, const M& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(*a.data()) * std::size_t(a.size())) == 0;
}

// The whole state of two Simulators, bit for bit.
template <class T> bool same_state(const Simulator<T>& a, const Simulator<T>& b) {
  return same_bits(a.q, b.q) && same_bits(a.v, b.v) && same_bits(a.t, b.t) &&
         same_bits(a.last_impact_time, b.last_impact_time) && same_bits(a.last_impact_v, b.last_impact_v) &&
         a.active == b.active && a.impacts == b.impacts && a.lcp_solves == b.lcp_solves && a.status == b.status;
}

// One call of `steps` steps of `emu` through the phase kernels' bodies, `per_chunk` scenarios a
// chunk, with `poison` after the phases; returns the chunks run and checks the configuration.
template <class T>
int phased_step(Simulator<T>& emu, T dt, int steps, std::size_t per_chunk, Poison<T>& poison,
                const cu::SimConfiguration& expected) {
  const auto h = emu.arrays(obliq::HostArray<const T>{emu.u.data(), emu.nv(), 1});
  const auto p = emu.step_params();
  const std::size_t ws = cu::sim_scratch(h, p, cu::any_friction(h));
  cu::SimConfiguration ran{};
  const int chunks = obliq::emulation::emulated_simulate<T>(
      h, p, dt, steps, per_chunk * ws * sizeof(T), &ran,
      [&](const sim::BatchArrays<T>& d, std::size_t s0, std::size_t n, T* scratch, std::size_t w, int ph, bool ed) {
        poison(d, s0, n, scratch, w, ph, ed);
      });
  EXPECT_TRUE(ran == expected);
  return chunks;
}

// A batch of one configuration with failing scenarios: built by make(), then scenario 1 broken
// in the evaluate phase (break_evaluate) and scenario 4 in the contact solve (break_solve).
struct Scene {
  std::string name;
  cu::SimConfiguration configuration;
  Status evaluate_failure, solve_failure;
};

template <class T> Simulator<T> make(const Scene& sc, const SimOptions& o) {
  const bool friction = sc.configuration.frictional;
  Simulator<T> sim = sc.configuration.systems == cu::SimSystems::raw ? obliq::test::raw_bars<T>(7, o, friction)
                                                                     : obliq::test::dropped<T>(obliq::test::scene_model(sc.name), 7, o, friction);
  if (sc.configuration.systems == cu::SimSystems::raw) {
    sim.v(1, 1) = std::numeric_limits<T>::quiet_NaN();  // the raw system's evaluate: non_finite
  } else {
    const obliq::model::Model m = obliq::test::scene_model(sc.name);
    sim.q(1, m.idx_q[0] + 3) = std::numeric_limits<T>::quiet_NaN();  // the free base's quaternion
  }
  if (friction)
    sim.mu(4, 0) = T(-0.5);  // the frictional impact's check of mu
  else
    sim.e(4, 0) = T(1.5);  // the impact's check of e
  return sim;
}

const Scene kScenes[] = {
    {"quadruped", {cu::SimSystems::model, Integrator::moreau_jean, false}, Status::bad_quaternion, Status::bad_restitution},
    {"quadruped", {cu::SimSystems::model, Integrator::moreau_jean, true}, Status::bad_quaternion, Status::bad_friction},
    {"hopper", {cu::SimSystems::model, Integrator::moreau_jean, true}, Status::bad_quaternion, Status::bad_friction},
    {"raw bar", {cu::SimSystems::raw, Integrator::moreau_jean, false}, Status::non_finite, Status::bad_restitution},
    {"raw bar", {cu::SimSystems::raw, Integrator::moreau_jean, true}, Status::non_finite, Status::bad_friction},
};

SimOptions options(Integrator i, bool pyramid, bool warm) {
  SimOptions o;
  o.integrator = i;
  o.friction = pyramid ? obliq::friction::Formulation::pyramid : obliq::friction::Formulation::cone;
  o.warm_start = warm;
  o.threads = 1;
  return o;
}

// 7 scenarios in chunks of 3 (3 + 3 + 1), three calls of 10 steps.
template <class T> void phases_match_the_cpu() {
  for (const Scene& sc : kScenes)
    for (const bool pyramid : {false, true}) {
      if (pyramid && !sc.configuration.frictional) continue;
      const SimOptions o = options(Integrator::moreau_jean, pyramid, /*warm=*/pyramid);
      Simulator<T> cpu = make<T>(sc, o), emu = make<T>(sc, o);
      Poison<T> poison;  // the whole arena but the frame, after every phase
      for (int call = 0; call < 3; ++call) {
        cpu.step(T(2e-3), 10);
        EXPECT_EQ(phased_step(emu, T(2e-3), 10, 3, poison, sc.configuration), 3);
      }
      const std::string what = sc.name + (sc.configuration.frictional ? (pyramid ? " pyramid" : " cone") : " frictionless");
      EXPECT_TRUE(same_state(cpu, emu)) << what;
      const int phases = sc.configuration.frictional ? 7 : 3;
      EXPECT_EQ(poison.calls, 3 * 3 * 10 * phases) << what;  // calls x chunks x steps x phases
      EXPECT_GT(poison.filled, std::size_t(0)) << what;
      // The failures are the ones meant, in their phases; most others stepped (in float the
      // pyramid's LCP ends one quadruped landing with no_convergence, on the cpu as here) and
      // landed.
      EXPECT_EQ(cpu.status[1], sc.evaluate_failure) << what;
      EXPECT_EQ(cpu.t[1], T(0)) << what;
      EXPECT_EQ(cpu.status[4], sc.solve_failure) << what;
      EXPECT_EQ(cpu.t[4], T(0)) << what;
      std::int64_t hits = 0;
      int ok = 0;
      for (std::size_t s : {0, 2, 3, 5, 6}) {
        ok += cpu.status[s] == Status::ok;
        hits += cpu.impacts[s];
      }
      EXPECT_GE(ok, 4) << what;
      EXPECT_GT(hits, 0) << what << ": nothing landed, the comparison shows little";
    }
}

TEST(SimulatorPhases, PhaseKernelsMatchTheCpuSimulatorDouble) { phases_match_the_cpu<double>(); }
TEST(SimulatorPhases, PhaseKernelsMatchTheCpuSimulatorFloat) { phases_match_the_cpu<float>(); }

// The harness sees a read of poisoned memory: the same poison one element into the frame (the
// last of v_{k+1}, which the finish reads) after the contact solve (with friction its last
// stage) changes the state. So were the frame one element short of what a later phase reads,
// the test above would fail.
template <class T> void poison_in_the_frame_is_seen() {
  for (const Scene& sc : kScenes) {
    const SimOptions o = options(Integrator::moreau_jean, false, false);
    Simulator<T> cpu = make<T>(sc, o), emu = make<T>(sc, o);
    Poison<T> poison;
    poison.reach = 1;
    poison.every = false;
    poison.when = int(sc.configuration.frictional ? MoreauJeanPhase::contact_finish : MoreauJeanPhase::contact_solve);
    cpu.step(T(2e-3), 10);
    phased_step(emu, T(2e-3), 10, 3, poison, sc.configuration);
    EXPECT_FALSE(same_state(cpu, emu)) << sc.name;
    EXPECT_EQ(emu.status[0], Status::non_finite) << sc.name << ": the NaN velocity is the next evaluate's input";
  }
}

TEST(SimulatorPhases, PoisonInTheFrameIsSeenDouble) { poison_in_the_frame_is_seen<double>(); }
TEST(SimulatorPhases, PoisonInTheFrameIsSeenFloat) { poison_in_the_frame_is_seen<float>(); }

// The contact solve's stages hand each other more than the step's frame: poisoning everything
// after the step's frame once the Newton stage has run (so the impact's frame: its progress, W,
// q, r, u) changes the frictional configurations' state; scenario 0 is one that lands.
template <class T> void stages_need_their_frames() {
  for (const Scene& sc : kScenes) {
    if (!sc.configuration.frictional) continue;
    const SimOptions o = options(Integrator::moreau_jean, false, false);
    Simulator<T> cpu = make<T>(sc, o), emu = make<T>(sc, o);
    Poison<T> poison;
    poison.every = false;
    poison.frame_only = true;
    poison.when = int(MoreauJeanPhase::contact_newton);
    cpu.step(T(2e-3), 60);
    phased_step(emu, T(2e-3), 60, 3, poison, sc.configuration);
    ASSERT_GT(cpu.impacts[0], 0) << sc.name << ": scenario 0 never touched, the stages never ran";
    EXPECT_FALSE(same_state(cpu, emu)) << sc.name;
  }
}

TEST(SimulatorPhases, ContactStagesNeedTheirFramesDouble) { stages_need_their_frames<double>(); }
TEST(SimulatorPhases, ContactStagesNeedTheirFramesFloat) { stages_need_their_frames<float>(); }

// The cpu step is the three phases in sequence, and the contact solve its five stages: a step by
// hand through moreau_jean_phase, and one through the frictional kernels' phases
// (moreau_jean_launch_order<true>), give moreau_jean_step's state bit for bit (one quadruped
// with friction, 20 steps).
TEST(SimulatorPhases, StepIsThePhasesInSequence) {
  const SimOptions o = options(Integrator::moreau_jean, false, false);
  const obliq::model::Model m = obliq::test::scene_model("quadruped");
  Simulator<double> a = obliq::test::dropped<double>(m, 1, o, true), b = obliq::test::dropped<double>(m, 1, o, true),
                    c = obliq::test::dropped<double>(m, 1, o, true);
  const auto ha = a.arrays(obliq::HostArray<const double>{a.u.data(), a.nv(), 1});
  const auto hb = b.arrays(obliq::HostArray<const double>{b.u.data(), b.nv(), 1});
  const auto hc = c.arrays(obliq::HostArray<const double>{c.u.data(), c.nv(), 1});
  const auto p = a.step_params();
  const auto sys = sim::model_system_at(ha.model, ha.gravity, 0);
  std::vector<double> wa(sim::step_workspace(sys, p, sys.dim())), wb(wa.size()), wc(wa.size());
  obliq::Arena<double> arena_a{wa.data(), wa.size()}, arena_b{wb.data(), wb.size()}, arena_c{wc.data(), wc.size()};
  const sim::ControlView<double> ca = sim::controls_at(ha.controls, 0), cb = sim::controls_at(hb.controls, 0),
                                 cc = sim::controls_at(hc.controls, 0);
  ASSERT_TRUE(sim::frictional(ca, sys.m_u()));
  int phases = 0;
  for (int k = 0; k < 20; ++k) {
    sim::moreau_jean_step(sys, p, ca, 2e-3, sim::state_at(ha.state, 0), arena_a);
    sim::moreau_jean_phase<MoreauJeanPhase::evaluate>(sys, p, cb, 2e-3, sim::state_at(hb.state, 0), arena_b);
    sim::moreau_jean_phase<MoreauJeanPhase::contact_solve>(sys, p, cb, 2e-3, sim::state_at(hb.state, 0), arena_b);
    sim::moreau_jean_phase<MoreauJeanPhase::finish>(sys, p, cb, 2e-3, sim::state_at(hb.state, 0), arena_b);
    cu::sim_chunk_launches<Integrator::moreau_jean, true>(
        1,
        [&]<MoreauJeanPhase P>() {
          sim::moreau_jean_phase<P>(sys, p, cc, 2e-3, sim::state_at(hc.state, 0), arena_c);
          ++phases;
        },
        [] { return false; });
    EXPECT_EQ(arena_a.used, 0u);
    EXPECT_EQ(arena_b.used, 0u);
    EXPECT_EQ(arena_c.used, 0u);
  }
  EXPECT_EQ(phases, 20 * 7);
  EXPECT_EQ(a.status[0], Status::ok);
  EXPECT_GT(a.impacts[0], 0);
  EXPECT_TRUE(same_state(a, b));
  EXPECT_TRUE(same_state(a, c));
}

// The event-driven configurations: model (quadruped) and raw systems, with and without friction,
// scenario 1 broken in the evaluation (a NaN quaternion or velocity) and scenario 4 at its first
// impact (e > 1, or mu < 0 with friction), 7 scenarios in chunks of 3, three calls of 4 advances,
// poison beyond the advance's frame after every launch: the cpu Simulator's state bit for bit.
const Scene kEventDrivenScenes[] = {
    {"quadruped", {cu::SimSystems::model, Integrator::event_driven, false}, Status::bad_quaternion, Status::bad_restitution},
    {"quadruped", {cu::SimSystems::model, Integrator::event_driven, true}, Status::bad_quaternion, Status::bad_friction},
    {"raw bar", {cu::SimSystems::raw, Integrator::event_driven, false}, Status::non_finite, Status::bad_restitution},
    {"raw bar", {cu::SimSystems::raw, Integrator::event_driven, true}, Status::non_finite, Status::bad_friction},
};

template <class T> void event_driven_parts_match_the_cpu() {
  for (const Scene& sc : kEventDrivenScenes)
    for (const bool pyramid : {false, true}) {
      if (pyramid && !sc.configuration.frictional) continue;
      const SimOptions o = options(Integrator::event_driven, pyramid, false);
      Simulator<T> cpu = make<T>(sc, o), emu = make<T>(sc, o);
      Poison<T> poison;  // the whole arena but the advance's frame, after every launch
      for (int call = 0; call < 3; ++call) {
        cpu.step(T(5e-3), 4);
        EXPECT_EQ(phased_step(emu, T(5e-3), 4, 3, poison, sc.configuration), 3);
      }
      const std::string what = sc.name + (sc.configuration.frictional ? (pyramid ? " pyramid" : " cone") : " frictionless");
      EXPECT_TRUE(same_state(cpu, emu)) << what;
      // Per chunk and advance: begin and at least one round of four launches.
      EXPECT_GE(poison.calls, 3 * 3 * 4 * 5) << what;
      EXPECT_GT(poison.filled, std::size_t(0)) << what;
      EXPECT_EQ(cpu.status[1], sc.evaluate_failure) << what;
      EXPECT_EQ(cpu.status[4], sc.solve_failure) << what;
      std::int64_t hits = 0;
      int ok = 0;
      for (std::size_t s : {0, 2, 3, 5, 6}) {
        ok += cpu.status[s] == Status::ok;
        hits += cpu.impacts[s];
      }
      EXPECT_GE(ok, 4) << what;
      EXPECT_GT(hits, 0) << what << ": nothing landed, the comparison shows little";
    }
}

TEST(SimulatorPhases, EventDrivenPartsMatchTheCpuSimulatorDouble) { event_driven_parts_match_the_cpu<double>(); }
TEST(SimulatorPhases, EventDrivenPartsMatchTheCpuSimulatorFloat) { event_driven_parts_match_the_cpu<float>(); }

// The harness sees the advance's frame read: poison reaching one element into it (the last of the
// Runge-Kutta stage's velocity, which the acceleration service reads) after each control launch
// changes the state.
template <class T> void event_driven_frame_poison_is_seen() {
  for (const Scene& sc : kEventDrivenScenes) {
    const SimOptions o = options(Integrator::event_driven, false, false);
    Simulator<T> cpu = make<T>(sc, o), emu = make<T>(sc, o);
    Poison<T> poison;
    poison.reach = 1;
    poison.every = false;
    poison.frame_only = true;  // the advance's frame alone (a staged service's frames are carved after control)
    poison.when = int(EventDrivenPhase::control);
    cpu.step(T(5e-3), 4);
    phased_step(emu, T(5e-3), 4, 3, poison, sc.configuration);
    EXPECT_FALSE(same_state(cpu, emu)) << sc.name;
  }
}

TEST(SimulatorPhases, EventDrivenFramePoisonIsSeenDouble) { event_driven_frame_poison_is_seen<double>(); }
TEST(SimulatorPhases, EventDrivenFramePoisonIsSeenFloat) { event_driven_frame_poison_is_seen<float>(); }

// With friction the acceleration's and the impact's stages hand each other more than the
// advance's frame: poisoning everything after it once their setup stage has run changes the
// frictional configurations' state.
template <class T> void event_driven_stages_need_their_frames() {
  for (const Scene& sc : kEventDrivenScenes) {
    if (!sc.configuration.frictional) continue;
    for (const EventDrivenPhase when : {EventDrivenPhase::acceleration_setup, EventDrivenPhase::impact_setup}) {
      const SimOptions o = options(Integrator::event_driven, false, false);
      Simulator<T> cpu = make<T>(sc, o), emu = make<T>(sc, o);
      Poison<T> poison;
      poison.every = false;
      poison.frame_only = true;
      poison.when = int(when);
      cpu.step(T(5e-3), 4);
      phased_step(emu, T(5e-3), 4, 3, poison, sc.configuration);
      ASSERT_GT(cpu.impacts[0], 0) << sc.name << ": scenario 0 never touched, no impact ran";
      EXPECT_FALSE(same_state(cpu, emu)) << sc.name << " after phase " << int(when);
    }
  }
}

// The contact law runs apart: its kernel and the conclude passes read what the prepare passes
// carved after the advance's frame; poisoning everything after the frame once contact_law has
// run changes every configuration's state.
template <class T> void event_driven_law_needs_what_prepare_carved() {
  for (const Scene& sc : kEventDrivenScenes) {
    const SimOptions o = options(Integrator::event_driven, false, false);
    Simulator<T> cpu = make<T>(sc, o), emu = make<T>(sc, o);
    Poison<T> poison;
    poison.every = false;
    poison.frame_only = true;
    poison.when = int(EventDrivenPhase::contact_law);
    cpu.step(T(5e-3), 4);
    phased_step(emu, T(5e-3), 4, 3, poison, sc.configuration);
    EXPECT_FALSE(same_state(cpu, emu)) << sc.name << (sc.configuration.frictional ? " frictional" : " frictionless");
  }
}

TEST(SimulatorPhases, EventDrivenLawNeedsWhatPrepareCarvedDouble) { event_driven_law_needs_what_prepare_carved<double>(); }
TEST(SimulatorPhases, EventDrivenLawNeedsWhatPrepareCarvedFloat) { event_driven_law_needs_what_prepare_carved<float>(); }

TEST(SimulatorPhases, EventDrivenStagesNeedTheirFramesDouble) { event_driven_stages_need_their_frames<double>(); }
TEST(SimulatorPhases, EventDrivenStagesNeedTheirFramesFloat) { event_driven_stages_need_their_frames<float>(); }

}  // namespace

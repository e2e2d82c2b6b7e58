// tests/cuda_emulation/simulator_glue_test.cpp: the cuda backend's Simulator step emulated on the
// host: cuda/sim_glue.hpp's sequence (the model flattened and copied, raw systems, state and
// controls copied, chunks cut by scratch size, the state copied back) with host vectors as the
// memory and a host loop over the bodies of the batch's configuration (cuda/sim_body.hpp, its
// own kernels per configuration: Moreau-Jean's phase kernels per step (with friction the contact
// solve's five stages), each over the whole chunk before the next, or the event-driven step
// kernel; sim_emulation.hpp) per chunk, scenarios in reverse order, scratch filled with NaN. It
// must reproduce the cpu Simulator bit for bit: both run the same advance() on the same data
// with the same arena sizes per call... except that the emulated arena is the chunk's (largest)
// workspace, which only ever changes whether an overflow happens, never a value.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "obliq/sim/batch_views.hpp"
#include "obliq/simulator.hpp"
#include "host_memory.hpp"
#include "sim_emulation.hpp"
#include "sim_glue.hpp"
#include "support/sim_scenes.hpp"

namespace {

using obliq::SimOptions;
using obliq::Simulator;
using obliq::Status;
using obliq::sim::Integrator;
namespace cu = obliq::cuda::detail;
using obliq::emulation::HostMemory;

std::string configuration_name(const cu::SimConfiguration& k) {
  return std::string(k.systems == cu::SimSystems::model ? "model " : "raw ") + obliq::sim::integrator_name(k.integrator) +
         (k.frictional ? " frictional" : " frictionless");
}

// One step(dt, steps) of `sim` as the cuda backend does it (the body of the batch's
// configuration), with scratch for `per_chunk` scenarios; the configuration of the body that ran
// lands in `ran` when given.
template <class T>
int emulated_step(Simulator<T>& sim, T dt, int steps, std::size_t per_chunk, std::set<std::string>* ran = nullptr) {
  const auto h = sim.arrays(obliq::HostArray<const T>{sim.u.data(), sim.nv(), 1});
  const auto p = sim.step_params();
  const std::size_t ws = cu::sim_scratch(h, p, cu::any_friction(h));
  cu::SimConfiguration body{};
  const int chunks = obliq::emulation::emulated_simulate(h, p, dt, steps, per_chunk * ws * sizeof(T), &body);
  if (ran != nullptr) ran->insert(configuration_name(body));
  return chunks;
}

template <class T, class U> bool same_bits(const U& a, const U& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(*a.data()) * a.size()) == 0;
}

// cpu vs emulated: the whole state, bit for bit. Returns the impacts of the cpu run.
template <class T> std::int64_t expect_same_state(const Simulator<T>& cpu, const Simulator<T>& emu, const std::string& what) {
  EXPECT_TRUE((same_bits<T>(cpu.q, emu.q))) << what << ": q";
  EXPECT_TRUE((same_bits<T>(cpu.v, emu.v))) << what << ": v";
  EXPECT_TRUE((same_bits<T>(cpu.t, emu.t))) << what << ": t";
  EXPECT_TRUE((same_bits<T>(cpu.last_impact_time, emu.last_impact_time))) << what << ": last_impact_time";
  EXPECT_TRUE((same_bits<T>(cpu.last_impact_v, emu.last_impact_v))) << what << ": last_impact_v";
  EXPECT_EQ(cpu.active, emu.active) << what;
  EXPECT_EQ(cpu.impacts, emu.impacts) << what;
  EXPECT_EQ(cpu.lcp_solves, emu.lcp_solves) << what;
  EXPECT_EQ(cpu.status, emu.status) << what;
  std::int64_t hits = 0;
  for (auto i : cpu.impacts) hits += i;
  return hits;
}

using obliq::test::Case;
using obliq::test::kCases;

// One thread: the cpu runs are bitwise the same for any count (tests/sim), and OpenMP barriers
// on an oversubscribed CI machine cost more than the runs.
SimOptions one_thread(const Case& c) {
  SimOptions o = obliq::test::options_of(c);
  o.threads = 1;
  return o;
}

// 5 scenarios in 3 chunks (2 + 2 + 1), three step() calls of several steps each.
// Every configuration of model systems runs its own body (each of the 4 kernels checked here).
template <class T> void model_scenes_match() {
  std::set<std::string> ran;
  for (const char* name : {"ball", "cradle", "biped5", "quadruped", "hopper"}) {
    const obliq::model::Model m = obliq::test::scene_model(name);
    for (const Case& c : kCases) {
      const bool friction = std::string(c.friction) != "none";
      const SimOptions o = one_thread(c);
      Simulator<T> cpu = obliq::test::dropped<T>(m, 5, o, friction), emu = obliq::test::dropped<T>(m, 5, o, friction);
      const bool md = c.integrator == Integrator::moreau_jean;
      const T dt = T(md ? 2e-3 : 5e-3);
      const int steps = md ? 10 : 4;
      for (int call = 0; call < 3; ++call) {
        cpu.step(dt, steps);
        EXPECT_EQ(emulated_step(emu, dt, steps, 2, &ran), 3);
      }
      const std::string what = std::string(name) + " " + obliq::sim::integrator_name(c.integrator) + " " + c.friction;
      EXPECT_GT(expect_same_state(cpu, emu, what), 0) << what << ": nothing landed, the comparison shows little";
    }
  }
  EXPECT_EQ(ran, (std::set<std::string>{"model moreau frictional", "model moreau frictionless", "model event frictional",
                                        "model event frictionless"}));
}

TEST(SimulatorGlue, ModelScenesMatchTheCpuSimulatorDouble) { model_scenes_match<double>(); }
TEST(SimulatorGlue, ModelScenesMatchTheCpuSimulatorFloat) { model_scenes_match<float>(); }

template <class T> void raw_scenes_match() {
  std::set<std::string> ran;
  for (const Case& c : kCases) {
    const bool friction = std::string(c.friction) != "none";
    const SimOptions o = one_thread(c);
    Simulator<T> cpu = obliq::test::raw_bars<T>(7, o, friction), emu = obliq::test::raw_bars<T>(7, o, friction);
    for (int call = 0; call < 4; ++call) {
      cpu.step(T(5e-3), 6);
      EXPECT_EQ(emulated_step(emu, T(5e-3), 6, 3, &ran), 3);
    }
    const std::string what = std::string("raw bar ") + obliq::sim::integrator_name(c.integrator) + " " + c.friction;
    EXPECT_GT(expect_same_state(cpu, emu, what), 0) << what;
  }
  EXPECT_EQ(ran, (std::set<std::string>{"raw moreau frictional", "raw moreau frictionless", "raw event frictional",
                                        "raw event frictionless"}));
}

TEST(SimulatorGlue, RawSystemsMatchTheCpuSimulatorDouble) { raw_scenes_match<double>(); }
TEST(SimulatorGlue, RawSystemsMatchTheCpuSimulatorFloat) { raw_scenes_match<float>(); }

// with_configuration turns each of the 8 configurations into the same values as template
// arguments (the kernel the device launch picks, and the body the other tests run).
TEST(SimulatorGlue, EachConfigurationPicksItsOwnKernel) {
  int seen = 0;
  for (cu::SimSystems systems : {cu::SimSystems::model, cu::SimSystems::raw})
    for (Integrator integrator : {Integrator::moreau_jean, Integrator::event_driven})
      for (bool frictional : {false, true}) {
        const cu::SimConfiguration k{systems, integrator, frictional};
        cu::SimConfiguration picked{};
        cu::with_configuration(k, [&]<cu::SimSystems K, Integrator I, bool Frictional>() {
          picked = cu::SimConfiguration{K, I, Frictional};
          ++seen;
        });
        EXPECT_TRUE(picked == k) << configuration_name(k) << " picked " << configuration_name(picked);
      }
  EXPECT_EQ(seen, 8);
}

// Friction on some scenarios, every mu exactly 0 on the others (one of them -0): the frictional
// kernel, in which those others take the frictionless step as they do on the cpu.
TEST(SimulatorGlue, MixedFrictionBatchRunsTheFrictionalKernel) {
  const obliq::model::Model m = obliq::test::scene_model("quadruped");
  SimOptions o;
  o.threads = 1;
  Simulator<double> cpu = obliq::test::dropped<double>(m, 4, o, true), emu = obliq::test::dropped<double>(m, 4, o, true);
  for (std::size_t s : {1, 3})
    for (int i = 0; i < cpu.m_u(); ++i) cpu.mu(s, i) = emu.mu(s, i) = (s == 3 && i == 0) ? -0.0 : 0.0;
  std::set<std::string> ran;
  for (int call = 0; call < 3; ++call) {
    cpu.step(2e-3, 10);
    EXPECT_EQ(emulated_step(emu, 2e-3, 10, 2, &ran), 2);
  }
  EXPECT_EQ(ran, std::set<std::string>{"model moreau frictional"});
  EXPECT_GT(expect_same_state(cpu, emu, "quadruped, friction on scenarios 0 and 2"), 0);
}

// A copy of the model through flatten / flat_view reads the same numbers as the model itself.
TEST(SimulatorGlue, FlatModelViewReadsTheModel) {
  const obliq::model::Model m = obliq::test::scene_model("quadruped");
  const auto v = m.view();
  const cu::FlatModel<double> f = cu::flatten(v);
  const auto w = cu::flat_view(v, f.ints.data(), f.reals.data());
  EXPECT_EQ(f.ints.size(), std::size_t(4 * m.nbodies() + m.nv + 2 * m.ncontacts()));
  EXPECT_EQ(f.reals.size(), std::size_t(28 * m.nbodies() + 10 * m.ncontacts()));
  for (int k = 0; k < m.nv; ++k) EXPECT_EQ(w.velocity_parent[k], m.velocity_parent[std::size_t(k)]);
  for (int i = 0; i < m.nbodies(); ++i) {
    EXPECT_EQ(w.parent[i], m.parent[i]);
    EXPECT_EQ(w.idx_v[i], m.idx_v[i]);
    EXPECT_EQ(w.mass[i], m.mass[i]);
    for (int k = 0; k < 9; ++k) EXPECT_EQ(w.inertia[9 * i + k], m.inertia[9 * i + k]);
  }
  for (int c = 0; c < m.ncontacts(); ++c) {
    EXPECT_EQ(w.contact_body_b[c], m.contact_body_b[c]);
    EXPECT_EQ(w.contact_offset[c], m.contact_offset[c]);
    for (int k = 0; k < 3; ++k) EXPECT_EQ(w.contact_normal[3 * c + k], m.contact_normal[3 * c + k]);
  }
}

// Torques shared by every scenario (scenario stride 0) are gathered per scenario: the same
// trajectories as the cpu Simulator given the same shared row.
TEST(SimulatorGlue, SharedTorquesAreGathered) {
  SimOptions o;
  o.threads = 1;
  const obliq::model::Model m = obliq::test::scene_model("biped5");
  Simulator<double> cpu = obliq::test::dropped<double>(m, 4, o, true), emu = obliq::test::dropped<double>(m, 4, o, true);
  std::vector<double> tau(std::size_t(m.nv), 0.0);
  for (int k = 3; k < m.nv; ++k) tau[std::size_t(k)] = 0.5 * k - 2;
  const obliq::HostArray<const double> shared{tau.data(), 0, 1};
  cpu.step(2e-3, 20, shared);
  const auto h = emu.arrays(shared);
  const auto p = emu.step_params();
  HostMemory<double> mem;
  ASSERT_TRUE((cu::sim_configuration(h, p) == cu::SimConfiguration{cu::SimSystems::model, Integrator::moreau_jean, true}));
  cu::run_simulation(h, p, std::size_t(1) << 24, mem,
                     [&](const obliq::sim::BatchArrays<double>& d, std::size_t s0, std::size_t n, double* scratch,
                         std::size_t w) {
                       cu::sim_chunk_launches<Integrator::moreau_jean, true>(
                           20,
                           [&]<obliq::sim::MoreauJeanPhase P>() {
                             for (std::size_t i = 0; i < n; ++i)
                               cu::sim_phase_body<double, cu::SimSystems::model, true, P>(d, p, 2e-3, s0, n, i, scratch, w);
                           },
                           [] {
                             ADD_FAILURE() << "Moreau-Jean asks for no round's flag";
                             return false;
                           });
                     });
  EXPECT_GT(expect_same_state(cpu, emu, "biped5 shared torques"), 0);
  for (std::size_t s = 0; s < 4; ++s) EXPECT_EQ(emu.status[s], Status::ok);
}

// Scratch smaller than one scenario's workspace: a clear error, nothing stepped.
TEST(SimulatorGlue, ScratchTooSmallIsAnError) {
  Simulator<double> sim(obliq::test::scene_model("ball"), 2, SimOptions{});
  const auto h = sim.arrays(obliq::HostArray<const double>{sim.u.data(), sim.nv(), 1});
  HostMemory<double> mem;
  EXPECT_THROW(cu::run_simulation(h, sim.step_params(), 8, mem, [](auto&&...) {}), std::runtime_error);
  EXPECT_EQ(sim.t[0], 0.0);
}

}  // namespace

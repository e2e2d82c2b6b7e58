// cuda/sim_body.hpp: what one thread of the Simulator's kernels does (cuda/sim_kernels.cuh
// launches it; tests/cuda_emulation runs the same body in a host loop): scenario s0 + i of the
// batch advanced by `steps` steps with the per-scenario steppers of include/obliq/sim, through the
// same views and the same advance_with() as the cpu Simulator (include/obliq/sim/batch_views.hpp).
//
// One body per configuration of a batch (SimConfiguration: model or raw systems, the
// integrator, friction or none), each its own kernel (cuda/sim_kernels/*.cu), so that a kernel
// holds only the code its configuration runs and ptxas allocates registers and stack for that
// alone (docs/cuda.md "Registers, stack and spills at sm_90"). Without friction the controls
// are passed without mu: every mu of such a batch is exactly 0, so the steppers take their
// frictionless branch either way (sim::frictional), and as sim::FrictionlessControlView, whose
// frictional() is false at compile time, they hold no frictional code (a constant null mu was
// not enough: the event-driven advance, compiled as a function of its own, kept the solvers).
//
// Moreau-Jean runs as one kernel per phase of the step (sim::MoreauJeanPhase: evaluate, contact
// solve, finish; with friction the contact solve as its five stages: moreau_jean_launch_order;
// include/obliq/sim/moreau_jean.hpp), so that ptxas allocates registers for each phase alone:
// sim_phase_body is what one thread of a phase kernel does, and sim_chunk_launches the order of a
// chunk's launches (every phase over the whole chunk before the next, `steps` times). The phases
// hand each other the scenario's frames, the first elements of its arena; the chunk's scratch
// persists across the launches. The event-driven advance runs the same way as its parts
// (sim::EventDrivenPhase, include/obliq/sim/event_driven.hpp): per step a begin kernel, then
// rounds of the control kernel and the three service kernels (acceleration, impact, projection;
// with friction the acceleration and the impact as five stage kernels each) until no
// scenario's control requests a service (sim_chunk_launches asks the round's flag).
//
// Scratch is contiguous per scenario (arena stride 1): the model layer carves its per-state data
// (model::data_view) out of one stride-1 block, so an interleaved arena would need a strided
// DataView first.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "obliq/sim/batch_views.hpp"
#include "views.hpp"

namespace obliq::cuda::detail {

// The systems of a batch: one model with a gravity per scenario, or raw linear systems.
enum class SimSystems : int { model = 0, raw = 1 };

// What a batch's step runs, known on the host before any launch: one kernel per value.
struct SimConfiguration {
  SimSystems systems = SimSystems::model;
  sim::Integrator integrator = sim::Integrator::moreau_jean;
  bool frictional = false;  // some mu != 0 (else every mu is exactly 0, or there are none)
  friend bool operator==(const SimConfiguration&, const SimConfiguration&) = default;
};

// Scenario s0 + i of a chunk as a stepper's arguments: f(system, controls, state, arena), with
// its arena slice of the chunk's scratch and, without friction, no mu (FrictionlessControlView).
template <class T, SimSystems K, bool Frictional, class F>
OBLIQ_HD void with_chunk_scenario(const sim::BatchArrays<T>& b, std::size_t s0, std::size_t chunk, std::size_t i,
                                  T* scratch, std::size_t ws, F&& f) {
  const std::size_t s = s0 + i;
  Arena<T> arena = arena_at(scratch, i, chunk, ws, false);
  // Without friction: the controls without mu, as a type whose frictional() is false at
  // compile time (sim::FrictionlessControlView), so that no frictional solver is compiled in.
  std::conditional_t<Frictional, sim::ControlView<T>, sim::FrictionlessControlView<T>> c{sim::controls_at(b.controls, s)};
  if constexpr (!Frictional) c.mu = {};
  const sim::StateView<T> st = sim::state_at(b.state, s);
  if constexpr (K == SimSystems::model)
    f(sim::model_system_at(b.model, b.gravity, s), c, st, arena);
  else
    f(sim::linear_system_at(b.raw, s), c, st, arena);
}

// One thread of the kernel of phase P, Moreau-Jean's (sim::MoreauJeanPhase: that phase of one
// step) or the event-driven advance's (sim::EventDrivenPhase: that part of the advance by dt),
// for scenario s0 + i; nothing for a scenario whose status is not ok. An event-driven control
// that requests a service sets *requested to 1 (every such thread writes the same value).
// sim_chunk_launches runs the phases in order.
template <class T, SimSystems K, bool Frictional, auto P>
OBLIQ_HD void sim_phase_body(const sim::BatchArrays<T>& b, const sim::StepParams<T>& p, T dt, std::size_t s0,
                             std::size_t chunk, std::size_t i, T* scratch, std::size_t ws,
                             unsigned* requested = nullptr) {
  if (i >= chunk) return;
  with_chunk_scenario<T, K, Frictional>(b, s0, chunk, i, scratch, ws,
                                        [&](const auto& sys, const auto& c, const auto& st, auto& arena) {
                                          if constexpr (std::is_same_v<decltype(P), sim::MoreauJeanPhase>) {
                                            sim::moreau_jean_phase<P>(sys, p, c, dt, st, arena);
                                          } else {
                                            if (sim::event_driven_phase<P>(sys, p, c, dt, st, arena)) *requested = 1;
                                          }
                                        });
}

// The phases of one Moreau-Jean step in launch order: evaluate, the contact solve, finish; with
// friction the contact solve as its five stages (contact_setup .. contact_finish: the
// frictional impact's, include/obliq/core/friction/impact.hpp), each its own kernel, so that no
// kernel keeps values across a call to a frictional solver (docs/cuda.md).
template <bool Frictional> constexpr auto moreau_jean_launch_order() {
  using P = sim::MoreauJeanPhase;
  if constexpr (Frictional)
    return std::array<P, 7>{P::evaluate,       P::contact_setup,         P::contact_frictionless, P::contact_newton,
                            P::contact_other_solvers, P::contact_finish, P::finish};
  else
    return std::array<P, 3>{P::evaluate, P::contact_solve, P::finish};
}

// An event-driven round's launches: control, then the three services; with friction the
// acceleration and the impact as their solvers' five stages each (sim::EventDrivenPhase). The
// frictionless core's contact law runs apart (sim::LawPass): every prepare pass (acceleration,
// impact, projection; with friction the frictionless stages and projection), then contact_law,
// then the conclude passes, then (with friction) the stages after the frictionless one.
template <bool Frictional, class Phase> void event_driven_round(Phase&& phase) {
  using P = sim::EventDrivenPhase;
  phase.template operator()<P::control>();
  if constexpr (Frictional) {
    phase.template operator()<P::acceleration_setup>();
    phase.template operator()<P::acceleration_frictionless>();
    phase.template operator()<P::impact_setup>();
    phase.template operator()<P::impact_frictionless>();
  } else {
    phase.template operator()<P::acceleration>();
    phase.template operator()<P::impact>();
  }
  phase.template operator()<P::projection>();
  phase.template operator()<P::contact_law>();
  phase.template operator()<P::acceleration_conclude>();
  phase.template operator()<P::impact_conclude>();
  phase.template operator()<P::projection_conclude>();
  if constexpr (Frictional) {
    phase.template operator()<P::acceleration_newton>();
    phase.template operator()<P::acceleration_other_solvers>();
    phase.template operator()<P::acceleration_finish>();
    phase.template operator()<P::impact_newton>();
    phase.template operator()<P::impact_other_solvers>();
    phase.template operator()<P::impact_finish>();
  }
}

// The launches of one chunk's call of `steps` steps with integrator I, in order, each
// phase.template operator()<P>() one kernel over the whole chunk. Moreau-Jean, per step: each
// phase of moreau_jean_launch_order. Event-driven, per step (an advance by dt): begin, then
// rounds of control and the services, until requested() (the round's flag, read and cleared)
// says that no control of the round requested a service. The device (cuda/sim_kernels.cuh) and
// the emulation (tests/cuda_emulation) both run this sequence.
template <sim::Integrator I, bool Frictional, class Phase, class Requested>
void sim_chunk_launches(int steps, Phase&& phase, Requested&& requested) {
  if constexpr (I == sim::Integrator::moreau_jean) {
    static constexpr auto order = moreau_jean_launch_order<Frictional>();
    for (int k = 0; k < steps; ++k)
      [&]<std::size_t... J>(std::index_sequence<J...>) {
        (phase.template operator()<order[J]>(), ...);
      }(std::make_index_sequence<order.size()>{});
  } else {
    for (int k = 0; k < steps; ++k) {
      phase.template operator()<sim::EventDrivenPhase::begin>();
      bool more = true;
      while (more) {
        event_driven_round<Frictional>(phase);
        more = requested();
      }
    }
  }
}

// Every phase kernel that configuration (I, Frictional) launches, once each, in launch order
// (f.template operator()<P>()).
template <sim::Integrator I, bool Frictional, class F> void for_each_phase(F&& f) {
  if constexpr (I == sim::Integrator::moreau_jean) {
    sim_chunk_launches<I, Frictional>(1, f, [] { return false; });
  } else {
    f.template operator()<sim::EventDrivenPhase::begin>();
    event_driven_round<Frictional>(f);
  }
}

// Scratch elements of one scenario: the frictionless step's workspace, or (frictional) the larger
// of it and the frictional step's, so that one chunk size serves every scenario.
template <class T> std::size_t sim_scratch(const sim::BatchArrays<T>& b, const sim::StepParams<T>& p, bool frictional) {
  auto ws = [&](const auto& sys) {
    const std::size_t plain = sim::step_workspace(sys, p, 0);
    return std::max<std::size_t>(1, frictional ? std::max(plain, sim::step_workspace(sys, p, sys.dim())) : plain);
  };
  return b.is_model ? ws(sim::ModelSystem<T>{b.model}) : ws(sim::linear_system_at(b.raw, 0));
}

}  // namespace obliq::cuda::detail

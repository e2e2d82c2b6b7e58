// sweep/samples.hpp: one chunk of samples, drawn, evaluated and solved. The column layout of a
// study's per-sample outputs (docs/sweep.md "Outputs") lives here too.
#pragma once

#include "obliq/sweep.hpp"

namespace obliq::sweep {

// Where each group of outputs starts in a SampleTable row (-1: not an output of this study).
// Every study: e, then mu (with friction). Impact samples: qdot_plus .. joint_moment
// (tangential_impulse with friction). Trajectory samples: impacts .. energy_ratio_T.
struct Layout {
  int n = 0, nq = 0, m_b = 0, m_u = 0, joints = 0;
  int e = -1, mu = -1;
  int qdot_plus = -1, qdot_plus_norm = -1, impulse = -1, tangential_impulse = -1, separation = -1, energy_ratio = -1,
      joint_force = -1, joint_moment = -1;
  int impacts = -1, impacts_before_rest = -1, last_impact_time = -1, q_T = -1, qdot_T = -1, kinetic_energy_T = -1, energy_ratio_T = -1;
  int total = 0;
};
Layout layout(const Study& study);

// The perturbed states of samples [first, first + count) of a model study: Q (count x nq),
// V (count x nv).
void draw_states(const Study& study, std::uint64_t first, std::size_t count, int threads, RowMat<double>& Q,
                 RowMat<double>& V);

// Buffers a caller keeps from chunk to chunk, so that they are allocated once.
struct ChunkBuffers {
  Batch<double> batch;
  RowMat<double> Q, V;
  std::vector<Status> status;
  ImpactResults<double> results;
  std::vector<double> mu;                // count x m_u (studies with friction)
  std::vector<double> tangential;        // count x m_u: |lambda_t| per contact (impact samples with friction)
  std::vector<double> ke0, pe0, ke1, pe1;  // trajectory samples: energies at 0 and T
};

// Draws samples [first, first + count) and fills `out`. Impact samples: the model layer's
// evaluate_batch, then the core's impact solve through obliq::solve_impact (with friction: the
// core's frictional impact per sample through obliq::impact(Scenario, Friction), tangent rows from
// the model layer's evaluate_friction); joint impulses through the model layer's per-state
// joint_impulses. Trajectory samples: the Simulator over the chunk (sweep/trajectories.cpp).
// OpenMP over samples with `threads`.
void run_samples(const Study& study, std::uint64_t first, std::size_t count, int threads, SampleTable& out,
                 ChunkBuffers& buffers);
void run_samples(const Study& study, std::uint64_t first, std::size_t count, int threads, SampleTable& out);
// The trajectory samples of a chunk (called by run_samples).
void run_trajectories(const Study& study, std::uint64_t first, std::size_t count, int threads, SampleTable& out,
                      ChunkBuffers& buffers);
// The per-contact friction coefficients of samples [first, first + count) into buffers.mu; a
// power law mu(v) reads the approach speed -(A_u qdot)_i of `batch`'s scenario (none: 0).
void draw_friction(const Study& study, std::uint64_t first, std::size_t count, ChunkBuffers& buffers,
                   const Batch<double>* batch);

}  // namespace obliq::sweep

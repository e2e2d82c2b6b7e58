// sweep/samples.hpp: one chunk of samples, drawn, evaluated and solved. The column layout of a
// study's per-sample outputs (docs/sweep.md "Outputs") lives here too.
#pragma once

#include "obliq/sweep.hpp"

namespace obliq::sweep {

// Where each group of outputs starts in a SampleTable row.
struct Layout {
  int n = 0, m_b = 0, m_u = 0, joints = 0;
  int e = 0, qdot_plus = 0, qdot_plus_norm = 0, impulse = 0, separation = 0, energy_ratio = 0, joint_force = 0,
      joint_moment = 0, total = 0;
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
};

// Draws samples [first, first + count) and fills `out` (the model layer's evaluate_batch, then the
// core's impact solve through obliq::solve_impact; joint impulses through the model layer's
// per-state joint_impulses). OpenMP over samples with `threads`.
void run_samples(const Study& study, std::uint64_t first, std::size_t count, int threads, SampleTable& out,
                 ChunkBuffers& buffers);
void run_samples(const Study& study, std::uint64_t first, std::size_t count, int threads, SampleTable& out);

}  // namespace obliq::sweep

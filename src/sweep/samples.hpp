// sweep/samples.hpp: one chunk of samples, drawn, evaluated and solved. The column layout of a
// study's per-sample outputs (docs/sweep.md "Outputs") lives here too.
#pragma once

#include <cmath>
#include <string>
#include <vector>

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
  int outputs = 0;  // the first column after the draws (e, mu): the solve's outputs
  int total = 0;
};
Layout layout(const Study& study);

// The writers' finiteness rule (docs/format-notes.md: an ok result carries finite numbers only,
// io::non_finite_result) applied to a sample. OutputRow writes an ok sample's outputs into its
// row and keeps in `bad` the first column, in column order, whose value is not finite (-1: none);
// reject_non_finite then makes that sample a failed one: status Status::non_finite,
// SampleTable::non_finite = the column, every output missing, no candidate, released,
// energy-consistent or at-rest flag (only its draws count, as for any failed sample).
template <class Row>
struct OutputRow {
  Row row;
  int bad = -1;
  void operator()(int column, double x) {
    row(column) = x;
    if (!std::isfinite(x) && (bad < 0 || column < bad)) bad = column;
  }
};
void reject_non_finite(SampleTable& t, std::size_t s, int column, const Layout& L);
// "energy_ratio" for "energy_ratio", "qdot_plus" for "qdot_plus.<coordinate>": the part before a '.'.
std::string output_group(const std::string& column);
// The status of a sample rejected for its output `c`: "non-finite result: <group> overflows double
// precision", the reason `obliq impact` writes (io::non_finite_result).
std::string non_finite_reason(const Column& c);
// The reason of sample s's status as the summary and rows.csv name it: non_finite_reason for a
// rejected sample, else status_reason.
std::string outcome_reason(const SampleTable& t, std::size_t s, const std::vector<Column>& cols);

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
  // Impact samples with joint impulses: which samples get them, their velocity jumps
  // (count x n) and the impulses (count x 6 nbodies, model::joint_impulses_batch).
  std::vector<std::uint8_t> want_joints;
  RowMat<double> dqdot, joints;
};

// Draws samples [first, first + count) and fills `out`. Impact samples: the model layer's
// evaluate_batch, then the core's impact solve through obliq::solve_impact (with friction: the
// core's frictional impact per sample through obliq::impact(Scenario, Friction), tangent rows from
// the model layer's evaluate_friction); joint impulses through the model layer's
// joint_impulses_batch (in SIMD lanes). Trajectory samples: the Simulator over the chunk (sweep/trajectories.cpp).
// OpenMP over samples with `threads`. `backend`: where the solves run (Options::backend); with
// Backend::cuda the impacts go through solve_impact / impact_batch on the device and the
// trajectories through the Simulator's device step, everything else stays on the host.
void run_samples(const Study& study, std::uint64_t first, std::size_t count, int threads, SampleTable& out,
                 ChunkBuffers& buffers, Backend backend = Backend::cpu);
void run_samples(const Study& study, std::uint64_t first, std::size_t count, int threads, SampleTable& out,
                 Backend backend = Backend::cpu);
// The trajectory samples of a chunk (called by run_samples).
void run_trajectories(const Study& study, std::uint64_t first, std::size_t count, int threads, SampleTable& out,
                      ChunkBuffers& buffers, Backend backend = Backend::cpu);
// The per-contact friction coefficients of samples [first, first + count) into buffers.mu; a
// power law mu(v) reads the approach speed -(A_u qdot)_i of `batch`'s scenario (none: 0).
void draw_friction(const Study& study, std::uint64_t first, std::size_t count, ChunkBuffers& buffers,
                   const Batch<double>* batch);

}  // namespace obliq::sweep

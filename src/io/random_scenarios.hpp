// io/random_scenarios.hpp: random scenarios of a given shape, for `obliq bench`, the benchmarks
// and the property tests (one generator, so that all of them exercise the same distribution).
//
// M = Q diag(d) Q^T with Q a random orthogonal matrix and d log-spaced over [1, cond_M] (so
// cond(M) = cond_M exactly, up to rounding), scaled by mass_scale. qdot has N(0, 1) entries
// scaled by speed. Rows of A_b and A_u have N(0, 1) entries; each unilateral row is then given
// a state by shearing it along qdot (a_i += alpha qdot), which fixes (A_u qdot)_i exactly:
//   approaching: (A_u qdot)_i = -c |a_i| |qdot|, c uniform in [0.1, 1], a_i before the shear
//   resting:     (A_u qdot)_i = 0 (to rounding)         (impact and dynamics candidates)
//   separating:  (A_u qdot)_i = +c |a_i| |qdot|         (closed but not a candidate)
//   open:        phi_i uniform in [0.1, 1] (not closed, any velocity)
// Closed rows get phi_i = 0. Dependent rows (rank-deficient A_u) are the last `dependent_rows`
// unilateral rows, each a duplicate (or a non-negative combination) of earlier unilateral rows:
// a non-negative combination of approaching / resting rows stays approaching / resting, so the
// row states above still hold for the rows that were drawn directly.
#pragma once

#include <random>

#include "obliq/batch.hpp"
#include "obliq/scenario.hpp"

namespace obliq {

struct RandomOptions {
  Law law = Law::complementarity;

  // Inertia: cond(M) and overall scale.
  double cond_M = 1e2;
  double mass_scale = 1.0;
  double speed = 1.0;  // scale of qdot

  // Relative weights of the unilateral row states (normalised; all zero means approaching).
  double p_approaching = 1.0;
  double p_resting = 0.0;
  double p_separating = 0.0;
  double p_open = 0.0;

  // Rank deficiency: the last `dependent_rows` unilateral rows (at most m_u - 1) are exact
  // duplicates of a random earlier unilateral row (duplicates = true) or non-negative random
  // combinations of two earlier unilateral rows.
  int dependent_rows = 0;
  bool duplicates = true;
  // For dependent rows, Adot_qdot follows the same dependency (consistent targets) when true.
  bool consistent_dependent_terms = true;

  // Restitution: uniform in [e_min, e_max], one draw per row, or one draw for all rows.
  double e_min = 0.0, e_max = 1.0;
  bool per_row_e = true;

  // Nonzero optional inputs (N(0, 1) entries when set; zeros otherwise).
  bool applied_impulse = false;  // i_u
  bool forces = false;           // h and u
  bool adot_qdot = false;        // Adot_qdot

  // Activation tolerances written into the scenario. A resting row's (A_u qdot)_i is zero only
  // to rounding: in float that is about 1e-7 |a_i| |qdot|, above the default 1e-9.
  double gap_tol = 1e-9, vel_tol = 1e-9;
};

// The named presets used by `obliq bench`: every unilateral row closed and approaching
// (impact) or closed and resting (dynamics), per-row e in [0, 1], cond(M) = 100, and for
// dynamics nonzero h, u and Adot_qdot. For float scenarios (single = true) vel_tol is 1e-3 so
// that resting rows stay resting after rounding to float.
RandomOptions bench_options(bool dynamics, Law law, bool single = false);

// The dynamics draws of the property tests and the differential fuzz: no row approaching (a
// closed row that approaches is an unresolved impact), rows resting or, with weight p_open
// against 1, open; h, u and Adot_qdot drawn.
void draw_dynamics_rows(RandomOptions& o, double p_open);

// One scenario of shape s (m_b bilateral rows, m_u unilateral rows).
Scenario random_scenario(std::mt19937_64& rng, Shape s, const RandomOptions& opt = {});

// `count` scenarios of one shape in a batch (converted to T).
template <class T>
Batch<T> random_batch(std::mt19937_64& rng, Shape s, std::size_t count, const RandomOptions& opt = {});

}  // namespace obliq

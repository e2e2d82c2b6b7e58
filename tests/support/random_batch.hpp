// tests/support/random_batch.hpp: random batches of one shape, drawn as the CPU property tests
// draw scenarios (src/io/random_scenarios.hpp), for the backend tests (GPU and its emulation).
#pragma once

#include <random>
#include <type_traits>

#include "io/random_scenarios.hpp"
#include "obliq/batch.hpp"

namespace obliq::test {

// Impact scenarios: approaching, resting, separating and open rows with an applied impulse;
// dynamics scenarios: resting and open rows with forces and Adot qdot. `dependent` trailing
// unilateral rows are linear combinations of the others. In float, vel_tol = 1e-3 (a resting
// row's A_u qdot is zero only to rounding).
template <class T> Batch<T> random_batch(Shape shape, std::size_t count, Law law, bool dynamics, int dependent, unsigned seed) {
  std::mt19937_64 rng(seed);
  RandomOptions o;
  o.law = law;
  o.cond_M = 1e2;
  o.dependent_rows = dependent;
  if (dynamics) {
    o.p_approaching = 0;
    o.p_resting = 2;
    o.p_open = 1;
    o.forces = true;
    o.adot_qdot = true;
  } else {
    o.p_approaching = 3;
    o.p_resting = 1;
    o.p_separating = 1;
    o.p_open = 1;
    o.applied_impulse = true;
  }
  Batch<T> b(shape, count);
  for (std::size_t s = 0; s < count; ++s) {
    Scenario sc = random_scenario(rng, shape, o);
    if (std::is_same_v<T, float>) sc.vel_tol = 1e-3;
    b.set(s, sc);
  }
  return b;
}

}  // namespace obliq::test

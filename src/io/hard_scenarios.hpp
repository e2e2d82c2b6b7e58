// io/hard_scenarios.hpp: random scenarios of the hard classes of issue 9, drawn on purpose, for
// the property tests (tests/backends/hard_classes_test.cpp) and the differential fuzz program
// (bench/differential_fuzz.cpp):
//   span+ / span-   unilateral rows that are combinations of the bilateral rows, times a
//                   positive / negative factor (dependent on the equalities, either sign);
//   opposing        pairs of resting rows a and -c a (c > 0) with their own e (impact) or
//                   targets equal up to rounding or drawn apart (dynamics);
//   duplicates      exact copies of earlier unilateral rows, per-row e;
//   combinations    non-negative combinations of two earlier unilateral rows;
//   scaled          any of the above, then M (with i_u, h, u) multiplied by mu from 1e-100 to
//                   1e100, and every row (and its target) by one power of ten 10^S from 1e-300
//                   to 1e300, jittered by 1e-3..1e3 per row (S within 270 decades of mu, so
//                   that lambda ~ mu / 10^S stays representable; rows further apart than about
//                   1/eps are numerically dependent by docs/math.md (1)'s rank rule).
// Each draw has n in [2, 8], up to 3 bilateral rows, up to 6 unilateral rows, an applied impulse
// (impact) or forces (dynamics) half of the time, per-row e, and qdot that meets the bilateral
// rows half of the time (so that rows in their span rest). The classes mix feasible and
// infeasible draws: the oracle decides which is which.
#pragma once

#include <random>

#include "obliq/scenario.hpp"

namespace obliq {

enum class HardClass : int { span_plus = 0, span_minus, opposing, duplicates, combinations, scaled };
inline constexpr int hard_class_count = 6;
const char* hard_class_name(HardClass c);

Scenario hard_scenario(std::mt19937_64& rng, HardClass c, bool dynamics, Law law = Law::complementarity);

// True when the rows of s are dependent to within `resolution` but not exactly, in the
// problem's own geometry (rows whitened by M): two rows parallel to within that angle, or a
// unilateral row that far from the span of the bilateral rows, with no bilateral row exactly
// parallel to it. A certified answer meets each row to tol_f of its scale (docs/certificate.md),
// and rows at an angle delta fix it only to tol_f / delta along the direction they nearly
// share; at delta of rounding size the exact data's answer is decided by the input's last bits.
// Two certified answers to such a draw may rightly differ by more than tol_f / resolution of
// their scale (the comparisons of the property tests and of bench/differential_fuzz use
// resolution = 1e-3 for a comparison at 1e-6), or one backend may find it infeasible where the
// other meets it within tol_f. Exactly dependent rows (duplicates, power-of-two multiples) are
// decided by the rank rule and are well-posed.
bool rows_nearly_dependent(const Scenario& s, double resolution);

}  // namespace obliq

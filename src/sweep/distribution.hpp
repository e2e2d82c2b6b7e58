// sweep/distribution.hpp: reading the study's distributions and drawing from them. Every draw
// takes exactly one uniform number u in (0, 1) and maps it through the distribution's quantile
// function (Boost.Math), so a draw is a pure function of (seed, stream, sample, index).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "obliq/sweep.hpp"

namespace obliq::sweep {

// A contact coefficient's distribution (fixed, uniform, truncated_normal, beta, power_law):
// restitution e in [0, 1], or Coulomb friction mu >= 0 (then a truncated normal's default upper
// end is +inf). Throws std::invalid_argument naming `where`.
enum class Coefficient { restitution, friction };
Distribution parse_coefficient(const nlohmann::ordered_json& j, const std::string& where, Coefficient which);
// A perturbation of one coordinate: {"dist": "normal", "sd"} or {"dist": "uniform", "half_width"},
// given per coordinate as arrays or one number for all (entry k of an array, or the number).
Distribution parse_perturbation(const nlohmann::ordered_json& j, int k, const std::string& where);

// The value for uniform u in (0, 1). `approach_speed` (>= 0: -(A_u qdot)_i of the row) is used
// by power_law only.
double draw(const Distribution& d, double u, double approach_speed = 0);

}  // namespace obliq::sweep

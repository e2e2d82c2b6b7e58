// sweep/distribution.cpp: the study's distributions (docs/sweep.md "Distributions").
#include "sweep/distribution.hpp"

#include <algorithm>
#include <boost/math/distributions/beta.hpp>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <stdexcept>

#include "sweep/study_keys.hpp"

namespace obliq::sweep {
namespace {

using json = nlohmann::ordered_json;
// Boost.Math evaluates in double (its default promotes double to long double: about 3x slower).
using Policy = boost::math::policies::policy<boost::math::policies::promote_double<false>>;
using Normal = boost::math::normal_distribution<double, Policy>;
using Beta = boost::math::beta_distribution<double, Policy>;

double number(const json& j, const char* key, const std::string& where, double fallback, bool required) {
  auto it = j.find(key);
  if (it == j.end()) {
    if (required) throw std::invalid_argument(where + ": missing '" + key + "'");
    return fallback;
  }
  if (!it->is_number() || !std::isfinite(it->get<double>()))
    throw std::invalid_argument(where + ": '" + key + "' must be a finite number");
  return it->get<double>();
}

std::string kind_of(const json& j, const std::string& where) {
  if (!j.is_object()) throw std::invalid_argument(where + ": a distribution is an object {\"dist\": ...}");
  auto it = j.find("dist");
  if (it == j.end() || !it->is_string()) throw std::invalid_argument(where + ": missing \"dist\"");
  return it->get<std::string>();
}

}  // namespace

Distribution parse_coefficient(const json& j, const std::string& where, Coefficient which) {
  const bool is_e = which == Coefficient::restitution;
  const char* what = is_e ? "restitution" : "friction";
  Distribution d;
  if (j.is_number()) {  // a plain number: a fixed value
    d.value = j.get<double>();
  } else {
    const std::string kind = kind_of(j, where);
    if (kind == "fixed") {
      check_keys(j, {"dist", "value"}, where);
      d.value = number(j, "value", where, 0, true);
    } else if (kind == "uniform") {
      check_keys(j, {"dist", "low", "high"}, where);
      d.kind = Distribution::Kind::uniform;
      d.low = number(j, "low", where, 0, true);
      d.high = number(j, "high", where, 1, true);
    } else if (kind == "truncated_normal") {
      check_keys(j, {"dist", "mean", "sd", "low", "high"}, where);
      d.kind = Distribution::Kind::truncated_normal;
      d.mean = number(j, "mean", where, 0, true);
      d.sd = number(j, "sd", where, 0, true);
      d.low = number(j, "low", where, 0, false);
      d.high = is_e ? number(j, "high", where, 1, false) : (j.contains("high") ? number(j, "high", where, 1, true) : INFINITY);
      if (!(d.sd > 0)) throw std::invalid_argument(where + ": 'sd' must be positive");
    } else if (kind == "beta") {
      check_keys(j, {"dist", "a", "b", "low", "high"}, where);
      d.kind = Distribution::Kind::beta;
      d.a = number(j, "a", where, 1, true);
      d.b = number(j, "b", where, 1, true);
      d.low = number(j, "low", where, 0, false);
      d.high = number(j, "high", where, 1, false);
      if (!(d.a > 0 && d.b > 0)) throw std::invalid_argument(where + ": beta's 'a' and 'b' must be positive");
    } else if (kind == "power_law") {
      check_keys(j, {"dist", "e0", "v0", "exponent", "low", "high"}, where);
      d.kind = Distribution::Kind::power_law;
      d.e0 = number(j, "e0", where, 1, true);
      d.v0 = number(j, "v0", where, 1, true);
      d.exponent = number(j, "exponent", where, 0, true);
      d.low = number(j, "low", where, 0, false);
      d.high = number(j, "high", where, 1, false);
      if (!(d.v0 > 0)) throw std::invalid_argument(where + ": 'v0' must be positive");
    } else {
      throw std::invalid_argument(where + ": unknown " + what + " distribution '" + kind +
                                  "' (fixed, uniform, truncated_normal, beta, power_law)");
    }
  }
  const double top = is_e ? 1.0 : INFINITY;
  const bool in_range = d.kind == Distribution::Kind::fixed ? d.value >= 0 && d.value <= top
                                                            : d.low >= 0 && d.high <= top && d.low <= d.high;
  if (!in_range)
    throw std::invalid_argument(where + (is_e ? ": restitution must lie in [0, 1] (low <= high)"
                                              : ": friction mu must be >= 0 (0 <= low <= high)"));
  return d;
}

Distribution parse_perturbation(const json& j, int k, const std::string& where) {
  Distribution d;  // fixed 0: no perturbation
  const std::string kind = kind_of(j, where);
  const char* key = kind == "normal" ? "sd" : kind == "uniform" ? "half_width" : nullptr;
  if (!key) throw std::invalid_argument(where + ": unknown perturbation '" + kind + "' (normal, uniform)");
  check_keys(j, {"dist", key}, where);
  auto it = j.find(key);
  if (it == j.end()) throw std::invalid_argument(where + ": missing '" + key + "'");
  const json& v = it->is_array() ? (k < int(it->size()) ? (*it)[k] : json()) : *it;
  if (!v.is_number() || !(v.get<double>() >= 0) || !std::isfinite(v.get<double>()))
    throw std::invalid_argument(where + ": '" + key + "' must be a number >= 0 or an array of one per coordinate");
  if (kind == "normal") {
    d.kind = Distribution::Kind::normal;
    d.sd = v.get<double>();
  } else {
    d.kind = Distribution::Kind::uniform;
    d.low = -v.get<double>();
    d.high = v.get<double>();
  }
  return d;
}

double draw(const Distribution& d, double u, double approach_speed) {
  using boost::math::quantile;
  switch (d.kind) {
    case Distribution::Kind::fixed: return d.value;
    case Distribution::Kind::uniform: return d.low + u * (d.high - d.low);
    case Distribution::Kind::normal: return d.sd > 0 ? quantile(Normal(0.0, d.sd), u) : 0.0;
    case Distribution::Kind::truncated_normal: {  // inverse CDF restricted to [Phi(low), Phi(high)]
      const Normal n(d.mean, d.sd);
      const double pl = cdf(n, d.low), ph = cdf(n, d.high);
      if (!(ph > pl)) return std::clamp(d.mean, d.low, d.high);  // all the mass beyond one end
      return std::clamp(quantile(n, pl + u * (ph - pl)), d.low, d.high);
    }
    case Distribution::Kind::beta:
      return d.low + (d.high - d.low) * quantile(Beta(d.a, d.b), u);
    case Distribution::Kind::power_law: {  // e(v) = e0 (v / v0)^-exponent, clamped
      if (!(approach_speed > 0)) return std::clamp(d.e0, d.low, d.high);
      return std::clamp(d.e0 * std::pow(approach_speed / d.v0, -d.exponent), d.low, d.high);
    }
  }
  return 0;
}

}  // namespace obliq::sweep

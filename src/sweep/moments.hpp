// sweep/moments.hpp: the mergeable summaries of a sweep's values that the CPU sweep
// (sweep/statistics.cpp) and the GPU reduction (cuda/sweep_reduce.hpp, Thrust) share: one
// definition of the update and merge formulas for both (OBLIQ_HD: host and device code).
#pragma once

#include <cstdint>
#include <limits>

#include "obliq/core/config.hpp"
#include "obliq/core/status.hpp"

namespace obliq::sweep {

// Count, mean, sum of squared deviations (m2), min and max of a set of values; the empty set
// (n = 0, min = +inf, max = -inf) is the identity of merge. Its bytes are the statistics'
// serialized form (Statistics::serialize): keep the members and their order.
struct Moments {
  std::uint64_t n = 0;
  double mean = 0, m2 = 0;
  double min = std::numeric_limits<double>::infinity(), max = -std::numeric_limits<double>::infinity();

  // One value; NaN is no value (the sweep leaves NaN outputs out of every statistic).
  OBLIQ_HD static Moments of(double x) {
    Moments r;
    if (x != x) return r;
    r.n = 1;
    r.mean = x;
    r.min = x;
    r.max = x;
    return r;
  }
  OBLIQ_HD void add(double x) {  // Welford
    ++n;
    const double delta = x - mean;
    mean += delta / double(n);
    m2 += delta * (x - mean);
    min = min_(min, x);
    max = max_(max, x);
  }
  // Chan, Golub, LeVeque (1979): the pairwise update of count, mean and sum of squared deviations.
  // Associative and commutative up to rounding, as a parallel reduction needs.
  OBLIQ_HD static Moments merge(const Moments& a, const Moments& b) {
    if (a.n == 0) return b;
    if (b.n == 0) return a;
    Moments r;
    r.n = a.n + b.n;
    const double delta = b.mean - a.mean, na = double(a.n), nb = double(b.n), n = double(r.n);
    r.mean = a.mean + delta * (nb / n);
    r.m2 = a.m2 + b.m2 + delta * delta * (na * nb / n);
    r.min = min_(a.min, b.min);
    r.max = max_(a.max, b.max);
    return r;
  }
};

// How many samples ended with each Status value (indexed by the value); merge adds. Its bytes
// are the statistics' serialized form too.
struct StatusCounts {
  std::uint64_t count[status_kinds] = {};

  // One sample's status; a value outside the enum counts nowhere.
  OBLIQ_HD static StatusCounts of(int status) {
    StatusCounts r;
    r.add(status);
    return r;
  }
  OBLIQ_HD void add(int status) {
    if (status >= 0 && status < status_kinds) ++count[status];
  }
  OBLIQ_HD static StatusCounts merge(const StatusCounts& a, const StatusCounts& b) {
    StatusCounts r;
    for (int k = 0; k < status_kinds; ++k) r.count[k] = a.count[k] + b.count[k];
    return r;
  }
};

}  // namespace obliq::sweep

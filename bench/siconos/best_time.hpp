// bench/siconos/best_time.hpp: the timing rule of the side-by-side Siconos benchmarks.
#pragma once

#include <algorithm>
#include <chrono>

namespace obliq::bench {

// Best of five runs of `pass` (which solves `problems` problems), in microseconds per problem.
template <class F> double best_time_us(F&& pass, int problems) {
  double best = 1e300;
  for (int rep = 0; rep < 5; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    pass();
    const auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double, std::micro>(t1 - t0).count());
  }
  return best / problems;
}

}  // namespace obliq::bench

// cpu/omp_guard.hpp: what every OpenMP region of the host library shares: the thread count
// (a requested count clamped to io::kMaxThreads; 0 means OpenMP's default) and the rule that
// no exception crosses a region (an uncaught one there calls std::terminate): each iteration's
// body runs under OmpGuard::run, the first exception is kept and rethrown after the region by
// OmpGuard::rethrow, in the calling thread, where the caller can turn it into per-line errors.
#pragma once

#include <omp.h>

#include <exception>

#include "io/limits.hpp"

namespace obliq::cpu {

inline int thread_count(int requested) {
  if (requested <= 0) return omp_get_max_threads() < io::kMaxThreads ? omp_get_max_threads() : io::kMaxThreads;
  return requested < io::kMaxThreads ? requested : io::kMaxThreads;
}

// The team for `items` independent pieces of work: never more threads than items, so that a
// region over one scenario (a Simulator step of one system, called thousands of times) runs on
// the calling thread instead of waking a team that spins at its barrier on a loaded machine.
inline int thread_count(int requested, long long items) {
  const int t = thread_count(requested);
  return items < t ? (items < 1 ? 1 : int(items)) : t;
}

class OmpGuard {
 public:
  template <class F> void run(F&& body) noexcept {
    try {
      body();
    } catch (...) {
#pragma omp critical(obliq_omp_guard)
      if (!first_) first_ = std::current_exception();
    }
  }
  // After the region: rethrows the first exception any body threw.
  void rethrow() const {
    if (first_) std::rethrow_exception(first_);
  }

 private:
  std::exception_ptr first_;
};

}  // namespace obliq::cpu

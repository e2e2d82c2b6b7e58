// sweep/random.hpp: the sweep's random numbers. Philox4x64-10 (Random123, Debian's
// librandom123-dev) is a counter-based generator: the number for (seed, stream, sample, index)
// is a pure function of those four, so sample i is the same on any thread, in any chunk, on any
// MPI rank and on a GPU (Random123 compiles under nvcc too), and a seed reproduces bitwise.
#pragma once

#include <Random123/philox.h>
#include <Random123/u01fixedpt.h>

#include <cstdint>

namespace obliq::sweep {

// Independent streams of one sample: what the draw is for.
enum class Stream : std::uint64_t { restitution = 1, q = 2, qdot = 3, friction = 4 };

// A uniform number in the open interval (0, 1) (53-bit fixed point, never 0 or 1):
// key (seed, stream), counter (sample, index, 0, 0), first output word.
inline double uniform01(std::uint64_t seed, Stream stream, std::uint64_t sample, std::uint64_t index) {
  r123::Philox4x64 philox;
  const r123::Philox4x64::ctr_type counter = {{sample, index, 0, 0}};
  const r123::Philox4x64::key_type key = {{seed, static_cast<std::uint64_t>(stream)}};
  return u01fixedpt_open_open_64_double(philox(counter, key)[0]);
}

}  // namespace obliq::sweep

// tests/cuda_emulation/host_memory.hpp: host memory standing in for the device's in the emulated
// call sequences (cuda/sim_glue.hpp's and cuda/friction_glue.hpp's Mem): every copy a fresh
// vector, kept until the object goes; scratch filled with NaN, so that a read before a write shows.
// `transfers` counts the copies between the host and this memory (up, down, to), every object's.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <limits>
#include <memory>
#include <vector>

namespace obliq::emulation {

inline std::atomic<long> transfers{0};

template <class T> struct HostMemory {
  std::vector<std::shared_ptr<void>> keep;
  template <class U> U* up(const U* host, std::size_t n) {
    ++transfers;
    auto v = std::make_shared<std::vector<U>>(host, host + n);
    keep.push_back(v);
    return v->data();
  }
  template <class U> void down(U* host, const U* copy, std::size_t n) {
    ++transfers;
    std::copy(copy, copy + n, host);
  }
  template <class U> void to(U* copy, const U* host, std::size_t n) {
    ++transfers;
    std::copy(host, host + n, copy);
  }
  template <class U> void zero(U* copy, std::size_t n) { std::fill(copy, copy + n, U(0)); }
  T* scratch(std::size_t n) {
    auto v = std::make_shared<std::vector<T>>(n, std::numeric_limits<T>::quiet_NaN());
    keep.push_back(v);
    return v->data();
  }
};

}  // namespace obliq::emulation

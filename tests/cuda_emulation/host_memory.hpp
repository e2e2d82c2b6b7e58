// tests/cuda_emulation/host_memory.hpp: host memory standing in for the device's in the emulated
// call sequences (cuda/sim_glue.hpp's and cuda/friction_glue.hpp's Mem): every copy a fresh
// vector, kept until the object goes; scratch filled with NaN, so that a read before a write shows.
#pragma once

#include <algorithm>
#include <cstddef>
#include <limits>
#include <memory>
#include <vector>

namespace obliq::emulation {

template <class T> struct HostMemory {
  std::vector<std::shared_ptr<void>> keep;
  template <class U> U* up(const U* host, std::size_t n) {
    auto v = std::make_shared<std::vector<U>>(host, host + n);
    keep.push_back(v);
    return v->data();
  }
  template <class U> void down(U* host, const U* copy, std::size_t n) { std::copy(copy, copy + n, host); }
  T* scratch(std::size_t n) {
    auto v = std::make_shared<std::vector<T>>(n, std::numeric_limits<T>::quiet_NaN());
    keep.push_back(v);
    return v->data();
  }
};

}  // namespace obliq::emulation

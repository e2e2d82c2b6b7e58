// tests/cuda/require_device.hpp: the GPU tests' first line: skip with the runtime's reason
// ("no CUDA device found: ...") where there is no usable device.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "obliq/cuda.hpp"

#define OBLIQ_REQUIRE_DEVICE()                                            \
  do {                                                                    \
    std::string why_;                                                     \
    if (!obliq::cuda::device_available(&why_)) GTEST_SKIP() << why_;      \
  } while (0)

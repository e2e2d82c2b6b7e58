// tests/cuda/thrust_device_test.cpp: the sweep's reductions (cuda/sweep_reduce.hpp, Thrust
// transform_reduce) on the device against loops on the host. Skips without a device; the same
// algorithms run on Thrust's CPU systems in CI (tests/cuda_emulation/thrust_test.cpp). The
// hand-back compaction and replicate's tile run on the device in every warp / library / replicate
// test of cuda_backend_test.cpp. In the sanitizer set ('*SanitizerSet*'): Thrust's temporary
// storage comes from obliq's stream-ordered pool (cuda/thrust.cuh).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "obliq/cuda.hpp"
#include "require_device.hpp"
#include "sweep_device.hpp"

namespace {

namespace cd = obliq::cuda::detail;

template <class U> struct DeviceCopy {
  obliq::cuda::DeviceMemory mem;
  explicit DeviceCopy(const std::vector<U>& host) : mem(host.size() * sizeof(U)) {
    if (!host.empty()) {
      EXPECT_EQ(cudaMemcpy(mem.get(), host.data(), host.size() * sizeof(U), cudaMemcpyHostToDevice), cudaSuccess);
    }
  }
  const U* get() const { return static_cast<const U*>(mem.get()); }
};

TEST(CudaSanitizerSet, SweepReductions) {
  OBLIQ_REQUIRE_DEVICE();
  std::mt19937 rng(30);
  std::normal_distribution<double> value(1e3, 2.0);
  std::bernoulli_distribution nan(0.1);
  std::uniform_int_distribution<int> status(-1, obliq::status_kinds);
  for (std::size_t count : {0, 1, 1000, 100001})
    for (std::ptrdiff_t stride : {1, 3}) {
      SCOPED_TRACE("count " + std::to_string(count) + " stride " + std::to_string(stride));
      std::vector<double> v(count * std::size_t(stride));
      for (double& x : v) x = nan(rng) ? std::nan("") : value(rng);
      std::vector<int> st(v.size());
      for (int& s : st) s = status(rng);
      // The oracle: two passes over the non-NaN values; the counts by a loop.
      std::uint64_t n = 0;
      double sum = 0, lo = INFINITY, hi = -INFINITY, m2 = 0;
      std::vector<std::uint64_t> counts(obliq::status_kinds, 0);
      for (std::size_t i = 0; i < count; ++i) {
        const double x = v[i * std::size_t(stride)];
        const int s = st[i * std::size_t(stride)];
        if (s >= 0 && s < obliq::status_kinds) ++counts[std::size_t(s)];
        if (std::isnan(x)) continue;
        ++n, sum += x, lo = std::min(lo, x), hi = std::max(hi, x);
      }
      const double mean = n ? sum / double(n) : 0.0;
      for (std::size_t i = 0; i < count; ++i) {
        const double x = v[i * std::size_t(stride)];
        if (!std::isnan(x)) m2 += (x - mean) * (x - mean);
      }
      const DeviceCopy<double> dv(v);
      const DeviceCopy<int> ds(st);
      const obliq::sweep::Moments m = cd::device_moments(dv.get(), count, stride, nullptr);
      ASSERT_EQ(m.n, n);
      EXPECT_EQ(m.min, lo);
      EXPECT_EQ(m.max, hi);
      EXPECT_NEAR(m.mean, mean, 1e-10);
      EXPECT_NEAR(m.m2, m2, 1e-9 * (m2 + 1));
      const obliq::sweep::StatusCounts c = cd::device_status_counts(ds.get(), count, stride, nullptr);
      for (int k = 0; k < obliq::status_kinds; ++k) EXPECT_EQ(c.count[k], counts[std::size_t(k)]) << "status " << k;
      std::vector<float> f(v.begin(), v.end());
      const DeviceCopy<float> df(f);
      EXPECT_EQ(cd::device_moments(df.get(), count, stride, nullptr).n, n);
    }
}

}  // namespace

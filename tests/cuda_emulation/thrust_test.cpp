// tests/cuda_emulation/thrust_test.cpp: the CUDA backend's Thrust algorithms on Thrust's CPU
// systems, against hand-written loops: cuda/compaction.hpp (the scenarios the warp and library
// paths hand back to the fused kernel), cuda/tile.hpp (obliq::cuda::replicate's copy of a pool
// across a batch) and cuda/sweep_reduce.hpp (a GPU sweep's moments and status counts). The same
// source runs with thrust::cuda::par_nosync in the kernels' files; here each algorithm runs with
// thrust::cpp::par, thrust::omp::par (OpenMP threads) and thrust::device (Thrust's device
// system, the CPP one in this build).
#include <gtest/gtest.h>
#include <omp.h>
#include <thrust/execution_policy.h>
#include <thrust/system/cpp/execution_policy.h>
#include <thrust/system/omp/execution_policy.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "compaction.hpp"
#include "sweep_reduce.hpp"
#include "tile.hpp"

namespace {

namespace cd = obliq::cuda::detail;
using obliq::sweep::Moments;
using obliq::sweep::StatusCounts;

struct Cpp {
  static auto policy() { return thrust::cpp::par; }
};
struct Omp {
  static auto policy() { return thrust::omp::par; }
};
struct Device {
  static auto policy() { return thrust::device; }
};

template <class P> class Thrust : public ::testing::Test {};
using Policies = ::testing::Types<Cpp, Omp, Device>;
TYPED_TEST_SUITE(Thrust, Policies);

TEST(Thrust, DeviceSystemIsTheCpuHere) {
#if THRUST_DEVICE_SYSTEM != THRUST_DEVICE_SYSTEM_CPP
  FAIL() << "tests/cuda_emulation must be built with THRUST_DEVICE_SYSTEM_CPP";
#endif
  EXPECT_GE(omp_get_max_threads(), 1);
}

// --- compaction -----------------------------------------------------------------------------

// The oracle: the marked scenarios in batch order.
std::vector<std::size_t> marked(const std::vector<std::uint8_t>& mask) {
  std::vector<std::size_t> r;
  for (std::size_t s = 0; s < mask.size(); ++s)
    if (mask[s] != 0) r.push_back(s);
  return r;
}

constexpr std::size_t kUnwritten = ~std::size_t(0);

// Compacts `mask` with the policy and checks the selection against the oracle: the count, the
// indices in order, the exclusive scan, nothing written past the selection, and what
// Selection::scenario answers for every thread of the batch.
template <class P> void check_compaction(const std::vector<std::uint8_t>& mask) {
  const std::size_t count = mask.size();
  std::vector<std::size_t> buffer(cd::selection_buffer_size(count), kUnwritten);
  const cd::Selection sel = cd::select_handed_back(P::policy(), mask.data(), count, buffer.data());
  const std::vector<std::size_t> want = marked(mask);
  ASSERT_NE(sel.index, nullptr);
  ASSERT_EQ(*sel.count, want.size());
  for (std::size_t j = 0; j < want.size(); ++j) ASSERT_EQ(sel.index[j], want[j]) << "selection entry " << j;
  std::size_t before = 0;
  for (std::size_t s = 0; s < count; ++s) {
    ASSERT_EQ(buffer[s], before) << "scan entry " << s;
    before += mask[s] != 0;
  }
  ASSERT_EQ(buffer[count], before);
  for (std::size_t j = want.size(); j < count; ++j) ASSERT_EQ(sel.index[j], kUnwritten) << "written past the selection: " << j;
  for (std::size_t j = 0; j < count; ++j) {
    std::size_t s = kUnwritten;
    ASSERT_EQ(sel.scenario(j, s), j < want.size()) << j;
    if (j < want.size()) {
      ASSERT_EQ(s, want[j]);
    }
  }
}

// An empty batch; and a Launch without the compaction's buffer or mask, refused on the host.
TYPED_TEST(Thrust, CompactionOfAnEmptyBatch) {
  std::vector<std::size_t> buffer(cd::selection_buffer_size(0), kUnwritten);
  const cd::Selection sel = cd::select_handed_back(TypeParam::policy(), nullptr, 0, buffer.data());
  EXPECT_EQ(*sel.count, 0u);
  std::size_t s = kUnwritten;
  EXPECT_FALSE(sel.scenario(0, s));
  const std::uint8_t mask = 1;
  EXPECT_THROW(cd::select_handed_back(TypeParam::policy(), &mask, 1, nullptr), std::logic_error);
  EXPECT_THROW(cd::select_handed_back(TypeParam::policy(), nullptr, 1, buffer.data()), std::logic_error);
}

TYPED_TEST(Thrust, CompactionOfNoneAndOfAll) {
  for (std::size_t count : {1, 2, 31, 32, 33, 1000}) {
    SCOPED_TRACE("count " + std::to_string(count));
    check_compaction<TypeParam>(std::vector<std::uint8_t>(count, 0));
    check_compaction<TypeParam>(std::vector<std::uint8_t>(count, 1));
  }
}

// Random masks (any non-zero byte marks: the paths write 1, nothing else should matter), the
// first and last scenario marked alone, and batches large enough for the OpenMP system to split.
TYPED_TEST(Thrust, CompactionKeepsTheBatchOrder) {
  std::mt19937 rng(30);
  for (std::size_t count : {1, 7, 64, 1000, 100003})
    for (double p : {0.01, 0.3, 0.99}) {
      SCOPED_TRACE("count " + std::to_string(count) + " p " + std::to_string(p));
      std::vector<std::uint8_t> mask(count);
      std::bernoulli_distribution hand_back(p);
      std::uniform_int_distribution<int> byte(1, 255);
      for (auto& m : mask) m = hand_back(rng) ? std::uint8_t(byte(rng)) : 0;
      check_compaction<TypeParam>(mask);
    }
  for (std::size_t count : {1, 5, 4097}) {
    std::vector<std::uint8_t> first(count, 0), last(count, 0);
    first.front() = 1;
    last.back() = 1;
    check_compaction<TypeParam>(first);
    check_compaction<TypeParam>(last);
  }
}

// --- the sweep's reductions -----------------------------------------------------------------

// The oracle: two passes in long double over the non-NaN values.
struct Expected {
  std::uint64_t n = 0;
  long double mean = 0, m2 = 0;
  double min = std::numeric_limits<double>::infinity(), max = -std::numeric_limits<double>::infinity();
};
template <class U> Expected expected(const std::vector<U>& v, std::size_t count, std::ptrdiff_t stride) {
  Expected e;
  long double sum = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const double x = double(v[std::size_t(std::ptrdiff_t(i) * stride)]);
    if (std::isnan(x)) continue;
    ++e.n;
    sum += x;
    if (x < e.min) e.min = x;
    if (x > e.max) e.max = x;
  }
  if (e.n == 0) return e;
  e.mean = sum / e.n;
  for (std::size_t i = 0; i < count; ++i) {
    const double x = double(v[std::size_t(std::ptrdiff_t(i) * stride)]);
    if (!std::isnan(x)) e.m2 += (x - e.mean) * (x - e.mean);
  }
  return e;
}

void expect_moments(const Moments& got, const Expected& want, double scale) {
  ASSERT_EQ(got.n, want.n);
  if (want.n == 0) {  // the empty set: merge's identity
    EXPECT_EQ(got.mean, 0.0);
    EXPECT_EQ(got.m2, 0.0);
    EXPECT_EQ(got.min, std::numeric_limits<double>::infinity());
    EXPECT_EQ(got.max, -std::numeric_limits<double>::infinity());
    return;
  }
  EXPECT_EQ(got.min, want.min);
  EXPECT_EQ(got.max, want.max);
  EXPECT_NEAR(got.mean, double(want.mean), 1e-13 * scale);
  EXPECT_NEAR(got.m2, double(want.m2), 1e-11 * (double(want.m2) + scale * scale));
}

TYPED_TEST(Thrust, MomentsOfAnEmptyRangeAndOfNaNsOnly) {
  expect_moments(cd::reduce_moments(TypeParam::policy(), static_cast<const double*>(nullptr), 0), {}, 1);
  const std::vector<double> nans(100, std::nan(""));
  expect_moments(cd::reduce_moments(TypeParam::policy(), nans.data(), nans.size()), {}, 1);
  const std::vector<double> one{-2.5};
  const Moments m = cd::reduce_moments(TypeParam::policy(), one.data(), 1);
  EXPECT_EQ(m.n, 1u);
  EXPECT_EQ(m.mean, -2.5);
  EXPECT_EQ(m.m2, 0.0);
  EXPECT_EQ(m.min, -2.5);
  EXPECT_EQ(m.max, -2.5);
}

// Values with an offset (the case a naive sum of squares gets wrong), NaNs mixed in (left out, as
// the CPU sweep does), contiguous and strided, double and float.
TYPED_TEST(Thrust, MomentsMatchTwoPassesLeavingNaNOut) {
  std::mt19937 rng(6);
  std::normal_distribution<double> value(1e3, 2.0);
  std::bernoulli_distribution nan(0.1);
  for (std::size_t count : {2, 17, 4096, 100001})
    for (std::ptrdiff_t stride : {1, 3}) {
      SCOPED_TRACE("count " + std::to_string(count) + " stride " + std::to_string(stride));
      std::vector<double> v(count * std::size_t(stride));
      for (double& x : v) x = nan(rng) ? std::nan("") : value(rng);
      expect_moments(cd::reduce_moments(TypeParam::policy(), v.data(), count, stride), expected(v, count, stride), 1e3);
      std::vector<float> f(v.begin(), v.end());
      expect_moments(cd::reduce_moments(TypeParam::policy(), f.data(), count, stride), expected(f, count, stride), 1e3);
    }
}

// Stride 0: one value repeated (a broadcast column).
TYPED_TEST(Thrust, MomentsOfABroadcastValue) {
  const std::vector<double> v{4.0};
  const Moments m = cd::reduce_moments(TypeParam::policy(), v.data(), 1000, 0);
  EXPECT_EQ(m.n, 1000u);
  EXPECT_EQ(m.mean, 4.0);
  EXPECT_EQ(m.m2, 0.0);
  EXPECT_EQ(m.min, 4.0);
  EXPECT_EQ(m.max, 4.0);
}

// The reduction and the CPU sweep's leaf (Welford, Moments::add in sample order) agree: the
// same summary, another order of merges.
TYPED_TEST(Thrust, MomentsAgreeWithTheCpuSweepsWelford) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> value(-5, 5);
  std::vector<double> v(5000);
  for (double& x : v) x = value(rng);
  v[17] = std::nan("");
  Moments welford;
  for (double x : v)
    if (!std::isnan(x)) welford.add(x);
  const Moments got = cd::reduce_moments(TypeParam::policy(), v.data(), v.size());
  EXPECT_EQ(got.n, welford.n);
  EXPECT_NEAR(got.mean, welford.mean, 1e-14 * 5);
  EXPECT_NEAR(got.m2, welford.m2, 1e-12 * welford.m2);
  EXPECT_EQ(got.min, welford.min);
  EXPECT_EQ(got.max, welford.max);
}

std::vector<std::uint64_t> expected_counts(const std::vector<int>& st, std::size_t count, std::ptrdiff_t stride) {
  std::vector<std::uint64_t> c(obliq::status_kinds, 0);
  for (std::size_t i = 0; i < count; ++i) {
    const int s = st[std::size_t(std::ptrdiff_t(i) * stride)];
    if (s >= 0 && s < obliq::status_kinds) ++c[std::size_t(s)];
  }
  return c;
}

TYPED_TEST(Thrust, StatusCounts) {
  const StatusCounts none = cd::count_statuses(TypeParam::policy(), nullptr, 0);
  for (int k = 0; k < obliq::status_kinds; ++k) EXPECT_EQ(none.count[k], 0u);
  std::mt19937 rng(8);
  std::uniform_int_distribution<int> status(-1, obliq::status_kinds);  // one out of range at each end
  for (std::size_t count : {1, 100, 65537})
    for (std::ptrdiff_t stride : {1, 2}) {
      SCOPED_TRACE("count " + std::to_string(count) + " stride " + std::to_string(stride));
      std::vector<int> st(count * std::size_t(stride));
      for (int& s : st) s = status(rng);
      const StatusCounts got = cd::count_statuses(TypeParam::policy(), st.data(), count, stride);
      const std::vector<std::uint64_t> want = expected_counts(st, count, stride);
      for (int k = 0; k < obliq::status_kinds; ++k) EXPECT_EQ(got.count[k], want[std::size_t(k)]) << "status " << k;
    }
  const std::vector<int> all_ok(1000, int(obliq::Status::ok));
  const StatusCounts ok = cd::count_statuses(TypeParam::policy(), all_ok.data(), all_ok.size());
  EXPECT_EQ(ok.count[0], 1000u);
  for (int k = 1; k < obliq::status_kinds; ++k) EXPECT_EQ(ok.count[k], 0u);
}

// --- replicate's tile ---------------------------------------------------------------------

// A pool of `pool` scenarios of `block` entries, tiled across `count` in every combination of the
// layouts (interleaved: scenario stride 1; contiguous: element stride 1), against a loop.
TYPED_TEST(Thrust, TileCopiesThePoolAcrossTheBatch) {
  for (std::size_t count : {1, 5, 130})
    for (std::size_t pool : {1, 3, 200})
      for (std::size_t block : {1, 4})
        for (bool dst_interleaved : {false, true})
          for (bool src_interleaved : {false, true}) {
            SCOPED_TRACE("count " + std::to_string(count) + " pool " + std::to_string(pool) + " block " +
                         std::to_string(block) + " interleaved " + std::to_string(dst_interleaved) + "/" +
                         std::to_string(src_interleaved));
            std::vector<float> src(pool * block), dst(count * block, -1.0f);
            for (std::size_t i = 0; i < src.size(); ++i) src[i] = float(i) + 0.5f;
            const auto strides = [](bool interleaved, std::size_t n, std::size_t b) {
              return interleaved ? std::pair<std::ptrdiff_t, std::ptrdiff_t>(1, std::ptrdiff_t(n))
                                 : std::pair<std::ptrdiff_t, std::ptrdiff_t>(std::ptrdiff_t(b), 1);
            };
            const auto [dss, des] = strides(dst_interleaved, count, block);
            const auto [sss, ses] = strides(src_interleaved, pool, block);
            cd::tile_with(TypeParam::policy(), cd::Strided<float>{dst.data(), dss, des},
                          cd::Strided<const float>{src.data(), sss, ses}, count, pool, block);
            for (std::size_t s = 0; s < count; ++s)
              for (std::size_t k = 0; k < block; ++k)
                ASSERT_EQ(dst[s * std::size_t(dss) + k * std::size_t(des)], src[(s % pool) * std::size_t(sss) + k * std::size_t(ses)])
                    << "scenario " << s << " entry " << k;
          }
}

// One global value (scenario stride 0 in the pool), an empty batch or block (nothing written),
// and unset arrays (an error, as before).
TYPED_TEST(Thrust, TileEdgeCases) {
  const std::uint8_t one = 7;
  std::vector<std::uint8_t> dst(50, 0);
  cd::tile_with(TypeParam::policy(), cd::Strided<std::uint8_t>{dst.data(), 1, 50}, cd::Strided<const std::uint8_t>{&one, 0, 1},
                50, 1, 1);
  for (std::uint8_t v : dst) EXPECT_EQ(v, 7);
  std::vector<double> untouched(4, 1.0);
  const double src = 2.0;
  cd::tile_with(TypeParam::policy(), cd::Strided<double>{untouched.data(), 1, 4}, cd::Strided<const double>{&src, 0, 1}, 0, 1, 1);
  cd::tile_with(TypeParam::policy(), cd::Strided<double>{untouched.data(), 1, 4}, cd::Strided<const double>{&src, 0, 1}, 4, 1, 0);
  for (double v : untouched) EXPECT_EQ(v, 1.0);
  EXPECT_THROW(cd::tile_with(TypeParam::policy(), cd::Strided<double>{}, cd::Strided<const double>{&src, 0, 1}, 4, 1, 1),
               std::runtime_error);
  EXPECT_THROW(cd::tile_with(TypeParam::policy(), cd::Strided<double>{untouched.data(), 1, 4}, cd::Strided<const double>{&src, 0, 1},
                             4, 0, 1),
               std::runtime_error);
}

}  // namespace

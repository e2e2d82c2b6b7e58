// tests/cuda_emulation/thrust_test.cpp: the CUDA backend's Thrust algorithms on Thrust's CPU
// systems, against hand-written loops: cuda/compaction.hpp (the scenarios the warp and library
// paths hand back to the fused kernel) and cuda/tile.hpp (obliq::cuda::replicate's copy of a
// pool across a batch). The same source runs with thrust::cuda::par_nosync in the kernels'
// files; here each algorithm runs with thrust::cpp::par, thrust::omp::par (OpenMP threads) and
// thrust::device (Thrust's device system, the CPP one in this build).
#include <gtest/gtest.h>
#include <omp.h>
#include <thrust/execution_policy.h>
#include <thrust/system/cpp/execution_policy.h>
#include <thrust/system/omp/execution_policy.h>

#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "compaction.hpp"
#include "tile.hpp"

namespace {

namespace cd = obliq::cuda::detail;

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

TYPED_TEST(Thrust, CompactionOfAnEmptyBatch) {
  std::vector<std::size_t> buffer(cd::selection_buffer_size(0), kUnwritten);
  const cd::Selection sel = cd::select_handed_back(TypeParam::policy(), nullptr, 0, buffer.data());
  EXPECT_EQ(*sel.count, 0u);
  std::size_t s = kUnwritten;
  EXPECT_FALSE(sel.scenario(0, s));
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

// tests/cuda_emulation/thrust_test.cpp: the CUDA backend's Thrust algorithms on Thrust's CPU
// systems, against hand-written loops: cuda/compaction.hpp (the scenarios the warp and library
// paths hand back to the fused kernel). The same source runs with thrust::cuda::par_nosync in
// the kernels' files; here each algorithm runs with thrust::cpp::par, thrust::omp::par (OpenMP
// threads) and thrust::device (Thrust's device system, the CPP one in this build).
#include <gtest/gtest.h>
#include <omp.h>
#include <thrust/execution_policy.h>
#include <thrust/system/cpp/execution_policy.h>
#include <thrust/system/omp/execution_policy.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "compaction.hpp"

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

}  // namespace

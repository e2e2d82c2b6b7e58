// tests/sweep/statistics_test.cpp: the streaming statistics against direct computation, and
// exact merges (split ranges give the same JSON, bit for bit, as one range).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "obliq/sweep.hpp"
#include "sweep/samples.hpp"
#include "sweep/statistics.hpp"

namespace obliq::sweep {
namespace {

// A ball study: its columns fix the table layout; the values below are synthetic.
Study ball_study(std::uint64_t samples) {
  return parse_study(nlohmann::ordered_json::parse(R"({"mechanism": {"model": "ball", "qdot": [0, 0, -1]},
      "samples": )" + std::to_string(samples) + R"(, "seed": 1, "restitution": 0.5})"),
                     ".");
}

// A table of `count` samples from `first` with values drawn from a fixed generator (some NaN).
SampleTable synthetic(const Study& st, std::uint64_t first, std::size_t count) {
  const int cols = layout(st).total, mu = layout(st).m_u;
  SampleTable t;
  t.first = first;
  t.count = count;
  t.values.resize(count, cols);
  t.status.assign(count, Status::ok);
  t.energy_consistent.assign(count, 1);
  t.candidate.assign(count * mu, 1);
  t.released.assign(count * mu, 0);
  for (std::size_t r = 0; r < count; ++r) {
    std::mt19937_64 g(first + r);  // value i is a function of the sample index only
    std::normal_distribution<double> n(3.0, 2.0);
    for (int c = 0; c < cols; ++c) t.values(r, c) = (g() % 13 == 0) ? NAN : n(g) * (c + 1);
    if (g() % 17 == 0) t.status[r] = Status::not_spd;
    t.released[r * mu] = (first + r) % 3 == 0;
  }
  return t;
}

std::vector<std::pair<double, double>> ranges(const Study& st) {
  return std::vector<std::pair<double, double>>(layout(st).total, {-10.0, 20.0});
}

TEST(SweepStatistics, MomentsHistogramAndQuantilesAgainstDirect) {
  const std::uint64_t N = 3 * kBlock + 123;
  const Study st = ball_study(N);
  Statistics s(st, ranges(st), 0);
  const SampleTable t = synthetic(st, 0, N);
  s.add(t, 2);
  s.finish();
  const auto j = s.to_json();
  const auto cols = columns(st);
  for (std::size_t c = 0; c < cols.size(); ++c) {
    std::vector<double> x;
    for (std::size_t r = 0; r < N; ++r)
      if (!std::isnan(t.values(r, c))) x.push_back(t.values(r, c));
    double mean = 0;
    for (double v : x) mean += v;
    mean /= double(x.size());
    double var = 0;
    for (double v : x) var += (v - mean) * (v - mean);
    var /= double(x.size() - 1);
    const auto& o = j["outputs"][cols[c].name];
    ASSERT_EQ(o["count"].get<std::size_t>(), x.size());
    EXPECT_NEAR(o["mean"].get<double>(), mean, 1e-12 * (std::abs(mean) + std::sqrt(var)));
    EXPECT_NEAR(o["variance"].get<double>(), var, 1e-12 * var);
    EXPECT_EQ(o["min"].get<double>(), *std::min_element(x.begin(), x.end()));
    EXPECT_EQ(o["max"].get<double>(), *std::max_element(x.begin(), x.end()));
    // Histogram: 40 bins over [-10, 20].
    std::vector<std::uint64_t> counts(40, 0);
    std::uint64_t under = 0, over = 0;
    for (double v : x) {
      if (v < -10) ++under;
      else if (v > 20) ++over;
      else ++counts[std::min<std::size_t>(std::size_t((v + 10) * 40 / 30), 39)];
    }
    EXPECT_EQ(o["histogram"]["counts"].get<std::vector<std::uint64_t>>(), counts);
    EXPECT_EQ(o["histogram"]["underflow"].get<std::uint64_t>(), under);
    EXPECT_EQ(o["histogram"]["overflow"].get<std::uint64_t>(), over);
    // Quantiles: the rank of the sketch's answer is within the stated normalized rank error.
    std::sort(x.begin(), x.end());
    const double eps = j["quantile_sketch"]["normalized_rank_error"].get<double>();
    for (const char* p : {"0.05", "0.5", "0.95"}) {
      const double q = o["quantiles"][p].get<double>();
      const double rank = double(std::upper_bound(x.begin(), x.end(), q) - x.begin()) / double(x.size());
      EXPECT_NEAR(rank, std::stod(p), eps + 1.0 / double(x.size())) << cols[c].name << " p" << p;
    }
  }
  std::uint64_t not_spd = 0, released = 0;
  for (std::size_t r = 0; r < N; ++r) {
    not_spd += t.status[r] == Status::not_spd;
    released += t.released[r];
  }
  EXPECT_EQ(j["counts"]["status"][status_reason(Status::not_spd)].get<std::uint64_t>(), not_spd);
  EXPECT_EQ(j["counts"]["released"]["all"]["released"].get<std::uint64_t>(), released);
}

// The same samples in other chunkings, thread counts and block-aligned splits: identical JSON.
TEST(SweepStatistics, ExactAcrossChunksThreadsAndMerges) {
  const std::uint64_t N = 9 * kBlock + 777;
  const Study st = ball_study(N);
  auto whole = [&](std::size_t chunk, int threads) {
    Statistics s(st, ranges(st), 0);
    for (std::uint64_t at = 0; at < N; at += chunk) s.add(synthetic(st, at, std::min<std::uint64_t>(chunk, N - at)), threads);
    s.finish();
    return s.to_json().dump();
  };
  const std::string ref = whole(N, 1);
  EXPECT_EQ(whole(1000, 2), ref);
  EXPECT_EQ(whole(kBlock, 3), ref);
  EXPECT_EQ(whole(333, 1), ref);
  for (int parts : {2, 3, 4, 7}) {
    std::vector<std::unique_ptr<Statistics>> shards;
    for (int p = 0; p < parts; ++p) {
      const auto [b, e] = shard(N, p, parts);
      auto s = std::make_unique<Statistics>(st, ranges(st), b);
      if (e > b) s->add(synthetic(st, b, e - b), 1);
      s->finish();
      shards.push_back(std::move(s));
    }
    for (int p = 1; p < parts; ++p) shards[0]->merge(shards[p]->serialize());
    EXPECT_EQ(shards[0]->to_json().dump(), ref) << parts << " shards";
  }
}

// Every Status of the core has its own count in the summary, named by status_reason (a status
// added before not_solved, the last one, is counted too): sample k gets status k.
TEST(SweepStatistics, EveryStatusIsCounted) {
  const int kinds = int(Status::not_solved) + 1;
  const Study st = ball_study(std::uint64_t(kinds));
  SampleTable t = synthetic(st, 0, std::size_t(kinds));
  for (int k = 0; k < kinds; ++k) t.status[k] = Status(k);
  Statistics stats(st, std::vector<std::pair<double, double>>(layout(st).total, {0.0, 1.0}), 0);
  stats.add(t, 1);
  stats.finish();
  const auto counts = stats.to_json()["counts"]["status"];
  EXPECT_EQ(int(counts.size()), kinds) << counts.dump();
  for (int k = 0; k < kinds; ++k) {
    ASSERT_TRUE(counts.contains(status_reason(Status(k)))) << status_reason(Status(k));
    EXPECT_EQ(counts[status_reason(Status(k))].get<std::uint64_t>(), 1u) << status_reason(Status(k));
  }
}

TEST(SweepStatistics, MisuseIsRefused) {
  const Study st = ball_study(100);
  Statistics s(st, ranges(st), 0);
  EXPECT_THROW(s.add(synthetic(st, 5, 10), 1), std::logic_error);  // not in sample order
  EXPECT_THROW(Statistics(st, ranges(st), 7), std::invalid_argument);  // not on a block boundary
}

}  // namespace
}  // namespace obliq::sweep

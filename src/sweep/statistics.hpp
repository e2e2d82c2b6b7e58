// sweep/statistics.hpp: streaming, mergeable statistics of a sweep in bounded memory
// (docs/sweep.md "Statistics"). Per output: count, mean and variance (Welford within a block,
// Chan et al.'s pairwise merge between blocks), min, max, a fixed-bin histogram and a KLL
// quantile sketch (Apache DataSketches). Per study: status counts per reason, the
// energy-consistent count, and per contact the candidate and released counts.
//
// Reproducibility: samples are grouped in blocks of kBlock consecutive sample indices; a block's
// leaf is built from its values in sample order, and leaves are merged along the fixed binary
// tree over block indices (a node merges its two aligned halves, left then right). The KLL
// sketch's random compaction bit is reseeded from (output, tree node) before each build and
// merge. So every statistic, quantiles included, is a function of the study alone: not of the
// thread count, the chunk size, or of the split of the sample range into block-aligned shards
// (MPI ranks), which merge() puts back together exactly.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

#include "obliq/sweep.hpp"

namespace obliq::sweep {

constexpr std::uint64_t kBlock = 4096;  // samples per leaf of the merge tree

class Statistics {
 public:
  // ranges: one histogram range per column. `begin`: the first sample this object will see
  // (a multiple of kBlock, or 0).
  Statistics(const Study& study, std::vector<std::pair<double, double>> ranges, std::uint64_t begin);
  ~Statistics();
  Statistics(const Statistics&) = delete;
  Statistics& operator=(const Statistics&) = delete;

  // The next chunk, in sample order (t.first == the end of what was added so far). Outputs are
  // folded in parallel (one output per thread at a time: the order within an output is fixed).
  void add(const SampleTable& t, int threads);
  // Closes the range at `end` (a partial last block becomes its own leaf).
  void finish();
  std::uint64_t begin() const;
  std::uint64_t end() const;

  // Exact merge with the statistics of the range that follows this one (another process's
  // shard, finished); this range must end on a block boundary.
  std::vector<std::uint8_t> serialize() const;
  void merge(const std::vector<std::uint8_t>& next);

  // Every statistic (docs/sweep.md "Summary"): "counts" and "outputs".
  nlohmann::ordered_json to_json() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace obliq::sweep

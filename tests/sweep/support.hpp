// tests/sweep/support.hpp: helpers shared by the sweep's test files: studies from JSON text,
// summaries without their run-dependent part, a sweep split into shards and merged, and the
// bitwise comparison of the outputs two studies share.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "obliq/sweep.hpp"
#include "sweep/samples.hpp"
#include "sweep/statistics.hpp"

namespace obliq::sweep::test {

using json = nlohmann::ordered_json;

inline Study study(const std::string& text) {
  return parse_study(json::parse(text), std::string(OBLIQ_SOURCE_DIR) + "/examples");
}

inline json strip_run(json s) {
  s.erase("run");
  return s;
}

// The summary (without "run") of the whole study on `threads` threads in chunks of `chunk`.
inline std::string summary_of(const Study& st, int threads, std::size_t chunk) {
  Options o;
  o.threads = threads;
  o.chunk = chunk;
  return strip_run(summary(st, run(st, o), json::object())).dump();
}

// The same, run as `parts` block-aligned shards (what MPI ranks do) merged in order.
inline std::string sharded_summary(const Study& st, int parts) {
  Result first;
  for (int p = 0; p < parts; ++p) {
    Options o;
    o.threads = 1;
    std::tie(o.begin, o.end) = shard(st.samples, p, parts);
    Result r = run(st, o);
    if (p == 0) first = r;
    else first.stats->merge(r.stats->serialize());
  }
  first.end = first.stats->end();
  return strip_run(summary(st, first, json::object())).dump();
}

// Every output of study `a` has the same bits, sample by sample, in `b`'s table (which may have
// more outputs); the statuses agree. Returns the number of outputs compared.
inline int expect_shared_outputs_bitwise(const Study& a, const SampleTable& ta, const Study& b, const SampleTable& tb) {
  const std::vector<Column> ca = columns(a), cb = columns(b);
  int compared = 0;
  for (std::size_t c = 0; c < ca.size(); ++c) {
    std::size_t k = 0;
    while (k < cb.size() && cb[k].name != ca[c].name) ++k;
    if (k == cb.size()) {
      ADD_FAILURE() << ca[c].name << " missing";
      continue;
    }
    for (std::size_t s = 0; s < ta.count; ++s) {
      const double x = ta.values(s, c), y = tb.values(s, k);
      if (std::memcmp(&x, &y, sizeof x) != 0) {
        ADD_FAILURE() << ca[c].name << " sample " << s << ": " << x << " vs " << y;
        return compared;
      }
    }
    ++compared;
  }
  EXPECT_EQ(ta.status, tb.status);
  return compared;
}

}  // namespace obliq::sweep::test

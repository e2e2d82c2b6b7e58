// sweep/statistics.cpp: the merge tree of blocks (statistics.hpp). The KLL sketch is used only in
// this file: DataSketches keeps its random compaction bit in a per-file `static thread_local`
// engine, which this file reseeds before every sketch build and merge.
#include "sweep/statistics.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "cpu/omp_guard.hpp"
#include "kll_sketch.hpp"
#include "sweep/moments.hpp"
#include "sweep/samples.hpp"

namespace obliq::sweep {
namespace {

using json = nlohmann::ordered_json;
using Sketch = datasketches::kll_sketch<double>;

std::uint64_t splitmix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// The compaction coin of the sketch for tree node (level, pos) of output `column`.
void seed_sketch(int column, int level, std::uint64_t pos) {
  const std::uint64_t h = splitmix(splitmix(splitmix(std::uint64_t(column)) ^ std::uint64_t(level)) ^ pos);
  datasketches::random_utils::random_bit.seed(static_cast<std::uint32_t>(h ^ (h >> 32)));
}

// A node of the merge tree: the statistics of the aligned block range [pos 2^level, (pos+1) 2^level).
struct Node {
  int level = 0;
  std::uint64_t pos = 0;
  Moments m;
  std::vector<std::uint64_t> hist;  // bins, then underflow, overflow
  Sketch sketch{200};
};

// Minimal byte stream for serialize/merge.
struct Writer {
  std::vector<std::uint8_t> bytes;
  template <class T> void put(const T& v) {
    const auto* p = reinterpret_cast<const std::uint8_t*>(&v);
    bytes.insert(bytes.end(), p, p + sizeof(T));
  }
};
struct Reader {
  const std::vector<std::uint8_t>& bytes;
  std::size_t at = 0;
  template <class T> T get() {
    if (at + sizeof(T) > bytes.size()) throw std::runtime_error("sweep statistics: truncated message");
    T v;
    std::memcpy(&v, bytes.data() + at, sizeof(T));
    at += sizeof(T);
    return v;
  }
};

}  // namespace

// One output: the open block's values and the stack of finished tree nodes.
struct Output {
  int column = 0;
  double low = 0, high = 1;
  int bins = 1;
  int k = 200;
  std::vector<double> open;  // values of the open block, in sample order
  std::vector<Node> stack;

  Node leaf(std::uint64_t block) const {
    Node nd;
    nd.level = 0;
    nd.pos = block;
    nd.hist.assign(bins + 2, 0);
    nd.sketch = Sketch(std::uint16_t(k));
    seed_sketch(column, 0, block);
    const double scale = double(bins) / (high - low);
    for (double x : open) {
      nd.m.add(x);
      nd.sketch.update(x);
      if (x < low) ++nd.hist[bins];
      else if (x > high) ++nd.hist[bins + 1];
      else ++nd.hist[std::min<std::size_t>(std::size_t((x - low) * scale), std::size_t(bins - 1))];
    }
    return nd;
  }

  Node join(const Node& left, const Node& right, int level, std::uint64_t pos) const {
    Node nd;
    nd.level = level;
    nd.pos = pos;
    nd.m = Moments::merge(left.m, right.m);
    nd.hist = left.hist;
    for (std::size_t b = 0; b < nd.hist.size(); ++b) nd.hist[b] += right.hist[b];
    seed_sketch(column, level, pos);
    nd.sketch = left.sketch;
    nd.sketch.merge(right.sketch);
    return nd;
  }

  // Push a finished node; merge it with its left sibling while there is one.
  void push(Node nd) {
    while (!stack.empty() && stack.back().level == nd.level && nd.pos % 2 == 1 && stack.back().pos + 1 == nd.pos) {
      Node merged = join(stack.back(), nd, nd.level + 1, nd.pos / 2);
      stack.pop_back();
      nd = std::move(merged);
    }
    stack.push_back(std::move(nd));
  }

  void close_block(std::uint64_t block) {
    push(leaf(block));
    open.clear();
  }

  // The whole range: the stack folded from the right (a fixed order for a given sample count).
  Node total() const {
    if (stack.empty()) {
      Node nd;
      nd.hist.assign(bins + 2, 0);
      nd.sketch = Sketch(std::uint16_t(k));
      return nd;
    }
    Node acc = stack.back();
    for (int i = int(stack.size()) - 2; i >= 0; --i) acc = join(stack[i], acc, 64 + i, stack[i].pos);
    return acc;
  }
};

struct Statistics::Impl {
  std::vector<Column> cols;
  Layout L;
  std::vector<double> quantiles;
  Law law = Law::complementarity;
  std::vector<std::string> contact_names;
  std::vector<Output> outputs;
  std::uint64_t begin = 0, end = 0;
  bool finished = false;
  // Counters (exact): status counts, energy consistent, per unilateral contact candidate/released.
  StatusCounts status_count;                // by Status value (sweep/moments.hpp)
  std::vector<std::uint64_t> non_finite;    // by column: ok solves rejected for that output (samples.hpp)
  std::uint64_t energy_consistent = 0;
  std::vector<std::uint64_t> candidate, released;
  bool trajectory = false;
  std::uint64_t at_rest = 0;  // trajectory samples
};

Statistics::Statistics(const Study& study, std::vector<std::pair<double, double>> ranges, std::uint64_t begin)
    : impl_(std::make_unique<Impl>()) {
  Impl& s = *impl_;
  s.cols = columns(study);
  s.L = layout(study);
  s.quantiles = study.quantiles;
  s.law = study.law;
  s.trajectory = study.trajectory.has_value();
  s.contact_names = study.contact_names;
  if (ranges.size() != s.cols.size()) throw std::invalid_argument("Statistics: one histogram range per column");
  if (begin % kBlock != 0) throw std::invalid_argument("Statistics: a range must begin on a block boundary");
  s.outputs.resize(s.cols.size());
  for (std::size_t c = 0; c < s.cols.size(); ++c) {
    Output& o = s.outputs[c];
    o.column = int(c);
    o.low = ranges[c].first;
    o.high = ranges[c].second;
    o.bins = study.bins;
    o.k = study.sketch_k;
    o.open.reserve(kBlock);
  }
  s.begin = s.end = begin;
  s.non_finite.assign(s.cols.size(), 0);
  s.candidate.assign(s.L.m_u, 0);
  s.released.assign(s.L.m_u, 0);
}

Statistics::~Statistics() = default;
std::uint64_t Statistics::begin() const { return impl_->begin; }
std::uint64_t Statistics::end() const { return impl_->end; }

void Statistics::add(const SampleTable& t, int threads) {
  Impl& s = *impl_;
  if (t.first != s.end || s.finished) throw std::logic_error("Statistics::add: chunks must come in sample order");
  const long long nout = static_cast<long long>(s.outputs.size());
  cpu::OmpGuard guard;  // no exception crosses the region (cpu/omp_guard.hpp)
#pragma omp parallel for schedule(dynamic, 1) num_threads(cpu::thread_count(threads))
  for (long long c = 0; c < nout; ++c) {
    guard.run([&] {
      Output& o = s.outputs[c];
      for (std::size_t r = 0; r < t.count; ++r) {
        const std::uint64_t i = t.first + r;
        const double x = t.values(r, c);
        if (!std::isnan(x)) o.open.push_back(x);
        if ((i + 1) % kBlock == 0) o.close_block(i / kBlock);
      }
    });
  }
  guard.rethrow();
  for (std::size_t r = 0; r < t.count; ++r) {
    if (!t.non_finite.empty() && t.non_finite[r] >= 0) ++s.non_finite[t.non_finite[r]];
    else s.status_count.add(int(t.status[r]));
    s.energy_consistent += t.status[r] == Status::ok && t.energy_consistent[r];
    if (s.trajectory) s.at_rest += t.status[r] == Status::ok && t.at_rest[r];
    for (int k = 0; k < s.L.m_u; ++k) {
      s.candidate[k] += t.candidate[r * s.L.m_u + k];
      s.released[k] += t.released[r * s.L.m_u + k];
    }
  }
  s.end += t.count;
}

void Statistics::finish() {
  Impl& s = *impl_;
  if (s.finished) return;
  if (s.end % kBlock != 0)
    for (Output& o : s.outputs) o.close_block(s.end / kBlock);
  s.finished = true;
}

std::vector<std::uint8_t> Statistics::serialize() const {
  const Impl& s = *impl_;
  Writer w;
  w.put(s.begin);
  w.put(s.end);
  w.put(s.status_count);
  for (auto v : s.non_finite) w.put(v);
  w.put(s.energy_consistent);
  w.put(s.at_rest);
  for (auto v : s.candidate) w.put(v);
  for (auto v : s.released) w.put(v);
  for (const Output& o : s.outputs) {
    w.put(std::uint64_t(o.stack.size()));
    for (const Node& nd : o.stack) {
      w.put(nd.level);
      w.put(nd.pos);
      w.put(nd.m);
      for (auto v : nd.hist) w.put(v);
      const auto bytes = nd.sketch.serialize();
      w.put(std::uint64_t(bytes.size()));
      w.bytes.insert(w.bytes.end(), bytes.begin(), bytes.end());
    }
  }
  return w.bytes;
}

void Statistics::merge(const std::vector<std::uint8_t>& next) {
  Impl& s = *impl_;
  Reader r{next};
  const auto begin = r.get<std::uint64_t>(), end = r.get<std::uint64_t>();
  if (begin != s.end || (s.end % kBlock != 0 && end > begin))
    throw std::invalid_argument("Statistics::merge: the next range must start where this one ends, on a block boundary");
  s.status_count = StatusCounts::merge(s.status_count, r.get<StatusCounts>());
  for (auto& v : s.non_finite) v += r.get<std::uint64_t>();
  s.energy_consistent += r.get<std::uint64_t>();
  s.at_rest += r.get<std::uint64_t>();
  for (auto& v : s.candidate) v += r.get<std::uint64_t>();
  for (auto& v : s.released) v += r.get<std::uint64_t>();
  for (Output& o : s.outputs) {
    const auto nodes = r.get<std::uint64_t>();
    for (std::uint64_t k = 0; k < nodes; ++k) {
      Node nd;
      nd.level = r.get<int>();
      nd.pos = r.get<std::uint64_t>();
      nd.m = r.get<Moments>();
      nd.hist.resize(o.bins + 2);
      for (auto& v : nd.hist) v = r.get<std::uint64_t>();
      const auto size = r.get<std::uint64_t>();
      if (r.at + size > next.size()) throw std::runtime_error("sweep statistics: truncated message");
      nd.sketch = Sketch::deserialize(next.data() + r.at, size);
      r.at += size;
      o.push(std::move(nd));
    }
  }
  s.end = end;
}

json Statistics::to_json() const {
  const Impl& s = *impl_;
  json counts;
  const std::uint64_t samples = s.end - s.begin;
  const std::uint64_t ok = s.status_count.count[int(Status::ok)];
  counts["samples"] = samples;
  json status = json::object();
  for (int k = 0; k < status_kinds; ++k)
    if (s.status_count.count[k] > 0) status[status_reason(Status(k))] = s.status_count.count[k];
  for (std::size_t c = 0; c < s.non_finite.size(); ++c)  // by output group, in column order
    if (s.non_finite[c] > 0) {
      const std::string reason = non_finite_reason(s.cols[c]);
      status[reason] = status.value(reason, std::uint64_t(0)) + s.non_finite[c];
    }
  counts["status"] = status;
  if (s.trajectory) {
    counts["at_rest"] = {{"count", s.at_rest}, {"fraction", ok > 0 ? double(s.at_rest) / double(ok) : 0.0}};
  } else {  // impact samples: energy-consistent, per contact candidate and released
    counts["energy_consistent"] = {{"count", s.energy_consistent},
                                   {"fraction", ok > 0 ? double(s.energy_consistent) / double(ok) : 0.0}};
    json released = json::object();
    std::uint64_t cand_all = 0, rel_all = 0;
    for (int k = 0; k < s.L.m_u; ++k) {
      released[s.contact_names[s.L.m_b + k]] = {
          {"candidate", s.candidate[k]},
          {"released", s.released[k]},
          {"fraction", s.candidate[k] > 0 ? double(s.released[k]) / double(s.candidate[k]) : 0.0}};
      cand_all += s.candidate[k];
      rel_all += s.released[k];
    }
    released["all"] = {{"candidate", cand_all},
                       {"released", rel_all},
                       {"fraction", cand_all > 0 ? double(rel_all) / double(cand_all) : 0.0}};
    counts["released"] = released;
    counts["released_means"] = s.law == Law::complementarity
                                   ? "candidate rows left without impulse by the complementarity law"
                                   : "candidate rows whose projection-law impulse pulls (lambda < 0): the complementarity law would release them";
  }

  json outputs = json::object();
  for (const Output& o : s.outputs) {
    const Node t = o.total();
    json j;
    j["unit"] = s.cols[o.column].unit;
    j["count"] = t.m.n;
    // No value: no statistic (the count says so). A statistic that does not fit in a double (the
    // variance of values past about 1e154) is left out and named under "overflowed": JSON has no
    // Infinity, and a summary never carries a null.
    if (t.m.n > 0) {
      json overflow = json::array();
      const auto put = [&](json& into, const char* key, double x) {
        if (std::isfinite(x)) into[key] = x;
        else overflow.push_back(key);
      };
      put(j, "mean", t.m.mean);
      const double var = t.m.n > 1 ? t.m.m2 / double(t.m.n - 1) : 0.0;
      put(j, "variance", var);
      put(j, "sd", std::sqrt(var));
      put(j, "min", t.m.min);
      put(j, "max", t.m.max);
      json q = json::object();
      for (double p : s.quantiles) {
        char key[32];
        std::snprintf(key, sizeof key, "%g", p);
        put(q, key, t.sketch.get_quantile(p));
      }
      j["quantiles"] = q;
      if (!overflow.empty()) j["overflowed"] = overflow;
    }
    j["histogram"] = {{"low", o.low},
                      {"high", o.high},
                      {"counts", std::vector<std::uint64_t>(t.hist.begin(), t.hist.begin() + o.bins)},
                      {"underflow", t.hist[o.bins]},
                      {"overflow", t.hist[o.bins + 1]}};
    outputs[s.cols[o.column].name] = j;
  }
  json all;
  all["counts"] = counts;
  all["outputs"] = outputs;
  all["quantile_sketch"] = {{"kind", "KLL (Apache DataSketches)"},
                            {"k", s.outputs.empty() ? 0 : s.outputs[0].k},
                            {"normalized_rank_error", Sketch::get_normalized_rank_error(
                                                          std::uint16_t(s.outputs.empty() ? 200 : s.outputs[0].k), false)}};
  return all;
}

}  // namespace obliq::sweep

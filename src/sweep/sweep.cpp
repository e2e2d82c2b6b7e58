// sweep/sweep.cpp: the chunk loop of a sweep (docs/sweep.md), sharding and the summary.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include "obliq/sweep.hpp"
#include "obliq/version.hpp"
#include "sweep/samples.hpp"
#include "sweep/statistics.hpp"

namespace obliq::sweep {
namespace {

using json = nlohmann::ordered_json;

constexpr std::uint64_t kPilot = 1024;  // samples [0, kPilot) fix the histogram ranges not given

// Histogram range per column: the study's (exact name, or a group such as "impulse" for every
// "impulse.<contact>"), else the pilot's [min, max] widened by 5 % on each side. `first`: a chunk
// that starts at sample 0 (or null); when it holds the whole pilot, the pilot is read from it
// instead of being solved again (sample i is the same wherever it is solved).
std::vector<std::pair<double, double>> histogram_ranges(const Study& st, int threads, Backend backend,
                                                        const SampleTable* first) {
  const std::vector<Column> cols = columns(st);
  std::vector<std::pair<double, double>> r(cols.size(), {0.0, 1.0});
  std::vector<bool> given(cols.size(), false);
  for (std::size_t c = 0; c < cols.size(); ++c)
    for (const auto& [name, range] : st.ranges)
      if (cols[c].name == name || cols[c].name.rfind(name + ".", 0) == 0) {
        r[c] = range;
        given[c] = true;
      }
  if (std::all_of(given.begin(), given.end(), [](bool g) { return g; })) return r;
  const std::size_t pilot_count = std::size_t(std::min(st.samples, kPilot));
  SampleTable own;
  const bool reuse = first && first->first == 0 && first->count >= pilot_count;
  if (!reuse) run_samples(st, 0, pilot_count, threads, own, backend);
  const SampleTable& pilot = reuse ? *first : own;
  for (std::size_t c = 0; c < cols.size(); ++c) {
    if (given[c]) continue;
    double lo = INFINITY, hi = -INFINITY;
    for (std::size_t s = 0; s < pilot_count; ++s) {
      const double x = pilot.values(s, c);
      if (std::isnan(x)) continue;
      lo = std::min(lo, x);
      hi = std::max(hi, x);
    }
    if (!(lo <= hi)) continue;  // no value in the pilot: [0, 1]
    // Values near the limits of double: the padded range and its width stay finite (a wider
    // range would bin every value in its first bin), values beyond count as under- or overflow.
    const double w = hi - lo, top = std::numeric_limits<double>::max();
    const double pad = !std::isfinite(w) ? 0.05 * hi - 0.05 * lo : w > 0 ? 0.05 * w : std::max(0.05 * std::abs(lo), 1e-9);
    double low = std::max(lo - pad, -top), high = std::min(hi + pad, top);
    if (!std::isfinite(high - low)) {  // low < 0 < high: halve the reach on both sides
      low = std::max(low, -top / 2);
      high = std::min(high, top / 2);
    }
    r[c] = {low, high};
  }
  return r;
}

}  // namespace

std::pair<std::uint64_t, std::uint64_t> shard(std::uint64_t samples, int rank, int size) {
  const std::uint64_t blocks = (samples + kBlock - 1) / kBlock;
  const auto edge = [&](int r) { return std::min(samples, (blocks * std::uint64_t(r) / std::uint64_t(size)) * kBlock); };
  return {edge(rank), edge(rank + 1)};
}

Result run(const Study& st, const Options& opt) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::uint64_t begin = std::min(opt.begin, st.samples), end = std::min(opt.end, st.samples);
  Result res;
  res.begin = begin;
  const std::size_t chunk = std::max<std::size_t>(opt.chunk, 1);
  SampleTable table;
  ChunkBuffers buffers;
  std::uint64_t at = begin;
  bool solved = false;  // `table` holds the chunk at `at` already
  if (begin == 0 && end > 0 && !(opt.stop && opt.stop->load())) {  // the first chunk may hold the pilot
    run_samples(st, 0, std::size_t(std::min<std::uint64_t>(chunk, end)), opt.threads, table, buffers, opt.backend);
    solved = true;
  }
  res.stats = std::make_shared<Statistics>(st, histogram_ranges(st, opt.threads, opt.backend, solved ? &table : nullptr),
                                           begin);
  while (at < end) {
    if (opt.stop && opt.stop->load()) {
      res.partial = true;
      break;
    }
    const std::size_t count = std::size_t(std::min<std::uint64_t>(chunk, end - at));
    if (!solved) run_samples(st, at, count, opt.threads, table, buffers, opt.backend);
    solved = false;
    res.stats->add(table, opt.threads);
    if (opt.on_chunk) opt.on_chunk(table);
    at += count;
    if (opt.progress) opt.progress(at - begin, end - begin);
  }
  res.stats->finish();
  res.end = at;
  res.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return res;
}

json summary(const Study& st, const Result& result, const json& run_info) {
  json j;
  j["obliq_version"] = version_string;
  j["study"] = st.source;
  j["name"] = st.name;
  j["seed"] = st.seed;
  j["samples_requested"] = st.samples;
  j["samples_done"] = result.end - result.begin;
  j["partial"] = result.partial || result.end - result.begin < st.samples;
  j["law"] = law_name(st.law);
  j["sample_kind"] = st.trajectory ? "trajectory" : "impact";
  if (st.trajectory) {
    const Trajectory& tr = *st.trajectory;
    j["trajectory"] = {{"integrator", tr.sim.integrator == sim::Integrator::event_driven ? "event" : "moreau"},
                       {"dt", tr.dt},
                       {"steps", tr.steps},
                       {"T", tr.dt * double(tr.steps)},
                       {"rest_energy", tr.rest_energy}};
  }
  const json stats = result.stats->to_json();
  for (auto it = stats.begin(); it != stats.end(); ++it) j[it.key()] = it.value();
  j["run"] = run_info;
  return j;
}

json run_info(const Result& result, int threads, std::size_t chunk, int ranks, Backend backend) {
  json info;
  info["wall_time_s"] = result.wall_s;
  info["samples_per_s"] = result.wall_s > 0 ? double(result.end - result.begin) / result.wall_s : 0.0;
  info["threads"] = threads;
  info["chunk"] = chunk;
  info["ranks"] = ranks;
  info["backend"] = backend_name(backend);
  return info;
}

std::string summary_text(const json& s) {
  std::ostringstream out;
  char line[512];
  out << "obliq sweep: " << s["name"].get<std::string>() << " (" << s["law"].get<std::string>() << " law, seed "
      << s["seed"] << ")" << (s["partial"].get<bool>() ? "  ** PARTIAL **" : "") << "\n";
  const auto& c = s["counts"];
  out << "  samples " << s["samples_done"] << " of " << s["samples_requested"];
  if (s.contains("run") && s["run"].contains("wall_time_s")) {
    std::snprintf(line, sizeof line, " in %.2f s (%.0f samples/s)", s["run"]["wall_time_s"].get<double>(),
                  s["run"]["samples_per_s"].get<double>());
    out << line;
  }
  out << "\n  status:";
  for (auto it = c["status"].begin(); it != c["status"].end(); ++it) out << "  " << it.key() << " " << it.value();
  if (c.contains("at_rest"))
    std::snprintf(line, sizeof line, "\n  at rest at T = %g s: %.4f of ok samples\n", s["trajectory"]["T"].get<double>(),
                  c["at_rest"]["fraction"].get<double>());
  else
    std::snprintf(line, sizeof line, "\n  energy-consistent: %.4f of ok samples;  released contacts: %.4f of candidates\n",
                  c["energy_consistent"]["fraction"].get<double>(), c["released"]["all"]["fraction"].get<double>());
  out << line;
  std::snprintf(line, sizeof line, "  %-36s %-7s %11s %11s %11s %11s %11s\n", "output", "unit", "mean", "sd", "p5",
                "median", "p95");
  out << line;
  for (auto it = s["outputs"].begin(); it != s["outputs"].end(); ++it) {
    const auto& o = it.value();
    if (o["count"].get<std::uint64_t>() == 0) {
      std::snprintf(line, sizeof line, "  %-36s %-7s %11s\n", it.key().c_str(), o["unit"].get<std::string>().c_str(),
                    "(no values)");
    } else {
      // A statistic left out (it overflows double, "overflowed") or not asked for (a quantile).
      const auto cell = [](const json& in, const char* k) {
        char text[32] = "-";
        if (in.contains(k)) std::snprintf(text, sizeof text, "%.4g", in[k].get<double>());
        return std::string(text);
      };
      std::snprintf(line, sizeof line, "  %-36s %-7s %11s %11s %11s %11s %11s\n", it.key().c_str(),
                    o["unit"].get<std::string>().c_str(), cell(o, "mean").c_str(), cell(o, "sd").c_str(),
                    cell(o["quantiles"], "0.05").c_str(), cell(o["quantiles"], "0.5").c_str(),
                    cell(o["quantiles"], "0.95").c_str());
    }
    out << line;
  }
  return out.str();
}

}  // namespace obliq::sweep

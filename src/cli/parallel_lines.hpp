// src/cli/parallel_lines.hpp: the per-line work of a chunk on all threads, for every command that
// reads lines (impact, dynamics, lcp, model, simulate). for_each_line runs body(k) for the lines
// k of a chunk over OpenMP threads (--threads), each line writing only its own slot, so that the
// output keeps the input order; HeldLines holds a chunk's lines as text and parses them at flush
// time the same way.
#pragma once

#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "cli/pump.hpp"
#include "cpu/omp_guard.hpp"

namespace obliq::cli {

// body(k) for k in [0, count) on up to `threads` threads (0: all), `grain` lines at a time.
// No exception crosses the region (cpu/omp_guard.hpp): the first one is rethrown after it.
// A body that returns bool ("this line is an error line") makes the result their or.
template <class Body> bool for_each_line(std::size_t count, int threads, Body&& body, int grain = 64) {
  bool any = false;
  cpu::OmpGuard guard;
  const long long n = static_cast<long long>(count);
#pragma omp parallel for schedule(dynamic, grain) num_threads(cpu::thread_count(threads, (n + grain - 1) / grain)) \
    reduction(|| : any)
  for (long long k = 0; k < n; ++k) {
    guard.run([&] {
      if constexpr (std::is_same_v<decltype(body(std::size_t(k))), bool>) {
        if (body(std::size_t(k))) any = true;
      } else {
        body(std::size_t(k));
      }
    });
  }
  guard.rethrow();
  return any;
}

// A LineBatch that holds its lines as text until flush, where parse_held turns them into
// parsed lines on all threads.
class HeldLines : public LineBatch {
 public:
  void add(const std::string& line, long number) override { held_.push_back({line, number, {}}); }
  void add_error(long number, const std::string& reason) override { held_.push_back({{}, number, reason}); }
  std::size_t size() const override { return held_.size(); }

 protected:
  // Every held line through parse(text, number) -> std::optional<Parsed> (nullopt: a blank
  // line, dropped); a line that could not be read becomes a Parsed with its line number as `id`
  // and the reason as `error`. In input order; the held lines are forgotten.
  template <class Parsed, class Parse> std::vector<Parsed> parse_held(int threads, Parse&& parse) {
    std::vector<std::optional<Parsed>> parsed(held_.size());
    for_each_line(held_.size(), threads, [&](std::size_t k) {
      const Held& h = held_[k];
      if (h.error.empty()) {
        parsed[k] = parse(h.text, h.number);
      } else {
        parsed[k].emplace();
        parsed[k]->id = h.number;
        parsed[k]->error = h.error;
      }
    });
    held_.clear();
    std::vector<Parsed> out;
    out.reserve(parsed.size());
    for (auto& p : parsed)
      if (p) out.push_back(std::move(*p));
    return out;
  }

 private:
  struct Held {
    std::string text;
    long number = 0;
    std::string error;  // the reason a line could not be read (too long), else ""
  };
  std::vector<Held> held_;
};

}  // namespace obliq::cli

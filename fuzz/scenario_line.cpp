// fuzz/scenario_line.cpp: the JSON Lines reader of `obliq impact` / `obliq dynamics` (and the
// writer of its error lines) on arbitrary bytes. A finding is a crash, a sanitizer report, an
// exception out of the reader, an ok parse with a non-finite number in the scenario, or a line
// where the reader (simdjson first, nlohmann for what it refuses) and nlohmann's reader alone
// disagree (io/scenario_line.hpp: the same id, error and numbers bit for bit).
#include <cmath>
#include <cstdint>
#include <string_view>

#include "io/scenario_line.hpp"
#include "obliq/io/scenario_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  for (obliq::io::Use use : {obliq::io::Use::impact, obliq::io::Use::dynamics}) {
    obliq::io::ScenarioLine l = obliq::io::parse_scenario_line(line, 1, use);
    if (l.blank) continue;
    const std::string out = obliq::io::dump_line(obliq::io::error_to_json(l.id, l.error.empty() ? "x" : l.error));
    if (out.empty()) __builtin_trap();
    if (l.error.empty() && (!l.scenario.M.allFinite() || !l.scenario.qdot.allFinite())) __builtin_trap();
    if (!obliq::io::same_scenario_line(l, obliq::io::parse_scenario_line_nlohmann(line, 1, use))) __builtin_trap();
  }
  return 0;
}

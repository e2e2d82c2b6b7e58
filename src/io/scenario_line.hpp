// io/scenario_line.hpp: the two readers behind io::parse_scenario_line (scenario_json.cpp), for
// the tests and the fuzz target that check them against each other. parse_scenario_line first
// tries simdjson (fast: no allocation per value); every line simdjson or the reader refuses, and
// every line with a backslash, is read again by nlohmann's DOM, whose answer (and message) is
// the line's. So both must give the same ScenarioLine, bit for bit, on every line the fast path
// accepts.
#pragma once

#include <string_view>

#include "obliq/io/scenario_json.hpp"

namespace obliq::io {

// nlohmann's DOM only: the reader every line falls back to.
ScenarioLine parse_scenario_line_nlohmann(std::string_view line, long line_number, Use use);

// Whether two parsed lines are the same: blank, id (its JSON text), error, and every number of
// the scenario and the friction bit for bit (the same double, -0.0 apart from 0.0).
bool same_scenario_line(const ScenarioLine& a, const ScenarioLine& b);

}  // namespace obliq::io

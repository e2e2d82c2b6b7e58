// obliq/io/lcp_json.hpp: the JSON Lines of `obliq lcp` (docs/lcp.md), part of obliq::io.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "obliq/lcp.hpp"

namespace obliq {

// JSON Lines of `obliq lcp`: {"id": ..., "M": [[...]] row-major, "q": [...], "solver"?: "...",
// "warm"?: [active indices]}.
struct LcpLine {
  nlohmann::json id;   // as given, else the 1-based physical line number
  LcpProblem problem;  // valid when error is empty
  std::string error;   // non-empty: the reason for an "error: <reason>" line
};
// Parses one non-blank line (line_number is 1-based, used as the id when there is none).
LcpLine parse_lcp_json_line(std::string_view line, long line_number);

// The output object {"id", "status", "z", "w", "active", "iterations", "residual", "solver",
// "warm"}; z, w and active only when status is "ok" (an error line carries no answer), residual
// left out when not finite, warm (true: the answer came from the line's warm active set) only
// when the line gave one (warm_given); an ok answer with a non-finite number becomes an error
// line naming it (no null is ever written).
nlohmann::json lcp_result_json(const nlohmann::json& id, const LcpSolution& solution, bool warm_given = false);
// The output object of a line that could not be parsed.
nlohmann::json lcp_error_json(const nlohmann::json& id, const std::string& reason);

}  // namespace obliq

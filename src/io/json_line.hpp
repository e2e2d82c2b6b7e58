// io/json_line.hpp: one physical line of a JSON Lines input into a JSON value, safely, for every
// command that reads JSON Lines (impact/dynamics scenarios, lcp problems, model states).
//
// Before nlohmann::json sees the text, one scan outside strings (a) measures the nesting depth
// and refuses a line deeper than io::kMaxJsonDepth (the parser and the writer recurse), and
// (b) replaces each literal JSON does not have (NaN, Infinity, inf, ... with a sign) and each
// number that overflows a double (1e999) by a marker string, so that the line still parses,
// the reader can name the key holding it ("non-finite number in qdot[1]") and the line keeps
// its own "id". A line that is not valid JSON for any other reason still keeps its "id" when
// the id's value was complete before the defect.
//
// Nothing here throws for a bad line: every problem comes back as a reason string.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace obliq::io {

// The reason for a line whose only defect is a non-finite literal in a place no reader looked.
inline constexpr const char* kNonFiniteReason = "non-finite number (NaN, Infinity or a literal that overflows a double)";

template <class J> struct JsonLine {
  bool blank = false;      // whitespace only: no output, but the line number counts
  J value;                 // the parsed line (when error is empty); may be any JSON type
  J id;                    // the line's own "id" when readable, else the 1-based line number
  std::string error;       // "" when the text parsed; else the reason (after "error: ")
  bool non_finite = false; // some literal was replaced by the marker (see is_non_finite_marker)
};

// Parses one physical line (trailing '\r' and '\n' ignored). `line_number` is 1-based.
template <class J> JsonLine<J> parse_json_line(std::string_view line, long line_number);

// Whether `v` is the stand-in of a non-finite literal.
template <class J> bool is_non_finite_marker(const J& v);

// Whether the line holds only whitespace (space, tab, CR, LF, FF, VT): a blank line.
bool is_blank(std::string_view line);

// The largest nesting depth of the JSON text (brackets outside strings), stopping early once
// it exceeds `limit` (then returns limit + 1).
int json_depth(std::string_view text, int limit);

}  // namespace obliq::io

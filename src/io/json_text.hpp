// io/json_text.hpp: compact JSON text of a value (the output lines of every command), with
// numbers in the shortest form that reads back to the same double (std::to_chars), laid out as
// nlohmann::json's dump lays them out ("1.0", "0.0001", "1e-05", "1.5e+300": a float always
// shows a point or an exponent). nlohmann's Grisu2 digits are not always the shortest; these
// are. Strings are escaped by nlohmann's rules (invalid UTF-8 replaced by U+FFFD).
#pragma once

#include <string>

namespace obliq::io {

// Appends the text of a finite double x. A non-finite x is written "null" (as nlohmann does; the
// writers check every number of an ok line first, so none is ever written).
void append_double(std::string& out, double x);

// Appends the compact text of v: nlohmann::json or nlohmann::ordered_json.
template <class J> void append_json(std::string& out, const J& v);

}  // namespace obliq::io

// sweep/study_keys.hpp: the keys of a study file (docs/sweep.md "The study file"). Every object of
// a study, at every level, is checked against the keys that level knows: an unknown key (most
// often a misspelt one, which would otherwise be ignored and its default used) is an error that
// names it, where it is, and the closest known key. JSON null is refused anywhere in a study.
#pragma once

#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace obliq::sweep {

// Optimal string alignment distance: insertions, deletions, substitutions and transpositions of
// two adjacent characters each cost 1 ("restitutoin" is 1 from "restitution").
std::size_t edit_distance(std::string_view a, std::string_view b);

// Throws std::invalid_argument "unknown key 'K' in WHERE (did you mean 'C'?)" for the first key
// of object `j` that is not in `known`; C is the closest known key when it is close (an edit
// distance of at most 1 + |K| / 4), else the message lists the known keys. `j` not an object:
// nothing to check.
void check_keys(const nlohmann::ordered_json& j, const std::vector<std::string>& known, const std::string& where);
void check_keys(const nlohmann::ordered_json& j, std::initializer_list<const char*> known, const std::string& where);
// The same for one string value that must be one of `known` ("unknown value 'V' in WHERE ...").
void check_value(const std::string& value, const std::vector<std::string>& known, const std::string& where);

// Throws std::invalid_argument "study: null is not a value (at PATH)" for the first null in `j`.
void check_no_null(const nlohmann::ordered_json& j);

}  // namespace obliq::sweep

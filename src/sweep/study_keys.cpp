// sweep/study_keys.cpp: unknown keys and nulls in a study file (study_keys.hpp).
#include "sweep/study_keys.hpp"

#include <algorithm>
#include <stdexcept>

namespace obliq::sweep {
namespace {

using json = nlohmann::ordered_json;

[[noreturn]] void unknown(const char* what, const std::string& name, const std::vector<std::string>& known,
                          const std::string& where) {
  std::string msg = std::string("unknown ") + what + " '" + name + "' in " + where;
  const std::string* best = nullptr;
  std::size_t best_d = 0;
  for (const std::string& k : known) {
    const std::size_t d = edit_distance(name, k);
    if (!best || d < best_d) {
      best = &k;
      best_d = d;
    }
  }
  if (best && best_d <= 1 + name.size() / 4) {
    msg += " (did you mean '" + *best + "'?)";
  } else if (!known.empty()) {
    msg += std::string(" (known ") + what + "s: ";
    for (std::size_t i = 0; i < known.size(); ++i) msg += (i ? ", " : "") + known[i];
    msg += ")";
  }
  throw std::invalid_argument(msg);
}

void find_null(const json& j, const std::string& path) {
  if (j.is_null()) throw std::invalid_argument("study: null is not a value (at " + path + ")");
  if (j.is_object())
    for (auto it = j.begin(); it != j.end(); ++it) find_null(it.value(), path.empty() ? it.key() : path + "." + it.key());
  else if (j.is_array())
    for (std::size_t k = 0; k < j.size(); ++k) find_null(j[k], path + "[" + std::to_string(k) + "]");
}

}  // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // d[i][j]: distance between a[0, i) and b[0, j), three rows kept.
  std::vector<std::size_t> prev2(b.size() + 1), prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) cur[j] = std::min(cur[j], prev2[j - 2] + 1);
    }
    std::swap(prev2, prev);
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

void check_keys(const json& j, const std::vector<std::string>& known, const std::string& where) {
  if (!j.is_object()) return;
  for (auto it = j.begin(); it != j.end(); ++it)
    if (std::find(known.begin(), known.end(), it.key()) == known.end()) unknown("key", it.key(), known, where);
}

void check_keys(const json& j, std::initializer_list<const char*> known, const std::string& where) {
  check_keys(j, std::vector<std::string>(known.begin(), known.end()), where);
}

void check_value(const std::string& value, const std::vector<std::string>& known, const std::string& where) {
  if (std::find(known.begin(), known.end(), value) == known.end()) unknown("value", value, known, where);
}

void check_no_null(const json& j) { find_null(j, ""); }

}  // namespace obliq::sweep

// io/json_line.cpp: one JSON line into a value, with the depth bound and the non-finite marker.
#include "io/json_line.hpp"

#include <cmath>
#include <cstdlib>

#include "io/limits.hpp"

namespace obliq::io {
namespace {

// Stands in for a non-finite literal (a string no JSON number can be, with a control character
// no real key value is likely to hold). Written into the text JSON-escaped.
constexpr const char* kMarker = "\x01non-finite";
constexpr const char* kMarkerText = "\"\\u0001non-finite\"";

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool in_number(char c) { return is_digit(c) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'; }
char lower(char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; }

bool starts_non_finite_word(std::string_view w) {
  for (std::string_view word : {"nan", "inf"}) {
    if (w.size() < word.size()) continue;
    bool same = true;
    for (std::size_t i = 0; i < word.size(); ++i) same = same && lower(w[i]) == word[i];
    if (same) return true;
  }
  return false;
}

// A number token overflows a double: only a token with an exponent or more than 300 digits can.
bool overflows(std::string_view token) {
  bool exponent = false;
  for (char c : token) exponent = exponent || c == 'e' || c == 'E';
  if (!exponent && token.size() <= 300) return false;
  const std::string t(token);
  char* end = nullptr;
  const double v = std::strtod(t.c_str(), &end);
  return end != t.c_str() && std::isinf(v);
}

// The scan: depth (up to limit + 1) and, when `marked` is given, the text with every
// non-finite literal replaced by the marker. Returns whether any literal was replaced.
bool scan(std::string_view text, int limit, int& max_depth, std::string* marked) {
  bool replaced = false;
  int depth = 0;
  max_depth = 0;
  bool in_string = false;
  std::size_t copied = 0;  // text[0, copied) is already in *marked
  const auto replace = [&](std::size_t start, std::size_t end) {
    replaced = true;
    if (!marked) return;
    marked->append(text.substr(copied, start - copied));
    marked->append(kMarkerText);
    copied = end;
  };
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') i += 2;
      else {
        if (c == '"') in_string = false;
        ++i;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
      ++i;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) max_depth = depth;
      if (max_depth > limit) return replaced;
      ++i;
    } else if (c == ']' || c == '}') {
      --depth;
      ++i;
    } else if (is_alpha(c) || ((c == '-' || c == '+') && i + 1 < text.size() && is_alpha(text[i + 1]))) {
      std::size_t end = i + (is_alpha(c) ? 0 : 1);
      const std::size_t word = end;
      while (end < text.size() && (is_alpha(text[end]) || is_digit(text[end]))) ++end;
      if (starts_non_finite_word(text.substr(word, end - word))) replace(i, end);
      i = end;
    } else if (is_digit(c) || c == '-' || c == '+' || c == '.') {
      std::size_t end = i;
      while (end < text.size() && in_number(text[end])) ++end;
      if (overflows(text.substr(i, end - i))) replace(i, end);
      i = end;
    } else {
      ++i;
    }
  }
  if (marked && replaced) marked->append(text.substr(copied));
  return replaced;
}

// After a syntax error: the top-level "id" if its value was complete before the defect.
template <class J> bool id_before_error(std::string_view text, J& id) {
  std::string last_key;
  bool found = false;
  typename J::parser_callback_t cb = [&](int depth, nlohmann::json::parse_event_t ev, J& parsed) {
    using E = nlohmann::json::parse_event_t;
    if (depth != 1) return true;
    if (ev == E::key) {
      last_key = parsed.template get<std::string>();
    } else if (last_key == "id" && (ev == E::value || ev == E::array_end || ev == E::object_end)) {
      if (!is_non_finite_marker(parsed)) {
        id = parsed;
        found = true;
      }
    }
    return true;
  };
  const J discarded = J::parse(text.begin(), text.end(), cb, /*allow_exceptions=*/false);
  (void)discarded;
  return found;
}

}  // namespace

bool is_blank(std::string_view line) {
  for (char c : line)
    if (c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != '\f' && c != '\v') return false;
  return true;
}

int json_depth(std::string_view text, int limit) {
  int depth = 0;
  scan(text, limit, depth, nullptr);
  return depth;
}

template <class J> bool is_non_finite_marker(const J& v) {
  return v.is_string() && v.template get_ref<const typename J::string_t&>() == kMarker;
}

template <class J> JsonLine<J> parse_json_line(std::string_view line, long line_number) {
  JsonLine<J> out;
  while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.remove_suffix(1);
  if (is_blank(line)) {
    out.blank = true;
    return out;
  }
  out.id = line_number;
  int depth = 0;
  std::string marked;
  out.non_finite = scan(line, kMaxJsonDepth, depth, &marked);
  if (depth > kMaxJsonDepth) {
    out.error = "too deeply nested (more than " + std::to_string(kMaxJsonDepth) + " levels of [ and {)";
    return out;
  }
  const std::string_view text = out.non_finite ? std::string_view(marked) : line;
  try {
    out.value = J::parse(text.begin(), text.end());
  } catch (const std::exception& e) {
    if (out.non_finite) {
      out.error = kNonFiniteReason;
    } else {
      std::string what = e.what();
      const std::string tag = "parse error at line 1, ";
      if (auto p = what.find(tag); p != std::string::npos) what = what.substr(p + tag.size());
      out.error = "not a JSON object (invalid JSON: " + what + ")";
    }
    J id;
    if (id_before_error(text, id)) out.id = std::move(id);
    return out;
  }
  if (out.value.is_object()) {
    if (auto it = out.value.find("id"); it != out.value.end() && !is_non_finite_marker(*it)) out.id = *it;
  }
  return out;
}

template JsonLine<nlohmann::json> parse_json_line<nlohmann::json>(std::string_view, long);
template JsonLine<nlohmann::ordered_json> parse_json_line<nlohmann::ordered_json>(std::string_view, long);
template bool is_non_finite_marker<nlohmann::json>(const nlohmann::json&);
template bool is_non_finite_marker<nlohmann::ordered_json>(const nlohmann::ordered_json&);

}  // namespace obliq::io

// io/json_text.cpp: compact JSON text with std::to_chars numbers (io/json_text.hpp).
#include "io/json_text.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
#include <system_error>

namespace obliq::io {
namespace {

// nlohmann's exponent: a sign and at least two digits ("e+05", "e-123").
char* append_exponent(char* p, int e) {
  *p++ = e < 0 ? '-' : '+';
  if (e < 0) e = -e;
  if (e >= 100) *p++ = char('0' + e / 100);
  *p++ = char('0' + e / 10 % 10);
  *p++ = char('0' + e % 10);
  return p;
}

// A string of printable ASCII without '"' or '\\' is its own JSON text; others go to nlohmann.
bool plain(const std::string& s) {
  for (const char c : s)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e || c == '"' || c == '\\')
      return false;
  return true;
}

void append_string(std::string& out, const std::string& s) {
  if (plain(s)) {
    ((out += '"') += s) += '"';
    return;
  }
  out += nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

template <class I> void append_integer(std::string& out, I i) {
  char buf[24];
  out.append(buf, std::to_chars(buf, buf + sizeof buf, i).ptr);
}

}  // namespace

void append_double(std::string& out, double x) {
  if (!std::isfinite(x)) {
    out += "null";
    return;
  }
  char buf[64];
  char* p = buf;
  if (std::signbit(x)) {
    *p++ = '-';
    x = -x;
  }
  if (x == 0) {
    out.append(buf, p);
    out += "0.0";
    return;
  }
  // The shortest digits d.ddd and exponent E (value = d.ddd 10^E), then nlohmann's layout
  // (dtoa_impl::format_buffer with min_exp = -4, max_exp = 15): the digits D = dddd (k of them)
  // with the point after position n = E + 1.
  char sci[40];
  const std::to_chars_result r = std::to_chars(sci, sci + sizeof sci, x, std::chars_format::scientific);
  char digits[24];
  int k = 0;
  const char* s = sci;
  for (; s < r.ptr && *s != 'e'; ++s)
    if (*s != '.') digits[k++] = *s;
  int E = 0;
  std::from_chars(s + 1 + (s[1] == '+'), r.ptr, E);
  const int n = E + 1;
  if (k <= n && n <= 15) {  // digits[000].0
    std::memcpy(p, digits, std::size_t(k));
    p += k;
    std::memset(p, '0', std::size_t(n - k));
    p += n - k;
    *p++ = '.';
    *p++ = '0';
  } else if (0 < n && n <= 15) {  // dig.its
    std::memcpy(p, digits, std::size_t(n));
    p += n;
    *p++ = '.';
    std::memcpy(p, digits + n, std::size_t(k - n));
    p += k - n;
  } else if (-4 < n && n <= 0) {  // 0.[000]digits
    *p++ = '0';
    *p++ = '.';
    std::memset(p, '0', std::size_t(-n));
    p += -n;
    std::memcpy(p, digits, std::size_t(k));
    p += k;
  } else {  // d.igitse+XX, or de+XX for one digit
    *p++ = digits[0];
    if (k > 1) {
      *p++ = '.';
      std::memcpy(p, digits + 1, std::size_t(k - 1));
      p += k - 1;
    }
    *p++ = 'e';
    p = append_exponent(p, n - 1);
  }
  out.append(buf, p);
}

template <class J> void append_json(std::string& out, const J& v) {
  using T = nlohmann::json::value_t;
  switch (v.type()) {
    case T::object: {
      out += '{';
      bool first = true;
      for (auto it = v.begin(); it != v.end(); ++it) {
        if (!first) out += ',';
        first = false;
        append_string(out, it.key());
        out += ':';
        append_json(out, it.value());
      }
      out += '}';
      return;
    }
    case T::array: {
      out += '[';
      bool first = true;
      for (const auto& x : v) {
        if (!first) out += ',';
        first = false;
        append_json(out, x);
      }
      out += ']';
      return;
    }
    case T::string: append_string(out, v.template get_ref<const std::string&>()); return;
    case T::number_float: append_double(out, v.template get<double>()); return;
    case T::number_integer: append_integer(out, v.template get<std::int64_t>()); return;
    case T::number_unsigned: append_integer(out, v.template get<std::uint64_t>()); return;
    case T::boolean: out += v.template get<bool>() ? "true" : "false"; return;
    case T::null: out += "null"; return;
    default: out += v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); return;
  }
}

template void append_json<nlohmann::json>(std::string&, const nlohmann::json&);
template void append_json<nlohmann::ordered_json>(std::string&, const nlohmann::ordered_json&);

}  // namespace obliq::io

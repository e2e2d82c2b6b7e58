// io/simd_value.hpp: a simdjson DOM value seen through the members of nlohmann::json that the
// scenario reader uses (scenario_json.cpp's Reader: type tests, size, iteration, find), so that
// one reader serves both parsers. simdjson parses a line several times faster than nlohmann's
// DOM (no allocation per value); the reader falls back to nlohmann for every line it refuses
// (scenario_json.cpp "parse_scenario_line"), so messages and accepted lines stay the same.
#pragma once

#include <simdjson.h>

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace obliq::io {

// An object's fields as found on one pass over it, for the reader's many lookups.
struct SimdField {
  std::string_view key;
  simdjson::dom::element value;
};

class SimdValue {
 public:
  explicit SimdValue(simdjson::dom::element e) : e_(e) {}
  // An object whose fields were listed in `fields` (they must outlive the value).
  SimdValue(simdjson::dom::element e, const std::vector<SimdField>* fields) : e_(e), fields_(fields) {}

  bool is_object() const { return e_.is_object(); }
  bool is_array() const { return e_.is_array(); }
  bool is_string() const { return e_.is_string(); }
  bool is_number() const { return e_.is_number(); }

  // nlohmann::json::type_name()'s words.
  const char* type_name() const {
    using T = simdjson::dom::element_type;
    switch (e_.type()) {
      case T::ARRAY: return "array";
      case T::OBJECT: return "object";
      case T::STRING: return "string";
      case T::BOOL: return "boolean";
      case T::NULL_VALUE: return "null";
      default: return "number";
    }
  }

  // Elements of an array, fields of an object (simdjson's count saturates at 2^24 - 1: counted).
  std::size_t size() const {
    if (is_object()) return object().size();
    if (!is_array()) return 1;
    const simdjson::dom::array a = array();
    std::size_t n = a.size();
    if (n == 0xFFFFFF) {
      n = 0;
      for (auto it = a.begin(); it != a.end(); ++it) ++n;
    }
    return n;
  }
  bool empty() const { return (is_array() || is_object()) && size() == 0; }

  // The value of `key` in an object: the last one when a key repeats (nlohmann's rule).
  std::optional<SimdValue> find(std::string_view key) const {
    std::optional<SimdValue> v;
    if (fields_) {
      for (auto it = fields_->rbegin(); it != fields_->rend(); ++it)
        if (it->key == key) return SimdValue(it->value);
      return v;
    }
    if (!is_object()) return v;
    const simdjson::dom::object o = object();
    for (const auto field : o)
      if (field.key == key) v = SimdValue(field.value);
    return v;
  }

  // Entry i of an array, walking from the start (for messages; loops iterate instead).
  SimdValue operator[](std::size_t i) const {
    const simdjson::dom::array a = array();
    for (const simdjson::dom::element x : a)
      if (i-- == 0) return SimdValue(x);
    return *this;
  }

  class iterator {
   public:
    explicit iterator(simdjson::dom::array::iterator it) : it_(it) {}
    SimdValue operator*() const { return SimdValue(*it_); }
    iterator& operator++() {
      ++it_;
      return *this;
    }
    bool operator!=(const iterator& o) const { return it_ != o.it_; }

   private:
    simdjson::dom::array::iterator it_;
  };
  iterator begin() const { return iterator(array().begin()); }
  iterator end() const { return iterator(array().end()); }

  // A number as a double (integers converted, as nlohmann's get<double>()).
  double number() const { return e_.get_double().value_unsafe(); }  // simdjson converts integers
  std::string_view string() const { return e_.get_string().value_unsafe(); }
  // An integer's decimal text (as nlohmann writes it), or "" for any other value.
  std::string integer_text() const {
    char buf[24];
    std::to_chars_result r{buf, {}};
    if (e_.is_int64()) r = std::to_chars(buf, buf + sizeof buf, e_.get_int64().value_unsafe());
    else if (e_.is_uint64()) r = std::to_chars(buf, buf + sizeof buf, e_.get_uint64().value_unsafe());
    return std::string(buf, r.ptr);
  }

  // The fields of an object, in order (a repeated key listed each time).
  void list_fields(std::vector<SimdField>& out) const {
    out.clear();
    const simdjson::dom::object o = object();
    for (const auto field : o) out.push_back({field.key, field.value});
  }

  // The value as nlohmann's parser would have built it (a non-negative integer unsigned, a
  // negative one signed, a repeated key's last value at its first place).
  template <class J> J to_json() const {
    using T = simdjson::dom::element_type;
    switch (e_.type()) {
      case T::ARRAY: {
        J a = J::array();
        const simdjson::dom::array in = array();
        for (const simdjson::dom::element x : in) a.push_back(SimdValue(x).to_json<J>());
        return a;
      }
      case T::OBJECT: {
        J o = J::object();
        const simdjson::dom::object in = object();
        for (const auto field : in)
          o[std::string(field.key)] = SimdValue(field.value).to_json<J>();
        return o;
      }
      case T::INT64: {
        const std::int64_t v = e_.get_int64().value_unsafe();
        return v >= 0 ? J(std::uint64_t(v)) : J(v);
      }
      case T::UINT64: return J(e_.get_uint64().value_unsafe());
      case T::DOUBLE: return J(e_.get_double().value_unsafe());
      case T::STRING: return J(std::string(string()));
      case T::BOOL: return J(e_.get_bool().value_unsafe());
      default: return J(nullptr);
    }
  }

 private:
  // By value: simdjson_result::value_unsafe() returns a reference into the temporary result.
  simdjson::dom::object object() const {
    simdjson::dom::object o;
    if (e_.get(o) != simdjson::SUCCESS) return {};  // not an object: callers test first
    return o;
  }
  simdjson::dom::array array() const {
    simdjson::dom::array a;
    if (e_.get(a) != simdjson::SUCCESS) return {};  // not an array: callers test first
    return a;
  }

  simdjson::dom::element e_;
  const std::vector<SimdField>* fields_ = nullptr;
};

}  // namespace obliq::io

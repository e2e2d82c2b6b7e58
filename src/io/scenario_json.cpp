// io/scenario_json.cpp: scenario lines in, result lines out (docs/format.md).
#include "obliq/io/scenario_json.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>
#include <type_traits>

#include "io/json_line.hpp"
#include "io/json_text.hpp"
#include "io/limits.hpp"
#include "io/scenario_line.hpp"
#include "io/simd_value.hpp"

namespace obliq::io {
namespace {

// "a number", "an array", ... for messages.
std::string a_type(const char* type_name) {
  std::string t = type_name;
  if (t == "null") return t;
  bool vowel = !t.empty() && std::string("aeiou").find(t[0]) != std::string::npos;
  return (vowel ? "an " : "a ") + t;
}

// The two parsers' values seen alike by the Reader: nlohmann's (json, ordered_json) and
// simdjson's (SimdValue, src/io/simd_value.hpp).
template <class J> const J* lookup(const J& obj, const char* key) {
  auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}
std::optional<SimdValue> lookup(const SimdValue& obj, const char* key) { return obj.find(key); }
template <class J> double number_of(const J& v) { return v.template get<double>(); }
double number_of(const SimdValue& v) { return v.number(); }
template <class J> std::string_view string_of(const J& v) { return v.template get_ref<const std::string&>(); }
std::string_view string_of(const SimdValue& v) { return v.string(); }
template <class J> bool is_marker(const J& v) { return is_non_finite_marker(v); }
bool is_marker(const SimdValue&) { return false; }  // simdjson refuses the non-finite literals

template <class J> std::string short_text(const J& v) {
  std::string s = v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (s.size() > 40) s = s.substr(0, 37) + "...";
  return s;
}
std::string short_text(const SimdValue& v) {
  if (std::string t = v.integer_text(); !t.empty()) return t;
  return short_text(v.to_json<ojson>());
}

// Where a number sits, for messages only (built when a message is): "qdot[1]", "M[2][0]".
struct Where {
  const char* key;
  int i = -1, k = -1;
  std::string text() const {
    std::string t = key;
    if (i >= 0) t += "[" + std::to_string(i) + "]";
    if (k >= 0) t += "[" + std::to_string(k) + "]";
    return t;
  }
};

// Where an expected length comes from, for messages only: "n = 3 from M".
struct From {
  const char* name;
  int value;
  const char* source = nullptr;
  std::string text() const {
    std::string t = std::string(name) + " = " + std::to_string(value);
    if (source) t += std::string(" from ") + source;
    return t;
  }
};

// Reads the keys of one scenario object; every function returns "" or the reason.
template <class J> struct Reader {
  const J& obj;

  auto find(const char* key) const { return lookup(obj, key); }

  // One entry: a finite number.
  static std::string number(const J& v, const Where& where, double& out) {
    if (is_marker(v)) return "non-finite number in " + where.text();
    if (!v.is_number()) return where.text() + ": not a number (got " + a_type(v.type_name()) + ")";
    out = number_of(v);
    if (!std::isfinite(out)) return "non-finite number in " + where.text();
    return {};
  }

  // A vector of `len` numbers; absent and not required: zeros.
  std::string vector(const char* key, const From& len, bool required, Eigen::VectorXd& out) const {
    const auto v = find(key);
    if (!v) {
      if (required) return std::string("missing required key \"") + key + "\"";
      out = Eigen::VectorXd::Zero(len.value);
      return {};
    }
    if (is_marker(*v)) return std::string("non-finite number in ") + key;
    if (!v->is_array())
      return std::string(key) + ": expected an array of " + std::to_string(len.value) + " numbers, got " +
             a_type(v->type_name());
    if (const std::size_t size = v->size(); size != std::size_t(len.value))
      return std::string("bad shape: ") + key + " has " + std::to_string(size) + " entries, expected " +
             std::to_string(len.value) + " (" + len.text() + ")";
    out.resize(len.value);
    int i = 0;
    for (const auto& x : *v) {
      if (auto r = number(x, Where{key, i}, out[i]); !r.empty()) return r;
      ++i;
    }
    return {};
  }

  // A matrix: an array of rows, each an array of `cols` numbers. Absent: zero rows (A_b, A_u)
  // unless required.
  std::string matrix(const char* key, const From& cols, bool required, Eigen::MatrixXd& out) const {
    const auto v = find(key);
    if (!v) {
      if (required) return std::string("missing required key \"") + key + "\"";
      out.resize(0, cols.value);
      return {};
    }
    if (is_marker(*v)) return std::string("non-finite number in ") + key;
    if (!v->is_array())
      return std::string(key) + ": expected an array of rows (arrays of numbers), got " + a_type(v->type_name());
    out.resize(Eigen::Index(v->size()), cols.value);
    int i = 0;
    for (const auto& row : *v) {
      if (is_marker(row)) return "non-finite number in " + Where{key, i}.text();
      if (!row.is_array())
        return Where{key, i}.text() + ": expected a row (an array of " + std::to_string(cols.value) +
               " numbers), got " + a_type(row.type_name());
      if (const std::size_t size = row.size(); size != std::size_t(cols.value))
        return "bad shape: " + Where{key, i}.text() + " has " + std::to_string(size) + " entries, expected " +
               std::to_string(cols.value) + " (" + cols.text() + ")";
      int k = 0;
      for (const auto& x : row) {
        if (auto r = number(x, Where{key, i, k}, out(i, k)); !r.empty()) return r;
        ++k;
      }
      ++i;
    }
    return {};
  }

  std::string tolerance(const char* key, double& out) const {
    const auto v = find(key);
    if (!v) return {};  // keep the default
    if (auto r = number(*v, Where{key}, out); !r.empty()) return r;
    if (out < 0) return std::string(status_reason(Status::bad_tolerance)) + " (" + key + " = " + short_text(*v) + ")";
    return {};
  }
};

template <class J> std::string read_scenario(const J& j, Use use, Scenario& s) {
  if (!j.is_object()) return "not a JSON object (got " + a_type(j.type_name()) + ")";
  Reader<J> rd{j};
  const bool impact = use != Use::dynamics, dynamics = use != Use::impact;

  // Shapes: n from M, m_b from A_b, m_u from A_u.
  const auto M = rd.find("M");
  if (!M) return "missing required key \"M\"";
  if (is_marker(*M)) return "non-finite number in M";
  if (!M->is_array()) return "M: expected an n x n array of rows, got " + a_type(M->type_name());
  const std::size_t M_rows = M->size();
  if (M_rows == 0) return "bad shape: M is empty (n must be at least 1)";
  const int n = int(std::min<std::size_t>(M_rows, std::size_t(kMaxDofs) + 1));
  if (n > kMaxDofs)
    return "too large (n = " + std::to_string(M_rows) + " from M; at most " + std::to_string(kMaxDofs) + ")";
  const auto rows_in = [&](const char* key) {
    const auto v = rd.find(key);
    return v && v->is_array() ? v->size() : std::size_t(0);
  };
  if (const std::size_t rows = rows_in("A_b") + rows_in("A_u"); rows > std::size_t(kMaxRows))
    return "too large (m_b + m_u = " + std::to_string(rows) + " rows in A_b and A_u; at most " +
           std::to_string(kMaxRows) + ")";
  const From n_from{"n", n, "M"};
  if (auto r = rd.matrix("M", n_from, true, s.M); !r.empty()) return r;
  if (auto r = rd.vector("qdot", n_from, true, s.qdot); !r.empty()) return r;
  if (auto r = rd.matrix("A_b", n_from, false, s.A_b); !r.empty()) return r;
  if (auto r = rd.matrix("A_u", n_from, false, s.A_u); !r.empty()) return r;
  const int m_b = int(s.A_b.rows()), m_u = int(s.A_u.rows());
  const From mu_from{"m_u", m_u, "A_u"};
  const From m_from{"m_b + m_u", m_b + m_u, "A_b and A_u"};

  // Optional vectors; keys the command does not use stay zero.
  if (auto r = rd.vector("phi_u", mu_from, false, s.phi_u); !r.empty()) return r;
  s.h = s.u = s.i_u = Eigen::VectorXd::Zero(n);
  s.Adot_qdot = Eigen::VectorXd::Zero(m_b + m_u);
  s.e = Eigen::VectorXd::Zero(m_u);
  if (dynamics) {
    if (auto r = rd.vector("h", n_from, false, s.h); !r.empty()) return r;
    if (auto r = rd.vector("u", n_from, false, s.u); !r.empty()) return r;
    if (auto r = rd.vector("Adot_qdot", m_from, false, s.Adot_qdot); !r.empty()) return r;
  }
  if (impact) {
    if (auto r = rd.vector("i_u", n_from, false, s.i_u); !r.empty()) return r;
    // Restitution: one global number (broadcast to every unilateral row) or one per row.
    if (const auto e = rd.find("e")) {
      if (e->is_array()) {
        if (auto r = rd.vector("e", mu_from, false, s.e); !r.empty()) return r;
        for (int i = 0; i < m_u; ++i)
          if (s.e[i] < 0 || s.e[i] > 1)
            return std::string(status_reason(Status::bad_restitution)) + " (e[" + std::to_string(i) +
                   "] = " + short_text((*e)[std::size_t(i)]) + ")";
      } else {
        double g = 0;
        if (auto r = Reader<J>::number(*e, Where{"e"}, g); !r.empty())
          return is_marker(*e) ? r : r + " (e is a number or an array of m_u numbers)";
        s.e.setConstant(m_u, g);
        if (g < 0 || g > 1) return std::string(status_reason(Status::bad_restitution)) + " (e = " + short_text(*e) + ")";
      }
    }
  }

  // Law and tolerances.
  s.law = Law::complementarity;
  if (const auto law = rd.find("law")) {
    if (is_marker(*law)) return "non-finite number in law";
    if (!law->is_string())
      return "law: expected \"projection\" or \"complementarity\", got " + a_type(law->type_name());
    const std::string_view name = string_of(*law);
    if (name == "projection") s.law = Law::projection;
    else if (name == "complementarity") s.law = Law::complementarity;
    else return "unknown law " + short_text(*law) + " (expected \"projection\" or \"complementarity\")";
  }
  s.gap_tol = s.vel_tol = 1e-9;
  if (auto r = rd.tolerance("gap_tol", s.gap_tol); !r.empty()) return r;
  if (auto r = rd.tolerance("vel_tol", s.vel_tol); !r.empty()) return r;

  // The id as text (the echoed JSON value itself is kept by the caller).
  s.id.clear();
  if (const auto id = rd.find("id")) s.id = id->is_string() ? std::string(string_of(*id)) : short_text(*id);
  return {};
}

// Friction keys (docs/friction.md, docs/format.md): "mu" (a number for every unilateral row, or
// an array of m_u, each >= 0), "A_t" ((dim - 1) m_u rows of n: tangent rows (dim - 1) i + j of
// unilateral row i), "dim" (2 or 3; default: 2 when A_t has m_u rows, else 3), for impacts "e_t"
// (m_u tangential restitution coefficients in [0, 1], default 0) and for dynamics "Adot_qdot_t"
// ((dim - 1) m_u). No "mu", or every mu = 0: no friction (f stays empty).
template <class J> std::string read_friction(const J& j, const Scenario& s, Use use, std::optional<Friction>& f) {
  Reader<J> rd{j};
  f.reset();
  const int n = int(s.M.rows()), m_u = int(s.A_u.rows());
  const auto mu = rd.find("mu");
  const auto At = rd.find("A_t");
  if (!mu && !At) return {};
  Friction out;
  const From mu_from{"m_u", m_u, "A_u"};
  out.mu = Eigen::VectorXd::Zero(m_u);
  if (mu) {
    if (mu->is_array()) {
      if (auto r = rd.vector("mu", mu_from, false, out.mu); !r.empty()) return r;
    } else {
      double g = 0;
      if (auto r = Reader<J>::number(*mu, Where{"mu"}, g); !r.empty())
        return is_marker(*mu) ? r : r + " (mu is a number or an array of m_u numbers)";
      out.mu.setConstant(m_u, g);
    }
    for (int i = 0; i < m_u; ++i)
      if (out.mu[i] < 0)
        return std::string(status_reason(Status::bad_friction)) + " (mu[" + std::to_string(i) + "] = " +
               std::to_string(out.mu[i]) + ")";
  }
  if (auto r = rd.matrix("A_t", From{"n", n, "M"}, false, out.A_t); !r.empty()) return r;
  out.dim = m_u > 0 && out.A_t.rows() == m_u ? 2 : 3;
  if (const auto d = rd.find("dim")) {
    double v = 0;
    if (auto r = Reader<J>::number(*d, Where{"dim"}, v); !r.empty()) return r;
    if (v != 2 && v != 3) return "dim: expected 2 (plane) or 3 (space), got " + short_text(*d);
    out.dim = int(v);
  }
  if (out.mu.size() > 0 && out.mu.maxCoeff() <= 0) return {};  // frictionless: today's answer
  if (m_u == 0) return {};
  if (!At) return "missing key \"A_t\" (tangent rows; required when some mu > 0)";
  if (out.A_t.rows() != (out.dim - 1) * m_u)
    return "bad shape: A_t has " + std::to_string(out.A_t.rows()) + " rows, expected " +
           std::to_string((out.dim - 1) * m_u) + " ((dim - 1) m_u, dim = " + std::to_string(out.dim) + ")";
  if (use != Use::dynamics && rd.find("e_t")) {
    if (auto r = rd.vector("e_t", mu_from, false, out.e_t); !r.empty()) return r;
    for (int i = 0; i < m_u; ++i)
      if (out.e_t[i] < 0 || out.e_t[i] > 1)
        return std::string(status_reason(Status::bad_restitution)) + " (e_t[" + std::to_string(i) + "])";
  }
  if (use != Use::impact) {
    const From t_from{"(dim - 1) m_u", (out.dim - 1) * m_u};
    if (auto r = rd.vector("Adot_qdot_t", t_from, false, out.Adot_qdot_t); !r.empty()) return r;
  }
  f = std::move(out);
  return {};
}

template <class V> ojson array_of(const V& v) {
  ojson a = ojson::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) a.push_back(v[i]);
  return a;
}

template <class Mat> nlohmann::json rows_of(const Mat& m) {
  nlohmann::json a = nlohmann::json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    nlohmann::json row = nlohmann::json::array();
    for (Eigen::Index k = 0; k < m.cols(); ++k) row.push_back(m(i, k));
    a.push_back(std::move(row));
  }
  return a;
}

template <class V> nlohmann::json plain_array_of(const V& v) {
  nlohmann::json a = nlohmann::json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) a.push_back(v[i]);
  return a;
}

}  // namespace

std::string scenario_from_json(const nlohmann::json& j, Use use, Scenario& out) { return read_scenario(j, use, out); }
std::string scenario_from_json(const ojson& j, Use use, Scenario& out) { return read_scenario(j, use, out); }

ScenarioLine parse_scenario_line_nlohmann(std::string_view line, long line_number, Use use) {
  JsonLine<ojson> parsed = parse_json_line<ojson>(line, line_number);
  ScenarioLine out;
  out.blank = parsed.blank;
  out.id = std::move(parsed.id);
  if (parsed.blank) return out;
  if (!parsed.error.empty()) {
    out.error = std::move(parsed.error);
    return out;
  }
  const ojson& j = parsed.value;
  if (!j.is_object()) {
    out.error = parsed.non_finite ? std::string(kNonFiniteReason) : "not a JSON object (got " + a_type(j.type_name()) + ")";
    return out;
  }
  out.error = read_scenario(j, use, out.scenario);
  if (out.error.empty()) out.error = read_friction(j, out.scenario, use, out.friction);
  // A non-finite literal in a key this command ignores still makes the line invalid JSON.
  if (parsed.non_finite && out.error.empty()) out.error = std::string(kNonFiniteReason) + " in a key this command does not use";
  return out;
}

namespace {

// One simdjson parser and its padded copy of the line per thread. A line longer than
// kKeepBytes is parsed by them too, and then they are given back, so that one huge line does
// not keep its memory.
constexpr std::size_t kKeepBytes = std::size_t(1) << 20;

struct SimdParser {
  simdjson::dom::parser parser;
  std::string padded;
  std::vector<SimdField> fields;  // the line's top-level fields
  bool ready = false;
};

// The fast path: a line that simdjson parses with at most kMaxJsonDepth levels, without a
// backslash (escapes are left to nlohmann's rules) and that the reader reads without a
// complaint. Returns false for any other line, which then goes to nlohmann.
bool parse_scenario_line_simdjson(std::string_view text, long line_number, Use use, ScenarioLine& out) {
  if (text.find('\\') != std::string_view::npos) return false;
  thread_local SimdParser p;
  if (!p.ready) {
    if (p.parser.allocate(4096, kMaxJsonDepth) != simdjson::SUCCESS) return false;
    p.ready = true;
  }
  p.padded.resize(text.size() + simdjson::SIMDJSON_PADDING);
  std::copy(text.begin(), text.end(), p.padded.begin());
  std::fill(p.padded.begin() + std::ptrdiff_t(text.size()), p.padded.end(), '\0');
  simdjson::dom::element root;
  bool ok = p.parser.parse(p.padded.data(), text.size(), false).get(root) == simdjson::SUCCESS && root.is_object();
  if (ok) {
    SimdValue(root).list_fields(p.fields);
    const SimdValue j(root, &p.fields);
    ok = read_scenario(j, use, out.scenario).empty() &&
         read_friction(j, out.scenario, use, out.friction).empty();
    if (ok) {
      const auto id = j.find("id");
      out.id = id ? id->to_json<ojson>() : ojson(line_number);
    }
  }
  if (text.size() > kKeepBytes) p = SimdParser();
  return ok;
}

}  // namespace

ScenarioLine parse_scenario_line(std::string_view line, long line_number, Use use) {
  std::string_view text = line;
  while (!text.empty() && (text.back() == '\r' || text.back() == '\n')) text.remove_suffix(1);
  ScenarioLine out;
  if (is_blank(text)) {
    out.blank = true;
    return out;
  }
  if (parse_scenario_line_simdjson(text, line_number, use, out)) return out;
  return parse_scenario_line_nlohmann(line, line_number, use);
}

nlohmann::json scenario_to_json(const Scenario& s) {
  nlohmann::json j;
  if (!s.id.empty()) j["id"] = s.id;
  j["M"] = rows_of(s.M);
  j["qdot"] = plain_array_of(s.qdot);
  if (s.h.size()) j["h"] = plain_array_of(s.h);
  if (s.u.size()) j["u"] = plain_array_of(s.u);
  if (s.i_u.size()) j["i_u"] = plain_array_of(s.i_u);
  j["A_b"] = rows_of(s.A_b);
  j["A_u"] = rows_of(s.A_u);
  if (s.phi_u.size()) j["phi_u"] = plain_array_of(s.phi_u);
  if (s.Adot_qdot.size()) j["Adot_qdot"] = plain_array_of(s.Adot_qdot);
  if (s.e.size()) j["e"] = plain_array_of(s.e);
  j["law"] = law_name(s.law);
  j["gap_tol"] = s.gap_tol;
  j["vel_tol"] = s.vel_tol;
  return j;
}

// An ok result whose numbers overflowed (inputs near the limits of double) cannot be written
// so that it reads back: JSON has no Infinity. It becomes an error line naming the quantity.
std::string non_finite_result(const char* quantity) {
  return std::string("non-finite result: ") + quantity + " overflows double precision";
}

namespace {

// An ok result line written key by key, compact, keys in the order they are added (the text
// nlohmann's dump of the same ordered object gives, with io/json_text.hpp's numbers).
class ObjectText {
 public:
  explicit ObjectText(const ojson& id) {
    key("id");
    append_json(out_, id);
  }
  ObjectText& key(const char* k) {
    out_ += out_.size() > 1 ? ",\"" : "\"";
    (out_ += k) += "\":";
    return *this;
  }
  void string(const char* v) { ((out_ += '"') += v) += '"'; }
  void boolean(bool v) { out_ += v ? "true" : "false"; }
  void number(double x) { append_double(out_, x); }
  template <class V> void numbers(const V& v) {
    out_ += '[';
    for (Eigen::Index i = 0; i < v.size(); ++i) {
      if (i) out_ += ',';
      if constexpr (std::is_integral_v<typename V::Scalar>) {
        char buf[16];
        out_.append(buf, std::to_chars(buf, buf + sizeof buf, v[i]).ptr);
      } else {
        append_double(out_, v[i]);
      }
    }
    out_ += ']';
  }
  std::string done() && {
    out_ += '}';
    return std::move(out_);
  }

 private:
  std::string out_ = "{";
};

// The reason an ok impact result cannot be written (a number that is not finite), or "".
std::string impact_unwritable(const ImpactResult& r) {
  if (!r.qdot_plus.allFinite()) return non_finite_result("qdot_plus");
  if (!r.impulse.allFinite()) return non_finite_result("impulse");
  if (!r.lambda.allFinite()) return non_finite_result("lambda");
  if (!std::isfinite(r.kinetic_energy_pre)) return non_finite_result("kinetic_energy_pre");
  if (!std::isfinite(r.kinetic_energy_post)) return non_finite_result("kinetic_energy_post");
  return {};
}

std::string dynamics_unwritable(const DynamicsResult& r) {
  if (!r.qddot.allFinite()) return non_finite_result("qddot");
  if (!r.lambda.allFinite()) return non_finite_result("lambda");
  return {};
}

// An ok result's line (its keys after id and status written by `body`), or the error line: the
// solver's status, or the first number that cannot be written (`unwritable`).
template <class R, class Body>
std::string result_line(const ojson& id, const R& r, std::string (*unwritable)(const R&), bool* ok, Body&& body) {
  if (ok) *ok = false;
  if (r.status != Status::ok) return dump_line(error_to_json(id, status_reason(r.status)));
  if (const std::string why = unwritable(r); !why.empty()) return dump_line(error_to_json(id, why));
  if (ok) *ok = true;
  ObjectText o(id);
  o.key("status").string("ok");
  body(o);
  return std::move(o).done();
}

}  // namespace

std::string impact_result_line(const ojson& id, const ImpactResult& r, bool* ok) {
  return result_line(id, r, impact_unwritable, ok, [&](ObjectText& o) {
    o.key("qdot_plus").numbers(r.qdot_plus);
    o.key("impulse").numbers(r.impulse);
    o.key("lambda").numbers(r.lambda);
    o.key("active").numbers(r.active);
    o.key("kinetic_energy_pre").number(r.kinetic_energy_pre);
    o.key("kinetic_energy_post").number(r.kinetic_energy_post);
    o.key("energy_consistent").boolean(r.energy_consistent);
  });
}

std::string dynamics_result_line(const ojson& id, const DynamicsResult& r, bool* ok) {
  return result_line(id, r, dynamics_unwritable, ok, [&](ObjectText& o) {
    o.key("qddot").numbers(r.qddot);
    o.key("lambda").numbers(r.lambda);
    o.key("active").numbers(r.active);
  });
}

ojson impact_result_to_json(const ojson& id, const ImpactResult& r) { return ojson::parse(impact_result_line(id, r)); }
ojson dynamics_result_to_json(const ojson& id, const DynamicsResult& r) {
  return ojson::parse(dynamics_result_line(id, r));
}

void add_friction_keys(ojson& j, const FrictionResult& f, bool dynamics) {
  if (j.at("status") != "ok") return;
  if (!f.lambda_t.allFinite() || !std::isfinite(f.residual)) {
    j = error_to_json(j.at("id"), non_finite_result(f.lambda_t.allFinite() ? "friction residual" : "lambda_t"));
    return;
  }
  j["lambda_t"] = array_of(f.lambda_t);
  if (dynamics) j["sliding"] = array_of(f.sliding);
  j["friction"] = {{"method", f.method}, {"iterations", f.iterations}, {"residual", f.residual}};
}

void add_friction_json(nlohmann::json& j, const Friction& f) {
  j["mu"] = plain_array_of(f.mu);
  j["dim"] = f.dim;
  j["A_t"] = rows_of(f.A_t);
  if (f.Adot_qdot_t.size()) j["Adot_qdot_t"] = plain_array_of(f.Adot_qdot_t);
}

ojson error_to_json(const ojson& id, const std::string& reason) {
  ojson j;
  j["id"] = id;
  j["status"] = "error: " + reason;
  return j;
}

std::string dump_line(const ojson& j) {
  std::string out;
  append_json(out, j);
  return out;
}
std::string dump_line(const nlohmann::json& j) {
  std::string out;
  append_json(out, j);
  return out;
}

}  // namespace obliq::io

// io/scenario_json.cpp: scenario lines in, result lines out (docs/format.md).
#include "obliq/io/scenario_json.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "io/json_line.hpp"
#include "io/limits.hpp"

namespace obliq::io {
namespace {

// "a number", "an array", ... for messages.
std::string a_type(const char* type_name) {
  std::string t = type_name;
  if (t == "null") return t;
  bool vowel = !t.empty() && std::string("aeiou").find(t[0]) != std::string::npos;
  return (vowel ? "an " : "a ") + t;
}

template <class J> std::string short_text(const J& v) {
  std::string s = v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (s.size() > 40) s = s.substr(0, 37) + "...";
  return s;
}

template <class J> bool is_marker(const J& v) { return is_non_finite_marker(v); }

// Reads the keys of one scenario object; every function returns "" or the reason.
template <class J> struct Reader {
  const J& obj;

  const J* find(const char* key) const {
    auto it = obj.find(key);
    return it == obj.end() ? nullptr : &*it;
  }

  // One entry: a finite number. `where` names it ("M[1][2]", "gap_tol").
  static std::string number(const J& v, const std::string& where, double& out) {
    if (is_marker(v)) return "non-finite number in " + where;
    if (!v.is_number()) return where + ": not a number (got " + a_type(v.type_name()) + ")";
    out = v.template get<double>();
    if (!std::isfinite(out)) return "non-finite number in " + where;
    return {};
  }

  // A vector of `len` numbers; absent and not required: zeros.
  std::string vector(const char* key, int len, const char* len_from, bool required, Eigen::VectorXd& out) const {
    const J* v = find(key);
    if (!v) {
      if (required) return std::string("missing required key \"") + key + "\"";
      out = Eigen::VectorXd::Zero(len);
      return {};
    }
    if (is_marker(*v)) return std::string("non-finite number in ") + key;
    if (!v->is_array())
      return std::string(key) + ": expected an array of " + std::to_string(len) + " numbers, got " +
             a_type(v->type_name());
    if (int(v->size()) != len)
      return std::string("bad shape: ") + key + " has " + std::to_string(v->size()) + " entries, expected " +
             std::to_string(len) + " (" + len_from + ")";
    out.resize(len);
    for (int i = 0; i < len; ++i)
      if (auto r = number((*v)[i], std::string(key) + "[" + std::to_string(i) + "]", out[i]); !r.empty()) return r;
    return {};
  }

  // A matrix: an array of rows, each an array of `cols` numbers. rows < 0: as many as given.
  // Absent: zero rows (A_b, A_u) unless required.
  std::string matrix(const char* key, int cols, const char* cols_from, bool required, Eigen::MatrixXd& out) const {
    const J* v = find(key);
    if (!v) {
      if (required) return std::string("missing required key \"") + key + "\"";
      out.resize(0, cols);
      return {};
    }
    if (is_marker(*v)) return std::string("non-finite number in ") + key;
    if (!v->is_array())
      return std::string(key) + ": expected an array of rows (arrays of numbers), got " + a_type(v->type_name());
    const int rows = int(v->size());
    out.resize(rows, cols);
    for (int i = 0; i < rows; ++i) {
      const J& row = (*v)[i];
      const std::string where = std::string(key) + "[" + std::to_string(i) + "]";
      if (is_marker(row)) return "non-finite number in " + where;
      if (!row.is_array())
        return where + ": expected a row (an array of " + std::to_string(cols) + " numbers), got " +
               a_type(row.type_name());
      if (int(row.size()) != cols)
        return "bad shape: " + where + " has " + std::to_string(row.size()) + " entries, expected " +
               std::to_string(cols) + " (" + cols_from + ")";
      for (int k = 0; k < cols; ++k)
        if (auto r = number(row[k], where + "[" + std::to_string(k) + "]", out(i, k)); !r.empty()) return r;
    }
    return {};
  }

  std::string tolerance(const char* key, double& out) const {
    const J* v = find(key);
    if (!v) return {};  // keep the default
    if (auto r = number(*v, key, out); !r.empty()) return r;
    if (out < 0) return std::string(status_reason(Status::bad_tolerance)) + " (" + key + " = " + short_text(*v) + ")";
    return {};
  }
};

template <class J> std::string read_scenario(const J& j, Use use, Scenario& s) {
  if (!j.is_object()) return "not a JSON object (got " + a_type(j.type_name()) + ")";
  Reader<J> rd{j};
  const bool impact = use != Use::dynamics, dynamics = use != Use::impact;

  // Shapes: n from M, m_b from A_b, m_u from A_u.
  const J* M = rd.find("M");
  if (!M) return "missing required key \"M\"";
  if (is_marker(*M)) return "non-finite number in M";
  if (!M->is_array()) return "M: expected an n x n array of rows, got " + a_type(M->type_name());
  if (M->empty()) return "bad shape: M is empty (n must be at least 1)";
  const int n = int(std::min<std::size_t>(M->size(), std::size_t(kMaxDofs) + 1));
  if (n > kMaxDofs)
    return "too large (n = " + std::to_string(M->size()) + " from M; at most " + std::to_string(kMaxDofs) + ")";
  const auto rows_in = [&](const char* key) {
    const J* v = rd.find(key);
    return v && v->is_array() ? v->size() : std::size_t(0);
  };
  if (const std::size_t rows = rows_in("A_b") + rows_in("A_u"); rows > std::size_t(kMaxRows))
    return "too large (m_b + m_u = " + std::to_string(rows) + " rows in A_b and A_u; at most " +
           std::to_string(kMaxRows) + ")";
  const std::string n_from = "n = " + std::to_string(n) + " from M";
  if (auto r = rd.matrix("M", n, n_from.c_str(), true, s.M); !r.empty()) return r;
  if (auto r = rd.vector("qdot", n, n_from.c_str(), true, s.qdot); !r.empty()) return r;
  if (auto r = rd.matrix("A_b", n, n_from.c_str(), false, s.A_b); !r.empty()) return r;
  if (auto r = rd.matrix("A_u", n, n_from.c_str(), false, s.A_u); !r.empty()) return r;
  const int m_b = int(s.A_b.rows()), m_u = int(s.A_u.rows());
  const std::string mu_from = "m_u = " + std::to_string(m_u) + " from A_u";
  const std::string m_from = "m_b + m_u = " + std::to_string(m_b + m_u) + " from A_b and A_u";

  // Optional vectors; keys the command does not use stay zero.
  if (auto r = rd.vector("phi_u", m_u, mu_from.c_str(), false, s.phi_u); !r.empty()) return r;
  s.h = s.u = s.i_u = Eigen::VectorXd::Zero(n);
  s.Adot_qdot = Eigen::VectorXd::Zero(m_b + m_u);
  s.e = Eigen::VectorXd::Zero(m_u);
  if (dynamics) {
    if (auto r = rd.vector("h", n, n_from.c_str(), false, s.h); !r.empty()) return r;
    if (auto r = rd.vector("u", n, n_from.c_str(), false, s.u); !r.empty()) return r;
    if (auto r = rd.vector("Adot_qdot", m_b + m_u, m_from.c_str(), false, s.Adot_qdot); !r.empty()) return r;
  }
  if (impact) {
    if (auto r = rd.vector("i_u", n, n_from.c_str(), false, s.i_u); !r.empty()) return r;
    // Restitution: one global number (broadcast to every unilateral row) or one per row.
    if (const J* e = rd.find("e")) {
      if (e->is_array()) {
        if (auto r = rd.vector("e", m_u, mu_from.c_str(), false, s.e); !r.empty()) return r;
        for (int i = 0; i < m_u; ++i)
          if (s.e[i] < 0 || s.e[i] > 1)
            return std::string(status_reason(Status::bad_restitution)) + " (e[" + std::to_string(i) +
                   "] = " + short_text((*e)[i]) + ")";
      } else {
        double g = 0;
        if (auto r = Reader<J>::number(*e, "e", g); !r.empty())
          return is_marker(*e) ? r : r + " (e is a number or an array of m_u numbers)";
        s.e.setConstant(m_u, g);
        if (g < 0 || g > 1) return std::string(status_reason(Status::bad_restitution)) + " (e = " + short_text(*e) + ")";
      }
    }
  }

  // Law and tolerances.
  s.law = Law::complementarity;
  if (const J* law = rd.find("law")) {
    if (is_marker(*law)) return "non-finite number in law";
    if (!law->is_string())
      return "law: expected \"projection\" or \"complementarity\", got " + a_type(law->type_name());
    const auto& name = law->template get_ref<const std::string&>();
    if (name == "projection") s.law = Law::projection;
    else if (name == "complementarity") s.law = Law::complementarity;
    else return "unknown law " + short_text(*law) + " (expected \"projection\" or \"complementarity\")";
  }
  s.gap_tol = s.vel_tol = 1e-9;
  if (auto r = rd.tolerance("gap_tol", s.gap_tol); !r.empty()) return r;
  if (auto r = rd.tolerance("vel_tol", s.vel_tol); !r.empty()) return r;

  // The id as text (the echoed JSON value itself is kept by the caller).
  s.id.clear();
  if (const J* id = rd.find("id")) s.id = id->is_string() ? id->template get<std::string>() : short_text(*id);
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
  const J* mu = rd.find("mu");
  const J* At = rd.find("A_t");
  if (!mu && !At) return {};
  Friction out;
  const std::string mu_from = "m_u = " + std::to_string(m_u) + " from A_u";
  out.mu = Eigen::VectorXd::Zero(m_u);
  if (mu) {
    if (mu->is_array()) {
      if (auto r = rd.vector("mu", m_u, mu_from.c_str(), false, out.mu); !r.empty()) return r;
    } else {
      double g = 0;
      if (auto r = Reader<J>::number(*mu, "mu", g); !r.empty())
        return is_marker(*mu) ? r : r + " (mu is a number or an array of m_u numbers)";
      out.mu.setConstant(m_u, g);
    }
    for (int i = 0; i < m_u; ++i)
      if (out.mu[i] < 0)
        return std::string(status_reason(Status::bad_friction)) + " (mu[" + std::to_string(i) + "] = " +
               std::to_string(out.mu[i]) + ")";
  }
  const std::string n_from = "n = " + std::to_string(n) + " from M";
  if (auto r = rd.matrix("A_t", n, n_from.c_str(), false, out.A_t); !r.empty()) return r;
  out.dim = m_u > 0 && out.A_t.rows() == m_u ? 2 : 3;
  if (const J* d = rd.find("dim")) {
    double v = 0;
    if (auto r = Reader<J>::number(*d, "dim", v); !r.empty()) return r;
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
    if (auto r = rd.vector("e_t", m_u, mu_from.c_str(), false, out.e_t); !r.empty()) return r;
    for (int i = 0; i < m_u; ++i)
      if (out.e_t[i] < 0 || out.e_t[i] > 1)
        return std::string(status_reason(Status::bad_restitution)) + " (e_t[" + std::to_string(i) + "])";
  }
  if (use != Use::impact) {
    const std::string t_from = "(dim - 1) m_u = " + std::to_string((out.dim - 1) * m_u);
    if (auto r = rd.vector("Adot_qdot_t", (out.dim - 1) * m_u, t_from.c_str(), false, out.Adot_qdot_t); !r.empty())
      return r;
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

ScenarioLine parse_scenario_line(std::string_view line, long line_number, Use use) {
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

ojson impact_result_to_json(const ojson& id, const ImpactResult& r) {
  if (r.status != Status::ok) return error_to_json(id, status_reason(r.status));
  if (!r.qdot_plus.allFinite()) return error_to_json(id, non_finite_result("qdot_plus"));
  if (!r.impulse.allFinite()) return error_to_json(id, non_finite_result("impulse"));
  if (!r.lambda.allFinite()) return error_to_json(id, non_finite_result("lambda"));
  if (!std::isfinite(r.kinetic_energy_pre)) return error_to_json(id, non_finite_result("kinetic_energy_pre"));
  if (!std::isfinite(r.kinetic_energy_post)) return error_to_json(id, non_finite_result("kinetic_energy_post"));
  ojson j;
  j["id"] = id;
  j["status"] = "ok";
  j["qdot_plus"] = array_of(r.qdot_plus);
  j["impulse"] = array_of(r.impulse);
  j["lambda"] = array_of(r.lambda);
  j["active"] = array_of(r.active);
  j["kinetic_energy_pre"] = r.kinetic_energy_pre;
  j["kinetic_energy_post"] = r.kinetic_energy_post;
  j["energy_consistent"] = r.energy_consistent;
  return j;
}

ojson dynamics_result_to_json(const ojson& id, const DynamicsResult& r) {
  if (r.status != Status::ok) return error_to_json(id, status_reason(r.status));
  if (!r.qddot.allFinite()) return error_to_json(id, non_finite_result("qddot"));
  if (!r.lambda.allFinite()) return error_to_json(id, non_finite_result("lambda"));
  ojson j;
  j["id"] = id;
  j["status"] = "ok";
  j["qddot"] = array_of(r.qddot);
  j["lambda"] = array_of(r.lambda);
  j["active"] = array_of(r.active);
  return j;
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

std::string dump_line(const ojson& j) { return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }
std::string dump_line(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace obliq::io

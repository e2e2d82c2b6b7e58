// io/lcp_json.cpp: the JSON Lines of `obliq lcp` (docs/lcp.md; docs/format.md's conventions: an
// "error: <reason>" line per bad problem, numbers that read back to the same double).
#include <cmath>
#include <string>

#include "io/json_line.hpp"
#include "io/limits.hpp"
#include "obliq/io/lcp_json.hpp"

namespace obliq {
namespace {

using json = nlohmann::json;

std::string a_type(const json& v) {
  const std::string t = v.type_name();
  const bool vowel = !t.empty() && std::string("aeiou").find(t[0]) != std::string::npos;
  return (vowel ? "an " : "a ") + t;
}

// One finite number; returns "" or the reason.
std::string number(const json& v, const std::string& where, double& out) {
  if (io::is_non_finite_marker(v)) return std::string(status_reason(Status::non_finite)) + " in " + where;
  if (!v.is_number()) return where + ": not a number (got " + a_type(v) + ")";
  out = v.get<double>();
  if (!std::isfinite(out)) return std::string(status_reason(Status::non_finite)) + " in " + where;
  return {};
}

std::string read_problem(const json& j, LcpProblem& p) {
  if (!j.is_object()) return "not a JSON object (got " + a_type(j) + ")";
  const auto M = j.find("M");
  if (M == j.end()) return "missing required key \"M\"";
  if (io::is_non_finite_marker(*M)) return std::string(status_reason(Status::non_finite)) + " in M";
  if (!M->is_array()) return "M: expected an m x m array of rows, got " + a_type(*M);
  if (M->size() > std::size_t(io::kMaxLcpSize))
    return "too large (m = " + std::to_string(M->size()) + " from M; at most " + std::to_string(io::kMaxLcpSize) + ")";
  const int m = int(M->size());
  p.m = m;
  p.M.assign(std::size_t(m) * std::size_t(m), 0.0);
  for (int i = 0; i < m; ++i) {
    const json& row = (*M)[std::size_t(i)];
    const std::string where = "M[" + std::to_string(i) + "]";
    if (!row.is_array()) return where + ": expected a row (an array of " + std::to_string(m) + " numbers), got " + a_type(row);
    if (int(row.size()) != m)
      return "bad shape: " + where + " has " + std::to_string(row.size()) + " entries, expected " + std::to_string(m) +
             " (M must be square)";
    for (int k = 0; k < m; ++k)
      if (auto r = number(row[std::size_t(k)], where + "[" + std::to_string(k) + "]", p.M[std::size_t(i * m + k)]);
          !r.empty())
        return r;
  }
  const auto q = j.find("q");
  if (q == j.end()) return "missing required key \"q\"";
  if (!q->is_array()) return "q: expected an array of " + std::to_string(m) + " numbers, got " + a_type(*q);
  if (int(q->size()) != m)
    return "bad shape: q has " + std::to_string(q->size()) + " entries, expected " + std::to_string(m) + " (m from M)";
  p.q.resize(std::size_t(m));
  for (int i = 0; i < m; ++i)
    if (auto r = number((*q)[std::size_t(i)], "q[" + std::to_string(i) + "]", p.q[std::size_t(i)]); !r.empty()) return r;
  const auto s = j.find("solver");
  if (s != j.end()) {
    if (!s->is_string()) return "solver: expected one of \"lemke\", \"pivot\", \"pgs\", \"enum\", \"auto\", got " + a_type(*s);
    p.solver = parse_lcp_solver(s->get<std::string>());
    if (!p.solver)
      return "unknown solver \"" + s->get<std::string>() + "\" (expected lemke, pivot, pgs, enum or auto)";
  }
  const auto warm = j.find("warm");
  if (warm != j.end()) {
    const std::string expected = "warm: expected an array of distinct indices 0.." + std::to_string(m - 1);
    if (!warm->is_array()) return expected + ", got " + a_type(*warm);
    std::vector<bool> seen(std::size_t(m), false);
    p.warm.emplace();
    for (std::size_t a = 0; a < warm->size(); ++a) {
      const json& v = (*warm)[a];
      const std::string where = " (warm[" + std::to_string(a) + "]";
      if (!v.is_number_integer()) return expected + where + " is " + a_type(v) + ")";
      const long long i = v.get<long long>();
      if (i < 0 || i >= m) return expected + where + " = " + std::to_string(i) + ")";
      if (seen[std::size_t(i)]) return expected + where + " = " + std::to_string(i) + " repeats)";
      seen[std::size_t(i)] = true;
      p.warm->push_back(int(i));
    }
  }
  return {};
}

json numbers(const std::vector<double>& v) {
  json a = json::array();
  for (double x : v) a.push_back(x);
  return a;
}

}  // namespace

std::optional<LcpSolver> parse_lcp_solver(std::string_view name) {
  if (name == "lemke") return LcpSolver::lemke;
  if (name == "pivot") return LcpSolver::pivot;
  if (name == "pgs") return LcpSolver::pgs;
  if (name == "enum") return LcpSolver::enumerate;
  if (name == "auto") return LcpSolver::automatic;
  return std::nullopt;
}

LcpLine parse_lcp_json_line(std::string_view line, long line_number) {
  io::JsonLine<json> parsed = io::parse_json_line<json>(line, line_number);
  LcpLine out;
  out.id = std::move(parsed.id);
  if (!parsed.error.empty()) {
    out.error = std::move(parsed.error);
    return out;
  }
  out.error = read_problem(parsed.value, out.problem);
  // A non-finite literal in a key obliq lcp does not read still makes the line invalid JSON.
  if (parsed.non_finite && out.error.empty()) out.error = std::string(io::kNonFiniteReason) + " in a key obliq lcp does not use";
  return out;
}

json lcp_result_json(const json& id, const LcpSolution& s, bool warm_given) {
  // An ok answer whose numbers overflowed cannot be written (JSON has no Infinity): an error.
  const auto finite = [](const std::vector<double>& v) {
    for (double x : v)
      if (!std::isfinite(x)) return false;
    return true;
  };
  if (s.status == Status::ok && !finite(s.z)) return lcp_error_json(id, "non-finite result: z overflows double precision");
  if (s.status == Status::ok && !finite(s.w)) return lcp_error_json(id, "non-finite result: w overflows double precision");
  if (s.status == Status::ok && !std::isfinite(s.residual))
    return lcp_error_json(id, "non-finite result: residual overflows double precision");
  json o = json::object();
  o["id"] = id;
  o["status"] = s.status == Status::ok ? std::string("ok") : std::string("error: ") + status_reason(s.status);
  if (s.status == Status::ok) {
    o["z"] = numbers(s.z);
    o["w"] = numbers(s.w);
    o["active"] = lcp_active_set(s);
  }
  o["iterations"] = s.iterations;
  if (std::isfinite(s.residual)) o["residual"] = s.residual;  // left out when not finite (never null)
  o["solver"] = lcp::solver_name(s.solver);
  if (warm_given) o["warm"] = s.warm;
  return o;
}

json lcp_error_json(const json& id, const std::string& reason) {
  json o = json::object();
  o["id"] = id;
  o["status"] = "error: " + reason;
  return o;
}

}  // namespace obliq

// obliq/io/scenario_json.hpp: scenario lines (JSON Lines, docs/format.md) in and results out.
//
// Reading is split in two: the structural checks a file reader must make (a JSON object, the
// required keys, numbers that are finite, arrays where arrays belong, shapes that agree with
// n from M and m_b, m_u from A_b, A_u, e and the tolerances in range, a known `law`) give a
// precise reason naming the key; the value checks that need linear algebra (M symmetric to
// 1e-12 relative, positive definite) are left to the solver backends, which return an
// obliq::Status for each scenario (status_reason(s) is the text after "error: ").
//
// Nothing here throws for a bad line: every problem comes back as a reason string.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "obliq/friction.hpp"
#include "obliq/scenario.hpp"

namespace obliq::io {

// Which command reads the line. Keys a command does not use (docs/format.md: `e`, `i_u` in
// dynamics; `Adot_qdot`, `h`, `u` in impact) are ignored: not checked and left at zero.
// `all` checks and reads every key.
enum class Use { impact, dynamics, all };

// One physical input line, parsed.
// Output objects keep their keys in the order written (id, status, ...): nlohmann::ordered_json.
using ojson = nlohmann::ordered_json;

struct ScenarioLine {
  bool blank = false;    // whitespace only: no output, but the line number still counts
  ojson id;              // echoed id: as given (any JSON type), else the 1-based line number
  std::string error;     // empty when the scenario was read; else the reason (after "error: ")
  Scenario scenario;     // valid when error is empty; every optional vector filled to its shape
  std::optional<Friction> friction;  // set when some mu > 0 (docs/friction.md); else no friction
};

// Parse one physical line (a trailing '\r' is ignored). `line_number` is 1-based.
ScenarioLine parse_scenario_line(std::string_view line, long line_number, Use use);

// Read a scenario from an already-parsed JSON value. Returns "" on success, else the reason.
// `out.id` is the id as a string (a string id verbatim, any other id as its JSON text).
std::string scenario_from_json(const nlohmann::json& j, Use use, Scenario& out);
std::string scenario_from_json(const ojson& j, Use use, Scenario& out);

// A scenario as one line of the input schema (all keys written, `A_b`/`A_u` as [] when there
// are no rows, `e` as an array of m_u, `id` only when non-empty). Used by the model layer.
nlohmann::json scenario_to_json(const Scenario& s);

// Output lines (docs/format.md "Output"), written straight into text (no JSON object built):
// compact, numbers as dump_line writes them, no newline. An error line carries only id and
// status; `ok` (when given) says whether the line is an ok line.
std::string impact_result_line(const ojson& id, const ImpactResult& r, bool* ok = nullptr);
std::string dynamics_result_line(const ojson& id, const DynamicsResult& r, bool* ok = nullptr);
// The same lines as JSON objects (for callers that add keys: friction, obliq model).
ojson impact_result_to_json(const ojson& id, const ImpactResult& r);
ojson dynamics_result_to_json(const ojson& id, const DynamicsResult& r);
ojson error_to_json(const ojson& id, const std::string& reason);
// The friction keys of an ok result line: lambda_t, sliding (dynamics), friction {method,
// iterations, residual} (docs/friction.md); nothing on an error line. A non-finite lambda_t or
// residual turns the ok line into an error line (non_finite_result).
void add_friction_keys(ojson& j, const FrictionResult& f, bool dynamics);
// The friction keys of a scenario line (mu, dim, A_t, Adot_qdot_t), for the model layer.
void add_friction_json(nlohmann::json& j, const Friction& f);
// The reason of an ok result whose `quantity` is not finite: "non-finite result: h overflows
// double precision". Every writer checks each number of an ok line (no null is ever written).
std::string non_finite_result(const char* quantity);

// One output line: compact JSON whose numbers read back to the same double, no newline.
// Invalid UTF-8 in strings is replaced, never thrown.
std::string dump_line(const ojson& j);
std::string dump_line(const nlohmann::json& j);

}  // namespace obliq::io

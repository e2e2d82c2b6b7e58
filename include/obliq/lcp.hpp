// obliq/lcp.hpp: the host API for general linear complementarity problems.
//
// LCP(M, q): find z >= 0 with w = M z + q >= 0 and z^T w = 0. The per-scenario solvers live in
// obliq/core/lcp (Lemke, Murty principal pivoting, projected SOR, enumeration; the `auto` rule
// in obliq/core/lcp/select.hpp); this layer owns the data (std::vector, double precision), runs
// batches over OpenMP, reads Siconos's LCP test files and the JSON Lines of `obliq lcp`.
// docs/lcp.md describes the solvers, tolerances and the comparison with Siconos.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "obliq/core/lcp/select.hpp"
#include "obliq/core/status.hpp"

namespace obliq {

using LcpSolver = lcp::Solver;

// One LCP: M is m x m, row-major; q has m entries.
struct LcpProblem {
  int m = 0;
  std::vector<double> M;  // (m x m) row-major
  std::vector<double> q;  // (m)
  std::optional<LcpSolver> solver;  // overrides LcpOptions::solver for this problem
};

struct LcpSolution {
  Status status = Status::ok;
  std::vector<double> z, w;  // (m) each; w = M z + q
  int iterations = 0;
  double residual = 0;  // max_i |min(z_i, w_i)| (obliq/core/lcp/certificate.hpp)
  LcpSolver solver = LcpSolver::lemke;  // the solver whose answer this is
};

struct LcpOptions {
  LcpSolver solver = LcpSolver::automatic;
  int max_iterations = 0;  // <= 0: each solver's default budget (select.hpp)
  int threads = 0;         // OpenMP threads for batches; <= 0: the OpenMP default
  double omega = 1.0;      // PGS relaxation
};

// Parses "lemke", "pivot", "pgs", "enum", "auto".
std::optional<LcpSolver> parse_lcp_solver(std::string_view name);

// Solves one problem (bad sizes give Status::bad_shape, never an exception).
LcpSolution solve_lcp(const LcpProblem& problem, const LcpOptions& options = {});

// Solves every problem, in parallel over problems (OpenMP); results in input order. A problem's
// failure never changes another's result.
std::vector<LcpSolution> solve_lcp_batch(const std::vector<LcpProblem>& problems, const LcpOptions& options = {});

// Reads one LCP in Siconos's test-data format (tests/data/siconos-lcp/README.md: dense
// storage is column-major; sparse-block storage with column-major blocks). Throws
// std::runtime_error with a message naming what is wrong for a malformed or unsupported file.
LcpProblem read_siconos_lcp(std::istream& in);
LcpProblem read_siconos_lcp_file(const std::string& path);

// JSON Lines of `obliq lcp`: {"id": ..., "M": [[...]] row-major, "q": [...], "solver"?: "..."}.
struct LcpLine {
  nlohmann::json id;   // as given, else the 1-based physical line number
  LcpProblem problem;  // valid when error is empty
  std::string error;   // non-empty: the reason for an "error: <reason>" line
};
// Parses one non-blank line (line_number is 1-based, used as the id when there is none).
LcpLine parse_lcp_json_line(std::string_view line, long line_number);

// The output object {"id", "status", "z", "w", "iterations", "residual", "solver"}; z and w only
// when status is "ok" (an error line carries no answer), residual left out when not finite; an ok
// answer with a non-finite number becomes an error line naming it (no null is ever written).
nlohmann::json lcp_result_json(const nlohmann::json& id, const LcpSolution& solution);
// The output object of a line that could not be parsed.
nlohmann::json lcp_error_json(const nlohmann::json& id, const std::string& reason);

}  // namespace obliq

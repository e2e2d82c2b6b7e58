// obliq/lcp.hpp: the host API for general linear complementarity problems.
//
// LCP(M, q): find z >= 0 with w = M z + q >= 0 and z^T w = 0. The per-scenario solvers live in
// obliq/core/lcp (Lemke, Murty principal pivoting, projected SOR, enumeration; the `auto` rule
// in obliq/core/lcp/select.hpp); this layer owns the data (std::vector, double precision), runs
// batches over OpenMP and reads Siconos's LCP test files; the JSON Lines of `obliq lcp` are
// obliq/io/lcp_json.hpp.
// docs/lcp.md describes the solvers, tolerances and the comparison with Siconos.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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
  // Warm start: an active set to try first (0-based indices i where z_i > 0, usually
  // lcp_active_set() of the previous, nearly equal problem's answer). Its answer is taken only
  // when it certifies; otherwise the problem is solved cold (obliq/core/lcp/select.hpp
  // solve_warm). The CUDA batch ignores it (solves cold).
  std::optional<std::vector<int>> warm;
};

struct LcpSolution {
  Status status = Status::ok;
  std::vector<double> z, w;  // (m) each; w = M z + q
  int iterations = 0;
  double residual = 0;  // max_i |min(z_i, w_i)| (obliq/core/lcp/certificate.hpp)
  LcpSolver solver = LcpSolver::lemke;  // the solver whose answer this is
  bool warm = false;  // true when the answer came from the problem's warm active set (0 pivots)
};

struct LcpOptions {
  LcpSolver solver = LcpSolver::automatic;
  int max_iterations = 0;  // <= 0: each solver's default budget (select.hpp)
  int threads = 0;         // OpenMP threads for batches; <= 0: the OpenMP default
  double omega = 1.0;      // PGS relaxation
};

// Parses "lemke", "pivot", "pgs", "enum", "auto".
std::optional<LcpSolver> parse_lcp_solver(std::string_view name);

// The active set of an answer: the indices i with z_i > 0, ascending (the next, nearly equal
// problem's LcpProblem::warm).
std::vector<int> lcp_active_set(const LcpSolution& solution);

// Solves one problem (bad sizes give Status::bad_shape, never an exception).
LcpSolution solve_lcp(const LcpProblem& problem, const LcpOptions& options = {});

// Solves every problem, in parallel over problems (OpenMP); results in input order. A problem's
// failure never changes another's result.
std::vector<LcpSolution> solve_lcp_batch(const std::vector<LcpProblem>& problems, const LcpOptions& options = {});
// The same on the GPU (obliq::cuda::solve_lcp_batch), through the CUDA backend library, which is
// loaded on first use. Throws std::runtime_error ("backend cuda: ...") when the build has no
// CUDA backend, its library cannot be loaded, or there is no device.
std::vector<LcpSolution> solve_lcp_batch_cuda(const std::vector<LcpProblem>& problems, const LcpOptions& options = {});

// Reads one LCP in Siconos's test-data format (tests/data/siconos-lcp/README.md: dense
// storage is column-major; sparse-block storage with column-major blocks). Throws
// std::runtime_error with a message naming what is wrong for a malformed or unsupported file.
LcpProblem read_siconos_lcp(std::istream& in);
LcpProblem read_siconos_lcp_file(const std::string& path);

}  // namespace obliq

// python/src/lcp.cpp: obliq._solve_lcp, a batch of LCP(M, q) of one size m through the host
// LCP API (obliq/lcp.hpp, double precision, OpenMP over problems).
#include <cstdint>
#include <stdexcept>

#include "bindings.hpp"
#include "obliq/lcp.hpp"

namespace obliq::python {

using namespace nb::literals;
using ConstArray = nb::ndarray<const double, nb::c_contig, nb::device::cpu>;

void bind_lcp(nb::module_& m) {
  m.def(
      "_solve_lcp",
      [](ConstArray M, ConstArray q, const std::string& solver, int max_iterations, double omega, int threads) {
        if (M.ndim() != 3 || q.ndim() != 2 || M.shape(1) != M.shape(2) || M.shape(0) != q.shape(0) ||
            M.shape(1) != q.shape(1))
          throw std::invalid_argument("lcp needs M of shape (batch, m, m) and q of shape (batch, m)");
        const std::size_t count = M.shape(0), mm = M.shape(1);
        LcpOptions opt;
        opt.solver = lcp_solver_from(solver);
        opt.max_iterations = max_iterations;
        opt.omega = omega;
        opt.threads = threads_from(threads);
        // The host API keeps one problem per std::vector: one copy in.
        std::vector<LcpProblem> problems(count);
        for (std::size_t k = 0; k < count; ++k) {
          problems[k].m = int(mm);
          problems[k].M.assign(M.data() + k * mm * mm, M.data() + (k + 1) * mm * mm);
          problems[k].q.assign(q.data() + k * mm, q.data() + (k + 1) * mm);
        }
        std::vector<LcpSolution> sol;
        {
          nb::gil_scoped_release release;
          sol = solve_lcp_batch(problems, opt);
        }
        std::vector<double> z(count * mm), w(count * mm), residual(count);
        std::vector<std::int32_t> status(count), iterations(count), used(count);
        for (std::size_t k = 0; k < count; ++k) {
          const LcpSolution& s = sol[k];
          std::copy(s.z.begin(), s.z.end(), z.begin() + k * mm);  // empty unless the sizes were right
          std::copy(s.w.begin(), s.w.end(), w.begin() + k * mm);
          residual[k] = s.residual;
          status[k] = std::int32_t(s.status);
          iterations[k] = s.iterations;
          used[k] = std::int32_t(s.solver);
        }
        nb::dict out;
        out["z"] = owned(std::move(z), {count, mm});
        out["w"] = owned(std::move(w), {count, mm});
        out["residual"] = owned(std::move(residual), {count});
        out["status"] = owned(std::move(status), {count});
        out["iterations"] = owned(std::move(iterations), {count});
        out["solver"] = owned(std::move(used), {count});
        return out;
      },
      "M"_a.noconvert(), "q"_a.noconvert(), "solver"_a = "auto", "max_iterations"_a = 0, "omega"_a = 1.0,
      "threads"_a = 0);
  m.def(
      "lcp_solver_name", [](int code) { return std::string(lcp::solver_name(lcp::Solver(code))); }, "code"_a,
      "The name ('lemke', 'pivot', 'pgs', 'enum', 'auto') of a solver code in lcp()'s 'solver' array.");
}

}  // namespace obliq::python

// python/src/module.cpp: the extension module obliq._obliq (the package python/obliq wraps it).
#include "bindings.hpp"

#include <stdexcept>

#include "obliq/lcp.hpp"

namespace obliq::python {

Backend backend_from(const std::string& name) {
  Backend b;
  if (!parse_backend(name, b))
    throw std::invalid_argument("backend must be 'cpu', 'reference' or 'cuda', not '" + name + "'");
  return b;
}

lcp::Solver lcp_solver_from(const std::string& name) {
  const auto s = parse_lcp_solver(name);
  if (!s) throw std::invalid_argument("lcp solver must be 'lemke', 'pivot', 'pgs', 'enum' or 'auto', not '" + name + "'");
  return *s;
}

int threads_from(int threads) {
  if (threads < 0) throw std::invalid_argument("threads must be 0 (all) or positive, not " + std::to_string(threads));
  return threads;
}

void bind_status(nb::module_& m) {
  static_assert(sizeof(Status) == sizeof(std::int32_t), "status arrays are exposed as int32");
  nb::enum_<Status>(m, "Status", nb::is_arithmetic(), "Per-scenario status codes (docs/python.md).")
      .value("ok", Status::ok)
      .value("bad_shape", Status::bad_shape)
      .value("non_finite", Status::non_finite)
      .value("not_spd", Status::not_spd)
      .value("bad_restitution", Status::bad_restitution)
      .value("bad_tolerance", Status::bad_tolerance)
      .value("unresolved_impact", Status::unresolved_impact)
      .value("infeasible", Status::infeasible)
      .value("no_convergence", Status::no_convergence)
      .value("lcp_ray", Status::lcp_ray)
      .value("lcp_budget", Status::lcp_budget)
      .value("bad_friction", Status::bad_friction)
      .value("friction_law", Status::friction_law)
      .value("ambiguous", Status::ambiguous)
      .value("not_certified", Status::not_certified)
      .value("bad_quaternion", Status::bad_quaternion)
      .value("not_solved", Status::not_solved);
  m.def(
      "status_reason", [](int code) { return std::string(status_reason(Status(code))); }, nb::arg("code"),
      "The command line's reason text for a status code ('ok', 'M is not symmetric positive definite', ...).");
}

}  // namespace obliq::python

NB_MODULE(_obliq, m) {
  m.doc() = "obliq: batched multi-contact impact, dynamics and LCP solves, sweeps (C++ core; see docs/python.md)";
  obliq::python::bind_status(m);
  obliq::python::bind_batch(m);
  obliq::python::bind_lcp(m);
  obliq::python::bind_model(m);
  obliq::python::bind_simulator(m);
  obliq::python::bind_device_simulator(m);
  obliq::python::bind_views(m);
  obliq::python::bind_sweep(m);
}

// python/src/batch.cpp: obliq.Batch64/Batch32 (the host batch, its buffers as writable numpy
// views), ImpactResults*/DynamicsResults* (read-only use, views too) and the batch solves.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "bindings.hpp"

namespace obliq::python {
namespace {

using namespace nb::literals;
constexpr auto internal = nb::rv_policy::reference_internal;

std::string shape_text(Shape s, std::size_t count) {
  return "(n=" + std::to_string(s.n) + ", m_b=" + std::to_string(s.m_b) + ", m_u=" + std::to_string(s.m_u) +
         ", count=" + std::to_string(count) + ")";
}

// Results handed to a solve must be fresh or of the batch's shape: a resize could move buffers
// that numpy views already handed out still point to.
template <class R, class T> void check_out(const R& out, const Batch<T>& in) {
  if (out.count != 0 && (out.shape != in.shape || out.count != in.count))
    throw std::invalid_argument("out has shape " + shape_text(out.shape, out.count) + " but the batch has " +
                                shape_text(in.shape, in.count) + "; pass results of the same shape or none");
}

std::int32_t* status_data(std::vector<Status>& s) { return reinterpret_cast<std::int32_t*>(s.data()); }

// obliq.solve_impact / solve_dynamics(batch, out, backend, threads, lcp_solver): the batch solve
// into `out`, without the GIL.
template <class T, class R>
void def_solve(nb::module_& m, const char* name, void (*solve)(const Batch<T>&, R&, const RunOptions&)) {
  m.def(
      name,
      [solve](const Batch<T>& in, R& out, const std::string& backend, int threads, const std::string& lcp_solver) {
        check_out(out, in);
        const RunOptions opt{backend_from(backend), threads_from(threads), lcp_solver_from(lcp_solver)};
        nb::gil_scoped_release release;
        solve(in, out, opt);
      },
      "batch"_a, "out"_a, "backend"_a = "cpu", "threads"_a = 0, "lcp_solver"_a = "lemke");
}

template <class T> void bind_types(nb::module_& m, const std::string& suffix) {
  using B = Batch<T>;
  nb::class_<B>(m, ("Batch" + suffix).c_str(),
                "Scenarios of one shape (n, m_b, m_u); every field is a writable numpy view of the batch's own "
                "buffer (scenario s is row s).")
      .def(
          "__init__",
          [](B* self, int n, int m_b, int m_u, std::int64_t count) {
            if (n < 1 || m_b < 0 || m_u < 0 || count < 0)
              throw std::invalid_argument("Batch needs n >= 1, m_b >= 0, m_u >= 0, count >= 0; got " +
                                          shape_text({n, m_b, m_u}, std::size_t(count < 0 ? 0 : count)) +
                                          (count < 0 ? " with count < 0" : ""));
            new (self) B(Shape{n, m_b, m_u}, std::size_t(count));
          },
          "n"_a, "m_b"_a, "m_u"_a, "count"_a)
      .def_prop_ro("n", [](const B& b) { return b.shape.n; })
      .def_prop_ro("m_b", [](const B& b) { return b.shape.m_b; })
      .def_prop_ro("m_u", [](const B& b) { return b.shape.m_u; })
      .def_prop_ro("count", [](const B& b) { return b.count; })
      .def("__len__", [](const B& b) { return b.count; })
      .def_prop_ro("M", [](B& b) { return view(b.M.data(), {b.count, size_t(b.shape.n), size_t(b.shape.n)}); }, internal)
      .def_prop_ro("qdot", [](B& b) { return view(b.qdot.data(), {b.count, size_t(b.shape.n)}); }, internal)
      .def_prop_ro("h", [](B& b) { return view(b.h.data(), {b.count, size_t(b.shape.n)}); }, internal)
      .def_prop_ro("u", [](B& b) { return view(b.u.data(), {b.count, size_t(b.shape.n)}); }, internal)
      .def_prop_ro("i_u", [](B& b) { return view(b.i_u.data(), {b.count, size_t(b.shape.n)}); }, internal)
      .def_prop_ro("A_b", [](B& b) { return view(b.A_b.data(), {b.count, size_t(b.shape.m_b), size_t(b.shape.n)}); }, internal)
      .def_prop_ro("A_u", [](B& b) { return view(b.A_u.data(), {b.count, size_t(b.shape.m_u), size_t(b.shape.n)}); }, internal)
      .def_prop_ro("phi_u", [](B& b) { return view(b.phi_u.data(), {b.count, size_t(b.shape.m_u)}); }, internal)
      .def_prop_ro("Adot_qdot", [](B& b) { return view(b.Adot_qdot.data(), {b.count, size_t(b.m())}); }, internal)
      .def_prop_ro("e", [](B& b) { return view(b.e.data(), {b.count, size_t(b.shape.m_u)}); }, internal)
      .def_prop_ro("law", [](B& b) { return view(b.law.data(), {b.count}); }, internal)
      .def_prop_ro("gap_tol", [](B& b) { return view(b.gap_tol.data(), {b.count}); }, internal)
      .def_prop_ro("vel_tol", [](B& b) { return view(b.vel_tol.data(), {b.count}); }, internal);

  using IR = ImpactResults<T>;
  nb::class_<IR>(m, ("ImpactResults" + suffix).c_str(), "Impact results; every field is a numpy view (row s = scenario s).")
      .def(nb::init<>())
      .def_prop_ro("count", [](const IR& r) { return r.count; })
      .def("__len__", [](const IR& r) { return r.count; })
      .def_prop_ro("qdot_plus", [](IR& r) { return view(r.qdot_plus.data(), {r.count, size_t(r.shape.n)}); }, internal)
      .def_prop_ro("impulse", [](IR& r) { return view(r.impulse.data(), {r.count, size_t(r.shape.n)}); }, internal)
      .def_prop_ro("lambda_", [](IR& r) { return view(r.lambda.data(), {r.count, size_t(r.shape.m_b + r.shape.m_u)}); }, internal)
      .def_prop_ro("active", [](IR& r) { return view(r.active.data(), {r.count, size_t(r.shape.m_u)}); }, internal)
      .def_prop_ro("kinetic_energy_pre", [](IR& r) { return view(r.kinetic_energy_pre.data(), {r.count}); }, internal)
      .def_prop_ro("kinetic_energy_post", [](IR& r) { return view(r.kinetic_energy_post.data(), {r.count}); }, internal)
      .def_prop_ro("energy_consistent", [](IR& r) { return view(r.energy_consistent.data(), {r.count}); }, internal)
      .def_prop_ro("status", [](IR& r) { return view(status_data(r.status), {r.count}); }, internal);

  using DR = DynamicsResults<T>;
  nb::class_<DR>(m, ("DynamicsResults" + suffix).c_str(), "Dynamics results; every field is a numpy view (row s = scenario s).")
      .def(nb::init<>())
      .def_prop_ro("count", [](const DR& r) { return r.count; })
      .def("__len__", [](const DR& r) { return r.count; })
      .def_prop_ro("qddot", [](DR& r) { return view(r.qddot.data(), {r.count, size_t(r.shape.n)}); }, internal)
      .def_prop_ro("lambda_", [](DR& r) { return view(r.lambda.data(), {r.count, size_t(r.shape.m_b + r.shape.m_u)}); }, internal)
      .def_prop_ro("active", [](DR& r) { return view(r.active.data(), {r.count, size_t(r.shape.m_u)}); }, internal)
      .def_prop_ro("status", [](DR& r) { return view(status_data(r.status), {r.count}); }, internal);

  def_solve<T, IR>(m, "solve_impact", &solve_impact<T>);
  def_solve<T, DR>(m, "solve_dynamics", &solve_dynamics<T>);
}

}  // namespace

void bind_batch(nb::module_& m) {
  bind_types<double>(m, "64");
  bind_types<float>(m, "32");
}

}  // namespace obliq::python

// python/src/simulator.cpp: obliq.Simulator64/Simulator32 (the batched time stepper of
// obliq/simulator.hpp). State and controls are writable numpy views of the Simulator's own
// buffers (row s = scenario s); step() reads caller torques, and step_pd() caller targets, hold
// flags and effort, in place through strided HostArrays.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "bindings.hpp"
#include "cpu/cuda_backend.hpp"
#include "obliq/simulator.hpp"

namespace obliq::python {
namespace {

using namespace nb::literals;
constexpr auto internal = nb::rv_policy::reference_internal;

sim::Integrator integrator_from(const std::string& name) {
  if (name == "moreau") return sim::Integrator::moreau_jean;
  if (name == "event") return sim::Integrator::event_driven;
  throw std::invalid_argument("integrator must be 'moreau' or 'event', not '" + name + "'");
}

Law law_from(const std::string& name) {
  if (name == "complementarity") return Law::complementarity;
  if (name == "projection") return Law::projection;
  throw std::invalid_argument("law must be 'complementarity' or 'projection', not '" + name + "'");
}

SimOptions options_from(const std::string& integrator, const std::string& law, const std::string& lcp_solver,
                        double theta, double gamma, double gap_tol, double vel_tol, double max_step,
                        double zeno_velocity, int max_impacts, const std::string& friction, int facets,
                        const std::string& friction_lcp_solver, int threads, const std::string& backend) {
  SimOptions o;
  o.integrator = integrator_from(integrator);
  o.law = law_from(law);
  o.lcp_solver = lcp_solver_from(lcp_solver);
  o.theta = theta;
  o.gamma = gamma;
  o.gap_tol = gap_tol;
  o.vel_tol = vel_tol;
  o.max_step = max_step;
  o.zeno_velocity = zeno_velocity;
  o.max_impacts = max_impacts;
  o.friction = formulation_named(friction);
  check_facets(facets);
  o.facets = facets;
  o.friction_lcp_solver = lcp_solver_from(friction_lcp_solver);
  o.threads = threads_from(threads);
  // cpu, or cuda: the step on the device (docs/cuda.md "The Simulator on the device"), checked
  // here so that a missing CUDA backend or device is the constructor's RuntimeError
  // ("backend cuda: ..."), not the first step's.
  o.backend = backend_from(backend);
  if (o.backend == Backend::reference)
    throw std::invalid_argument("backend must be 'cpu' or 'cuda' for the Simulator, not 'reference' (it has no time stepper)");
  if (o.backend == Backend::cuda) cpu::cuda_backend();
  return o;
}

// Torques in the caller's memory: any strides, the Simulator's scalar, on the CPU.
template <class T> using Torques = nb::ndarray<const T, nb::ndim<2>, nb::device::cpu>;
// step_pd's caller arrays: targets (count, n), hold flags (count,) bool, effort (count,) written.
template <class T> using Targets = nb::ndarray<const T, nb::ndim<2>, nb::device::cpu>;
using Flags = nb::ndarray<const bool, nb::ndim<1>, nb::device::cpu>;
template <class T> using Effort = nb::ndarray<T, nb::ndim<1>, nb::device::cpu>;


template <class T> void bind_types(nb::module_& m, const std::string& suffix) {
  using S = Simulator<T>;
  nb::class_<S>(m, ("Simulator" + suffix).c_str(),
                "count copies of a model (or raw systems) stepped together; state and controls are writable numpy "
                "views of the Simulator's own buffers (docs/python.md).")
      .def(
          "__init__",
          [](S* self, const model::Model& md, std::int64_t count, const std::string& integrator, const std::string& law,
             const std::string& lcp_solver, double theta, double gamma, double gap_tol, double vel_tol, double max_step,
             double zeno_velocity, int max_impacts, const std::string& friction, int facets,
             const std::string& friction_lcp_solver, int threads, const std::string& backend) {
            if (count < 0) throw std::invalid_argument("count must be >= 0, not " + std::to_string(count));
            new (self) S(md, std::size_t(count),
                         options_from(integrator, law, lcp_solver, theta, gamma, gap_tol, vel_tol, max_step,
                                      zeno_velocity, max_impacts, friction, facets, friction_lcp_solver, threads,
                                      backend));
          },
          "model"_a, "count"_a, "integrator"_a = "moreau", "law"_a = "complementarity", "lcp_solver"_a = "lemke",
          "theta"_a = 0.5, "gamma"_a = 0.5, "gap_tol"_a = -1.0, "vel_tol"_a = -1.0, "max_step"_a = 0.0,
          "zeno_velocity"_a = 0.0, "max_impacts"_a = 100, "friction"_a = "cone", "facets"_a = 8,
          "friction_lcp_solver"_a = "auto", "threads"_a = 0, "backend"_a = "cpu")
      .def(
          "__init__",
          [](S* self, const Batch<T>& systems, const std::string& integrator, const std::string& law,
             const std::string& lcp_solver, double theta, double gamma, double gap_tol, double vel_tol, double max_step,
             double zeno_velocity, int max_impacts, const std::string& friction, int facets,
             const std::string& friction_lcp_solver, int threads, const std::string& backend) {
            systems.check();
            new (self) S(systems, options_from(integrator, law, lcp_solver, theta, gamma, gap_tol, vel_tol, max_step,
                                               zeno_velocity, max_impacts, friction, facets, friction_lcp_solver,
                                               threads, backend));
          },
          "systems"_a, "integrator"_a = "moreau", "law"_a = "complementarity", "lcp_solver"_a = "lemke",
          "theta"_a = 0.5, "gamma"_a = 0.5, "gap_tol"_a = -1.0, "vel_tol"_a = -1.0, "max_step"_a = 0.0,
          "zeno_velocity"_a = 0.0, "max_impacts"_a = 100, "friction"_a = "cone", "facets"_a = 8,
          "friction_lcp_solver"_a = "auto", "threads"_a = 0, "backend"_a = "cpu")
      .def_prop_ro("count", &S::count)
      .def("__len__", &S::count)
      .def_prop_ro("nq", &S::nq)
      .def_prop_ro("nv", &S::nv)
      .def_prop_ro("m_b", &S::m_b)
      .def_prop_ro("m_u", &S::m_u)
      .def_prop_ro("is_model", &S::is_model)
      .def_prop_rw(
          "threads", [](const S& s) { return s.options.threads; },
          [](S& s, int threads) { s.options.threads = threads_from(threads); })
      .def_prop_ro("backend", [](const S& s) { return std::string(backend_name(s.options.backend)); })
      .def_prop_ro("q", [](S& s) { return view(s.q.data(), {s.count(), size_t(s.nq())}); }, internal)
      .def_prop_ro("v", [](S& s) { return view(s.v.data(), {s.count(), size_t(s.nv())}); }, internal)
      .def_prop_ro("t", [](S& s) { return view(s.t.data(), {s.count()}); }, internal)
      .def_prop_ro("active", [](S& s) { return view(s.active.data(), {s.count(), size_t(s.m_u())}); }, internal)
      .def_prop_ro("impacts", [](S& s) { return view(s.impacts.data(), {s.count()}); }, internal)
      .def_prop_ro("lcp_solves", [](S& s) { return view(s.lcp_solves.data(), {s.count()}); }, internal)
      .def_prop_ro("status", [](S& s) { return view(reinterpret_cast<std::int32_t*>(s.status.data()), {s.count()}); },
                   internal)
      .def_prop_ro("last_impact_time", [](S& s) { return view(s.last_impact_time.data(), {s.count()}); }, internal)
      .def_prop_ro("last_impact_v", [](S& s) { return view(s.last_impact_v.data(), {s.count(), size_t(s.nv())}); },
                   internal)
      .def_prop_ro("u", [](S& s) { return view(s.u.data(), {s.count(), size_t(s.nv())}); }, internal)
      .def_prop_ro("e", [](S& s) { return view(s.e.data(), {s.count(), size_t(s.m_u())}); }, internal)
      .def_prop_ro("mu", [](S& s) { return view(s.mu.data(), {s.count(), size_t(s.m_u())}); }, internal)
      .def_prop_ro("gravity", [](S& s) { return view(s.gravity.data(), {s.count(), std::size_t(3)}); }, internal)
      .def(
          "_step",
          [](S& s, T dt, int steps) {
            nb::gil_scoped_release release;
            s.step(dt, steps);
          },
          "dt"_a, "steps"_a)
      .def(
          "_step_with",
          [](S& s, T dt, int steps, Torques<T> u) {
            if (u.shape(0) != s.count() || u.shape(1) != std::size_t(s.nv()))
              throw std::invalid_argument("u: shape (" + std::to_string(u.shape(0)) + ", " +
                                          std::to_string(u.shape(1)) + ") does not fit, expected (count, nv) = (" +
                                          std::to_string(s.count()) + ", " + std::to_string(s.nv()) + ")");
            const HostArray<const T> a{u.data(), std::ptrdiff_t(u.stride(0)), std::ptrdiff_t(u.stride(1))};
            nb::gil_scoped_release release;
            s.step(dt, steps, a);
          },
          "dt"_a, "steps"_a, "u"_a.noconvert())
      .def(
          "_step_pd",
          [](S& s, T dt, int frame_skip, Targets<T> target, std::optional<Flags> hold, std::optional<Effort<T>> effort,
             std::vector<int> v_index, std::vector<int> q_index, double kp, double kd, double max_torque) {
            check_pd_shapes(s.count(), v_index.size(), target.shape(0), target.shape(1),
                            hold ? std::optional(hold->shape(0)) : std::nullopt,
                            effort ? std::optional(effort->shape(0)) : std::nullopt);
            const PdTracking pd{std::move(v_index), std::move(q_index), kp, kd, max_torque};
            const HostArray<const T> t{target.data(), std::ptrdiff_t(target.stride(0)),
                                       std::ptrdiff_t(target.stride(1))};
            HostArray<const std::uint8_t> h;
            if (hold)  // numpy's bool: one byte, 0 or 1
              h = {reinterpret_cast<const std::uint8_t*>(hold->data()), std::ptrdiff_t(hold->stride(0)), 0};
            HostArray<T> e;
            if (effort) e = {effort->data(), std::ptrdiff_t(effort->stride(0)), 0};
            nb::gil_scoped_release release;
            s.step_pd(dt, frame_skip, pd, t, h, e);
          },
          "dt"_a, "frame_skip"_a, "target"_a.noconvert(), "hold"_a.noconvert().none(),
          "effort"_a.noconvert().none(), "v_index"_a, "q_index"_a, "kp"_a, "kd"_a, "max_torque"_a)
      .def(
          "energies",
          [](const S& s) {
            std::vector<T> kinetic, potential;
            {
              nb::gil_scoped_release release;
              s.energies(kinetic, potential);
            }
            const std::size_t c = s.count();
            return nb::make_tuple(owned(std::move(kinetic), {c}), owned(std::move(potential), {c}));
          },
          "(kinetic, potential) energy of every scenario at its state, new arrays (0 where a state is bad).");
}

}  // namespace

namespace {
std::string shape_text(std::size_t a) { return "(" + std::to_string(a) + ",)"; }
std::string shape_text(std::size_t a, std::size_t b) { return "(" + std::to_string(a) + ", " + std::to_string(b) + ")"; }
}  // namespace

void check_pd_shapes(std::size_t count, std::size_t n, std::size_t target_rows, std::size_t target_cols,
                     std::optional<std::size_t> hold, std::optional<std::size_t> effort) {
  if (target_rows != count || target_cols != n)
    throw std::invalid_argument("target: shape " + shape_text(target_rows, target_cols) +
                                " does not fit, expected (count, len(v_index)) = " + shape_text(count, n));
  if (hold && *hold != count)
    throw std::invalid_argument("hold: shape " + shape_text(*hold) + " does not fit, expected " + shape_text(count));
  if (effort && *effort != count)
    throw std::invalid_argument("effort: shape " + shape_text(*effort) + " does not fit, expected " + shape_text(count));
}

void bind_simulator(nb::module_& m) {
  bind_types<double>(m, "64");
  bind_types<float>(m, "32");
}

}  // namespace obliq::python

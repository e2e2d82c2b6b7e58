// python/src/views.cpp: obliq.impact / obliq.dynamics on the caller's arrays without a copy: each
// input becomes a HostArray of obliq::HostBatchView (obliq/host_views.hpp) pointing at the numpy
// (or DLPack) array's own memory with its strides (scenario stride 0: one array shared by every
// scenario); the outputs are new numpy arrays that the solve writes directly. With friction inputs
// the scenarios go through the host API of friction instead (friction.hpp), read from the same views.
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "friction.hpp"
#include "obliq/host_views.hpp"

namespace obliq::python {
namespace {

using namespace nb::literals;
template <class T> using Any = nb::ndarray<const T, nb::device::cpu>;

// An input of the view: (array, scenario_stride, element_stride) in elements, as prepared by
// python/obliq/solve.py (which makes a copy only when an array's entries within one scenario
// cannot be reached with a single element stride).
template <class T> HostArray<const T> input(const nb::dict& in, const char* name, nb::dict& pointers) {
  if (!in.contains(name)) return {};
  auto [a, ss, es] = nb::cast<std::tuple<Any<T>, std::ptrdiff_t, std::ptrdiff_t>>(in[name]);
  pointers[name] = reinterpret_cast<std::uintptr_t>(a.data());
  return {a.data(), ss, es};
}

template <class U> std::vector<U> zeros(std::size_t n) { return std::vector<U>(n, U(0)); }

template <class U> HostArray<U> out(std::vector<U>& vec, std::ptrdiff_t stride) { return {vec.data(), stride, 1}; }

template <class T>
nb::tuple solve(const std::string& kind, int n, int m_b, int m_u, std::int64_t count, nb::dict in,
                const std::string& backend, int threads, const std::string& lcp_solver, nb::object friction) {
  if (kind != "impact" && kind != "dynamics") throw std::invalid_argument("kind must be impact or dynamics");
  const bool impact = kind == "impact";
  const std::size_t c = std::size_t(count), m = std::size_t(m_b + m_u), nn = std::size_t(n);
  HostBatchView<T> v;
  v.shape = Shape{n, m_b, m_u};
  v.count = c;
  nb::dict pointers;
  v.M = input<T>(in, "M", pointers);
  v.qdot = input<T>(in, "qdot", pointers);
  v.h = input<T>(in, "h", pointers);
  v.u = input<T>(in, "u", pointers);
  v.i_u = input<T>(in, "i_u", pointers);
  v.A_b = input<T>(in, "A_b", pointers);
  v.A_u = input<T>(in, "A_u", pointers);
  v.phi_u = input<T>(in, "phi_u", pointers);
  v.Adot_qdot = input<T>(in, "Adot_qdot", pointers);
  v.e = input<T>(in, "e", pointers);
  v.law = input<std::uint8_t>(in, "law", pointers);
  v.gap_tol = input<T>(in, "gap_tol", pointers);
  v.vel_tol = input<T>(in, "vel_tol", pointers);

  auto lambda = zeros<T>(c * m);
  auto active = zeros<std::uint8_t>(c * std::size_t(m_u));
  std::vector<std::int32_t> status(c, std::int32_t(Status::not_solved));
  std::vector<T> qdot_plus, impulse, ke_pre, ke_post, qddot;
  std::vector<std::uint8_t> consistent;
  v.lambda = out(lambda, std::ptrdiff_t(m));
  v.active = out(active, m_u);
  v.status = HostArray<Status>{reinterpret_cast<Status*>(status.data()), 1, 1};
  if (impact) {
    qdot_plus = zeros<T>(c * nn);
    impulse = zeros<T>(c * nn);
    ke_pre = zeros<T>(c);
    ke_post = zeros<T>(c);
    consistent = zeros<std::uint8_t>(c);
    v.qdot_plus = out(qdot_plus, n);
    v.impulse = out(impulse, n);
    v.kinetic_energy_pre = out(ke_pre, 1);
    v.kinetic_energy_post = out(ke_post, 1);
    v.energy_consistent = out(consistent, 1);
  } else {
    qddot = zeros<T>(c * nn);
    v.qddot = out(qddot, n);
  }
  const RunOptions opt{backend_from(backend), threads_from(threads), lcp_solver_from(lcp_solver)};
  // Friction (friction = {dim, m_t, formulation, facets}, arrays mu, A_t, e_t, Adot_qdot_t in `in`).
  const bool frictional = !friction.is_none();
  FrictionViews<T> f;
  std::vector<T> lambda_t;
  std::vector<std::uint8_t> sliding;
  std::vector<std::int8_t> method;
  std::vector<std::int32_t> iterations;
  std::vector<double> residual;
  if (frictional) {
    const nb::dict fd = nb::cast<nb::dict>(friction);
    f.dim = nb::cast<int>(fd["dim"]);
    f.m_t = nb::cast<int>(fd["m_t"]);
    f.formulation = formulation_named(nb::cast<std::string>(fd["formulation"]));
    f.facets = nb::cast<int>(fd["facets"]);
    check_facets(f.facets);
    f.mu = input<T>(in, "mu", pointers);
    f.A_t = input<T>(in, "A_t", pointers);
    f.e_t = input<T>(in, "e_t", pointers);
    f.Adot_qdot_t = input<T>(in, "Adot_qdot_t", pointers);
    if (c > 0 && ((m_u > 0 && !f.mu.data) || (f.m_t * n > 0 && !f.A_t.data)))
      throw std::invalid_argument("friction needs mu and A_t");
    lambda_t = zeros<T>(c * std::size_t(f.m_t));
    method.assign(c, std::int8_t(-1));
    iterations = zeros<std::int32_t>(c);
    residual = zeros<double>(c);
    f.lambda_t = out(lambda_t, f.m_t);
    f.method = out(method, 1);
    f.iterations = out(iterations, 1);
    f.residual = out(residual, 1);
    if (!impact) {
      sliding = zeros<std::uint8_t>(c * std::size_t(m_u));
      f.sliding = out(sliding, m_u);
    }
  }
  {
    nb::gil_scoped_release release;
    if (frictional)
      solve_frictional(v, impact, f, opt);
    else if (impact)
      solve_impact(v, opt);
    else
      solve_dynamics(v, opt);
  }
  nb::dict r;
  r["lambda_"] = owned(std::move(lambda), {c, m});
  r["active"] = owned(std::move(active), {c, std::size_t(m_u)});
  r["status"] = owned(std::move(status), {c});
  if (impact) {
    r["qdot_plus"] = owned(std::move(qdot_plus), {c, nn});
    r["impulse"] = owned(std::move(impulse), {c, nn});
    r["kinetic_energy_pre"] = owned(std::move(ke_pre), {c});
    r["kinetic_energy_post"] = owned(std::move(ke_post), {c});
    r["energy_consistent"] = owned(std::move(consistent), {c});
  } else {
    r["qddot"] = owned(std::move(qddot), {c, nn});
  }
  if (frictional) {
    r["lambda_t"] = owned(std::move(lambda_t), {c, std::size_t(f.m_t)});
    if (!impact) r["sliding"] = owned(std::move(sliding), {c, std::size_t(m_u)});
    r["method"] = owned(std::move(method), {c});
    r["iterations"] = owned(std::move(iterations), {c});
    r["residual"] = owned(std::move(residual), {c});
  }
  return nb::make_tuple(r, pointers);
}

}  // namespace

void bind_views(nb::module_& m) {
  const char* doc = "(kind, n, m_b, m_u, count, inputs {name: (array, scenario_stride, element_stride)}, backend, "
                    "threads, lcp_solver, friction None | {dim, m_t, formulation, facets}) -> (results, input data "
                    "pointers): a HostBatchView solve, with friction through obliq::impact / dynamics";
  m.def("_solve_view64", &solve<double>, "kind"_a, "n"_a, "m_b"_a, "m_u"_a, "count"_a, "inputs"_a, "backend"_a,
        "threads"_a, "lcp_solver"_a, "friction"_a = nb::none(), doc);
  m.def("_solve_view32", &solve<float>, "kind"_a, "n"_a, "m_b"_a, "m_u"_a, "count"_a, "inputs"_a, "backend"_a,
        "threads"_a, "lcp_solver"_a, "friction"_a = nb::none(), doc);
  m.def(
      "friction_method_names",
      [] {
        std::vector<std::string> names{""};
        for (int k = 0; k <= int(friction::Method::extragradient); ++k)
          names.emplace_back(friction::method_name(friction::Method(k)));
        return names;
      },
      "The friction report's method names by code + 1 ('' for -1: the frictionless core answered).");
}

}  // namespace obliq::python

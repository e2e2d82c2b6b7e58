// python/src/model.cpp: obliq.Model (URDF or built-in multibody models, obliq/model/host.hpp)
// and its batched evaluation into a Batch plus momenta.
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <stdexcept>

#include "bindings.hpp"
#include "obliq/model/host.hpp"

namespace obliq::python {
namespace {

using namespace nb::literals;
using model::Model;

// `inertia_check` as `obliq model --inertia-check` spells it.
model::InertiaCheck inertia_check_of(const std::string& text) {
  model::InertiaCheck out;
  if (!model::parse_inertia_check(text, out))
    throw std::invalid_argument("inertia_check must be 'standard' or 'strict', got '" + text + "'");
  return out;
}

// The loader's warnings as Python UserWarnings (they stay in Model.warnings too).
Model warn_about(Model m) {
  for (const auto& w : m.warnings)
    if (PyErr_WarnEx(PyExc_UserWarning, w.c_str(), 1) != 0) throw nb::python_error();
  return m;
}
template <class T> using StateArray = nb::ndarray<const T, nb::ndim<2>, nb::c_contig, nb::device::cpu>;

// Evaluate states (rows of Q, V; read in place) into a new Batch (returned to Python, which owns
// it) and a dict of per-state arrays: status, com, momentum, kinetic and potential energy.
template <class T> nb::tuple evaluate(const Model& m, StateArray<T> Q, StateArray<T> V, int threads) {
  if (Q.shape(1) != std::size_t(m.nq) || V.shape(1) != std::size_t(m.nv) || Q.shape(0) != V.shape(0))
    throw std::invalid_argument("model '" + m.name + "' needs q of shape (batch, " + std::to_string(m.nq) +
                                ") and qdot of shape (batch, " + std::to_string(m.nv) + "); got (" +
                                std::to_string(Q.shape(0)) + ", " + std::to_string(Q.shape(1)) + ") and (" +
                                std::to_string(V.shape(0)) + ", " + std::to_string(V.shape(1)) + ")");
  const Eigen::Index count = Eigen::Index(Q.shape(0));
  const ConstMatMap<T> Qm(Q.data(), count, m.nq), Vm(V.data(), count, m.nv);
  auto batch = std::make_unique<Batch<T>>();
  std::vector<Status> status;
  model::StateExtrasBatch<T> extras;
  {
    nb::gil_scoped_release release;
    if constexpr (std::is_same_v<T, double>) {
      model::evaluate_batch(m, Qm, Vm, *batch, status, threads_from(threads), &extras);
    } else {
      model::evaluate_batch(m.cast<float>(), Qm, Vm, *batch, status, threads_from(threads), &extras);
    }
  }
  const std::size_t c = std::size_t(count);
  std::vector<std::int32_t> codes(c);
  std::transform(status.begin(), status.end(), codes.begin(), [](Status s) { return std::int32_t(s); });
  auto vec = [](const auto& x) { return std::vector<T>(x.data(), x.data() + x.size()); };
  nb::dict out;
  out["status"] = owned(std::move(codes), {c});
  out["com"] = owned(vec(extras.com), {c, 3});
  out["momentum"] = owned(vec(extras.momentum), {c, 6});
  out["kinetic_energy"] = owned(vec(extras.kinetic_energy), {c});
  out["potential_energy"] = owned(vec(extras.potential_energy), {c});
  return nb::make_tuple(nb::cast(batch.release(), nb::rv_policy::take_ownership), out);
}

}  // namespace

void bind_model(nb::module_& m) {
  nb::class_<Model>(m, "Model", "A multibody model (docs/model.md): a URDF or a built-in, with contact rows.")
      .def_static("builtin", &model::builtin_model, "name"_a, "A built-in model by name (see Model.builtins()).")
      .def_static(
          "builtins",
          [] {
            std::vector<std::tuple<std::string, std::string>> out;
            for (const auto& b : model::builtin_models()) out.emplace_back(b.name, b.description);
            return out;
          },
          "(name, description) of every built-in model.")
      .def_static(
          "from_urdf",
          [](const std::string& path, bool free_base, const std::string& inertia_check) {
            return warn_about(model::load_urdf(path, free_base, inertia_check_of(inertia_check)));
          },
          "path"_a, "free_base"_a = false, "inertia_check"_a = "standard",
          "Load a URDF file; free_base adds a free-flyer root joint; inertia_check is 'standard' (inertias that "
          "are not positive semi-definite or break the triangle inequality load with a UserWarning naming the "
          "link) or 'strict' (they raise), as `obliq model --inertia-check` (docs/model.md).")
      .def_static(
          "from_urdf_string",
          [](const std::string& xml, bool free_base, const std::string& name, const std::string& inertia_check) {
            return warn_about(model::load_urdf_string(xml, free_base, name, inertia_check_of(inertia_check)));
          },
          "xml"_a, "free_base"_a = false, "name"_a = "urdf", "inertia_check"_a = "standard")
      .def_prop_ro("warnings", [](const Model& md) { return md.warnings; },
                   "The URDF loader's warnings (standard inertial checks), one per link.")
      .def_prop_ro("name", [](const Model& md) { return md.name; })
      .def_prop_ro("nq", [](const Model& md) { return md.nq; })
      .def_prop_ro("nv", [](const Model& md) { return md.nv; })
      .def_prop_ro("nbodies", [](const Model& md) { return md.nbodies(); })
      .def_prop_ro("n_bilateral", [](const Model& md) { return md.n_bilateral; })
      .def_prop_ro("n_unilateral", [](const Model& md) { return md.n_unilateral(); })
      .def_prop_ro("joint_names", [](const Model& md) { return md.joint_names; })
      .def_prop_ro("contact_names", [](const Model& md) { return md.contact_names; })
      .def_prop_ro("links",
                   [](const Model& md) {
                     std::vector<std::string> names;
                     for (const auto& [name, f] : md.frames) names.push_back(name);
                     return names;
                   })
      .def_prop_rw(
          "gravity", [](const Model& md) { return std::vector<double>(md.gravity, md.gravity + 3); },
          [](Model& md, const std::vector<double>& g) {
            if (g.size() != 3) throw std::invalid_argument("gravity needs 3 components");
            for (int k = 0; k < 3; ++k) md.gravity[k] = g[k];
          })
      .def(
          "add_ground_contact",
          [](Model& md, const std::string& link, std::vector<double> point, double ground) {
            if (point.size() != 3) throw std::invalid_argument("point needs 3 components (in the link frame)");
            model::add_ground_contact(md, link, Eigen::Vector3d(point[0], point[1], point[2]), ground);
          },
          "link"_a, "point"_a = std::vector<double>{0, 0, 0}, "ground"_a = 0.0,
          "A unilateral contact of a point of a link (link frame) with the plane z = ground, normal +z.")
      .def(
          "neutral",
          [](const Model& md) {
            const Eigen::VectorXd q = model::neutral(md);
            return owned(std::vector<double>(q.data(), q.data() + q.size()), {std::size_t(md.nq)});
          },
          "The neutral configuration (zeros, unit quaternions).")
      .def("_evaluate64", &evaluate<double>, "q"_a.noconvert(), "qdot"_a.noconvert(), "threads"_a = 0)
      .def("_evaluate32", &evaluate<float>, "q"_a.noconvert(), "qdot"_a.noconvert(), "threads"_a = 0);
}

}  // namespace obliq::python

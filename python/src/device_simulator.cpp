// python/src/device_simulator.cpp: obliq._obliq.DeviceSimulator64/32 (include/obliq/
// device_simulator.hpp), what obliq.Simulator(backend="cuda") keeps its state in. Its arrays go
// out as DLPack arrays of the device's memory (nanobind's array-API ndarray: an object with
// __dlpack__ and __dlpack_device__ giving the copy's device type and number; torch.from_dlpack
// views it without a copy; an emulation's host memory says CPU, so numpy.from_dlpack does too),
// and step_pd takes the caller's DLPack arrays on that device in place (a torch CUDA tensor of
// targets, hold flags and effort).
#include <nanobind/stl/optional.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "bindings.hpp"
#include "obliq/device_simulator.hpp"

namespace obliq::python {
namespace {

using namespace nb::literals;
constexpr auto internal = nb::rv_policy::reference_internal;

// An array of the device copy: row-major (count, cols) or (count,) when cols is 0.
template <class T, class D> nb::ndarray<nb::array_api, T> device_view(const D& dev, T* data, std::size_t cols) {
  const std::size_t shape[2] = {dev.count(), cols};
  return nb::ndarray<nb::array_api, T>(data, cols == 0 ? 1 : 2, shape, nb::handle(), nullptr, nb::dtype<T>(),
                        dev.dlpack_device_type(), dev.device_id());
}

// step_pd's caller arrays: any strides, on the copy's device.
template <class T> using Array2 = nb::ndarray<const T, nb::ndim<2>>;
using Flags = nb::ndarray<const bool, nb::ndim<1>>;
template <class T> using Array1 = nb::ndarray<T, nb::ndim<1>>;

template <class D, class A> void check_device(const D& dev, const A& a, const char* name) {
  if (a.device_type() != dev.dlpack_device_type() || a.device_id() != dev.device_id())
    throw std::invalid_argument(std::string(name) + ": the array is on DLPack device (" +
                                std::to_string(a.device_type()) + ", " + std::to_string(a.device_id()) +
                                "), the Simulator's state on (" + std::to_string(dev.dlpack_device_type()) + ", " +
                                std::to_string(dev.device_id()) + ")");
}

template <class T> void bind_types(nb::module_& m, const std::string& suffix) {
  using D = DeviceSimulator<T>;
  nb::class_<D>(m, ("DeviceSimulator" + suffix).c_str(),
                "A Simulator's batch resident on the device (docs/cuda.md \"The state on the device\"): its "
                "arrays are DLPack views of the device's memory.")
      .def(nb::init<Simulator<T>&>(), "host"_a, nb::keep_alive<1, 2>())
      .def_prop_ro("count", &D::count)
      .def_prop_ro("dlpack_device", [](const D& d) { return nb::make_tuple(d.dlpack_device_type(), d.device_id()); })
      .def_prop_ro("q", [](D& d) { return device_view(d, d.arrays().state.q, std::size_t(d.arrays().state.nq)); },
                   internal)
      .def_prop_ro("v", [](D& d) { return device_view(d, d.arrays().state.v, std::size_t(d.arrays().state.nv)); },
                   internal)
      .def_prop_ro("t", [](D& d) { return device_view(d, d.arrays().state.t, 0); }, internal)
      .def_prop_ro(
          "active", [](D& d) { return device_view(d, d.arrays().state.active, std::size_t(d.arrays().state.m_u)); },
          internal)
      .def_prop_ro("impacts", [](D& d) { return device_view(d, d.arrays().state.impacts, 0); }, internal)
      .def_prop_ro("lcp_solves", [](D& d) { return device_view(d, d.arrays().state.lcp_solves, 0); }, internal)
      .def_prop_ro(
          "status",
          [](D& d) { return device_view(d, reinterpret_cast<std::int32_t*>(d.arrays().state.status), 0); }, internal)
      .def_prop_ro("last_impact_time", [](D& d) { return device_view(d, d.arrays().state.last_impact_time, 0); },
                   internal)
      .def_prop_ro(
          "last_impact_v",
          [](D& d) { return device_view(d, d.arrays().state.last_impact_v, std::size_t(d.arrays().state.nv)); },
          internal)
      .def_prop_ro(
          "u", [](D& d) { return device_view(d, const_cast<T*>(d.arrays().controls.u), std::size_t(d.arrays().state.nv)); },
          internal)
      .def_prop_ro(
          "e", [](D& d) { return device_view(d, const_cast<T*>(d.arrays().controls.e), std::size_t(d.arrays().state.m_u)); },
          internal)
      .def_prop_ro(
          "mu",
          [](D& d) { return device_view(d, const_cast<T*>(d.arrays().controls.mu), std::size_t(d.arrays().state.m_u)); },
          internal)
      .def_prop_ro(
          "gravity",
          [](D& d) {
            if (!d.arrays().is_model) throw std::invalid_argument("gravity: raw systems carry gravity in h");
            return device_view(d, const_cast<T*>(d.arrays().gravity), 3);
          },
          internal)
      .def(
          "_step",
          [](D& d, T dt, int steps) {
            nb::gil_scoped_release release;
            d.step(dt, steps);
          },
          "dt"_a, "steps"_a)
      .def(
          "_step_pd",
          [](D& d, T dt, int frame_skip, Array2<T> target, std::optional<Flags> hold, std::optional<Array1<T>> effort,
             std::vector<int> v_index, std::vector<int> q_index, double kp, double kd, double max_torque) {
            check_device(d, target, "target");
            if (hold) check_device(d, *hold, "hold");
            if (effort) check_device(d, *effort, "effort");
            check_pd_shapes(d.count(), v_index.size(), target.shape(0), target.shape(1),
                            hold ? std::optional(hold->shape(0)) : std::nullopt,
                            effort ? std::optional(effort->shape(0)) : std::nullopt);
            cuda::DeviceArray<const std::uint8_t> h;
            if (hold) h = {reinterpret_cast<const std::uint8_t*>(hold->data()), std::ptrdiff_t(hold->stride(0)), 0};
            cuda::DeviceArray<T> e;
            if (effort) e = {effort->data(), std::ptrdiff_t(effort->stride(0)), 0};
            const PdTracking pd{std::move(v_index), std::move(q_index), kp, kd, max_torque};
            const cuda::DeviceArray<const T> t{target.data(), std::ptrdiff_t(target.stride(0)),
                                               std::ptrdiff_t(target.stride(1))};
            nb::gil_scoped_release release;
            d.step_pd(dt, frame_skip, pd, t, h, e);
          },
          "dt"_a, "frame_skip"_a, "target"_a.noconvert(), "hold"_a.noconvert().none(),
          "effort"_a.noconvert().none(), "v_index"_a, "q_index"_a, "kp"_a, "kd"_a, "max_torque"_a)
      .def(
          "upload",
          [](D& d) {
            nb::gil_scoped_release release;
            d.upload();
          },
          "The host Simulator's state and controls into the device copy.")
      .def(
          "download",
          [](D& d) {
            nb::gil_scoped_release release;
            d.download();
          },
          "The device copy's state and controls into the host Simulator.");
}

}  // namespace

void bind_device_simulator(nb::module_& m) {
  bind_types<double>(m, "64");
  bind_types<float>(m, "32");
}

}  // namespace obliq::python

// python/src/bindings.hpp: shared pieces of the nanobind module obliq._obliq.
//
// Arrays go out as numpy views of buffers that a bound C++ object owns (the view keeps that
// object alive: rv_policy::reference_internal), so reading results or filling a batch copies
// nothing; numpy's __dlpack__ hands the same memory on to torch or jax.
#pragma once

#include <nanobind/ndarray.h>
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "obliq/batch.hpp"

namespace obliq::python {

namespace nb = nanobind;

// A numpy view of `data` with the given shape (row-major, contiguous); its owner is set by the
// return value policy of the property or method that returns it.
template <class T> nb::ndarray<nb::numpy, T> view(T* data, std::initializer_list<std::size_t> shape) {
  return nb::ndarray<nb::numpy, T>(data, shape, nb::handle());
}

// A numpy array that takes over `v` (no copy): the vector moves to the heap and a capsule owned
// by the array frees it.
template <class T> nb::ndarray<nb::numpy, T> owned(std::vector<T>&& v, std::initializer_list<std::size_t> shape) {
  auto* heap = new std::vector<T>(std::move(v));
  nb::capsule owner(heap, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  return nb::ndarray<nb::numpy, T>(heap->data(), shape, owner);
}

// Parse option strings; throw std::invalid_argument (Python ValueError) naming the choices.
Backend backend_from(const std::string& name);
lcp::Solver lcp_solver_from(const std::string& name);
// Thread count: 0 = all hardware threads, else positive.
int threads_from(int threads);
// step_pd's array shapes (the host Simulator's and the DeviceSimulator's): target (count, n),
// hold and effort (count,) where given; std::invalid_argument naming the one that does not fit.
void check_pd_shapes(std::size_t count, std::size_t n, std::size_t target_rows, std::size_t target_cols,
                     std::optional<std::size_t> hold, std::optional<std::size_t> effort);

void bind_status(nb::module_& m);
void bind_batch(nb::module_& m);
void bind_lcp(nb::module_& m);
void bind_model(nb::module_& m);
void bind_simulator(nb::module_& m);
void bind_device_simulator(nb::module_& m);
void bind_views(nb::module_& m);
void bind_sweep(nb::module_& m);

}  // namespace obliq::python

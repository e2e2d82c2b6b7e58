// cuda/flat_model.hpp: a multibody model (model::ModelView) as two flat arrays, its integers
// and its scalars, so that a device copy of the model is two memcpys; and the view of such a
// copy wherever it lies (device memory for the Simulator's kernel, host memory in the CPU
// emulation of the glue). Host code, no CUDA headers.
#pragma once

#include <cstddef>
#include <vector>

#include "obliq/model/model.hpp"

namespace obliq::cuda::detail {

template <class T> struct FlatModel {
  std::vector<int> ints;  // parent, joint_type, idx_q, idx_v, velocity_parent (when set), contact bodies
  std::vector<T> reals;   // placement_R, placement_p, axis, mass, com, inertia, contact points, normals, offsets
};

// Visits every array of m with its length: f(pointer member, length).
template <class T, class Ints, class Reals> void for_each_model_array(const model::ModelView<T>& m, Ints ints, Reals reals) {
  const std::size_t nb = std::size_t(m.nbodies), nc = std::size_t(m.ncontacts);
  ints(&model::ModelView<T>::parent, nb);
  ints(&model::ModelView<T>::joint_type, nb);
  ints(&model::ModelView<T>::idx_q, nb);
  ints(&model::ModelView<T>::idx_v, nb);
  ints(&model::ModelView<T>::velocity_parent, m.velocity_parent ? std::size_t(m.nv) : 0);
  ints(&model::ModelView<T>::contact_body_a, nc);
  ints(&model::ModelView<T>::contact_body_b, nc);
  reals(&model::ModelView<T>::placement_R, 9 * nb);
  reals(&model::ModelView<T>::placement_p, 3 * nb);
  reals(&model::ModelView<T>::axis, 3 * nb);
  reals(&model::ModelView<T>::mass, nb);
  reals(&model::ModelView<T>::com, 3 * nb);
  reals(&model::ModelView<T>::inertia, 9 * nb);
  reals(&model::ModelView<T>::contact_point_a, 3 * nc);
  reals(&model::ModelView<T>::contact_point_b, 3 * nc);
  reals(&model::ModelView<T>::contact_normal, 3 * nc);
  reals(&model::ModelView<T>::contact_offset, nc);
}

template <class T> FlatModel<T> flatten(const model::ModelView<T>& m) {
  FlatModel<T> f;
  for_each_model_array(
      m, [&](auto member, std::size_t n) { f.ints.insert(f.ints.end(), m.*member, m.*member + n); },
      [&](auto member, std::size_t n) { f.reals.insert(f.reals.end(), m.*member, m.*member + n); });
  return f;
}

// m's sizes and gravity, its arrays read from a copy of flatten(m) at (ints, reals); an array
// that m leaves null stays null (velocity_parent: the dense factor of M).
template <class T> model::ModelView<T> flat_view(const model::ModelView<T>& m, const int* ints, const T* reals) {
  model::ModelView<T> v = m;
  for_each_model_array(
      m, [&](auto member, std::size_t n) { v.*member = m.*member ? ints : nullptr, ints += n; },
      [&](auto member, std::size_t n) { v.*member = m.*member ? reals : nullptr, reals += n; });
  return v;
}

}  // namespace obliq::cuda::detail

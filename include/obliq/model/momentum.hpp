// obliq/model/momentum.hpp: centre of mass, momenta and energies of the whole system.
//
//   total mass      m = sum m_i,   centre of mass  c = sum m_i c_i / m          (world)
//   momentum at O   H_O = sum I_i v_i = (p, L_O)                                (spatial, at O)
//   momentum        p = linear momentum;  L_c = L_O - c x p  (angular about the centre of mass)
//                   docs/format.md's `momentum` is (p, L_c), Pinocchio's centroidal momentum h_g;
//                   the angular momentum about the base origin o_b is L_O - o_b x p (seed 003).
//   kinetic energy  T = 1/2 sum v_i . I_i v_i  (= 1/2 qdot^T M qdot, computed independently)
//   potential       V = - sum m_i g . c_i      (zero at the world origin, Pinocchio's convention)
//
// Needs forward_kinematics first. No allocation.
#pragma once

#include "obliq/model/model.hpp"

namespace obliq::model {


template <class T> OBLIQ_HD inline T total_mass(const ModelView<T>& model) {
  T m = T(0);
  for (int i = 0; i < model.nbodies; ++i) m += model.mass[i];
  return m;
}

// Centre of mass (world), into com[3]. A massless model gives the origin.
template <class T> OBLIQ_HD void centre_of_mass(const ModelView<T>& model, const DataView<T>& data, T* com) {
  T m = T(0);
  V3<T> mc = v3<T>(0, 0, 0);
  for (int i = 0; i < model.nbodies; ++i) {
    const Inertia<T> I = load_inertia(data.I + inertia_size * i);
    m += I.m;
    mc = mc + I.mc;
  }
  store3(com, m > T(0) ? (T(1) / m) * mc : v3<T>(0, 0, 0));
}

// Spatial momentum of the whole system at the world origin: (linear, angular about O).
template <class T> OBLIQ_HD S6<T> momentum_at_origin(const ModelView<T>& model, const DataView<T>& data) {
  S6<T> H = {v3<T>(0, 0, 0), v3<T>(0, 0, 0)};
  for (int i = 0; i < model.nbodies; ++i) H = H + apply(load_inertia(data.I + inertia_size * i), load6(data.v + 6 * i));
  return H;
}

// Centroidal momentum (linear, then angular about the centre of mass; world axes) into out[6],
// the centre of mass into com[3].
template <class T>
OBLIQ_HD void centroidal_momentum(const ModelView<T>& model, const DataView<T>& data, T* com, T* out) {
  centre_of_mass(model, data, com);
  const S6<T> H = momentum_at_origin(model, data);
  const V3<T> c = load3(com);
  store3(out, H.lin);
  store3(out + 3, H.ang - cross(c, H.lin));
}

template <class T> OBLIQ_HD T kinetic_energy(const ModelView<T>& model, const DataView<T>& data) {
  T e = T(0);
  for (int i = 0; i < model.nbodies; ++i) {
    const S6<T> v = load6(data.v + 6 * i);
    e += pair(v, apply(load_inertia(data.I + inertia_size * i), v));
  }
  return T(0.5) * e;
}

template <class T> OBLIQ_HD T potential_energy(const ModelView<T>& model, const DataView<T>& data) {
  T e = T(0);
  const V3<T> g = v3(model.gravity[0], model.gravity[1], model.gravity[2]);
  for (int i = 0; i < model.nbodies; ++i) e -= dot(g, load_inertia(data.I + inertia_size * i).mc);
  return e;
}

}  // namespace obliq::model

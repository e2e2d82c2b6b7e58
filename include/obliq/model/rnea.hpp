// obliq/model/rnea.hpp: the bias forces h(q, qdot) by the recursive Newton-Euler algorithm.
//
//   h = M(q) 0 + C(q, qdot) qdot + g(q):  the joint forces that hold qdd = 0 (docs/format.md's h)
//
// Forward pass (kinematics.hpp) gives every body's velocity v_i and acceleration a_i at qdd = 0
// with gravity as the world's acceleration -g. Backward pass, world coordinates at O:
//
//   f_i  = I_i a_i + v_i x* (I_i v_i) + sum_{children c} f_c      (force parent -> body i)
//   h_k  = S_k . f_i                                               (k a coordinate of joint i)
//
// Needs forward_kinematics first. Writes data.f and h (n). No allocation.
#pragma once

#include "obliq/core/view.hpp"
#include "obliq/model/model.hpp"

namespace obliq::model {

template <class T> OBLIQ_HD void bias_forces(const ModelView<T>& model, const DataView<T>& data, VecView<T> h) {
  for (int i = 0; i < model.nbodies; ++i) {
    const Inertia<T> I = load_inertia(data.I + inertia_size * i);
    const S6<T> v = load6(data.v + 6 * i);
    store6(data.f + 6 * i, apply(I, load6(data.a + 6 * i)) + cross_force(v, apply(I, v)));
  }
  for (int i = model.nbodies - 1; i >= 0; --i) {
    const S6<T> f = load6(data.f + 6 * i);
    const int ni = joint_nv(static_cast<JointType>(model.joint_type[i]));
    for (int k = model.idx_v[i]; k < model.idx_v[i] + ni; ++k) h[k] = pair(load_column(data.S, model.nv, k), f);
    const int p = model.parent[i];
    if (p >= 0) store6(data.f + 6 * p, load6(data.f + 6 * p) + f);
  }
}

}  // namespace obliq::model

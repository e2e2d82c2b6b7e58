// obliq/model/crba.hpp: the joint-space mass matrix by the composite rigid body algorithm.
//
//   M qdd + h = tau,   kinetic energy T = 1/2 qdot^T M qdot
//
// With every quantity in world coordinates at the origin (kinematics.hpp), the composite
// inertia of the subtree rooted at body i is a plain sum, Ic_i = I_i + sum_{children c} Ic_c,
// and for a velocity coordinate k of joint i and a coordinate l of any joint j on the path from
// i to the root (j = i included):
//
//   M_lk = M_kl = S_l . (Ic_i S_k)
//
// (entries between coordinates of joints on different branches are zero). Needs
// forward_kinematics first. Writes data.Ic and the full symmetric n x n matrix M. No allocation.
#pragma once

#include "obliq/core/view.hpp"
#include "obliq/model/model.hpp"

namespace obliq::model {

template <class T> OBLIQ_HD void mass_matrix(const ModelView<T>& model, const DataView<T>& data, MatView<T> M) {
  const int nv = model.nv;
  for (int r = 0; r < nv; ++r)
    for (int c = 0; c < nv; ++c) M(r, c) = T(0);
  // Composite inertias: children after parents in depth-first order, so sweep backwards.
  for (int i = 0; i < model.nbodies * inertia_size; ++i) data.Ic[i] = data.I[i];
  for (int i = model.nbodies - 1; i > 0; --i) {
    const int p = model.parent[i];
    if (p >= 0) add_inertia(data.Ic + inertia_size * p, data.Ic + inertia_size * i);
  }
  for (int i = 0; i < model.nbodies; ++i) {
    const Inertia<T> Ic = load_inertia(data.Ic + inertia_size * i);
    const int ni = joint_nv(static_cast<JointType>(model.joint_type[i]));
    for (int k = model.idx_v[i]; k < model.idx_v[i] + ni; ++k) {
      const S6<T> F = apply(Ic, load_column(data.S, nv, k));  // force of unit qdd_k on the subtree
      for (int j = i; j >= 0; j = model.parent[j]) {
        const int nj = joint_nv(static_cast<JointType>(model.joint_type[j]));
        for (int l = model.idx_v[j]; l < model.idx_v[j] + nj; ++l) {
          const T Mlk = pair(load_column(data.S, nv, l), F);
          M(l, k) = Mlk;
          M(k, l) = Mlk;
        }
      }
    }
  }
}

}  // namespace obliq::model

// obliq/model/joint_impulses.hpp: the spatial impulse each joint transmits during an impact
// (seed 002's internal impulses), by a Newton-Euler pass over the velocity jump.
//
// An impact changes qdot by dqdot = qdot_plus - qdot in an instant; finite forces do not act,
// so the impulsive Newton-Euler equations have no velocity-product or gravity terms. Forward:
//
//   dv_i = dv_p + S_i dqdot_i                           (body velocity jump, world, at O)
//
// Backward, with P_i the contact impulses on body i (row r contributes lambda_r n_r at p_a on
// body a and -lambda_r n_r at p_b on body b, as the spatial impulse (F, p x F) at O):
//
//   J_i = I_i dv_i - P_i + sum_{children c} J_c          (impulse the parent gives body i, at O)
//
// and the output for joint i is J_i carried to the joint origin o_i: (F, N_O - o_i x F).
// For a free-floating base with no applied impulse J_root = 0 (up to round-off): nothing holds
// the base. lambda: (ncontacts), in model row order (bilateral first: docs/format.md's lambda).
//
// Needs forward_kinematics first (poses, subspace, inertias). out: (nbodies x 6). No allocation.
#pragma once

#include "obliq/core/view.hpp"
#include "obliq/model/contact_rows.hpp"
#include "obliq/model/model.hpp"

namespace obliq::model {

template <class T>
OBLIQ_HD void joint_impulses(const ModelView<T>& model, const DataView<T>& data, VecView<const T> dqdot,
                             VecView<const T> lambda, MatView<T> out) {
  // Forward: velocity jumps, then each body's own momentum jump.
  for (int i = 0; i < model.nbodies; ++i) {
    const int p = model.parent[i];
    S6<T> dv = {v3<T>(0, 0, 0), v3<T>(0, 0, 0)};
    if (p >= 0) dv = load6(data.dv + 6 * p);
    const int ni = joint_nv(static_cast<JointType>(model.joint_type[i]));
    for (int k = model.idx_v[i]; k < model.idx_v[i] + ni; ++k) dv = dv + dqdot[k] * load_column(data.S, model.nv, k);
    store6(data.dv + 6 * i, dv);
    store6(data.f + 6 * i, apply(load_inertia(data.I + inertia_size * i), dv));
  }
  // External (contact) impulses on the bodies.
  for (int r = 0; r < model.ncontacts; ++r) {
    const V3<T> F = lambda[r] * load3(model.contact_normal + 3 * r);
    const int ba = model.contact_body_a[r], bb = model.contact_body_b[r];
    if (ba >= 0) {
      const V3<T> pa = world_point(data, ba, model.contact_point_a + 3 * r);
      store6(data.f + 6 * ba, load6(data.f + 6 * ba) - S6<T>{F, cross(pa, F)});
    }
    if (bb >= 0) {
      const V3<T> pb = world_point(data, bb, model.contact_point_b + 3 * r);
      store6(data.f + 6 * bb, load6(data.f + 6 * bb) + S6<T>{F, cross(pb, F)});
    }
  }
  // Backward: accumulate the subtrees.
  for (int i = model.nbodies - 1; i >= 0; --i) {
    const S6<T> J = load6(data.f + 6 * i);
    const int p = model.parent[i];
    if (p >= 0) store6(data.f + 6 * p, load6(data.f + 6 * p) + J);
    const V3<T> o = load3(data.op + 3 * i);
    const V3<T> N = J.ang - cross(o, J.lin);
    for (int r = 0; r < 3; ++r) {
      out(i, r) = J.lin[r];
      out(i, 3 + r) = N[r];
    }
  }
}

}  // namespace obliq::model

// obliq/model/contact_rows.hpp: the constraint rows of the impact problem: gaps phi, Jacobian
// rows A = d phi / dq (per velocity coordinate) and the drift term Adot qdot.
//
// For row r (model.hpp): points p_a (on body a) and p_b (on body b or the world), normal n:
//
//   phi_r          = n . (p_a - p_b) - d_r
//   A_r k          = n . (J_a,k - J_b,k),   J_x,k = S_k.lin + S_k.ang x p_x  for coordinates k
//                    on the path from body x to the root, 0 elsewhere
//   (Adot qdot)_r  = n . (acc_a - acc_b),   acc_x = a.lin + a.ang x p_x + w x (v.lin + w x p_x)
//
// where acc_x is the classical acceleration of the point at qdd = 0 without gravity: (a, v, w)
// of its body from kinematics.hpp, with the gravity term removed (a + (g, 0)), so that the
// point's acceleration is A qdd + Adot qdot. Rows come out in model order: bilateral rows
// first (A_b, then A_u), which is docs/format.md's lambda order.
//
// Needs forward_kinematics first. A: (ncontacts x n), phi and Adot_qdot: (ncontacts). No allocation.
#pragma once

#include "obliq/core/view.hpp"
#include "obliq/model/model.hpp"

namespace obliq::model {

// World position of a point fixed in body b (b = -1: the point is already in the world).
template <class T> OBLIQ_HD inline V3<T> world_point(const DataView<T>& data, int b, const T* local) {
  if (b < 0) return load3(local);
  return load3(data.op + 3 * b) + load33(data.oR + 9 * b) * load3(local);
}

// Classical acceleration at qdd = 0, without gravity, of the world point p fixed in body b.
template <class T>
OBLIQ_HD inline V3<T> point_bias_acceleration(const ModelView<T>& model, const DataView<T>& data, int b, const V3<T>& p) {
  if (b < 0) return v3<T>(0, 0, 0);
  S6<T> a = load6(data.a + 6 * b);
  a.lin = a.lin + v3(model.gravity[0], model.gravity[1], model.gravity[2]);
  const S6<T> v = load6(data.v + 6 * b);
  return point_velocity(a, p) + cross(v.ang, point_velocity(v, p));
}

// Add sign * n . J_point into row `row` for the point p fixed in body b.
template <class T>
OBLIQ_HD inline void add_point_row(const ModelView<T>& model, const DataView<T>& data, int b, const V3<T>& p,
                                   const V3<T>& n, T sign, VecView<T> row) {
  for (int j = b; j >= 0; j = model.parent[j]) {
    const int nj = joint_nv(static_cast<JointType>(model.joint_type[j]));
    for (int k = model.idx_v[j]; k < model.idx_v[j] + nj; ++k)
      row[k] += sign * dot(n, point_velocity(load_column(data.S, model.nv, k), p));
  }
}

template <class T>
OBLIQ_HD void contact_rows(const ModelView<T>& model, const DataView<T>& data, MatView<T> A, VecView<T> phi,
                           VecView<T> Adot_qdot) {
  for (int r = 0; r < model.ncontacts; ++r) {
    const int ba = model.contact_body_a[r], bb = model.contact_body_b[r];
    const V3<T> n = load3(model.contact_normal + 3 * r);
    const V3<T> pa = world_point(data, ba, model.contact_point_a + 3 * r);
    const V3<T> pb = world_point(data, bb, model.contact_point_b + 3 * r);
    phi[r] = dot(n, pa - pb) - model.contact_offset[r];
    VecView<T> row = A.row(r);
    for (int k = 0; k < model.nv; ++k) row[k] = T(0);
    add_point_row(model, data, ba, pa, n, T(1), row);
    add_point_row(model, data, bb, pb, n, T(-1), row);
    Adot_qdot[r] = dot(n, point_bias_acceleration(model, data, ba, pa) - point_bias_acceleration(model, data, bb, pb));
  }
}

}  // namespace obliq::model

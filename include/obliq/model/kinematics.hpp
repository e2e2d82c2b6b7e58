// obliq/model/kinematics.hpp: forward kinematics, first and second order, in one pass.
//
// For each body i in depth-first order (parent p before child), from the parent's world pose
// (R_p, o_p), velocity v_p and acceleration a_p (spatial, at the world origin O):
//
//   pose          R_i = R_p R0_i J_R(q_i),  o_i = o_p + R_p (p0_i + J_p(q_i))
//   subspace      S_i = world spatial motion of unit joint velocity (model.hpp's table)
//   velocity      v_i = v_p + S_i qdot_i
//   acceleration  a_i = a_p + S_i qdd_i + v_i x (S_i qdot_i)        (here qdd = 0)
//   inertia       I_i = spatial inertia of body i at O (mass, world com, R_i I_c R_i^T)
//
// The root's parent is the world with v = 0 and a = (-g, 0): gravity enters as a fictitious
// upward acceleration of the world (Featherstone), so the bias forces of rnea.hpp include it.
// The term v_i x (S_i qdot_i) is the time derivative of the world-frame subspace S_i qdot_i
// (columns fixed in the body move with v_i; for one-coordinate joints v_i x S = v_p x S).
//
// Returns Status::bad_shape for sizes that differ from the model's, Status::bad_quaternion for a
// free-flyer quaternion that is zero, not finite or whose squared norm is not 1 to 2e-6
// (docs/format.md asks for unit quaternions; it is checked before the other coordinates, so a
// NaN there names the quaternion), Status::non_finite for NaN/Inf elsewhere in q or in qdot —
// per state, never a crash. No allocation; OBLIQ_HD.
#pragma once

#include "obliq/core/status.hpp"
#include "obliq/core/view.hpp"
#include "obliq/model/model.hpp"
#include "obliq/model/spatial.hpp"

namespace obliq::model {

template <class T> OBLIQ_HD inline bool finite_(T x) { return x == x && x - x == T(0); }

template <class T>
OBLIQ_HD Status forward_kinematics(const ModelView<T>& model, const DataView<T>& data, VecView<const T> q,
                                   VecView<const T> qdot) {
  if (q.size != model.nq || qdot.size != model.nv) return Status::bad_shape;
  for (int i = 0; i < model.nbodies; ++i) {
    if (static_cast<JointType>(model.joint_type[i]) != JointType::free_flyer) continue;
    const int iq = model.idx_q[i];
    const T qx = q[iq + 3], qy = q[iq + 4], qz = q[iq + 5], qw = q[iq + 6];
    const T norm2 = qx * qx + qy * qy + qz * qz + qw * qw;  // NaN for a non-finite entry
    if (!(abs_(norm2 - T(1)) <= T(2e-6))) return Status::bad_quaternion;
  }
  for (int k = 0; k < model.nq; ++k)
    if (!finite_(q[k])) return Status::non_finite;
  for (int k = 0; k < model.nv; ++k)
    if (!finite_(qdot[k])) return Status::non_finite;

  for (int i = 0; i < model.nbodies; ++i) {
    const int p = model.parent[i];
    // Parent pose and motion (the world when p = -1).
    M3<T> Rp = identity3<T>();
    V3<T> op = v3<T>(0, 0, 0);
    S6<T> vp = {v3<T>(0, 0, 0), v3<T>(0, 0, 0)};
    S6<T> ap = {v3<T>(-model.gravity[0], -model.gravity[1], -model.gravity[2]), v3<T>(0, 0, 0)};
    if (p >= 0) {
      Rp = load33(data.oR + 9 * p);
      op = load3(data.op + 3 * p);
      vp = load6(data.v + 6 * p);
      ap = load6(data.a + 6 * p);
    }
    // Joint frame before the joint's own motion.
    const M3<T> R = Rp * load33(model.placement_R + 9 * i);
    V3<T> o = op + Rp * load3(model.placement_p + 3 * i);
    M3<T> Ri = R;
    const int iq = model.idx_q[i], iv = model.idx_v[i];
    const JointType type = static_cast<JointType>(model.joint_type[i]);
    S6<T> vJ = {v3<T>(0, 0, 0), v3<T>(0, 0, 0)};  // S_i qdot_i
    const V3<T> axis = load3(model.axis + 3 * i);
    if (type == JointType::revolute) {
      Ri = R * axis_angle(axis, q[iq]);
      const V3<T> w = R * axis;
      const S6<T> col = {cross(o, w), w};
      store_column(data.S, model.nv, iv, col);
      vJ = qdot[iv] * col;
    } else if (type == JointType::prismatic) {
      const V3<T> d = R * axis;
      o = o + q[iq] * d;
      store_column(data.S, model.nv, iv, S6<T>{d, v3<T>(0, 0, 0)});
      vJ = {qdot[iv] * d, v3<T>(0, 0, 0)};
    } else {  // free_flyer
      const T qx = q[iq + 3], qy = q[iq + 4], qz = q[iq + 5], qw = q[iq + 6];
      o = o + R * v3(q[iq], q[iq + 1], q[iq + 2]);
      Ri = R * quaternion_rotation(qx, qy, qz, qw);
      // Body-frame velocity (v_b, w_b): world motion at O is (R v_b + o x R w_b, R w_b).
      for (int k = 0; k < 3; ++k) {
        const V3<T> e = v3<T>(Ri(0, k), Ri(1, k), Ri(2, k));
        store_column(data.S, model.nv, iv + k, S6<T>{e, v3<T>(0, 0, 0)});
        store_column(data.S, model.nv, iv + 3 + k, S6<T>{cross(o, e), e});
      }
      for (int k = 0; k < 6; ++k) {
        const S6<T> col = load_column(data.S, model.nv, iv + k);
        vJ = vJ + qdot[iv + k] * col;
      }
    }
    store33(data.oR + 9 * i, Ri);
    store3(data.op + 3 * i, o);
    const S6<T> vi = vp + vJ;
    store6(data.v + 6 * i, vi);
    store6(data.a + 6 * i, ap + cross_motion(vi, vJ));
    // Body inertia at O.
    const V3<T> c = o + Ri * load3(model.com + 3 * i);
    store_inertia(data.I + inertia_size * i,
                  inertia_at_origin(model.mass[i], c, rotate_inertia(Ri, load33(model.inertia + 9 * i))));
  }
  return Status::ok;
}

}  // namespace obliq::model

// obliq/model/model.hpp: a multibody model (what is fixed) and its per-state data (what is
// computed), split as in Pinocchio. The per-state algorithms (kinematics.hpp, crba.hpp,
// rnea.hpp, contact_rows.hpp, momentum.hpp, joint_impulses.hpp) take
// (const ModelView<T>&, const DataView<T>&, ...): plain structs of pointers that a CUDA kernel
// can take by value. The host owns the memory in ModelT<T> / DataT<T> (std::vector), built by the
// URDF loader and the built-in models (include/obliq/model/build.hpp).
//
// The model is a kinematic tree of bodies, one joint per body, numbered depth-first from the
// root (parent[i] < i; parent -1 is the world). Joint i moves body i relative to its parent
// body: its frame sits at `placement` (rotation R0, translation p0) in the parent's frame, then
// the joint motion applies:
//   revolute    R = R0 Rot(axis, q),          one coordinate, S = (p x w, w) with w = R axis
//   prismatic   p = p0 + R0 axis q,           one coordinate, S = (R0 axis, 0)
//   free_flyer  R = R0 R(quat), p = p0 + R0 x, q = (x, y, z, qx, qy, qz, qw), qdot = (v, w)
//               of the body in its own frame (Pinocchio's convention), 7 coordinates, 6 velocities
// URDF fixed joints are merged into the parent body when the model is built (Pinocchio does the
// same), so they never appear here.
//
// Contact rows (the gap functions of the impact problem): row r measures along the world unit
// normal n_r the distance between point a (fixed in body a) and point b (fixed in body b, or a
// world point when b = -1), minus an offset d_r:
//   phi_r = n_r . (p_a - p_b) - d_r,   A_r = n_r . (J_a - J_b),   (Adot qdot)_r = n_r . (a_a - a_b)
// with J the point's world velocity Jacobian and a its acceleration at qdd = 0 without gravity.
// A ground contact at height z0 is (a = body point, b = -1 at the origin, n = +z, d = z0).
// The first `n_bilateral` rows are bilateral (pinned points, loops); the rest unilateral.
#pragma once

#include <cstddef>

#include "obliq/core/config.hpp"
#include "obliq/model/spatial.hpp"

namespace obliq::model {

enum class JointType : int { revolute = 0, prismatic = 1, free_flyer = 2 };

OBLIQ_HD inline int joint_nq(JointType t) { return t == JointType::free_flyer ? 7 : 1; }
OBLIQ_HD inline int joint_nv(JointType t) { return t == JointType::free_flyer ? 6 : 1; }

template <class T> struct ModelView {
  int nbodies = 0;  // bodies = joints (the world is not counted)
  int nq = 0, nv = 0;
  int ncontacts = 0, n_bilateral = 0;
  const int* parent = nullptr;      // (nbodies) parent body, -1 for the world
  const int* joint_type = nullptr;  // (nbodies) JointType
  const int* idx_q = nullptr;       // (nbodies) first configuration coordinate
  const int* idx_v = nullptr;       // (nbodies) first velocity coordinate
  const int* velocity_parent = nullptr;  // (nv) the velocity coordinates' tree: the previous
                                         // coordinate of the same joint, else the last of the
                                         // parent body's joint, -1 at the world (mass_factor.hpp)
  const T* placement_R = nullptr;   // (nbodies x 9) R0, row-major, in the parent frame
  const T* placement_p = nullptr;   // (nbodies x 3) p0
  const T* axis = nullptr;          // (nbodies x 3) unit joint axis in the joint frame
  const T* mass = nullptr;          // (nbodies)
  const T* com = nullptr;           // (nbodies x 3) centre of mass in the body frame
  const T* inertia = nullptr;       // (nbodies x 9) rotational inertia about the com, body axes
  const int* contact_body_a = nullptr;  // (ncontacts)
  const int* contact_body_b = nullptr;  // (ncontacts), -1: a world point
  const T* contact_point_a = nullptr;   // (ncontacts x 3) in body a's frame
  const T* contact_point_b = nullptr;   // (ncontacts x 3) in body b's frame (world if b = -1)
  const T* contact_normal = nullptr;    // (ncontacts x 3) unit world normal
  const T* contact_offset = nullptr;    // (ncontacts)
  T gravity[3] = {T(0), T(0), T(-9.81)};
};

// Per-state data: one contiguous buffer of data_size(model) scalars, carved into the arrays
// below. On a GPU each thread gets its own block (or an interleaved one: `stride`).
template <class T> struct DataView {
  T* oR = nullptr;  // (nbodies x 9) body rotation in the world
  T* op = nullptr;  // (nbodies x 3) body origin in the world
  T* S = nullptr;   // (6 x nv) motion subspace: world spatial motion of each velocity coordinate at O
  T* I = nullptr;   // (nbodies x 10) body spatial inertia at O (spatial.hpp's Inertia)
  T* Ic = nullptr;  // (nbodies x 10) composite inertia of the subtree at O (CRBA)
  T* v = nullptr;   // (nbodies x 6) body spatial velocity at O
  T* a = nullptr;   // (nbodies x 6) body spatial acceleration at O at qdd = 0, gravity as -g at the root
  T* f = nullptr;   // (nbodies x 6) spatial force (RNEA) or impulse (joint_impulses) at O, parent -> body
  T* dv = nullptr;  // (nbodies x 6) body spatial velocity jump (joint_impulses)
};

template <class T> OBLIQ_HD inline std::size_t data_size(const ModelView<T>& m) {
  return std::size_t(m.nbodies) * (9 + 3 + 10 + 10 + 6 + 6 + 6 + 6) + std::size_t(6) * m.nv;
}

// Carve a DataView out of a caller-owned block of data_size(model) scalars.
template <class T> OBLIQ_HD inline DataView<T> data_view(const ModelView<T>& m, T* block) {
  DataView<T> d;
  const std::size_t nb = m.nbodies;
  d.oR = block; block += 9 * nb;
  d.op = block; block += 3 * nb;
  d.S = block; block += 6 * std::size_t(m.nv);
  d.I = block; block += 10 * nb;
  d.Ic = block; block += 10 * nb;
  d.v = block; block += 6 * nb;
  d.a = block; block += 6 * nb;
  d.f = block; block += 6 * nb;
  d.dv = block;
  return d;
}

// Column k of the (6 x nv) row-major motion subspace S.
template <class T> OBLIQ_HD inline S6<T> load_column(const T* S, int nv, int k) {
  return {v3(S[k], S[nv + k], S[2 * nv + k]), v3(S[3 * nv + k], S[4 * nv + k], S[5 * nv + k])};
}
template <class T> OBLIQ_HD inline void store_column(T* S, int nv, int k, const S6<T>& c) {
  for (int r = 0; r < 3; ++r) {
    S[r * nv + k] = c.lin[r];
    S[(3 + r) * nv + k] = c.ang[r];
  }
}

}  // namespace obliq::model

// obliq/model/integrate.hpp: moving a configuration by a velocity, per state (OBLIQ_HD).
//
//   one-coordinate joints   q' = q + dt v
//   free flyer              p' = p + R(quat) (dt v_lin),  quat' = quat (x) exp(dt w / 2)
//                           (renormalised; body-frame velocity as in model.hpp). A smooth
//                           retraction, not SE(3)'s exponential: p moves along the start frame.
//
// configuration_rate is its derivative at dt = 0: v itself, and for a free flyer
// (R v_lin, 1/2 quat (x) (w, 0)). Quaternions are stored (x, y, z, w). No allocation.
#pragma once

#include <cmath>

#include "obliq/core/view.hpp"
#include "obliq/model/model.hpp"

namespace obliq::model {

// Hamilton product a (x) b of quaternions (x, y, z, w).
template <class T> OBLIQ_HD inline void quaternion_product(const T* a, const T* b, T* out) {
  const T x = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
  const T y = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
  const T z = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
  const T w = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
  out[0] = x;
  out[1] = y;
  out[2] = z;
  out[3] = w;
}

// q_out = q moved by velocity v for time dt (q_out may alias q).
template <class T>
OBLIQ_HD void integrate(const ModelView<T>& model, VecView<const T> q, VecView<const T> v, T dt, VecView<T> q_out) {
  for (int i = 0; i < model.nbodies; ++i) {
    const int iq = model.idx_q[i], iv = model.idx_v[i];
    if (static_cast<JointType>(model.joint_type[i]) != JointType::free_flyer) {
      q_out[iq] = q[iq] + dt * v[iv];
      continue;
    }
    const T quat[4] = {q[iq + 3], q[iq + 4], q[iq + 5], q[iq + 6]};
    const M3<T> R = quaternion_rotation(quat[0], quat[1], quat[2], quat[3]);
    const V3<T> dp = R * v3(dt * v[iv], dt * v[iv + 1], dt * v[iv + 2]);
    const V3<T> w = v3(dt * v[iv + 3], dt * v[iv + 4], dt * v[iv + 5]);
    const T angle = T(sqrt(dot(w, w)));
    const T half = T(0.5) * angle;
    const T s = angle > T(0) ? T(sin(half)) / angle : T(0.5);
    const T step[4] = {s * w[0], s * w[1], s * w[2], T(cos(half))};
    T next[4];
    quaternion_product(quat, step, next);
    const T norm = T(sqrt(next[0] * next[0] + next[1] * next[1] + next[2] * next[2] + next[3] * next[3]));
    for (int k = 0; k < 3; ++k) q_out[iq + k] = q[iq + k] + dp[k];
    for (int k = 0; k < 4; ++k) q_out[iq + 3 + k] = next[k] / norm;
  }
}

// qd = dq/dt for velocity v (nq entries).
template <class T>
OBLIQ_HD void configuration_rate(const ModelView<T>& model, VecView<const T> q, VecView<const T> v, VecView<T> qd) {
  for (int i = 0; i < model.nbodies; ++i) {
    const int iq = model.idx_q[i], iv = model.idx_v[i];
    if (static_cast<JointType>(model.joint_type[i]) != JointType::free_flyer) {
      qd[iq] = v[iv];
      continue;
    }
    const T quat[4] = {q[iq + 3], q[iq + 4], q[iq + 5], q[iq + 6]};
    const V3<T> dp = quaternion_rotation(quat[0], quat[1], quat[2], quat[3]) * v3(v[iv], v[iv + 1], v[iv + 2]);
    const T w[4] = {v[iv + 3], v[iv + 4], v[iv + 5], T(0)};
    T dquat[4];
    quaternion_product(quat, w, dquat);
    for (int k = 0; k < 3; ++k) qd[iq + k] = dp[k];
    for (int k = 0; k < 4; ++k) qd[iq + 3 + k] = T(0.5) * dquat[k];
  }
}

}  // namespace obliq::model

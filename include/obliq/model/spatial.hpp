// obliq/model/spatial.hpp: the small fixed-size algebra of the model layer (3-vectors, 3x3
// rotations, 6-vector spatial motions and forces, 6x6 spatial inertias), OBLIQ_HD and
// templated on the scalar so that the per-state algorithms compile under g++ and nvcc alike.
//
// Conventions (Pinocchio's ordering): a spatial motion is m = (v, w), linear part first, and a
// spatial force is f = (f, n), force first. The model layer expresses both in the world frame at
// the world origin ("Plücker coordinates at O"): v is the velocity of the body point that
// momentarily coincides with O, n the moment about O. Then no frame changes are needed between
// bodies and every algorithm is a plain sum along the tree.
//
//   motion cross   (v, w) x  (v2, w2) = (w x v2 + v x w2, w x w2)
//   force cross    (v, w) x* (f, n)   = (w x f, w x n + v x f)
//   pairing        (v, w) . (f, n)    = v.f + w.n   (power / work)
//   inertia        I (v, w) = (m v - m c x w,  I_c w + m c x v - m c x (c x w))
//                  for mass m, centre of mass c (at O) and rotational inertia I_c about c.
#pragma once

#include <cmath>

#include "obliq/core/config.hpp"

namespace obliq::model {

template <class T> struct V3 {
  T x[3];
  OBLIQ_HD T& operator[](int i) { return x[i]; }
  OBLIQ_HD const T& operator[](int i) const { return x[i]; }
};

// Row-major 3x3.
template <class T> struct M3 {
  T m[9];
  OBLIQ_HD T& operator()(int i, int j) { return m[3 * i + j]; }
  OBLIQ_HD const T& operator()(int i, int j) const { return m[3 * i + j]; }
};

template <class T> OBLIQ_HD inline V3<T> v3(T a, T b, T c) { return {{a, b, c}}; }
template <class T> OBLIQ_HD inline V3<T> load3(const T* p) { return {{p[0], p[1], p[2]}}; }
template <class T> OBLIQ_HD inline void store3(T* p, const V3<T>& a) { p[0] = a[0]; p[1] = a[1]; p[2] = a[2]; }
template <class T> OBLIQ_HD inline M3<T> load33(const T* p) {
  M3<T> r;
  for (int i = 0; i < 9; ++i) r.m[i] = p[i];
  return r;
}
template <class T> OBLIQ_HD inline void store33(T* p, const M3<T>& a) {
  for (int i = 0; i < 9; ++i) p[i] = a.m[i];
}

template <class T> OBLIQ_HD inline V3<T> operator+(const V3<T>& a, const V3<T>& b) { return v3(a[0] + b[0], a[1] + b[1], a[2] + b[2]); }
template <class T> OBLIQ_HD inline V3<T> operator-(const V3<T>& a, const V3<T>& b) { return v3(a[0] - b[0], a[1] - b[1], a[2] - b[2]); }
template <class T> OBLIQ_HD inline V3<T> operator*(T s, const V3<T>& a) { return v3(s * a[0], s * a[1], s * a[2]); }
template <class T> OBLIQ_HD inline T dot(const V3<T>& a, const V3<T>& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
template <class T> OBLIQ_HD inline V3<T> cross(const V3<T>& a, const V3<T>& b) {
  return v3(a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]);
}

template <class T> OBLIQ_HD inline M3<T> identity3() {
  M3<T> r;
  for (int i = 0; i < 9; ++i) r.m[i] = (i % 4 == 0) ? T(1) : T(0);
  return r;
}
template <class T> OBLIQ_HD inline V3<T> operator*(const M3<T>& R, const V3<T>& a) {
  return v3(R(0, 0) * a[0] + R(0, 1) * a[1] + R(0, 2) * a[2], R(1, 0) * a[0] + R(1, 1) * a[1] + R(1, 2) * a[2],
            R(2, 0) * a[0] + R(2, 1) * a[1] + R(2, 2) * a[2]);
}
template <class T> OBLIQ_HD inline M3<T> operator*(const M3<T>& A, const M3<T>& B) {
  M3<T> r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r(i, j) = A(i, 0) * B(0, j) + A(i, 1) * B(1, j) + A(i, 2) * B(2, j);
  return r;
}
template <class T> OBLIQ_HD inline M3<T> transpose(const M3<T>& A) {
  M3<T> r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r(i, j) = A(j, i);
  return r;
}
// R A R^T (a rotational inertia carried into another frame).
template <class T> OBLIQ_HD inline M3<T> rotate_inertia(const M3<T>& R, const M3<T>& A) { return R * A * transpose(R); }

// Rotation by `angle` about the unit `axis` (Rodrigues): R = I + sin(a) [k]x + (1 - cos(a)) [k]x^2.
template <class T> OBLIQ_HD inline M3<T> axis_angle(const V3<T>& k, T angle) {
  const T s = sin(angle), c = cos(angle), t = T(1) - c;
  M3<T> R;
  R(0, 0) = c + t * k[0] * k[0];
  R(0, 1) = t * k[0] * k[1] - s * k[2];
  R(0, 2) = t * k[0] * k[2] + s * k[1];
  R(1, 0) = t * k[1] * k[0] + s * k[2];
  R(1, 1) = c + t * k[1] * k[1];
  R(1, 2) = t * k[1] * k[2] - s * k[0];
  R(2, 0) = t * k[2] * k[0] - s * k[1];
  R(2, 1) = t * k[2] * k[1] + s * k[0];
  R(2, 2) = c + t * k[2] * k[2];
  return R;
}

// Rotation of the unit quaternion (x, y, z, w) (Pinocchio's and Eigen's coefficient order).
template <class T> OBLIQ_HD inline M3<T> quaternion_rotation(T x, T y, T z, T w) {
  M3<T> R;
  R(0, 0) = T(1) - T(2) * (y * y + z * z);
  R(0, 1) = T(2) * (x * y - z * w);
  R(0, 2) = T(2) * (x * z + y * w);
  R(1, 0) = T(2) * (x * y + z * w);
  R(1, 1) = T(1) - T(2) * (x * x + z * z);
  R(1, 2) = T(2) * (y * z - x * w);
  R(2, 0) = T(2) * (x * z - y * w);
  R(2, 1) = T(2) * (y * z + x * w);
  R(2, 2) = T(1) - T(2) * (x * x + y * y);
  return R;
}

// URDF's fixed-axis roll-pitch-yaw: R = Rz(yaw) Ry(pitch) Rx(roll).
template <class T> OBLIQ_HD inline M3<T> rpy_rotation(T roll, T pitch, T yaw) {
  return axis_angle(v3<T>(0, 0, 1), yaw) * axis_angle(v3<T>(0, 1, 0), pitch) * axis_angle(v3<T>(1, 0, 0), roll);
}

// ---- spatial vectors at the world origin: 6 scalars, (linear, angular) ----------------------

template <class T> struct S6 {
  V3<T> lin, ang;
};
template <class T> OBLIQ_HD inline S6<T> load6(const T* p) { return {load3(p), load3(p + 3)}; }
template <class T> OBLIQ_HD inline void store6(T* p, const S6<T>& a) { store3(p, a.lin); store3(p + 3, a.ang); }
template <class T> OBLIQ_HD inline S6<T> operator+(const S6<T>& a, const S6<T>& b) { return {a.lin + b.lin, a.ang + b.ang}; }
template <class T> OBLIQ_HD inline S6<T> operator-(const S6<T>& a, const S6<T>& b) { return {a.lin - b.lin, a.ang - b.ang}; }
template <class T> OBLIQ_HD inline S6<T> operator*(T s, const S6<T>& a) { return {s * a.lin, s * a.ang}; }
template <class T> OBLIQ_HD inline T pair(const S6<T>& motion, const S6<T>& force) { return dot(motion.lin, force.lin) + dot(motion.ang, force.ang); }
template <class T> OBLIQ_HD inline S6<T> cross_motion(const S6<T>& m, const S6<T>& m2) {
  return {cross(m.ang, m2.lin) + cross(m.lin, m2.ang), cross(m.ang, m2.ang)};
}
template <class T> OBLIQ_HD inline S6<T> cross_force(const S6<T>& m, const S6<T>& f) {
  return {cross(m.ang, f.lin), cross(m.ang, f.ang) + cross(m.lin, f.lin)};
}
// The velocity, at the world point p, of the motion m given at the origin: v + w x p.
template <class T> OBLIQ_HD inline V3<T> point_velocity(const S6<T>& m, const V3<T>& p) { return m.lin + cross(m.ang, p); }

// ---- spatial inertia at the world origin, stored as 10 numbers ------------------------------
// (m, m c (3), I_O (6: xx, yy, zz, xy, xz, yz)) with I_O = I_c + m ([c]x^T [c]x) the rotational
// inertia about O. Sums of bodies (composite inertias) are sums of these 10 numbers.
template <class T> struct Inertia {
  T m;
  V3<T> mc;
  T Ixx, Iyy, Izz, Ixy, Ixz, Iyz;
};
constexpr int inertia_size = 10;
template <class T> OBLIQ_HD inline Inertia<T> load_inertia(const T* p) {
  return {p[0], {{p[1], p[2], p[3]}}, p[4], p[5], p[6], p[7], p[8], p[9]};
}
template <class T> OBLIQ_HD inline void store_inertia(T* p, const Inertia<T>& I) {
  p[0] = I.m; p[1] = I.mc[0]; p[2] = I.mc[1]; p[3] = I.mc[2];
  p[4] = I.Ixx; p[5] = I.Iyy; p[6] = I.Izz; p[7] = I.Ixy; p[8] = I.Ixz; p[9] = I.Iyz;
}
template <class T> OBLIQ_HD inline void add_inertia(T* dst, const T* src) {
  for (int i = 0; i < inertia_size; ++i) dst[i] += src[i];
}
// The inertia of mass m with centre c (world) and rotational inertia Ic about c (world axes).
template <class T> OBLIQ_HD inline Inertia<T> inertia_at_origin(T m, const V3<T>& c, const M3<T>& Ic) {
  Inertia<T> I;
  I.m = m;
  I.mc = m * c;
  // parallel axis: I_O = I_c + m (|c|^2 1 - c c^T)
  I.Ixx = Ic(0, 0) + m * (c[1] * c[1] + c[2] * c[2]);
  I.Iyy = Ic(1, 1) + m * (c[0] * c[0] + c[2] * c[2]);
  I.Izz = Ic(2, 2) + m * (c[0] * c[0] + c[1] * c[1]);
  I.Ixy = T(0.5) * (Ic(0, 1) + Ic(1, 0)) - m * c[0] * c[1];
  I.Ixz = T(0.5) * (Ic(0, 2) + Ic(2, 0)) - m * c[0] * c[2];
  I.Iyz = T(0.5) * (Ic(1, 2) + Ic(2, 1)) - m * c[1] * c[2];
  return I;
}
// Spatial momentum (force-like) of motion (v, w) at O: (m v - mc x w, I_O w + mc x v).
template <class T> OBLIQ_HD inline S6<T> apply(const Inertia<T>& I, const S6<T>& mo) {
  const V3<T>& v = mo.lin;
  const V3<T>& w = mo.ang;
  V3<T> Iw = v3(I.Ixx * w[0] + I.Ixy * w[1] + I.Ixz * w[2], I.Ixy * w[0] + I.Iyy * w[1] + I.Iyz * w[2],
                I.Ixz * w[0] + I.Iyz * w[1] + I.Izz * w[2]);
  return {I.m * v - cross(I.mc, w), Iw + cross(I.mc, v)};
}

}  // namespace obliq::model

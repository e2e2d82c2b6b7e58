// obliq/model/tangent_rows.hpp: the tangent rows of each unilateral contact, for friction
// (docs/friction.md (F1)). For contact r with unit normal n (model.hpp), the tangents are
//     t1 = normalize(n x e),  t2 = n x t1,   e = the coordinate axis least aligned with n
// (first of x, y, z on ties; for the floor normal +z: t1 = +y, t2 = -x), a right-handed frame
// (t1, t2, n) fixed by n alone. Rows and drift
// as contact_rows.hpp with n replaced by t_j:
//     A_t,(2 (r - m_b) + j) k = t_j . (J_a,k - J_b,k),   (Adot qdot)_t = t_j . (acc_a - acc_b).
// Needs forward_kinematics first. A_t: (2 n_unilateral x n), Adot_qdot_t: (2 n_unilateral).
#pragma once

#include <cmath>

#include "obliq/model/contact_rows.hpp"

namespace obliq::model {

// Tangents t1, t2 of the unit normal n (header comment).
template <class T> OBLIQ_HD inline void contact_tangents(const V3<T>& n, V3<T>& t1, V3<T>& t2) {
  const T ax = abs_(n[0]), ay = abs_(n[1]), az = abs_(n[2]);
  const V3<T> e = ax <= ay && ax <= az ? v3<T>(1, 0, 0) : (ay <= az ? v3<T>(0, 1, 0) : v3<T>(0, 0, 1));
  const V3<T> c = cross(n, e);
  t1 = (T(1) / std::sqrt(dot(c, c))) * c;
  t2 = cross(n, t1);
}

template <class T>
OBLIQ_HD void tangent_rows(const ModelView<T>& model, const DataView<T>& data, MatView<T> A_t, VecView<T> Adot_qdot_t) {
  for (int r = model.n_bilateral; r < model.ncontacts; ++r) {
    const int ba = model.contact_body_a[r], bb = model.contact_body_b[r];
    const V3<T> n = load3(model.contact_normal + 3 * r);
    const V3<T> pa = world_point(data, ba, model.contact_point_a + 3 * r);
    const V3<T> pb = world_point(data, bb, model.contact_point_b + 3 * r);
    V3<T> t[2];
    contact_tangents(n, t[0], t[1]);
    const V3<T> acc = point_bias_acceleration(model, data, ba, pa) - point_bias_acceleration(model, data, bb, pb);
    for (int j = 0; j < 2; ++j) {
      const int i = 2 * (r - model.n_bilateral) + j;
      VecView<T> row = A_t.row(i);
      for (int k = 0; k < model.nv; ++k) row[k] = T(0);
      add_point_row(model, data, ba, pa, t[j], T(1), row);
      add_point_row(model, data, bb, pb, t[j], T(-1), row);
      Adot_qdot_t[i] = dot(t[j], acc);
    }
  }
}

}  // namespace obliq::model

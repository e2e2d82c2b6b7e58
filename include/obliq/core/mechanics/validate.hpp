// obliq/core/mechanics/validate.hpp: the per-scenario input checks of docs/format.md that do not
// need a factorization (positive definiteness is decided by the Cholesky factorization of M).
#pragma once

#include "obliq/core/dense/ops.hpp"
#include "obliq/core/scenario_view.hpp"
#include "obliq/core/status.hpp"

namespace obliq {

// Order: non-finite numbers, tolerances, restitution, symmetry of M (to 1e-12 relative to its
// largest entry, docs/format.md). `dynamics` selects which vectors are read.
// M is read once (docs/design.md "Cost model of one answer"): each pair M_ij, M_ji of the lower
// triangle gives its finiteness, its share of max |M| and its asymmetry |M_ij - M_ji|.
template <class T> OBLIQ_HD Status validate(const ScenarioView<T>& in, bool dynamics) {
  using namespace dense;
  T probe = T(0), scale = T(0), asymmetry = T(0);  // probe: sum of (a - a), 0 exactly when all are finite
  for (int i = 0; i < in.n; ++i) {
    for (int j = 0; j < i; ++j) {
      const T a = in.M(i, j), b = in.M(j, i);
      probe += (a - a) + (b - b);
      scale = max_(scale, max_(T(fabs(a)), T(fabs(b))));
      asymmetry = max_(asymmetry, T(fabs(a - b)));
    }
    const T d = in.M(i, i);
    probe += d - d;
    scale = max_(scale, T(fabs(d)));
  }
  if (!(probe == T(0)) || !all_finite(in.qdot) || !all_finite(in.A_b) || !all_finite(in.A_u) || !all_finite(in.phi_u))
    return Status::non_finite;
  if (dynamics) {
    if (!all_finite(in.h) || !all_finite(in.u) || !all_finite(in.Adot_qdot)) return Status::non_finite;
  } else {
    if (!all_finite(in.i_u) || !all_finite(in.e)) return Status::non_finite;
  }
  if (!(in.gap_tol - in.gap_tol == T(0)) || !(in.vel_tol - in.vel_tol == T(0))) return Status::non_finite;
  if (in.gap_tol < T(0) || in.vel_tol < T(0)) return Status::bad_tolerance;
  if (!dynamics)
    for (int i = 0; i < in.m_u; ++i)
      if (in.e[i] < T(0) || in.e[i] > T(1)) return Status::bad_restitution;
  const T tol = (sizeof(T) == sizeof(double) ? T(1e-12) : T(8) * scalar_traits<T>::eps) * scale;
  if (asymmetry > tol) return Status::not_spd;  // some |M_ij - M_ji| > tol
  return Status::ok;
}

}  // namespace obliq

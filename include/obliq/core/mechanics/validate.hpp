// obliq/core/mechanics/validate.hpp: the per-scenario input checks of docs/format.md that do not
// need a factorization (positive definiteness is decided by the Cholesky factorization of M).
#pragma once

#include "obliq/core/dense/ops.hpp"
#include "obliq/core/scenario_view.hpp"
#include "obliq/core/status.hpp"

namespace obliq {

// Order: non-finite numbers, tolerances, restitution, symmetry of M (to 1e-12 relative to its
// largest entry, docs/format.md). `dynamics` selects which vectors are read.
template <class T> OBLIQ_HD Status validate(const ScenarioView<T>& in, bool dynamics) {
  using namespace dense;
  if (!all_finite(in.M) || !all_finite(in.qdot) || !all_finite(in.A_b) || !all_finite(in.A_u) ||
      !all_finite(in.phi_u))
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
  const T scale = max_abs(in.M);
  const T tol = (sizeof(T) == sizeof(double) ? T(1e-12) : T(8) * scalar_traits<T>::eps) * scale;
  for (int i = 0; i < in.n; ++i)
    for (int j = 0; j < i; ++j)
      if (abs_(in.M(i, j) - in.M(j, i)) > tol) return Status::not_spd;
  return Status::ok;
}

}  // namespace obliq

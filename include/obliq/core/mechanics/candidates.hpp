// obliq/core/mechanics/candidates.hpp: which unilateral rows take part (docs/format.md
// "Candidates"; docs/math.md 0, the sets Gamma/Gamma* of eq 3, 15, 17 decided by kinematics only).
#pragma once

#include "obliq/core/dense/ops.hpp"
#include "obliq/core/scenario_view.hpp"
#include "obliq/core/status.hpp"

namespace obliq {

// Row i is closed when phi_i <= gap_tol.
template <class T> OBLIQ_HD bool is_closed(const ScenarioView<T>& in, int i) { return in.phi_u[i] <= in.gap_tol; }

// Impact: row i is a candidate when closed (phi_i <= gap_tol) and approaching or resting,
// (A_u qdot)_i <= vel_tol. Writes active (m_u) and returns the number of candidates.
template <class T> OBLIQ_HD bool is_impact_candidate(const ScenarioView<T>& in, int i) {
  return is_closed(in, i) && dense::dot(in.A_u.row(i), in.qdot) <= in.vel_tol;
}
template <class T> OBLIQ_HD int impact_candidates(const ScenarioView<T>& in, VecView<std::uint8_t> active) {
  int count = 0;
  for (int i = 0; i < in.m_u; ++i) {
    const bool c = is_impact_candidate(in, i);
    active[i] = c ? 1 : 0;
    count += c;
  }
  return count;
}

// Dynamics: closed and resting, |(A_u qdot)_i| <= vel_tol. A closed row that approaches,
// (A_u qdot)_i < -vel_tol, means an impact must be resolved first: Status::unresolved_impact.
template <class T> OBLIQ_HD bool is_dynamics_candidate(const ScenarioView<T>& in, int i) {
  return is_closed(in, i) && abs_(dense::dot(in.A_u.row(i), in.qdot)) <= in.vel_tol;
}
template <class T> OBLIQ_HD Status dynamics_candidates(const ScenarioView<T>& in, VecView<std::uint8_t> active, int& count) {
  count = 0;
  Status st = Status::ok;
  for (int i = 0; i < in.m_u; ++i) {
    const bool closed = is_closed(in, i);
    if (closed && dense::dot(in.A_u.row(i), in.qdot) < -in.vel_tol) st = Status::unresolved_impact;
    const bool c = is_dynamics_candidate(in, i);
    active[i] = c ? 1 : 0;
    count += c;
  }
  return st;
}

}  // namespace obliq

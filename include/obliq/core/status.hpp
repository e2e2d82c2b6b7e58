// obliq/core/status.hpp: the per-scenario status code every core function returns.
#pragma once

#include "obliq/core/config.hpp"

namespace obliq {

enum class Status : int {
  ok = 0,
  bad_shape,          // dimensions do not match, or a scratch arena is too small
  non_finite,         // NaN or Inf in the input
  not_spd,            // M is not symmetric positive definite (Cholesky failed)
  bad_restitution,    // some e_i outside [0, 1]
  bad_tolerance,      // negative gap_tol or vel_tol
  unresolved_impact,  // dynamics: a closed unilateral row is approaching (docs/format.md)
  infeasible,         // complementarity law: no velocity/acceleration meets the constraints
  no_convergence,     // an iterative kernel (SVD, eigensolver, LCP) exhausted its budget
  lcp_ray,            // LCP: Lemke's method ended on a secondary ray (no solution found)
  lcp_budget,         // LCP: iteration budget exhausted
  bad_friction,       // friction: some mu_i negative (docs/friction.md)
  friction_law,       // friction: mu > 0 needs the complementarity law
  ambiguous,          // friction, acceleration level: several solutions (Painleve, docs/friction.md)
  not_certified,      // the answer failed its a-posteriori certificate (mechanics/certificate.hpp)
  bad_quaternion,     // model state: a free-flyer quaternion is zero, not finite or not of unit norm
  not_solved,         // host results: not (yet) solved, e.g. masked out of the solve that sized them
};

// The number of Status values (tables indexed by status, such as a sweep's counts); keep it
// after the last enumerator.
inline constexpr int status_kinds = int(Status::not_solved) + 1;

// A short reason, used verbatim after "error: " in the command's output.
OBLIQ_HD inline const char* status_reason(Status s) {
  switch (s) {
    case Status::ok: return "ok";
    case Status::bad_shape: return "bad shape";
    case Status::non_finite: return "non-finite number";
    case Status::not_spd: return "M is not symmetric positive definite";
    case Status::bad_restitution: return "e outside [0, 1]";
    case Status::bad_tolerance: return "negative tolerance";
    case Status::unresolved_impact: return "closed unilateral row is approaching: resolve the impact first";
    case Status::infeasible: return "infeasible";
    case Status::no_convergence: return "no convergence";
    case Status::lcp_ray: return "no solution found (ray termination)";
    case Status::lcp_budget: return "iteration budget exhausted";
    case Status::bad_friction: return "mu negative";
    case Status::friction_law: return "friction (mu > 0) needs the complementarity law";
    case Status::ambiguous: return "several solutions (Painleve)";
    case Status::not_certified: return "not certified";
    case Status::bad_quaternion: return "free-flyer quaternion (qx, qy, qz, qw) is zero, not finite or not of unit norm";
    case Status::not_solved: return "not solved";
  }
  return "unknown status";
}

}  // namespace obliq

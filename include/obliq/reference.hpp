// obliq/reference.hpp: the Eigen reference path, the oracle of every test and the baseline of
// every benchmark. Written independently of the per-scenario core (dynamic-size Eigen, Eigen's
// own decompositions, its own method for the complementarity law): agreement between the two
// is evidence. Double precision only.
#pragma once

#include "obliq/scenario.hpp"

namespace obliq::reference {

// Checks a scenario the way docs/format.md asks (shapes, finite numbers, M symmetric to 1e-12
// relative and positive definite, e in [0, 1], non-negative tolerances). Status::ok when good.
Status validate(const Scenario& s);

// docs/format.md "Candidates": 1 where unilateral row i takes part.
Eigen::VectorXi impact_candidates(const Scenario& s);
Eigen::VectorXi dynamics_candidates(const Scenario& s);

// Post-impact velocity, impulses, energies and the energy-consistency test (docs/math.md 5-7).
// Law::projection: lambda = W^+ (t - A v_f), v = v_f + M^-1 A^T lambda on [A_b; A_u,C]
// (inconsistent targets met in least squares). Law::complementarity: the QP of docs/format.md, solved
// exactly (bilateral reduction, then a least-distance program through Lawson-Hanson NNLS), with
// the minimum-norm valid multiplier of docs/math.md 7; Status::infeasible when no velocity meets the
// rows (bilateral targets tested as in docs/math.md 1). On any error status the result vectors are
// sized (n, n, m_b + m_u, m_u) and zero.
ImpactResult impact(const Scenario& s);

// Constrained acceleration and forces (docs/math.md 4 and 7), the same two laws with a_f = M^-1 (u - h)
// and targets -Adot_qdot; Status::unresolved_impact when a closed row approaches (docs/format.md).
DynamicsResult dynamics(const Scenario& s);

// Building blocks, exposed for the identity tests (docs/math.md 1-3). M must be SPD (not checked);
// A is m x n with any m >= 0 (rank decided on A alone, tau = max(m, n) eps s_1).
struct Projection {
  int rank = 0;
  Eigen::MatrixXd A_pinv;              // n x m, A^+ with the rank tolerance of docs/math.md 1
  Eigen::MatrixXd P;                   // n x n null-space projector
  double nu = 0;                       // virtual mass (docs/math.md 2)
  Eigen::MatrixXd M_c;                 // constraint inertia P M P + nu (I - P)
  Eigen::MatrixXd S;                   // oblique projector M^-1 A^T W^+ A
  Eigen::MatrixXd W_pinv;              // W^+ (docs/math.md 3)
};
Projection projection(const Eigen::MatrixXd& M, const Eigen::MatrixXd& A);

}  // namespace obliq::reference

// obliq/reference.hpp: the Eigen reference path, the oracle of every test and the baseline of
// every benchmark. Written independently of the per-scenario core (dynamic-size Eigen, Eigen's
// own decompositions, its own method for the complementarity law): agreement between the two
// is evidence. Double precision only.
#pragma once

#include "obliq/scenario.hpp"

namespace obliq::reference {

// Checks a scenario the way FORMAT.md asks (shapes, finite numbers, M symmetric to 1e-12
// relative and positive definite, e in [0, 1], non-negative tolerances). Status::ok when good.
Status validate(const Scenario& s);

// FORMAT.md "Candidates": 1 where unilateral row i takes part.
Eigen::VectorXi impact_candidates(const Scenario& s);
Eigen::VectorXi dynamics_candidates(const Scenario& s);

// Post-impact velocity, impulses, energies and the energy-consistency test (MATH.md 5-7).
ImpactResult impact(const Scenario& s);

// Constrained acceleration and forces (MATH.md 4 and 7).
DynamicsResult dynamics(const Scenario& s);

// Building blocks, exposed for the identity tests (MATH.md 1-3).
struct Projection {
  int rank = 0;
  Eigen::MatrixXd A_pinv;              // n x m, A^+ with the rank tolerance of MATH.md 1
  Eigen::MatrixXd P;                   // n x n null-space projector
  double nu = 0;                       // virtual mass (MATH.md 2)
  Eigen::MatrixXd M_c;                 // constraint inertia P M P + nu (I - P)
  Eigen::MatrixXd S;                   // oblique projector M^-1 A^T W^+ A
  Eigen::MatrixXd W_pinv;              // W^+ (MATH.md 3)
};
Projection projection(const Eigen::MatrixXd& M, const Eigen::MatrixXd& A);

}  // namespace obliq::reference

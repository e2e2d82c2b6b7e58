// obliq/model/friction_rows.hpp: the host side of the model layer's friction rows: the tangent rows
// of every unilateral contact at one state (tangent_rows.hpp) as an obliq::Friction.
#pragma once

#include <Eigen/Dense>

#include "obliq/friction.hpp"
#include "obliq/model/host.hpp"

namespace obliq::model {

// A_t (2 n_unilateral x nv), Adot_qdot_t and mu (every contact mu) at state (q, qdot), dim 3.
// Status::ok or the per-state failure of forward kinematics (bad_shape for wrong sizes).
Status evaluate_friction(const Model& m, const Eigen::VectorXd& q, const Eigen::VectorXd& qdot, double mu, Friction& out);

}  // namespace obliq::model

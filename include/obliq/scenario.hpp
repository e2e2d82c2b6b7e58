// obliq/scenario.hpp: one scenario and its results as host-side Eigen objects.
//
// This is the exchange format between the file reader, the model layer, the Eigen reference
// path and the batches (which store many scenarios of one shape in SoA buffers). Keys and
// meanings are those of docs/format.md.
#pragma once

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "obliq/core/scenario_view.hpp"
#include "obliq/core/status.hpp"

namespace obliq {

inline const char* law_name(Law l) { return l == Law::projection ? "projection" : "complementarity"; }

struct Shape {
  int n = 0;    // generalized velocities
  int m_b = 0;  // bilateral rows
  int m_u = 0;  // unilateral rows
  friend bool operator==(const Shape&, const Shape&) = default;
  friend auto operator<=>(const Shape&, const Shape&) = default;
};

struct Scenario {
  std::string id;
  Eigen::MatrixXd M;          // n x n, SPD
  Eigen::VectorXd qdot;       // n (pre-impact velocity for impact)
  Eigen::VectorXd h;          // n, M qdd + h = u + A^T lambda
  Eigen::VectorXd u;          // n, applied forces
  Eigen::VectorXd i_u;        // n, applied impulse during the impact
  Eigen::MatrixXd A_b;        // m_b x n
  Eigen::MatrixXd A_u;        // m_u x n
  Eigen::VectorXd phi_u;      // m_u gaps
  Eigen::VectorXd Adot_qdot;  // m_b + m_u, bilateral rows first
  Eigen::VectorXd e;          // m_u restitution coefficients (a global e is broadcast)
  Law law = Law::complementarity;
  double gap_tol = 1e-9;
  double vel_tol = 1e-9;
  // The kinematic tree of the velocity coordinates when the model layer knows it (n entries,
  // parent[i] < i, -1 for a root; Batch::get fills it from Batch::parent): M is then factored
  // along the tree where it has the tree's pattern (docs/math.md 9). Empty: the dense factor.
  std::vector<int> parent;

  Shape shape() const { return {int(M.rows()), int(A_b.rows()), int(A_u.rows())}; }
  // A scenario with every optional vector zero-filled to its shape.
  static Scenario zeros(Shape s);
};

struct ImpactResult {
  Status status = Status::ok;
  Eigen::VectorXd qdot_plus;  // n
  Eigen::VectorXd impulse;    // n, M (qdot_plus - qdot) - i_u
  Eigen::VectorXd lambda;     // m_b + m_u
  Eigen::VectorXi active;     // m_u, 1 for candidate rows
  double kinetic_energy_pre = 0, kinetic_energy_post = 0;
  bool energy_consistent = true;
};

struct DynamicsResult {
  Status status = Status::ok;
  Eigen::VectorXd qddot;   // n
  Eigen::VectorXd lambda;  // m_b + m_u
  Eigen::VectorXi active;  // m_u
};

inline Scenario Scenario::zeros(Shape s) {
  Scenario sc;
  sc.M = Eigen::MatrixXd::Identity(s.n, s.n);
  sc.qdot = sc.h = sc.u = sc.i_u = Eigen::VectorXd::Zero(s.n);
  sc.A_b = Eigen::MatrixXd::Zero(s.m_b, s.n);
  sc.A_u = Eigen::MatrixXd::Zero(s.m_u, s.n);
  sc.phi_u = Eigen::VectorXd::Zero(s.m_u);
  sc.Adot_qdot = Eigen::VectorXd::Zero(s.m_b + s.m_u);
  sc.e = Eigen::VectorXd::Zero(s.m_u);
  return sc;
}

}  // namespace obliq

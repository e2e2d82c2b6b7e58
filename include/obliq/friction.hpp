// obliq/friction.hpp: the host API of frictional contact (docs/friction.md).
//
// A Scenario (scenario.hpp) plus its Friction: per unilateral row i its dim - 1 tangent rows
// (rows (dim - 1) i .. of A_t) and its coefficient mu_i >= 0. The per-scenario core is
// include/obliq/core/friction (cone solver, pyramid LCP, certificate); these functions run it on
// one scenario in scalar T (double or float) with a scratch buffer of their own; impact_batch /
// dynamics_batch run many on a backend (Backend::cuda: on the device, docs/cuda.md).
#pragma once

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "obliq/batch.hpp"
#include "obliq/core/friction/setup.hpp"
#include "obliq/scenario.hpp"

namespace obliq {

struct Friction {
  int dim = 3;                   // 2: planar contacts (one tangent row each), 3: spatial (two)
  Eigen::MatrixXd A_t;           // (dim - 1) m_u x n
  Eigen::VectorXd mu;            // m_u, mu_i >= 0 (all zero: the frictionless answer, bit for bit)
  Eigen::VectorXd Adot_qdot_t;   // (dim - 1) m_u (dynamics); empty: zero
  Eigen::VectorXd e_t;           // m_u tangential restitution in [0, 1] (impact); empty: zero
  friction::Formulation formulation = friction::Formulation::cone;
  int directions = 8;            // pyramid facets per contact in space
  lcp::Solver lcp_solver = lcp::Solver::lemke;

  // Zero tangent rows and mu = 0 for the shape of s.
  static Friction none(const Scenario& s, int dim = 3);
};

// The formulations' names, as the CLI, study files and the Python bindings take them.
inline const std::vector<std::string> formulation_names{"cone", "pyramid"};
// The formulation called `name`; std::invalid_argument ("friction must be 'cone' or 'pyramid',
// not '...'") for any other name.
friction::Formulation formulation_named(const std::string& name);
// Pyramid facets per contact in space that the options accept (Friction::directions,
// SimOptions::facets); check_facets: std::invalid_argument ("facets must be in [3, 64], not k").
inline constexpr int min_facets = 3, max_facets = 64;
void check_facets(int facets);

// What the frictional solve adds to ImpactResult / DynamicsResult.
struct FrictionResult {
  Eigen::VectorXd lambda_t;  // (dim - 1) m_u tangential reactions
  Eigen::VectorXi sliding;   // m_u (dynamics): 1 for a contact that slides
  std::string method;        // "newton", "nsgs" or "lemke" ("" when the frictionless core answered)
  int iterations = 0;
  double residual = 0;       // the certificate's largest relative residual (0 when frictionless)
};

template <class T = double> ImpactResult impact(const Scenario& s, const Friction& f, FrictionResult* fr = nullptr);
template <class T = double> DynamicsResult dynamics(const Scenario& s, const Friction& f, FrictionResult* fr = nullptr);

// One scenario with its friction, by pointer (the batched entries read them, never keep them).
struct FrictionalScenario {
  const Scenario* scenario = nullptr;
  const Friction* friction = nullptr;
};

// Many scenarios with friction, any shapes, on one backend: result k (and info[k], when info is
// given: resized to match) is what impact<T>(*batch[k].scenario, *batch[k].friction) gives.
//   Backend::cpu   impact<T> on each, on the calling thread;
//   Backend::cuda  on the device, one GPU thread per scenario running the same core function,
//                  grouped by shape and friction options (docs/cuda.md); std::runtime_error
//                  ("backend cuda: ...") when the CUDA backend or a device is not available.
// Backend::reference has no frictional solver: std::invalid_argument. A scenario whose arrays do
// not fit its shape gets Status::bad_shape without being solved.
template <class T = double>
std::vector<ImpactResult> impact_batch(const std::vector<FrictionalScenario>& batch, Backend backend,
                                       std::vector<FrictionResult>* info = nullptr);
template <class T = double>
std::vector<DynamicsResult> dynamics_batch(const std::vector<FrictionalScenario>& batch, Backend backend,
                                           std::vector<FrictionResult>* info = nullptr);

}  // namespace obliq

// tests/support/friction_batch.hpp: a mixed batch of frictional scenarios for the cuda backend's
// tests (its host emulation and the GPU): random contact sets of two shapes in space and in the
// plane (tests/support/random_batch.hpp's scenarios with random tangent rows and mu, some mu = 0,
// some contacts sticking at the dynamics level), Painleve's rod with no solution, two solutions
// and one, a negative mu and a wrongly shaped A_t; both formulations.
#pragma once

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "io/random_scenarios.hpp"
#include "obliq/core/friction/dynamics.hpp"
#include "obliq/core/friction/impact.hpp"
#include "obliq/friction.hpp"

namespace obliq::test {

struct FrictionCase {
  Scenario scenario;
  Friction friction;
};

// Painleve's rod (tests/friction/closed_forms_test.cpp): sliding left, normal LCP coefficient
// negative for mu > 2.5, so no solution (up_force 0) or two (up_force 2 g).
inline FrictionCase painleve_rod(double mu, double up_force) {
  const double m = 1.0, l = 0.5, phi = M_PI / 6, g = 9.81;
  FrictionCase c;
  Scenario& s = c.scenario;
  s = Scenario::zeros({3, 0, 1});
  s.M.diagonal() << m, m, m * l * l / 3;
  s.A_u << 0, 1, -l * std::cos(phi);
  s.qdot << -1.0, 0.0, 0.0;
  s.h << 0, m * g, 0;
  s.u << 0, up_force, 0;
  s.e.setConstant(0.5);
  c.friction = Friction::none(s, 2);
  c.friction.A_t << 1, 0, l * std::sin(phi);
  c.friction.mu.setConstant(mu);
  return c;
}

// `count` cases per random shape, then the rods and the bad inputs, in one interleaved order
// (so that groups are scattered through the batch). float: vel_tol 1e-3 (see random_batch.hpp).
inline std::vector<FrictionCase> friction_cases(bool dynamics, friction::Formulation form, bool single, std::size_t count,
                                                unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0), sym(-1.0, 1.0);
  RandomOptions o;
  o.cond_M = 1e2;
  if (dynamics) {
    o.p_approaching = 0, o.p_resting = 2, o.p_open = 1, o.forces = true, o.adot_qdot = true;
  } else {
    o.p_approaching = 3, o.p_resting = 1, o.p_separating = 1, o.p_open = 1, o.applied_impulse = true;
  }
  const struct { Shape shape; int dim; } kinds[] = {{{6, 0, 3}, 3}, {{5, 1, 2}, 2}};
  std::vector<FrictionCase> out;
  for (std::size_t k = 0; k < count; ++k)
    for (const auto& kind : kinds) {
      FrictionCase c;
      c.scenario = random_scenario(rng, kind.shape, o);
      if (single) c.scenario.vel_tol = 1e-3;
      Friction& f = c.friction;
      f = Friction::none(c.scenario, kind.dim);
      for (long i = 0; i < f.A_t.size(); ++i) f.A_t.data()[i] = sym(rng);
      if (dynamics && k % 2 == 1) {  // tangent rows orthogonal to qdot: the contacts stick or start to slide
        const Eigen::VectorXd& v = c.scenario.qdot;
        if (v.squaredNorm() > 0)
          for (long r = 0; r < f.A_t.rows(); ++r) f.A_t.row(r) -= (f.A_t.row(r).dot(v) / v.squaredNorm()) * v.transpose();
      }
      for (long i = 0; i < f.mu.size(); ++i) f.mu[i] = k % 5 == 4 ? 0.0 : (unit(rng) < 0.2 ? 0.0 : 1.2 * unit(rng));
      if (k % 3 == 2) {  // the optional friction inputs given
        if (dynamics) f.Adot_qdot_t = Eigen::VectorXd::NullaryExpr(f.A_t.rows(), [&] { return 0.1 * sym(rng); });
        else f.e_t = Eigen::VectorXd::NullaryExpr(f.mu.size(), [&] { return unit(rng); });
      }
      f.formulation = form;
      f.directions = 6;
      out.push_back(std::move(c));
    }
  for (double up : {0.0, 2 * 9.81}) out.push_back(painleve_rod(3.0, up));
  out.push_back(painleve_rod(0.5, 0.0));
  FrictionCase negative = out.front();
  negative.friction.mu[0] = -0.5;  // Status::bad_friction from the core
  out.push_back(negative);
  FrictionCase misshaped = out.front();
  misshaped.friction.A_t.resize(1, misshaped.scenario.M.rows());  // Status::bad_shape before solving
  out.push_back(misshaped);
  for (std::size_t k = out.size() - 5; k < out.size(); ++k) out[k].friction.formulation = form;
  return out;
}

// The largest arena (elements of T) one scenario of the batch needs: scratch for k scenarios of
// it lets every group run in chunks of at least k.
template <class T> std::size_t largest_workspace(const std::vector<FrictionalScenario>& batch, bool dynamics) {
  std::size_t ws = 1;
  for (const FrictionalScenario& item : batch) {
    const Shape sh = item.scenario->shape();
    const int d = item.friction->dim, k = item.friction->directions;
    ws = std::max(ws, dynamics ? friction::dynamics_workspace_size<T>(sh.n, sh.m_b, sh.m_u, d, k)
                               : friction::impact_workspace_size<T>(sh.n, sh.m_b, sh.m_u, d, k));
  }
  return ws;
}

inline std::vector<FrictionalScenario> pointers_to(const std::vector<FrictionCase>& cases) {
  std::vector<FrictionalScenario> b;
  for (const FrictionCase& c : cases) b.push_back({&c.scenario, &c.friction});
  return b;
}

}  // namespace obliq::test

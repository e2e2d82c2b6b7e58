// tests/support/sim_scenes.hpp: Simulator scenes shared by the CPU emulation of the cuda
// backend's Simulator (tests/cuda_emulation) and the GPU tests (tests/cuda): batches of drops
// of a built-in model or a small URDF robot with random heights, velocities, e (and mu), and a
// raw linear bar on two corners.
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "obliq/friction.hpp"
#include "obliq/model/host.hpp"
#include "obliq/simulator.hpp"

namespace obliq::test {

// A free-floating two-link hopper (its contacts added as `--contact` would).
inline const char* kHopperUrdf = R"(<?xml version="1.0"?>
<robot name="hopper">
  <link name="base"><inertial><origin xyz="0 0 0"/><mass value="2"/>
    <inertia ixx="0.02" iyy="0.03" izz="0.04" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="thigh"><inertial><origin xyz="0 0 -0.1"/><mass value="0.5"/>
    <inertia ixx="0.002" iyy="0.002" izz="0.0005" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="shank"><inertial><origin xyz="0 0 -0.1"/><mass value="0.3"/>
    <inertia ixx="0.001" iyy="0.001" izz="0.0003" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="hip" type="revolute"><parent link="base"/><child link="thigh"/>
    <origin xyz="0.1 0 0"/><axis xyz="0 1 0"/><limit lower="-3" upper="3" effort="10" velocity="10"/></joint>
  <joint name="knee" type="revolute"><parent link="thigh"/><child link="shank"/>
    <origin xyz="0 0 -0.2"/><axis xyz="0 1 0"/><limit lower="-3" upper="3" effort="10" velocity="10"/></joint>
</robot>)";

// A built-in model by name, or "hopper": kHopperUrdf with a free base and two ground contacts.
inline model::Model scene_model(const std::string& name) {
  if (name != "hopper") return model::builtin_model(name);
  model::Model m = model::load_urdf_string(kHopperUrdf, /*free_base=*/true, "hopper");
  model::add_ground_contact(m, "shank", Eigen::Vector3d(0, 0, -0.2), 0.0);
  model::add_ground_contact(m, "base", Eigen::Vector3d(-0.1, 0, 0), 0.0);
  return m;
}

// How far to lift the model at its neutral configuration so that every unilateral gap is >= 0.
inline double lift_to_clear(const model::Model& m) {
  Scenario sc;
  if (model::evaluate(m, model::neutral(m), Eigen::VectorXd::Zero(m.nv), sc) != Status::ok || sc.phi_u.size() == 0)
    return 0.0;
  return std::max(0.0, -sc.phi_u.minCoeff());
}

// `count` drops of m: lifted clear by 2-12 mm, falling at 0.2-0.7 m/s with random sideways and
// joint velocities, e in [0, 0.6]; mu in [0.3, 1] on every contact when `friction`. The cradle's
// first ball swings into the others instead.
template <class T>
Simulator<T> dropped(const model::Model& m, std::size_t count, const SimOptions& o, bool friction, unsigned seed = 3) {
  Simulator<T> sim(m, count, o);
  const double clear = lift_to_clear(m);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  for (std::size_t s = 0; s < count; ++s) {
    const double lift = clear + 0.002 + 0.01 * u(rng), fall = -(0.2 + 0.5 * u(rng));
    for (int i = 0; i < m.nbodies(); ++i) {
      const int type = m.joint_type[i], q0 = m.idx_q[i], v0 = m.idx_v[i];
      if (m.parent[i] == -1 && type == int(model::JointType::free_flyer)) {
        sim.q(s, q0 + 2) += T(lift);
        sim.v(s, v0 + 2) = T(fall);
        sim.v(s, v0) = T(0.4 * (u(rng) - 0.5));
        sim.v(s, v0 + 4) = T(0.4 * (u(rng) - 0.5));
      } else if (type == int(model::JointType::prismatic) && m.joint_names[i] == "z") {
        sim.q(s, q0) += T(lift);
        sim.v(s, v0) = T(fall);
      } else if (type == int(model::JointType::prismatic) && m.joint_names[i] == "x") {
        sim.v(s, v0) = T(0.4 * (u(rng) - 0.5));
      } else if (type == int(model::JointType::revolute)) {
        sim.v(s, v0) = T(0.5 * (u(rng) - 0.5));
      }
    }
    if (m.name.rfind("cradle", 0) == 0) sim.v(s, 0) = T(-0.3 - 0.4 * u(rng));
    for (int i = 0; i < sim.m_u(); ++i) {
      sim.e(s, i) = T(0.6 * u(rng));
      if (friction) sim.mu(s, i) = T(0.3 + 0.7 * u(rng));
    }
  }
  return sim;
}

// `count` raw planar bars (x, z, pitch; mass 1, inertia 0.02, half-length 0.2) on two corners
// 5-25 mm above the floor, falling and sliding; tangent rows along x (dim 2) with mu in [0.3, 1]
// when `friction`.
template <class T> Simulator<T> raw_bars(std::size_t count, const SimOptions& o, bool friction, unsigned seed = 5) {
  Batch<T> b({3, 0, 2}, count);
  std::vector<Friction> fr(count);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  for (std::size_t s = 0; s < count; ++s) {
    b.M_of(s) = Eigen::Vector3d(1, 1, 0.02).asDiagonal().toDenseMatrix().cast<T>();
    b.h_of(s) << T(0), T(9.81), T(0);
    b.A_u_of(s) << T(0), T(1), T(-0.2), T(0), T(1), T(0.2);
    b.phi_u_of(s) << T(0.005 + 0.02 * u(rng)), T(0.005 + 0.02 * u(rng));
    b.qdot_of(s) << T(u(rng) - 0.5), T(-0.5 * u(rng)), T(2 * (u(rng) - 0.5));
    b.e_of(s) << T(0.5 * u(rng)), T(0.5 * u(rng));
    fr[s].dim = 2;
    fr[s].A_t = Eigen::MatrixXd::Zero(2, 3);
    fr[s].A_t(0, 0) = fr[s].A_t(1, 0) = 1;
    fr[s].mu = friction ? Eigen::Vector2d(0.3 + 0.7 * u(rng), 0.3 + 0.7 * u(rng)) : Eigen::Vector2d::Zero();
  }
  return Simulator<T>(b, fr, o);
}

// The runs compared: each integrator without friction, with the cone and with the pyramid.
struct Case {
  sim::Integrator integrator;
  const char* friction;  // "none", "cone", "pyramid"
};
inline const Case kCases[] = {{sim::Integrator::moreau_jean, "none"},  {sim::Integrator::moreau_jean, "cone"},
                              {sim::Integrator::moreau_jean, "pyramid"}, {sim::Integrator::event_driven, "none"},
                              {sim::Integrator::event_driven, "cone"},  {sim::Integrator::event_driven, "pyramid"}};

inline SimOptions options_of(const Case& c) {
  SimOptions o;
  o.integrator = c.integrator;
  o.friction = std::string(c.friction) == "pyramid" ? friction::Formulation::pyramid : friction::Formulation::cone;
  return o;
}

}  // namespace obliq::test

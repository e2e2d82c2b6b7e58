// model/builtin.cpp: the models a new user can name (`obliq model --list`). Each comes with its
// contact rows already in place; --contact adds more. Every link is also a named frame.
#include <stdexcept>
#include <vector>

#include "obliq/model/host.hpp"

namespace obliq::model {
namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;
const Matrix3d I3 = Matrix3d::Identity();
const Vector3d O3 = Vector3d::Zero();

// Rotational inertias about the centre of mass.
Matrix3d box_inertia(double m, double a, double b, double c) {
  return (m / 12.0) * Vector3d(b * b + c * c, a * a + c * c, a * a + b * b).asDiagonal().toDenseMatrix();
}
Matrix3d rod_inertia_z(double m, double l) {  // slender rod along z
  return Vector3d(m * l * l / 12.0, m * l * l / 12.0, 0.0).asDiagonal().toDenseMatrix();
}

int body(Model& m, const std::string& link, const std::string& joint, int parent, JointType t, const Vector3d& p0,
         const Vector3d& axis, double mass, const Vector3d& com, const Matrix3d& Ic) {
  const int b = add_body(m, joint, parent, t, I3, p0, axis, mass, com, Ic);
  m.frames[link] = Frame{b, I3, O3};
  return b;
}

void ground(Model& m, const std::string& name, int b, const Vector3d& point) {
  ContactSpec c;
  c.name = name;
  c.body_a = b;
  c.point_a = point;
  add_contact(m, c);
}

// A point mass (radius 0.1, mass 1) moving in x, y, z over the floor z = 0; contact: its lowest point.
Model ball() {
  Model m;
  m.name = "ball";
  const int x = body(m, "carriage_x", "x", -1, JointType::prismatic, O3, Vector3d::UnitX(), 0, O3, Matrix3d::Zero());
  const int y = body(m, "carriage_y", "y", x, JointType::prismatic, O3, Vector3d::UnitY(), 0, O3, Matrix3d::Zero());
  const int z = body(m, "ball", "z", y, JointType::prismatic, O3, Vector3d::UnitZ(), 1.0, O3, (0.4 * 0.01) * I3);
  ground(m, "ball_bottom", z, Vector3d(0, 0, -0.1));
  return m;
}

// Two unit point masses joined by a massless rod of length 1, moving in the x-z plane:
// q = (x, z, theta) of the rod's midpoint and its pitch; contacts at both ends.
Model dimer() {
  Model m;
  m.name = "dimer";
  const int x = body(m, "carriage_x", "x", -1, JointType::prismatic, O3, Vector3d::UnitX(), 0, O3, Matrix3d::Zero());
  const int z = body(m, "carriage_z", "z", x, JointType::prismatic, O3, Vector3d::UnitZ(), 0, O3, Matrix3d::Zero());
  // Point masses at (+-0.5, 0, 0): mass 2, I_yy = I_zz = 2 * 0.25 = 0.5.
  const int r = body(m, "rod", "pitch", z, JointType::revolute, O3, Vector3d::UnitY(), 2.0, O3,
                     Vector3d(0, 0.5, 0.5).asDiagonal().toDenseMatrix());
  ground(m, "end_a", r, Vector3d(0.5, 0, 0));
  ground(m, "end_b", r, Vector3d(-0.5, 0, 0));
  return m;
}

// Newton's cradle: `balls` unit point masses on massless strings of length 1, pivots 0.1 apart
// on the x axis at height 1 (ball radius 0.05: neighbours touch at rest). One angle per pendulum
// (about +y). Rows: gaps between neighbours along +x, phi = x_{i+1} - x_i - 0.1.
Model cradle(int balls, const std::string& name) {
  Model m;
  m.name = name;
  const double L = 1.0, r = 0.05;
  std::vector<int> b(balls);
  for (int i = 0; i < balls; ++i)
    b[i] = body(m, "ball_" + std::to_string(i + 1), "swing_" + std::to_string(i + 1), -1, JointType::revolute,
                Vector3d(2 * r * i, 0, L), Vector3d::UnitY(), 1.0, Vector3d(0, 0, -L), Matrix3d::Zero());
  for (int i = 0; i + 1 < balls; ++i) {
    ContactSpec c;
    c.name = "ball_" + std::to_string(i + 1) + "_" + std::to_string(i + 2);
    c.body_a = b[i + 1];
    c.point_a = Vector3d(0, 0, -L);
    c.body_b = b[i];
    c.point_b = Vector3d(0, 0, -L);
    c.normal = Vector3d::UnitX();
    c.offset = 2 * r;
    add_contact(m, c);
  }
  return m;
}

// A rocking block: a uniform rigid block (mass 1, width 0.2 along x, height 0.4, depth 0.1)
// moving in the x-z plane, q = (x, z, pitch) of its centre; contacts at the two bottom corners.
Model block() {
  Model m;
  m.name = "block";
  const double w = 0.2, hgt = 0.4;
  const int x = body(m, "carriage_x", "x", -1, JointType::prismatic, O3, Vector3d::UnitX(), 0, O3, Matrix3d::Zero());
  const int z = body(m, "carriage_z", "z", x, JointType::prismatic, O3, Vector3d::UnitZ(), 0, O3, Matrix3d::Zero());
  const int b = body(m, "block", "pitch", z, JointType::revolute, O3, Vector3d::UnitY(), 1.0, O3,
                     box_inertia(1.0, w, 0.1, hgt));
  ground(m, "corner_left", b, Vector3d(-w / 2, 0, -hgt / 2));
  ground(m, "corner_right", b, Vector3d(w / 2, 0, -hgt / 2));
  return m;
}

// Planar five-link biped (RABBIT-like proportions): torso on a planar floating base (x, z,
// pitch), two legs of thigh + shank (hip and knee about +y); contacts at the feet.
Model biped5() {
  Model m;
  m.name = "biped5";
  const double lt = 0.625, lf = 0.4, ls = 0.4;
  const int x = body(m, "carriage_x", "x", -1, JointType::prismatic, O3, Vector3d::UnitX(), 0, O3, Matrix3d::Zero());
  const int z = body(m, "carriage_z", "z", x, JointType::prismatic, O3, Vector3d::UnitZ(), 0, O3, Matrix3d::Zero());
  const int torso = body(m, "torso", "pitch", z, JointType::revolute, O3, Vector3d::UnitY(), 12.0,
                         Vector3d(0, 0, 0.24), rod_inertia_z(12.0, lt) + 0.01 * I3);
  for (const char* side : {"left", "right"}) {
    const std::string s(side);
    const int thigh = body(m, s + "_thigh", s + "_hip", torso, JointType::revolute, O3, Vector3d::UnitY(), 6.8,
                           Vector3d(0, 0, -0.11), rod_inertia_z(6.8, lf) + 0.01 * I3);
    const int shank = body(m, s + "_shank", s + "_knee", thigh, JointType::revolute, Vector3d(0, 0, -lf),
                           Vector3d::UnitY(), 3.2, Vector3d(0, 0, -0.24), rod_inertia_z(3.2, ls) + 0.01 * I3);
    ground(m, s + "_foot", shank, Vector3d(0, 0, -ls));
  }
  return m;
}

// Seed 002's multi-chained foot: a free-floating foot body with three articulated toes, each a
// chain of two phalanges pitching about +y; contacts at the heel and at the three toe tips.
Model foot() {
  Model m;
  m.name = "foot";
  const int f = body(m, "foot", "root_joint", -1, JointType::free_flyer, O3, Vector3d::UnitZ(), 1.0, O3,
                     box_inertia(1.0, 0.2, 0.08, 0.04));
  ground(m, "heel", f, Vector3d(-0.1, 0, -0.02));
  const double ys[3] = {-0.03, 0.0, 0.03};
  const double len1 = 0.04, len2 = 0.03;
  for (int t = 0; t < 3; ++t) {
    const std::string s = "toe" + std::to_string(t + 1);
    const int p1 = body(m, s + "_proximal", s + "_mtp", f, JointType::revolute, Vector3d(0.1, ys[t], -0.02),
                        Vector3d::UnitY(), 0.05, Vector3d(len1 / 2, 0, 0), box_inertia(0.05, len1, 0.015, 0.015));
    const int p2 = body(m, s + "_distal", s + "_ip", p1, JointType::revolute, Vector3d(len1, 0, 0),
                        Vector3d::UnitY(), 0.03, Vector3d(len2 / 2, 0, 0), box_inertia(0.03, len2, 0.012, 0.012));
    ground(m, s + "_tip", p2, Vector3d(len2, 0, 0));
  }
  return m;
}

// A floating-base quadruped (trunk 10 kg; legs FL, FR, HL, HR with hip abduction about +x,
// hip and knee flexion about +y; thigh and shank 0.25 m); contacts at the four feet.
Model quadruped() {
  Model m;
  m.name = "quadruped";
  const int trunk = body(m, "trunk", "root_joint", -1, JointType::free_flyer, O3, Vector3d::UnitZ(), 10.0, O3,
                         box_inertia(10.0, 0.6, 0.3, 0.1));
  const struct {
    const char* name;
    double x, y;
  } legs[4] = {{"FL", 0.3, 0.15}, {"FR", 0.3, -0.15}, {"HL", -0.3, 0.15}, {"HR", -0.3, -0.15}};
  for (const auto& leg : legs) {
    const std::string s(leg.name);
    const int hip = body(m, s + "_hip", s + "_hip_abduction", trunk, JointType::revolute, Vector3d(leg.x, leg.y, 0),
                         Vector3d::UnitX(), 0.5, O3, 0.001 * I3);
    const int thigh = body(m, s + "_thigh", s + "_hip_flexion", hip, JointType::revolute,
                           Vector3d(0, leg.y > 0 ? 0.05 : -0.05, 0), Vector3d::UnitY(), 1.0, Vector3d(0, 0, -0.125),
                           rod_inertia_z(1.0, 0.25) + 0.001 * I3);
    const int shank = body(m, s + "_shank", s + "_knee", thigh, JointType::revolute, Vector3d(0, 0, -0.25),
                           Vector3d::UnitY(), 0.3, Vector3d(0, 0, -0.125), rod_inertia_z(0.3, 0.25) + 0.0005 * I3);
    ground(m, s + "_foot", shank, Vector3d(0, 0, -0.25));
  }
  return m;
}

}  // namespace

std::vector<BuiltinInfo> builtin_models() {
  return {
      {"ball", "point mass (radius 0.1) moving in x, y, z over the floor; contact at its lowest point"},
      {"dimer", "planar dimer: two unit masses on a rod of length 1 (x, z, pitch); contacts at both ends"},
      {"cradle", "3-ball Newton's cradle: pendulums of length 1; rows are the gaps between neighbours (+x)"},
      {"cradle5", "5-ball Newton's cradle: as cradle, five pendulums"},
      {"block", "rocking block 0.2 x 0.4 (mass 1) in the x-z plane (x, z, pitch); contacts at the bottom corners"},
      {"biped5", "planar five-link biped: torso on (x, z, pitch), hips and knees; contacts at the feet"},
      {"foot", "seed 002's multi-chained foot: free-floating foot, three two-phalanx toes; heel and toe-tip contacts"},
      {"quadruped", "floating-base quadruped, 3 joints per leg (FL, FR, HL, HR); contacts at the feet"},
  };
}

Model builtin_model(const std::string& name) {
  if (name == "ball") return ball();
  if (name == "dimer") return dimer();
  if (name == "cradle") return cradle(3, "cradle");
  if (name == "cradle5") return cradle(5, "cradle5");
  if (name == "block") return block();
  if (name == "biped5") return biped5();
  if (name == "foot") return foot();
  if (name == "quadruped") return quadruped();
  std::string known;
  for (const auto& b : builtin_models()) known += (known.empty() ? "" : ", ") + b.name;
  throw std::invalid_argument("unknown model '" + name + "' (built-in models: " + known + "; or a .urdf file)");
}

}  // namespace obliq::model

// obliq/model/host.hpp: the host side of the model layer. A Model owns the arrays that a
// ModelView points into; it is built by the URDF loader, by the built-in models, or by hand
// (add_body / add_contact). evaluate() runs the per-state algorithms at one state into an
// obliq::Scenario; evaluate_batch() does it for many states into an obliq::Batch (OpenMP).
#pragma once

#include <Eigen/Dense>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include "obliq/batch.hpp"
#include "obliq/model/model.hpp"
#include "obliq/scenario.hpp"

namespace obliq::model {

// A named frame: a URDF link, fixed in a body (links merged by fixed joints keep their frame).
struct Frame {
  int body = -1;                // -1: the world (the root link of a fixed-base model)
  Eigen::Matrix3d R = Eigen::Matrix3d::Identity();  // frame rotation in the body frame
  Eigen::Vector3d p = Eigen::Vector3d::Zero();      // frame origin in the body frame
};

template <class T> struct ModelT {
  std::string name;
  int nq = 0, nv = 0, n_bilateral = 0;
  std::vector<std::string> joint_names;  // (nbodies)
  std::vector<int> parent, joint_type, idx_q, idx_v;
  std::vector<int> velocity_parent;  // (nv) see ModelView::velocity_parent; filled by add_body
  std::vector<T> placement_R, placement_p, axis, mass, com, inertia;
  std::vector<int> contact_body_a, contact_body_b;
  std::vector<T> contact_point_a, contact_point_b, contact_normal, contact_offset;
  std::vector<std::string> contact_names;
  std::map<std::string, Frame> frames;  // link name -> frame
  T gravity[3] = {T(0), T(0), T(-9.81)};
  // What the URDF loader accepted but reports (standard inertial checks: an inertia that is not
  // positive semi-definite or breaks the triangle inequality), one message per link, naming it.
  std::vector<std::string> warnings;

  int nbodies() const { return int(parent.size()); }
  int ncontacts() const { return int(contact_body_a.size()); }
  int n_unilateral() const { return ncontacts() - n_bilateral; }

  ModelView<T> view() const;
  template <class U> ModelT<U> cast() const;
};
using Model = ModelT<double>;

// Append a body moved by a joint. R0, p0: the joint frame in the parent's frame. com, Ic: centre
// of mass and rotational inertia about it, in the new body's frame. Returns the body index.
// Parents must exist already (depth-first order is the caller's job; load_urdf and the built-in
// models keep it).
int add_body(Model& m, const std::string& joint_name, int parent, JointType type, const Eigen::Matrix3d& R0,
             const Eigen::Vector3d& p0, const Eigen::Vector3d& axis, double mass, const Eigen::Vector3d& com,
             const Eigen::Matrix3d& Ic);
// Add mass rigidly to an existing body (a merged fixed link), all in that body's frame.
void add_rigid_inertia(Model& m, int body, double mass, const Eigen::Vector3d& com, const Eigen::Matrix3d& Ic);

struct ContactSpec {
  std::string name;
  int body_a = -1;
  Eigen::Vector3d point_a = Eigen::Vector3d::Zero();  // in body a's frame
  int body_b = -1;                                    // -1: the world
  Eigen::Vector3d point_b = Eigen::Vector3d::Zero();  // in body b's frame, or world
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();  // unit, world
  double offset = 0;
  bool bilateral = false;
};
// Adds a row, keeping bilateral rows first.
void add_contact(Model& m, const ContactSpec& c);
// A ground contact (docs/format.md's --contact LINK[:x,y,z] with --ground Z): the point x (link frame)
// against the plane z = ground, normal +z. Throws std::invalid_argument for an unknown link.
void add_ground_contact(Model& m, const std::string& link, const Eigen::Vector3d& point, double ground);

// URDF inertial checks (docs/model.md "Inertial checks"). Both modes refuse non-finite data, a
// negative mass and a moment about an axis of the inertial frame below rounding (ixx, iyy or izz
// < -16 eps s, s the link's scale). standard: an inertia positive semi-definite to rounding is a
// valid (degenerate) body; one that is not, or that breaks the triangle inequality, is accepted
// with a warning in Model::warnings. strict: the inertia as written must be zero (a point mass)
// or positive definite and within the triangle inequality (to 1e-9 relative).
enum class InertiaCheck { standard, strict };
// "standard" or "strict" (`--inertia-check`; "basic" and "full" are accepted as other names of
// standard and strict); false for anything else.
bool parse_inertia_check(const std::string& text, InertiaCheck& out);

// URDF through liburdfdom. free_base adds a free-flyer joint at the root (docs/format.md --base).
// Throws std::runtime_error with a message naming the file (and the link or joint) on a parse
// failure, a bound of docs/limits.md, a loop, or inertial data that `inertia_check` refuses.
Model load_urdf(const std::string& path, bool free_base, InertiaCheck inertia_check = InertiaCheck::standard);
Model load_urdf_string(const std::string& xml, bool free_base, const std::string& name = "urdf",
                       InertiaCheck inertia_check = InertiaCheck::standard);

// Built-in models (docs/format.md: `obliq model --list`).
struct BuiltinInfo {
  std::string name, description;
};
std::vector<BuiltinInfo> builtin_models();
// Throws std::invalid_argument for an unknown name.
Model builtin_model(const std::string& name);

// A model as `obliq model` and sweep study files name it (docs/format.md "Models"): a .urdf/.xml
// file or a built-in name, the URDF root joint, gravity, the ground height (built-in ground rows
// move to it) and extra ground contacts "LINK" or "LINK:x,y,z" (--contact).
struct ModelSpec {
  std::string model;
  bool free_base = false;
  Eigen::Vector3d gravity = Eigen::Vector3d(0, 0, -9.81);
  double ground = 0;
  std::vector<std::string> contacts;
  InertiaCheck inertia_check = InertiaCheck::standard;  // URDF inertial checks (load_urdf)
};
// Throws std::invalid_argument (bad contact text, unknown link or model) or std::runtime_error
// (URDF parse failure), each with a message naming what is wrong.
Model load_model(const ModelSpec& spec);
// "a,b,c" into three finite numbers; false on anything else.
bool parse_triple(const std::string& text, Eigen::Vector3d& out);

// What the model layer reports per state beyond the scenario (docs/format.md's extra keys).
struct StateExtras {
  Eigen::Vector3d com = Eigen::Vector3d::Zero();
  Eigen::Matrix<double, 6, 1> momentum = Eigen::Matrix<double, 6, 1>::Zero();  // (linear, angular about com)
  double kinetic_energy = 0, potential_energy = 0;
};

// Evaluate one state: M, h, qdot, A_b/A_u, phi_u, Adot_qdot into `out` (other scenario fields
// zero-filled; e, law, tolerances left to the caller). Status::ok, or the per-state failure.
Status evaluate(const Model& m, const Eigen::VectorXd& q, const Eigen::VectorXd& qdot, Scenario& out,
                StateExtras* extras = nullptr);

// StateExtras for many states, one row per state.
template <class T> struct StateExtrasBatch {
  RowMat<T> com;       // (count x 3)
  RowMat<T> momentum;  // (count x 6): linear, angular about the centre of mass
  Vec<T> kinetic_energy, potential_energy;  // (count)
};

// Rows of states, read in place from an Eigen matrix or a map of caller-owned row-major memory
// (T is not deduced from it: the model fixes the scalar).
template <class T> using StatesRef = Eigen::Ref<const RowMat<std::type_identity_t<T>>>;

// Many states: Q (count x nq) and V (count x nv), row per state, into batch scenario s = row s
// (batch resized to the model's shape and count; a failed state keeps M = I and zeros). With `extras`, it is resized to count
// and filled too (zeros for a failed state).
template <class T>
void evaluate_batch(const ModelT<T>& m, const StatesRef<T>& Q, const StatesRef<T>& V,
                    Batch<T>& batch, std::vector<Status>& status, int threads = 0,
                    StateExtrasBatch<T>* extras = nullptr);

// Spatial impulses through every joint (joint_impulses.hpp) of many states at once: for each
// state s with want[s] != 0, row s of `out` (count x 6 nbodies, resized) holds the (nbodies x 6)
// impulses, row-major, at the state (Q.row(s), V.row(s)) for the velocity jump dV.row(s) and the
// multipliers Lambda.row(s) (count x contacts); rows of the other states, and of a state whose
// kinematics fail, are zero. W = lane_width<T> wanted states at a time run in SIMD lanes
// (docs/design.md "Lanes across scenarios"), each lane equal to the one-state function to the
// bit. Throws std::invalid_argument when the sizes do not agree with the model.
template <class T>
void joint_impulses_batch(const ModelT<T>& m, const StatesRef<T>& Q, const StatesRef<T>& V, const StatesRef<T>& dV,
                          const StatesRef<T>& Lambda, const std::vector<std::uint8_t>& want, RowMat<T>& out,
                          int threads = 0);

// Spatial impulses through every joint (joint_impulses.hpp), one state, (nbodies x 6).
Eigen::MatrixXd joint_impulses(const Model& m, const Eigen::VectorXd& q, const Eigen::VectorXd& qdot,
                               const Eigen::VectorXd& qdot_plus, const Eigen::VectorXd& lambda);

// The neutral configuration (zeros, unit quaternions).
Eigen::VectorXd neutral(const Model& m);

// dq/dt for velocity v (nq): v itself for one-coordinate joints; for a free flyer
// (R v_lin, 1/2 quat (x) (w, 0)) with the quaternion (x, y, z, w) of q.
Eigen::VectorXd configuration_rate(const Model& m, const Eigen::VectorXd& q, const Eigen::VectorXd& v);
// q moved by velocity v held for time dt: q + dt v, and for a free flyer
// p + R (dt v_lin), quat (x) exp(dt w / 2) (renormalised). A smooth retraction, not SE(3)'s exp.
Eigen::VectorXd integrate(const Model& m, const Eigen::VectorXd& q, const Eigen::VectorXd& v, double dt);

}  // namespace obliq::model

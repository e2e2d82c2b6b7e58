// model/urdf.cpp: URDF files into a Model through liburdfdom (the maintained URDF parser that
// Pinocchio uses too), following Pinocchio's conventions so that results compare one to one:
// - bodies depth-first from the root, children in urdfdom's order (its tree lists a link's child
//   joints sorted by joint name, which is the order Pinocchio's parser visits them);
// - revolute and continuous joints: one angle; prismatic: one coordinate; floating: free flyer;
// - fixed joints merge the child link's inertia into the parent body and keep its frame;
// - with a free base, a free flyer named "root_joint" carries the root link; with a fixed base the
//   root link is welded to the world (its mass plays no part, as in Pinocchio).
// Only inertials and joints are read: meshes and collision geometry are not needed.
#include <urdf_parser/urdf_parser.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "obliq/model/host.hpp"

namespace obliq::model {
namespace {

Eigen::Matrix3d rotation_of(const urdf::Rotation& r) {
  double x, y, z, w;
  r.getQuaternion(x, y, z, w);
  return Eigen::Quaterniond(w, x, y, z).normalized().toRotationMatrix();
}
Eigen::Vector3d position_of(const urdf::Vector3& p) { return {p.x, p.y, p.z}; }

// The link's inertia in the link frame: mass, com, rotational inertia about the com.
struct LinkInertia {
  double mass = 0;
  Eigen::Vector3d com = Eigen::Vector3d::Zero();
  Eigen::Matrix3d Ic = Eigen::Matrix3d::Zero();
};
LinkInertia inertia_of(const urdf::Link& link) {
  LinkInertia li;
  if (!link.inertial) return li;
  const urdf::Inertial& in = *link.inertial;
  li.mass = in.mass;
  li.com = position_of(in.origin.position);
  Eigen::Matrix3d I;
  I << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
  const Eigen::Matrix3d R = rotation_of(in.origin.rotation);
  li.Ic = R * I * R.transpose();
  return li;
}

struct Builder {
  Model& m;
  void add_link_inertia(const Frame& f, const LinkInertia& li) {
    if (f.body < 0 || li.mass == 0) return;  // welded to the world: plays no part
    add_rigid_inertia(m, f.body, li.mass, f.p + f.R * li.com, f.R * li.Ic * f.R.transpose());
  }
  void visit(const urdf::Link& link, const Frame& link_frame) {
    for (const auto& joint : link.child_joints) {
      const urdf::Link* child = nullptr;
      for (const auto& c : link.child_links)
        if (c->name == joint->child_link_name) child = c.get();
      if (!child) throw std::runtime_error("URDF: joint '" + joint->name + "' has no child link");
      const Eigen::Matrix3d Rj = rotation_of(joint->parent_to_joint_origin_transform.rotation);
      const Eigen::Vector3d pj = position_of(joint->parent_to_joint_origin_transform.position);
      // The joint frame in the parent body's frame.
      const Eigen::Matrix3d R0 = link_frame.R * Rj;
      const Eigen::Vector3d p0 = link_frame.p + link_frame.R * pj;
      const LinkInertia li = inertia_of(*child);
      Frame child_frame;
      switch (joint->type) {
        case urdf::Joint::FIXED:
          child_frame.body = link_frame.body;
          child_frame.R = R0;
          child_frame.p = p0;
          add_link_inertia(child_frame, li);
          break;
        case urdf::Joint::REVOLUTE:
        case urdf::Joint::CONTINUOUS:
        case urdf::Joint::PRISMATIC:
        case urdf::Joint::FLOATING: {
          const JointType t = joint->type == urdf::Joint::PRISMATIC  ? JointType::prismatic
                              : joint->type == urdf::Joint::FLOATING ? JointType::free_flyer
                                                                     : JointType::revolute;
          const Eigen::Vector3d axis = position_of(joint->axis);
          child_frame.body = add_body(m, joint->name, link_frame.body, t, R0, p0, axis, li.mass, li.com, li.Ic);
          break;
        }
        default:
          throw std::runtime_error("URDF: joint '" + joint->name + "' has a type obliq does not model (planar)");
      }
      m.frames[child->name] = child_frame;
      visit(*child, child_frame);
    }
  }
};

}  // namespace

Model load_urdf_string(const std::string& xml, bool free_base, const std::string& name) {
  urdf::ModelInterfaceSharedPtr urdf_model = urdf::parseURDF(xml);
  if (!urdf_model || !urdf_model->getRoot()) throw std::runtime_error("URDF: cannot parse '" + name + "'");
  Model m;
  m.name = name;
  Builder b{m};
  const urdf::Link& root = *urdf_model->getRoot();
  Frame root_frame;  // the world
  if (free_base) {
    const LinkInertia li = inertia_of(root);
    root_frame.body = add_body(m, "root_joint", -1, JointType::free_flyer, Eigen::Matrix3d::Identity(),
                               Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitZ(), li.mass, li.com, li.Ic);
  }
  m.frames[root.name] = root_frame;
  b.visit(root, root_frame);
  return m;
}

Model load_urdf(const std::string& path, bool free_base) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read URDF file '" + path + "'");
  std::stringstream ss;
  ss << in.rdbuf();
  return load_urdf_string(ss.str(), free_base, path);
}

}  // namespace obliq::model

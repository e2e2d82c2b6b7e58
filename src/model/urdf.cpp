// model/urdf.cpp: URDF files into a Model through liburdfdom (the maintained URDF parser that
// Pinocchio uses too), following Pinocchio's conventions so that results compare one to one:
// - bodies depth-first from the root, children in urdfdom's order (its tree lists a link's child
//   joints sorted by joint name, which is the order Pinocchio's parser visits them);
// - revolute and continuous joints: one angle; prismatic: one coordinate; floating: free flyer;
// - fixed joints merge the child link's inertia into the parent body and keep its frame;
// - with a free base, a free flyer named "root_joint" carries the root link; with a fixed base the
//   root link is welded to the world (its mass plays no part, as in Pinocchio).
// Only inertials and joints are read: meshes and collision geometry are not needed.
//
// Hostile files (docs/limits.md): before urdfdom sees the text, its size, its <link> count and
// its XML nesting depth are bounded (io/limits.hpp; the XML parser recurses). urdfdom's console
// messages are collected into obliq's error instead of being printed. Every link's inertial data
// is checked from the XML text itself (urdfdom silently drops an inertial it cannot read, e.g.
// mass "nan"): finite numbers and mass >= 0, then the inertia against the link's own scale
// (inertia_check.hpp: errors name the link; standard mode's warnings go to Model::warnings). A
// joint whose parent is its child, or a link reached twice (a loop), is an error, and a cycle of
// joints is rejected from the XML text before urdfdom sees it (urdfdom leaks a cycle when it fails
// later); the tree is walked without recursion.
#include <console_bridge/console.h>
#include <tinyxml.h>
#include <urdf_parser/urdf_parser.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "io/limits.hpp"
#include "model/inertia_check.hpp"
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

[[noreturn]] void fail(const std::string& name, const std::string& what) {
  throw std::runtime_error("URDF '" + name + "': " + what);
}

// Bounds checked on the raw text: <link> elements and XML nesting depth (comments, CDATA,
// declarations and quoted attribute values are skipped).
void check_text_bounds(const std::string& xml, const std::string& name) {
  if (xml.size() > io::kMaxUrdfBytes)
    fail(name, "too large (" + std::to_string(xml.size()) + " bytes; at most " + std::to_string(io::kMaxUrdfBytes) + ")");
  int depth = 0, links = 0;
  for (std::size_t i = xml.find('<'); i != std::string::npos; i = xml.find('<', i)) {
    if (xml.compare(i, 4, "<!--") == 0) {
      i = xml.find("-->", i + 4);
      if (i == std::string::npos) break;
      continue;
    }
    if (xml.compare(i, 9, "<![CDATA[") == 0) {
      i = xml.find("]]>", i + 9);
      if (i == std::string::npos) break;
      continue;
    }
    const bool closing = i + 1 < xml.size() && xml[i + 1] == '/';
    const bool special = i + 1 < xml.size() && (xml[i + 1] == '?' || xml[i + 1] == '!');
    std::size_t end = i + 1;
    char quote = 0;
    for (; end < xml.size(); ++end) {  // the tag's '>' outside quoted attribute values
      const char c = xml[end];
      if (quote) quote = c == quote ? 0 : quote;
      else if (c == '"' || c == '\'') quote = c;
      else if (c == '>') break;
    }
    if (end >= xml.size()) break;
    const bool self_closing = xml[end - 1] == '/';
    if (!closing && !special) {
      if (xml.compare(i, 5, "<link") == 0 && i + 5 < xml.size() &&
          (xml[i + 5] == ' ' || xml[i + 5] == '>' || xml[i + 5] == '/' || xml[i + 5] == '\t' || xml[i + 5] == '\n' ||
           xml[i + 5] == '\r'))
        if (++links > io::kMaxUrdfLinks)
          fail(name, "too many links (more than " + std::to_string(io::kMaxUrdfLinks) + ")");
      if (!self_closing && ++depth > io::kMaxXmlDepth)
        fail(name, "XML nested too deeply (more than " + std::to_string(io::kMaxXmlDepth) + " levels)");
    } else if (closing) {
      --depth;
    }
    i = end + 1;
  }
}

// A number attribute as written ("" when absent); false when present but not a number.
bool attribute_number(const TiXmlElement* e, const char* attr, double& out, std::string& text) {
  const char* v = e ? e->Attribute(attr) : nullptr;
  text = v ? v : "";
  out = 0;
  if (!v) return true;
  char* end = nullptr;
  out = std::strtod(v, &end);
  while (end && (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r')) ++end;
  return end != v && end && *end == '\0';
}

// Three numbers "x y z" (an <origin>'s xyz); false when absent or not three numbers.
bool attribute_triple(const TiXmlElement* e, const char* attr, Eigen::Vector3d& out) {
  const char* v = e ? e->Attribute(attr) : nullptr;
  if (!v) return false;
  std::istringstream in(v);
  for (int k = 0; k < 3; ++k)
    if (!(in >> out(k))) return false;
  std::string rest;
  return !(in >> rest);
}

// Every <link>'s <inertial>, read from the text: finite numbers and mass >= 0 (errors), then the
// inertia judged against the link's own scale (check_link_inertia, docs/model.md "Inertial
// checks"): an error stops the load, a warning is kept in `warnings`.
void check_inertials(const TiXmlElement* robot, const std::string& name, InertiaCheck mode,
                     std::vector<std::string>& warnings) {
  if (!robot) return;  // urdfdom reports the parse error
  for (const TiXmlElement* link = robot->FirstChildElement("link"); link; link = link->NextSiblingElement("link")) {
    const char* ln = link->Attribute("name");
    const std::string link_name = ln ? ln : "?";
    const std::string where = "link '" + link_name + "'";
    const TiXmlElement* inertial = link->FirstChildElement("inertial");
    if (!inertial) continue;
    double mass = 0;
    std::string text;
    if (!attribute_number(inertial->FirstChildElement("mass"), "value", mass, text))
      fail(name, where + ": mass \"" + text + "\" is not a number");
    if (!std::isfinite(mass)) fail(name, where + ": mass " + text + " is not finite");
    if (mass < 0) fail(name, where + ": negative mass " + text);
    const TiXmlElement* in = inertial->FirstChildElement("inertia");
    double v[6];
    const char* keys[6] = {"ixx", "ixy", "ixz", "iyy", "iyz", "izz"};
    for (int k = 0; k < 6; ++k) {
      if (!attribute_number(in, keys[k], v[k], text))
        fail(name, where + ": inertia " + keys[k] + " \"" + text + "\" is not a number");
      if (!std::isfinite(v[k])) fail(name, where + ": inertia " + keys[k] + " = " + text + " is not finite");
    }
    // The centre of mass sets the link's scale (I1); an unreadable origin is urdfdom's error, and
    // the scale is then taken about the centre of mass (the smaller one).
    Eigen::Vector3d com = Eigen::Vector3d::Zero();
    if (!attribute_triple(inertial->FirstChildElement("origin"), "xyz", com)) com.setZero();
    if (!com.allFinite()) fail(name, where + ": inertial origin is not finite");
    Eigen::Matrix3d I;
    I << v[0], v[1], v[2], v[1], v[3], v[4], v[2], v[4], v[5];
    const InertiaVerdict verdict = check_link_inertia(link_name, mass, com, I, mode);
    if (verdict.kind == InertiaVerdict::error) fail(name, verdict.message);
    if (verdict.kind == InertiaVerdict::warning) warnings.push_back("URDF '" + name + "': " + verdict.message);
  }
}

// The joints' parent -> child graph, read from the XML text as urdfdom reads it (<joint> elements
// of <robot>, the "link" attributes of <parent> and <child>), has no joint whose parent is its
// child and no cycle. Checked before urdfdom sees the text: urdfdom links a cycle's links to each
// other by shared_ptr before it can fail on a later joint or on the root, and then returns null,
// so the cycle it built can be neither reached nor freed (LeakSanitizer, fuzz/urdf.cpp).
void check_joint_graph(const TiXmlElement* robot, const std::string& name) {
  if (!robot) return;  // urdfdom reports the parse error
  std::map<std::string, std::vector<std::string>> children;
  for (const TiXmlElement* j = robot->FirstChildElement("joint"); j; j = j->NextSiblingElement("joint")) {
    const TiXmlElement* pe = j->FirstChildElement("parent");
    const TiXmlElement* ce = j->FirstChildElement("child");
    const char* parent = pe ? pe->Attribute("link") : nullptr;
    const char* child = ce ? ce->Attribute("link") : nullptr;
    if (!parent || !child) continue;  // urdfdom reports the joint
    const char* jn = j->Attribute("name");
    if (std::string(parent) == child)
      fail(name, std::string("joint '") + (jn ? jn : "?") + "' has link '" + child + "' as both parent and child");
    children[parent].push_back(child);
  }
  // Depth-first without recursion; a link met again while still on the path closes a cycle.
  enum class Mark { on_path, done };
  std::map<std::string, Mark> mark;
  for (const auto& [start, unused] : children) {
    if (mark.count(start)) continue;
    std::vector<std::pair<const std::string*, std::size_t>> path{{&start, 0}};
    mark[start] = Mark::on_path;
    while (!path.empty()) {
      auto& [link, next] = path.back();
      const auto it = children.find(*link);
      if (it == children.end() || next == it->second.size()) {
        mark[*link] = Mark::done;
        path.pop_back();
        continue;
      }
      const std::string& child = it->second[next++];
      const auto m = mark.find(child);
      if (m == mark.end()) {
        mark[child] = Mark::on_path;
        path.push_back({&child, 0});
      } else if (m->second == Mark::on_path) {
        fail(name, "link '" + child + "' is reached twice (a kinematic loop; obliq models trees)");
      }
    }
  }
}

// urdfdom's console messages (console_bridge), kept for obliq's error instead of printed.
struct CollectMessages : console_bridge::OutputHandler {
  std::string text;
  void log(const std::string& message, console_bridge::LogLevel level, const char*, int) override {
    if (level >= console_bridge::CONSOLE_BRIDGE_LOG_WARN) text += (text.empty() ? "" : "; ") + message;
  }
};

struct Builder {
  Model& m;
  const std::string& name;
  void add_link_inertia(const Frame& f, const LinkInertia& li) {
    // Welded to the world: plays no part. A massless link keeps its rotational inertia (as Pinocchio
    // does: Bolt's feet), so only an empty one is skipped.
    if (f.body < 0 || (li.mass == 0 && li.Ic.isZero(0))) return;
    add_rigid_inertia(m, f.body, li.mass, f.p + f.R * li.com, f.R * li.Ic * f.R.transpose());
  }
  // The child link of `joint` under `link`, framed; its frame is recorded in m.frames.
  Frame add_joint(const urdf::Joint& joint, const urdf::Link& child, const Frame& link_frame) {
    const Eigen::Matrix3d Rj = rotation_of(joint.parent_to_joint_origin_transform.rotation);
    const Eigen::Vector3d pj = position_of(joint.parent_to_joint_origin_transform.position);
    if (!Rj.allFinite() || !pj.allFinite()) fail(name, "joint '" + joint.name + "': origin is not finite");
    // The joint frame in the parent body's frame.
    const Eigen::Matrix3d R0 = link_frame.R * Rj;
    const Eigen::Vector3d p0 = link_frame.p + link_frame.R * pj;
    const LinkInertia li = inertia_of(child);
    if (!std::isfinite(li.mass) || !li.com.allFinite() || !li.Ic.allFinite())
      fail(name, "link '" + child.name + "': inertial data is not finite");
    Frame child_frame;
    switch (joint.type) {
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
        const JointType t = joint.type == urdf::Joint::PRISMATIC  ? JointType::prismatic
                            : joint.type == urdf::Joint::FLOATING ? JointType::free_flyer
                                                                  : JointType::revolute;
        const Eigen::Vector3d axis = position_of(joint.axis);
        if (!axis.allFinite()) fail(name, "joint '" + joint.name + "': axis is not finite");
        child_frame.body = add_body(m, joint.name, link_frame.body, t, R0, p0, axis, li.mass, li.com, li.Ic);
        break;
      }
      default:
        fail(name, "joint '" + joint.name + "' has a type obliq does not model (planar)");
    }
    m.frames[child.name] = child_frame;
    return child_frame;
  }
  // Depth-first from the root, children in urdfdom's order (a body is added when its joint is
  // taken from the stack, so the numbering is the recursive pre-order), with an explicit stack.
  void walk(const urdf::Link& root, const Frame& root_frame) {
    struct Step {
      const urdf::Joint* joint;
      const urdf::Link* parent;
      Frame parent_frame;
    };
    std::set<const urdf::Link*> seen{&root};
    std::vector<Step> stack;
    const auto push_children = [&](const urdf::Link& link, const Frame& frame) {
      for (auto it = link.child_joints.rbegin(); it != link.child_joints.rend(); ++it) stack.push_back({it->get(), &link, frame});
    };
    push_children(root, root_frame);
    while (!stack.empty()) {
      const Step step = stack.back();
      stack.pop_back();
      const urdf::Joint& joint = *step.joint;
      if (joint.child_link_name == joint.parent_link_name)
        fail(name, "joint '" + joint.name + "' has link '" + joint.child_link_name + "' as both parent and child");
      const urdf::Link* child = nullptr;
      for (const auto& c : step.parent->child_links)
        if (c->name == joint.child_link_name) child = c.get();
      if (!child) fail(name, "joint '" + joint.name + "' has no child link");
      if (!seen.insert(child).second)
        fail(name, "link '" + child->name + "' is reached twice (a kinematic loop; obliq models trees)");
      push_children(*child, add_joint(joint, *child, step.parent_frame));
    }
  }
};

}  // namespace

Model load_urdf_string(const std::string& xml, bool free_base, const std::string& name, InertiaCheck inertia_check) {
  check_text_bounds(xml, name);
  std::vector<std::string> warnings;
  {
    TiXmlDocument doc;
    doc.Parse(xml.c_str());
    const TiXmlElement* robot = doc.FirstChildElement("robot");  // the element urdfdom reads
    check_inertials(robot, name, inertia_check, warnings);
    check_joint_graph(robot, name);
  }
  CollectMessages messages;
  console_bridge::useOutputHandler(&messages);
  urdf::ModelInterfaceSharedPtr urdf_model = urdf::parseURDF(xml);
  console_bridge::restorePreviousOutputHandler();
  // urdfdom links hold their children by shared_ptr: a loop or a self-parent joint makes a cycle
  // that would never be freed (LeakSanitizer found it through fuzz/urdf.cpp). check_joint_graph
  // keeps cycles from reaching urdfdom (the only cure where parseURDF returns null); as a second
  // guard, break the links' child pointers when this function leaves, by return or by throw.
  struct BreakCycles {
    const urdf::ModelInterfaceSharedPtr& model;
    ~BreakCycles() {
      if (!model) return;
      for (auto& [link_name, link] : model->links_)
        if (link) link->child_links.clear(), link->child_joints.clear();
    }
  } break_cycles{urdf_model};
  if (!urdf_model || !urdf_model->getRoot())
    fail(name, "cannot parse" + (messages.text.empty() ? std::string() : " (" + messages.text + ")"));
  Model m;
  m.name = name;
  m.warnings = std::move(warnings);
  Builder b{m, name};
  const urdf::Link& root = *urdf_model->getRoot();
  Frame root_frame;  // the world
  if (free_base) {
    const LinkInertia li = inertia_of(root);
    root_frame.body = add_body(m, "root_joint", -1, JointType::free_flyer, Eigen::Matrix3d::Identity(),
                               Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitZ(), li.mass, li.com, li.Ic);
  }
  m.frames[root.name] = root_frame;
  b.walk(root, root_frame);
  return m;
}

Model load_urdf(const std::string& path, bool free_base, InertiaCheck inertia_check) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read URDF file '" + path + "'");
  std::string xml;
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    xml.append(buf, std::size_t(in.gcount()));
    if (xml.size() > io::kMaxUrdfBytes) break;  // check_text_bounds names the bound
  }
  return load_urdf_string(xml, free_base, path, inertia_check);
}

}  // namespace obliq::model

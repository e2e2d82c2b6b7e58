// model/load.cpp: a model from its name as the command line and study files give it (a URDF
// file or a built-in), with gravity, ground height and extra ground contacts applied.
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "obliq/model/host.hpp"

namespace obliq::model {
namespace {
bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
}  // namespace

bool parse_triple(const std::string& text, Eigen::Vector3d& out) {
  std::stringstream ss(text);
  std::string item;
  int k = 0;
  while (std::getline(ss, item, ',')) {
    if (k == 3) return false;
    try {
      std::size_t used = 0;
      out(k) = std::stod(item, &used);
      if (used != item.size() || !std::isfinite(out(k))) return false;
    } catch (const std::exception&) {
      return false;
    }
    ++k;
  }
  return k == 3;
}

bool parse_inertia_check(const std::string& text, InertiaCheck& out) {
  if (text == "standard" || text == "basic") out = InertiaCheck::standard;
  else if (text == "strict" || text == "full") out = InertiaCheck::strict;
  else return false;
  return true;
}

Model load_model(const ModelSpec& spec) {
  Model m = ends_with(spec.model, ".urdf") || ends_with(spec.model, ".xml") ? load_urdf(spec.model, spec.free_base, spec.inertia_check)
                                                                            : builtin_model(spec.model);
  for (int k = 0; k < 3; ++k) m.gravity[k] = spec.gravity(k);
  for (int r = 0; r < m.ncontacts(); ++r)  // built-in ground rows sit on the plane z = ground
    if (m.contact_body_b[r] == -1 && m.contact_normal[3 * r + 2] == 1.0) m.contact_offset[r] = spec.ground;
  for (const auto& c : spec.contacts) {
    const auto colon = c.find(':');
    Eigen::Vector3d p = Eigen::Vector3d::Zero();
    if (colon != std::string::npos && !parse_triple(c.substr(colon + 1), p))
      throw std::invalid_argument("a contact is LINK or LINK:x,y,z, got '" + c + "'");
    add_ground_contact(m, c.substr(0, colon), p, spec.ground);
  }
  return m;
}

}  // namespace obliq::model

// model/inertia_check.hpp: the verdict on one URDF link's inertial data (docs/model.md "Inertial
// checks", (I1)-(I4)): valid, valid with a warning, or an error, each message naming the link.
#pragma once

#include <Eigen/Dense>
#include <string>

#include "obliq/model/host.hpp"

namespace obliq::model {

struct InertiaVerdict {
  enum Kind { valid, warning, error } kind = valid;
  std::string message;  // "link 'L': inertia ... (principal moments a, b, c)"; empty when valid
};

// mass >= 0 and finite entries are the caller's checks (they come first, from the XML text).
// com: the inertial origin in the link frame; I: the rotational inertia about the centre of mass
// as written (ixx, ixy, ... in the inertial frame; principal moments do not depend on that frame).
InertiaVerdict check_link_inertia(const std::string& link, double mass, const Eigen::Vector3d& com,
                                  const Eigen::Matrix3d& I, InertiaCheck mode);

}  // namespace obliq::model

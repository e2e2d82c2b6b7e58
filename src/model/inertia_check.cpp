// model/inertia_check.cpp: one link's inertia judged against its own scale (docs/model.md
// "Inertial checks"). Standard mode refuses only what no rounding explains (a negative moment
// about an axis of the inertial frame) and reports what is physically impossible but usable (an
// indefinite tensor, a triangle-inequality violation) as a warning; strict mode refuses those too.
#include "model/inertia_check.hpp"

#include <algorithm>
#include <limits>
#include <sstream>

namespace obliq::model {

InertiaVerdict check_link_inertia(const std::string& link, double mass, const Eigen::Vector3d& com,
                                  const Eigen::Matrix3d& I, InertiaCheck mode) {
  InertiaVerdict v;
  if (I.isZero(0)) return v;  // a point mass (or no mass)
  const Eigen::Vector3d d = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(I, Eigen::EigenvaluesOnly).eigenvalues();
  std::ostringstream moments;
  moments << "(principal moments " << d[0] << ", " << d[1] << ", " << d[2] << ")";
  const std::string where = "link '" + link + "': inertia ";
  const auto verdict = [&](InertiaVerdict::Kind kind, const std::string& what) {
    return InertiaVerdict{kind, where + what + " " + moments.str()};
  };

  // (I1) the link's scale: the largest principal moment of its inertia about the link frame's
  // origin (parallel-axis theorem), the rotational block of the spatial inertia the algorithms
  // assemble. (I2) rounding: tau = 16 eps s.
  const Eigen::Matrix3d Io = I + mass * (com.squaredNorm() * Eigen::Matrix3d::Identity() - com * com.transpose());
  const double s = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(Io, Eigen::EigenvaluesOnly).eigenvalues()[2];
  const double tau = 16 * std::numeric_limits<double>::epsilon() * std::max(s, 0.0);

  // A moment about an axis of the inertial frame below -tau: no rounding and no published file
  // explains it; an error in every mode.
  const char* axes[3] = {"ixx", "iyy", "izz"};
  for (int k = 0; k < 3; ++k)
    if (I(k, k) < -tau) {
      std::ostringstream value;
      value << I(k, k);
      return verdict(InertiaVerdict::error, "is not positive definite, moment " + std::string(axes[k]) + " = " +
                                                value.str() + " is negative");
    }

  if (mode == InertiaCheck::strict) {  // as written: positive definite and (I4) to 1e-9
    if (!(d[0] > 0)) return verdict(InertiaVerdict::error, "is not positive definite");
    if (d[2] > (d[0] + d[1]) * (1 + 1e-9)) return verdict(InertiaVerdict::error, "violates the triangle inequality");
    return v;
  }
  // (I3) positive semi-definite to rounding; zero to rounding is a point mass.
  if (d[0] < -tau) return verdict(InertiaVerdict::warning, "is not positive semi-definite");
  if (d[2] <= tau) return v;
  // (I4) each principal moment at most the sum of the other two, to 1e-9 relative.
  if (d[2] > (d[0] + d[1]) * (1 + 1e-9)) return verdict(InertiaVerdict::warning, "violates the triangle inequality");
  return v;
}

}  // namespace obliq::model

// tests/support/contact_points.hpp: world positions of a model's unilateral contact points (point
// a of each contact) at a configuration q, for the Simulator tests that watch feet move.
#pragma once

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <vector>

#include "obliq/model/contact_rows.hpp"
#include "obliq/model/kinematics.hpp"
#include "obliq/model/host.hpp"

namespace obliq::test {

inline std::vector<Eigen::Vector3d> contact_points(const model::Model& m, const Eigen::VectorXd& q) {
  const model::ModelView<double> mv = m.view();
  std::vector<double> block(model::data_size(mv));
  const model::DataView<double> d = model::data_view(mv, block.data());
  const Eigen::VectorXd v = Eigen::VectorXd::Zero(m.nv);
  EXPECT_EQ(model::forward_kinematics(mv, d, VecView<const double>{q.data(), int(q.size()), 1},
                                      VecView<const double>{v.data(), int(v.size()), 1}),
            Status::ok);
  std::vector<Eigen::Vector3d> out;
  for (int r = m.n_bilateral; r < mv.ncontacts; ++r) {
    const auto p = model::world_point(d, mv.contact_body_a[r], mv.contact_point_a + 3 * r);
    out.emplace_back(p[0], p[1], p[2]);
  }
  return out;
}

}  // namespace obliq::test

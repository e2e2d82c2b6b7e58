// src/model/friction_rows.cpp: obliq::model::evaluate_friction (friction_rows.hpp).
#include "obliq/model/friction_rows.hpp"

#include <vector>

#include "obliq/model/kinematics.hpp"
#include "obliq/model/tangent_rows.hpp"

namespace obliq::model {

Status evaluate_friction(const Model& m, const Eigen::VectorXd& q, const Eigen::VectorXd& qdot, double mu, Friction& out) {
  const ModelView<double> mv = m.view();
  const int nu = m.n_unilateral();
  out = Friction{};
  out.dim = 3;
  out.A_t = Eigen::MatrixXd::Zero(2 * nu, m.nv);
  out.Adot_qdot_t = Eigen::VectorXd::Zero(2 * nu);
  out.mu = Eigen::VectorXd::Constant(nu, mu);
  if (q.size() != m.nq || qdot.size() != m.nv) return Status::bad_shape;
  std::vector<double> block(data_size(mv));
  const DataView<double> d = data_view(mv, block.data());
  const Status st = forward_kinematics(mv, d, VecView<const double>{q.data(), int(q.size()), 1},
                                       VecView<const double>{qdot.data(), int(qdot.size()), 1});
  if (st != Status::ok) return st;
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> A(2 * nu, m.nv);
  tangent_rows(mv, d, mat_view(A.data(), 2 * nu, m.nv), vec_view(out.Adot_qdot_t.data(), 2 * nu));
  out.A_t = A;
  return Status::ok;
}

}  // namespace obliq::model

// src/friction/host_glue.hpp: what the host entry points of frictional contact share: the cpu
// one (src/friction/solve.cpp, one scenario) and the cuda backend's (cuda/friction_glue.hpp, a
// batch on the device): which host inputs the core may index, and a Report turned into a
// FrictionResult.
#pragma once

#include <cstddef>

#include "obliq/core/friction/problem.hpp"
#include "obliq/friction.hpp"

namespace obliq::friction {

// The vector shapes the core indexes without checking (the core checks the matrices and the
// rest), and dim in {2, 3}. false: Status::bad_shape without solving.
inline bool host_inputs_fit(const Scenario& s, const Friction& f, bool dynamics) {
  const long n = s.M.rows(), mu_rows = s.A_u.rows(), m = s.A_b.rows() + mu_rows;
  const bool common = (f.dim == 2 || f.dim == 3) && s.M.cols() == n && s.qdot.size() == n && s.phi_u.size() == mu_rows &&
                      s.A_b.cols() == n && s.A_u.cols() == n && f.mu.size() == mu_rows &&
                      (s.parent.empty() || long(s.parent.size()) == n);
  if (dynamics)
    return common && s.h.size() == n && s.u.size() == n && s.Adot_qdot.size() == m &&
           (f.Adot_qdot_t.size() == 0 || f.Adot_qdot_t.size() == f.A_t.rows());
  return common && s.i_u.size() == n && s.e.size() == mu_rows && (f.e_t.size() == 0 || f.e_t.size() == mu_rows);
}

// The solve's report and tangential reactions (nt = (dim - 1) m_u of them, any stride) as a
// FrictionResult (fr may be null: nothing). The sliding flags are the caller's.
template <class T> void fill_result(const Report<T>& rep, const T* lambda_t, int nt, std::ptrdiff_t stride, FrictionResult* fr) {
  if (!fr) return;
  fr->lambda_t.resize(nt);
  for (int k = 0; k < nt; ++k) fr->lambda_t[k] = double(lambda_t[std::ptrdiff_t(k) * stride]);
  fr->method = rep.frictional ? method_name(rep.method) : "";
  fr->iterations = rep.iterations;
  fr->residual = double(rep.residual);
}

}  // namespace obliq::friction

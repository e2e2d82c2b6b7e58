// tests/support/siconos_fc3d.hpp: Siconos numerics' fc3d solvers (Debian libsiconos-numerics-dev
// 4.4.0) on an obliq::test::Fc3d problem: fc3d_nsgs and fc3d_nonsmooth_Newton_AlartCurnier
// through fc3d_driver, and Siconos's own error measure (fc3d_compute_error) of any answer.
// Only for programs that link Siconos (tests/friction_siconos, bench/siconos).
#pragma once

#include <vector>

#include "fc3d_problems.hpp"

extern "C" {
#include <FrictionContactProblem.h>
#include <Friction_cst.h>
#include <NonSmoothDrivers.h>
#include <NumericsMatrix.h>
#include <SolverOptions.h>
#include <fc3d_compute_error.h>
}

namespace obliq::test {

// One problem in Siconos's form (column-major dense W), reusable across solves.
class SiconosFc3d {
 public:
  explicit SiconosFc3d(const Fc3d& p) : q_(p.q.data(), p.q.data() + p.q.size()), mu_(p.mu.data(), p.mu.data() + p.mu.size()) {
    const int m = 3 * p.nc;
    const Eigen::MatrixXd Wc = p.W;  // column-major copy
    Wcol_.assign(Wc.data(), Wc.data() + std::size_t(m) * m);
    problem_.dimension = 3;
    problem_.numberOfContacts = p.nc;
    problem_.M = NM_create_from_data(NM_DENSE, m, m, Wcol_.data());
    problem_.q = q_.data();
    problem_.mu = mu_.data();
  }
  ~SiconosFc3d() {
    problem_.M->matrix0 = nullptr;  // owned by Wcol_
    NM_free(problem_.M);
  }
  SiconosFc3d(const SiconosFc3d&) = delete;
  SiconosFc3d& operator=(const SiconosFc3d&) = delete;

  // Solves from r = 0 with solver_id (SICONOS_FRICTION_3D_NSGS or SICONOS_FRICTION_3D_NSN_AC),
  // Siconos tolerance tol (its relative error) and iteration budget. Returns Siconos's info
  // (0: converged).
  int solve(int solver_id, double tol, int max_iter, std::vector<double>& r, std::vector<double>& u) {
    const int m = 3 * problem_.numberOfContacts;
    r.assign(std::size_t(m), 0.0);
    u.assign(std::size_t(m), 0.0);
    SolverOptions* options = solver_options_create(solver_id);
    options->iparam[SICONOS_IPARAM_MAX_ITER] = max_iter;
    options->dparam[SICONOS_DPARAM_TOL] = tol;
    const int info = fc3d_driver(&problem_, r.data(), u.data(), options);
    solver_options_delete(options);
    return info;
  }
  // Siconos's error of (r, u = W r + q) relative to |q| (fc3d_compute_error).
  double error(const std::vector<double>& r) {
    const int m = 3 * problem_.numberOfContacts;
    std::vector<double> z(r), w(std::size_t(m), 0.0);
    SolverOptions* options = solver_options_create(SICONOS_FRICTION_3D_NSGS);
    double err = 0;
    double qn = 0;
    for (double x : q_) qn += x * x;
    fc3d_compute_error(&problem_, z.data(), w.data(), 1e-9, options, std::sqrt(qn), &err);
    solver_options_delete(options);
    return err;
  }

 private:
  std::vector<double> Wcol_, q_, mu_;
  FrictionContactProblem problem_{};
};

}  // namespace obliq::test

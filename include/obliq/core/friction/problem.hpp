// obliq/core/friction/problem.hpp: the frictional contact problem in contact coordinates, and
// what its solvers return.
//
// docs/friction.md (F1)-(F4). Unknowns: the reactions r (m = m_e + dim * nc entries) and the
// velocities u = W r + q (W: the Delassus matrix A M^-1 A^T of the rows, PSD; q: the free
// velocities of the rows). Rows 0..m_e-1 are equality rows (u_i = 0, r_i free: the bilateral
// rows). Then nc contacts of dim = 2 (plane) or 3 (space) rows each, in the order
// (normal, tangent 1[, tangent 2]) as in Siconos's FrictionContactProblem. Contact c obeys
// Coulomb's law with coefficient mu_c >= 0 (De Saxce's form, docs/friction.md (F2)):
//     K_mu = {r : |r_T| <= mu r_N},   u_hat = u + mu |u_T| e_N,   K_mu  owns r  _|_  u_hat in K_mu*,
// i.e. u_N >= 0 _|_ r_N >= 0, |r_T| <= mu r_N, and r_T = -mu r_N u_T / |u_T| when u_T != 0.
// A contact with a prescribed sliding direction s_c (|s_c| = 1, acceleration level, docs/friction.md
// (F7)) obeys instead u_N >= 0 _|_ r_N >= 0 and r_T = -mu r_N s_c, u_T free.
#pragma once

#include <cstddef>

#include "obliq/core/config.hpp"
#include "obliq/core/status.hpp"
#include "obliq/core/view.hpp"

namespace obliq::friction {

template <class T> struct Problem {
  int m_e = 0, nc = 0, dim = 3;
  MatView<const T> W;     // m x m, m = m_e + dim * nc
  VecView<const T> q;     // m
  VecView<const T> mu;    // nc (inc = 0 broadcasts one coefficient)
  // nc x (dim - 1): prescribed sliding direction of each contact, a zero row for none (the
  // contact obeys the full Coulomb law). data == nullptr: no contact has one.
  MatView<const T> slide;
  OBLIQ_HD int size() const { return m_e + dim * nc; }
  OBLIQ_HD int row(int c) const { return m_e + dim * c; }  // normal row of contact c
  OBLIQ_HD bool sliding(int c) const {
    if (slide.data == nullptr) return false;
    for (int j = 0; j < dim - 1; ++j)
      if (slide(c, j) != T(0)) return true;
    return false;
  }
};

enum class Method : int { newton = 0, nsgs, lemke, extragradient };

OBLIQ_HD inline const char* method_name(Method m) {
  switch (m) {
    case Method::newton: return "newton";
    case Method::nsgs: return "nsgs";
    case Method::lemke: return "lemke";
    case Method::extragradient: return "extragradient";
  }
  return "unknown";
}

// What a frictional solve returns besides r and u. `residual`: the certificate's largest
// per-contact residual relative to that contact's own scale (certificate.hpp); `worst`: the
// row block (contact index, or -1 - i for equality row i) where it is attained.
template <class T> struct Report {
  Status status = Status::ok;
  Method method = Method::newton;
  int iterations = 0;
  T residual = T(0);
  int worst = 0;
  bool frictional = false;  // a frictional solver ran (false: the frictionless core answered)
};

// The relative acceptance tolerance of the certificate: as the LCP's (about 1000 ulps at m = 24
// in float; in double the iterative solvers reach 1e-12 and below on well-posed problems).
template <class T> struct tolerance;
template <> struct tolerance<double> { static constexpr double rel = 1e-9; };
template <> struct tolerance<float> { static constexpr float rel = 1e-4f; };

// Shape and input checks shared by the solvers: sizes, dim in {2, 3}, finite W and q, mu >= 0
// and finite. Status::bad_shape, non_finite or bad_friction.
template <class T> OBLIQ_HD Status check_problem(const Problem<T>& p, VecView<T> r, VecView<T> u) {
  const int m = p.size();
  if ((p.dim != 2 && p.dim != 3) || p.m_e < 0 || p.nc < 0 || p.W.rows != m || p.W.cols != m || p.q.size != m ||
      r.size != m || u.size != m || (p.mu.inc != 0 && p.mu.size != p.nc))
    return Status::bad_shape;
  if (p.slide.data != nullptr && (p.slide.rows != p.nc || p.slide.cols != p.dim - 1)) return Status::bad_shape;
  for (int i = 0; i < m; ++i) {
    if (!(p.q[i] - p.q[i] == T(0))) return Status::non_finite;
    for (int j = 0; j < m; ++j)
      if (!(p.W(i, j) - p.W(i, j) == T(0))) return Status::non_finite;
  }
  for (int c = 0; c < p.nc; ++c) {
    if (!(p.mu[c] - p.mu[c] == T(0))) return Status::non_finite;
    if (p.mu[c] < T(0)) return Status::bad_friction;
  }
  return Status::ok;
}

// u = W r + q.
template <class T> OBLIQ_HD void velocities(const Problem<T>& p, VecView<const T> r, VecView<T> u) {
  const int m = p.size();
  for (int i = 0; i < m; ++i) {
    T s = p.q[i];
    for (int j = 0; j < m; ++j) s += p.W(i, j) * r[j];
    u[i] = s;
  }
}

// The per-contact step size rho_c of the Alart-Curnier function and the natural map: the inverse
// of the largest diagonal entry of the contact's block of W (so rho u has the units of r; 1 when
// the block is zero). docs/friction.md (F5).
template <class T> OBLIQ_HD T contact_rho(const Problem<T>& p, int first, int rows) {
  T d = T(0);
  for (int i = first; i < first + rows; ++i) d = max_(d, p.W(i, i));
  return d > T(0) ? T(1) / d : T(1);
}

}  // namespace obliq::friction

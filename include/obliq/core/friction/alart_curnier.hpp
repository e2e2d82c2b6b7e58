// obliq/core/friction/alart_curnier.hpp: the Alart-Curnier function of one contact and its
// generalized Jacobian (Alart & Curnier, "A mixed formulation for frictional contact problems
// prone to Newton like solution methods", CMAME 92 (1991); the "STD" variant of Siconos's
// fc3d_AlartCurnier_functions.c). docs/friction.md (F6).
//
// With x = r_N - rho u_N, y = r_T - rho u_T and the radius R = mu max(0, x):
//     Phi_N = r_N - max(0, x),      Phi_T = r_T - proj_{|.| <= R}(y),
// zero exactly when the contact obeys Coulomb's law. Derivatives (one element of Clarke's
// generalized Jacobian), A = dPhi/dr, B = dPhi/du:
//   x > 0:  Phi_N = rho u_N          (A_NN = 0, B_NN = rho); else Phi_N = r_N (A_NN = 1);
//   |y| <= R, R > 0 (sticking): Phi_T = rho u_T (B_TT = rho I);
//   otherwise (sliding, y_hat = y / |y|, P = I - y_hat y_hat^T):
//     Phi_T = r_T - R y_hat,  A_TT = I - (R / |y|) P,  B_TT = rho (R / |y|) P,
//     and when x > 0:  A_TN = -mu y_hat,  B_TN = mu rho y_hat.
// A contact with a prescribed sliding direction s: Phi_T = r_T + mu r_N s (A_TT = I, A_TN = mu s).
// An equality row: Phi = rho u (B = rho).
#pragma once

#include <cmath>

#include "obliq/core/config.hpp"

namespace obliq::friction {

// One contact (dim 2 or 3): r, u (dim), Phi (dim); A, B (dim x dim row-major, may be null).
template <class T>
OBLIQ_HD void alart_curnier(const T* r, const T* u, int dim, T mu, T rho, const T* slide, T* Phi, T* A, T* B) {
  const int d = dim;
  if (A)
    for (int k = 0; k < d * d; ++k) A[k] = T(0), B[k] = T(0);
  const T x = r[0] - rho * u[0];
  if (x > T(0)) {
    Phi[0] = rho * u[0];
    if (B) B[0] = rho;
  } else {
    Phi[0] = r[0];
    if (A) A[0] = T(1);
  }
  if (slide) {
    for (int j = 1; j < d; ++j) {
      Phi[j] = r[j] + mu * r[0] * slide[j - 1];
      if (A) A[j * d + j] = T(1), A[j * d] = mu * slide[j - 1];
    }
    return;
  }
  const T R = mu * max_(T(0), x);
  T y[2] = {T(0), T(0)}, y2 = T(0);
  for (int j = 1; j < d; ++j) y[j - 1] = r[j] - rho * u[j], y2 += y[j - 1] * y[j - 1];
  const T ny = std::sqrt(y2);
  if (R > T(0) && ny <= R) {
    for (int j = 1; j < d; ++j) {
      Phi[j] = rho * u[j];
      if (B) B[j * d + j] = rho;
    }
    return;
  }
  if (!(ny > T(0))) {  // R = 0 and y = 0: Phi_T = r_T
    for (int j = 1; j < d; ++j) {
      Phi[j] = r[j];
      if (A) A[j * d + j] = T(1);
    }
    return;
  }
  const T g = R / ny;
  for (int j = 1; j < d; ++j) {
    const T yh = y[j - 1] / ny;
    Phi[j] = r[j] - R * yh;
    if (!A) continue;
    for (int k = 1; k < d; ++k) {
      const T P = (j == k ? T(1) : T(0)) - yh * y[k - 1] / ny;
      A[j * d + k] = (j == k ? T(1) : T(0)) - g * P;
      B[j * d + k] = rho * g * P;
    }
    if (x > T(0)) {
      A[j * d] = -mu * yh;
      B[j * d] = mu * rho * yh;
    }
  }
}

}  // namespace obliq::friction

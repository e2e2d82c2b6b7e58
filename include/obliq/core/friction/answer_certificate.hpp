// obliq/core/friction/answer_certificate.hpp: the certificate of a frictional impact answer,
// checked from the scenario's own data (M, A_b, A_u, A_t, qdot, i_u, phi_u, e, e_t, mu) and the
// answer (qdot+, lambda, lambda_t, active) alone (docs/friction.md (F11)).
//
// The contact-space certificate (certificate.hpp, (F5)) judges r on the problem the solver was
// given; this one judges the answer on the scenario, so that a contact left out of that problem,
// or a wrong way back from r to qdot+, cannot be "ok". Every closed contact (phi_i <= gap_tol, the
// contacts of the impact, (F10)) is checked with
//   u_N = (A_u qdot+)_i + e_i (A_u qdot)_i,  u_T = A_t,i qdot+ + e_t,i A_t,i qdot     (candidates)
//   u_N = (A_u qdot+)_i,                      u_T = A_t,i qdot+                        (separating)
// (F9, F10), r_c = (lambda_N, lambda_t) of the contact:
//   normal      u_N >= -tol s_N (not below its target);
//   Coulomb     contact_residual (certificate.hpp: natural map, normal complementarity, cone,
//               maximal dissipation; the faceted pyramid in space: normal and cone only) with
//               rho_c = l_c / s_c, against s_c;
// open contacts carry no impulse (exactly 0); `active` is (F10)'s verdict; bilateral rows
// |A_b qdot+| <= tol s_i; the balance M (qdot+ - qdot) - i_u = A_b^T lambda_b + A_u^T lambda_u +
// A_t^T lambda_t per coordinate. The scales are those of the frictionless certificate
// (mechanics/certificate.hpp): s_i of each row (its terms' magnitudes), s_c = max over the
// contact's rows, l_c = F / max_{i in c, j} |A_ij| (the impulse that moves the balance by its
// largest coordinate scale F), so that rho_c u has the units of r and the normal test is the
// frictionless min(u_N / s_c, r_N / l_c). tol = certificate_tolerance (1e-6 double, 1e-3 float).
// Cost O(n^2 + n m) (m = m_b + dim m_u rows), with n entries of scratch.
#pragma once

#include "obliq/core/friction/certificate.hpp"
#include "obliq/core/friction/setup.hpp"
#include "obliq/core/mechanics/certificate.hpp"

namespace obliq::friction {

namespace detail {
// The rows of a frictional answer's impulse: A_b, A_u (multipliers lambda), then A_t (lambda_t).
template <class T> struct FrictionRows {
  const ScenarioView<T>& in;
  const FrictionView<T>& fr;
  VecView<const T> lambda, lambda_t;
  OBLIQ_HD int count() const { return in.m_b + in.m_u + fr.A_t.rows; }
  OBLIQ_HD VecView<const T> row(int i) const {
    const int u = in.m_b + in.m_u;
    return i < in.m_b ? in.A_b.row(i) : i < u ? in.A_u.row(i - in.m_b) : fr.A_t.row(i - u);
  }
  OBLIQ_HD T mult(int i) const {
    const int u = in.m_b + in.m_u;
    return i < u ? lambda[i] : lambda_t[i - u];
  }
};
}  // namespace detail

// The certificate residual (the largest violation / scale; +Inf for a broken rule or a NaN) of a
// frictional impact answer. free: n entries of scratch.
template <class T>
OBLIQ_HD T impact_answer_certificate(const ScenarioView<T>& in, const FrictionView<T>& fr, VecView<const T> qdot_plus,
                                     VecView<const T> lambda, VecView<const std::uint8_t> active,
                                     VecView<const T> lambda_t, VecView<T> free) {
  using obliq::detail::cert_ratio;
  const int m_b = in.m_b, m_u = in.m_u, d = fr.dim, t = d - 1;
  const T inf = T(1) / T(0);
  if (!dense::all_finite(qdot_plus) || !dense::all_finite(lambda) || !dense::all_finite(lambda_t)) return inf;
  // The contacts of the impact (F10); open ones carry nothing.
  for (int i = 0; i < m_u; ++i) {
    const bool c = is_closed(in, i);
    if ((active[i] != 0) != c) return inf;
    if (c) continue;
    if (lambda[m_b + i] != T(0)) return inf;
    for (int j = 0; j < t; ++j)
      if (lambda_t[t * i + j] != T(0)) return inf;
  }
  // Balance and the shared scales (mechanics/certificate.hpp, with the tangent rows).
  const detail::FrictionRows<T> R{in, fr, lambda, lambda_t};
  const T zero = T(0);
  const VecView<const T> none{&zero, in.n, 0};
  const VecView<const T> x = qdot_plus, x0 = in.qdot;
  const T rho = rounding_floor_over_tol(certificate_tolerance<T>::rel);
  const T G = obliq::detail::largest_row_impulse<T>(R);
  const T xfloor = max_(dense::max_abs(x), dense::max_abs(x0)) * rho;
  T F = T(0);
  T worst = obliq::detail::balance_residual(in, x, x0, in.i_u, none, R, rho, G, xfloor, F);
  for (int j = 0; j < in.n; ++j) free[j] = obliq::detail::free_motion(in, in.i_u, none, R, rho, j);
  const auto fj = [&](int j) { return free[j]; };
  // Row a's velocity with the restitution term e a qdot (e = 0: none), and its scale.
  const auto velocity = [&](VecView<const T> a, T e, T& u, T& s) {
    T v = T(0), mag = T(0);
    if (e != T(0))
      for (int j = 0; j < in.n; ++j) v += a[j] * in.qdot[j], mag += abs_(a[j] * in.qdot[j]);
    obliq::detail::row_slack(a, x, x0, fj, xfloor, -e * v, e * mag, u, s);
  };
  for (int i = 0; i < m_b; ++i) {
    T u, s;
    velocity(in.A_b.row(i), T(0), u, s);
    worst = max_(worst, cert_ratio(abs_(u), s));
  }
  const bool faceted = fr.formulation == Formulation::pyramid && d == 3;
  for (int i = 0; i < m_u; ++i) {
    if (!is_closed(in, i)) continue;
    // Newton restitution on the candidates (approaching or resting, (F9)); target 0 on the
    // contacts that separate before the impact (F10).
    const bool candidate = is_impact_candidate(in, i);
    T r[3], u[3], s[3];
    velocity(in.A_u.row(i), candidate ? in.e[i] : T(0), u[0], s[0]);
    r[0] = lambda[m_b + i];
    T sc = s[0], amax = dense::max_abs(in.A_u.row(i));
    for (int j = 0; j < t; ++j) {
      const VecView<const T> a = fr.A_t.row(t * i + j);
      velocity(a, candidate && fr.e_t.data != nullptr ? fr.e_t[i] : T(0), u[1 + j], s[1 + j]);
      r[1 + j] = lambda_t[t * i + j];
      sc = max_(sc, s[1 + j]);
      amax = max_(amax, dense::max_abs(a));
    }
    worst = max_(worst, cert_ratio(-u[0], s[0]));
    const T l = F / amax, rc = l / sc;  // rho_c: impulse per velocity at the answer's scales
    T nat;
    const T rho_c = rc > T(0) && rc < inf ? rc : T(1);
    const T res = contact_residual<T>(r, u, d, fr.mu[i], rho_c, sc, static_cast<const T*>(nullptr), nat, faceted);
    worst = max_(worst, cert_ratio(res, sc));
  }
  return worst;
}

}  // namespace obliq::friction

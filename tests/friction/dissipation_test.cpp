// tests/friction/dissipation_test.cpp: the maximal-dissipation residual of the certificate
// (docs/friction.md (F5)) accepts the exact answer rounded to the working precision, also on a
// slowly sliding contact whose slip direction is known only to eps s_c / |u_T|, and still rejects
// answers perturbed beyond rounding: a wrong slip direction, a tangential reaction inside the cone
// while sliding, a reversed one. Double and float.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "obliq/core/friction/certificate.hpp"
#include "obliq/core/friction/cone_solver.hpp"

namespace {

using obliq::Status;
namespace fr = obliq::friction;

// A contact-space problem (W row-major, q, mu) in precision T.
template <class T> struct Data {
  int nc = 0, dim = 3;
  std::vector<T> W, q, mu;
  fr::Problem<T> view() const {
    const int m = nc * dim;
    fr::Problem<T> p;
    p.nc = nc;
    p.dim = dim;
    p.W = obliq::MatView<const T>{W.data(), m, m, m, 1};
    p.q = obliq::VecView<const T>{q.data(), m, 1};
    p.mu = obliq::VecView<const T>{mu.data(), nc, 1};
    return p;
  }
  template <class S> Data<S> as() const {
    return {nc, dim, std::vector<S>(W.begin(), W.end()), std::vector<S>(q.begin(), q.end()),
            std::vector<S>(mu.begin(), mu.end())};
  }
};

template <class T> fr::Report<T> certify(const Data<T>& d, const std::vector<T>& r) {
  std::vector<T> u(r.size());
  fr::Report<T> rep;
  rep.status = fr::certify(d.view(), obliq::VecView<const T>{r.data(), int(r.size()), 1},
                           obliq::VecView<T>{u.data(), int(u.size()), 1}, rep);
  return rep;
}

template <class T> fr::Report<T> solve(const Data<T>& d, std::vector<T>& r) {
  const int m = d.nc * d.dim;
  std::vector<T> u(m), buf(fr::cone_workspace<T>(m, d.dim) + 64);
  r.assign(m, T(0));
  obliq::Arena<T> a{buf.data(), buf.size()};
  return fr::solve_cone(d.view(), obliq::VecView<T>{r.data(), m, 1}, obliq::VecView<T>{u.data(), m, 1}, a);
}

// The exact answer of the T problem rounded to T: solved in double on the same (T) data.
template <class T> std::vector<T> rounded_exact(const Data<T>& d) {
  std::vector<double> r;
  EXPECT_EQ(solve(d.template as<double>(), r).status, Status::ok);
  return std::vector<T>(r.begin(), r.end());
}

// The scale s_c of a one-contact problem (docs/friction.md (F5)).
template <class T> double contact_scale(const Data<T>& d, const std::vector<T>& r) {
  double qm = 0, wm = 0, rm = 0;
  for (T x : d.q) qm = std::max(qm, std::abs(double(x)));
  for (T x : d.W) wm = std::max(wm, std::abs(double(x)));
  for (T x : r) rm = std::max(rm, std::abs(double(x)));
  return std::max(qm, wm * rm);
}

// One contact sliding at |u_T| = slip * (its scale) with r = (1, -mu u_T / |u_T|): q = u - W r.
template <class T> Data<T> sliding_contact(double slip) {
  const double W[9] = {2.0, 0.3, -0.2, 0.3, 1.5, 0.4, -0.2, 0.4, 1.2}, mu = 0.8, phi = 0.7;
  const double r[3] = {1.0, -mu * std::cos(phi), -mu * std::sin(phi)};
  double s = 0;  // the scale: max |W_ij| max |r_j| (|q| is of the same size)
  for (double w : W) s = std::max(s, std::abs(w));
  const double u[3] = {0.0, slip * s * std::cos(phi), slip * s * std::sin(phi)};
  Data<T> d;
  d.nc = 1;
  d.mu = {T(mu)};
  for (double w : W) d.W.push_back(T(w));
  for (int i = 0; i < 3; ++i) d.q.push_back(T(u[i] - (W[3 * i] * r[0] + W[3 * i + 1] * r[1] + W[3 * i + 2] * r[2])));
  return d;
}

// r with its tangential reaction turned by theta and scaled by alpha.
template <class T> std::vector<T> turned(std::vector<T> r, double theta, double alpha) {
  const double x = r[1], y = r[2];
  r[1] = T(alpha * (std::cos(theta) * x - std::sin(theta) * y));
  r[2] = T(alpha * (std::sin(theta) * x + std::cos(theta) * y));
  return r;
}

template <class T> void slow_slips(const std::vector<double>& slips) {
  const double tol = fr::tolerance<T>::rel, eps = obliq::scalar_traits<T>::eps;
  for (const double slip : slips) {
    const Data<T> d = sliding_contact<T>(slip);
    const std::vector<T> r = rounded_exact(d);
    const double s = contact_scale(d, r), rt = std::hypot(double(r[1]), double(r[2]));
    const fr::Report<T> exact = certify(d, r);
    EXPECT_EQ(exact.status, Status::ok) << "slip " << slip << " residual " << exact.residual;
    // Within rounding: the tangential reaction turned by 8 ulps, or shrunk by 8 ulps.
    EXPECT_EQ(certify(d, turned(r, 8 * eps, 1.0)).status, Status::ok) << "slip " << slip;
    EXPECT_EQ(certify(d, turned(r, 0.0, 1 - 8 * eps)).status, Status::ok) << "slip " << slip;
    // Beyond it: the reaction moved by 100 tol of its size: turned, shrunk into the cone, reversed.
    const double wrong = 100 * tol;
    const fr::Report<T> turn = certify(d, turned(r, wrong, 1.0)), shrink = certify(d, turned(r, 0.0, 1 - wrong)),
                        reverse = certify(d, turned(r, M_PI, 1.0));
    EXPECT_NE(turn.status, Status::ok) << "slip " << slip << " turned, residual " << turn.residual;
    EXPECT_NE(shrink.status, Status::ok) << "slip " << slip << " inside the cone, residual " << shrink.residual;
    EXPECT_NE(reverse.status, Status::ok) << "slip " << slip << " reversed, residual " << reverse.residual;
    std::printf("%s slip %.0e s_c (|r_T| %.3g): rounded exact %.2g, turned %.2g, inside %.2g, reversed %.2g\n",
                sizeof(T) == 4 ? "float " : "double", slip, rt, double(exact.residual), double(turn.residual),
                double(shrink.residual), double(reverse.residual));
  }
}

TEST(DissipationCertificate, SlowSlipsInDouble) { slow_slips<double>({1e-1, 1e-3, 1e-5, 1e-7, 1e-8, 1e-9, 1e-11}); }

// In float the former residual, min(|u_T|, |r_T + mu r_N u_T / |u_T|| / rho), reached
// sqrt(eps) = 3.5e-4 of the scale from rounding alone near |u_T| = 3.5e-4 s_c (above tol = 1e-4).
TEST(DissipationCertificate, SlowSlipsInFloat) { slow_slips<float>({1e-1, 1e-2, 1e-3, 3e-4, 1e-4, 3e-5, 1e-5, 1e-6}); }

// Two float contact problems of the quadruped (Moreau-Jean, h = 5 ms, mu = 0.8, random PD
// torques; 2026-12-03) with one foot sliding at 1e-4 to 2.5e-4 of its scale: the float solver
// stopped with the former dissipation residual at 1.8e-4 and 1.5e-4 (above tol = 1e-4) and the
// exact answer rounded to float failed it too (1.8e-4). Both are certified now, by the float solver
// and as the rounded exact answer; the rounded answer is not a double answer (its rounding exceeds
// double's tolerance) and the double certificate still rejects it.
TEST(DissipationCertificate, QuadrupedSlowSlipsInFloat) {
  const Data<float> two{2,
                        3,
                        {3.05063534f,    2.32568145f,    -2.25393701f,  0.0278318711f,  -0.00218912214f, 0.0121960733f,
                         2.32568145f,    5.00153399f,    -1.6306926f,   -0.0221576206f, 0.00696445769f,  -0.00353446743f,
                         -2.25393701f,   -1.6306926f,    6.83067274f,   0.0275122523f,  -0.00546495989f, 0.0155467913f,
                         0.0278318711f,  -0.0221576206f, 0.0275122523f, 3.06300712f,    1.92189622f,     0.714209318f,
                         -0.00218912214f, 0.00696445769f, -0.00546495989f, 1.92189622f, 5.73542023f,     -3.20163536f,
                         0.0121960733f,  -0.00353446743f, 0.0155467913f, 0.714209318f,  -3.20163536f,    6.47035789f},
                        {-3.33308387f, -4.51890326f, 1.59191418f, -3.12370253f, -2.20845127f, 3.44706202f},
                        {0.8f, 0.8f}};
  const Data<float> one{1,
                        3,
                        {7.73992062f, 3.07024717f, 0.336508811f, 3.07024717f, 3.07693458f, 0.0482459478f, 0.336508811f,
                         0.0482459478f, 5.0157032f},
                        {-5.80772114f, -0.769438267f, -1.55362606f},
                        {0.8f}};
  for (const Data<float>* d : {&two, &one}) {
    std::vector<float> r;
    const fr::Report<float> solved = solve(*d, r);
    EXPECT_EQ(solved.status, Status::ok) << "residual " << solved.residual;
    const std::vector<float> rounded = rounded_exact(*d);
    const fr::Report<float> exact = certify(*d, rounded);
    EXPECT_EQ(exact.status, Status::ok) << "residual " << exact.residual;
    const std::vector<double> widened(rounded.begin(), rounded.end());
    const fr::Report<double> in_double = certify(d->as<double>(), widened);
    EXPECT_NE(in_double.status, Status::ok);
    std::printf("quadruped, %d contacts: float solver %.2g (%s), rounded exact %.2g; in double %.2g\n", d->nc,
                double(solved.residual), fr::method_name(solved.method), double(exact.residual), in_double.residual);
  }
}

}  // namespace

// tests/lcp/scaling_test.cpp: LCPs whose rows or columns differ in scale by up to 600 orders
// (core/lcp/scaling.hpp, docs/lcp.md (L1)-(L4)). Every problem is built with its solution known:
// a positive definite M0 with z*, w* >= 0 complementary and q0 = w* - M0 z* (unique solution),
// then M = E M0 D, q = E q0 with decimal (not power-of-two) factors, whose solution is
// z = D^-1 z*, w = E w*. The answers are compared with that, component by component in each
// column's own unit, never with anything the solvers compute.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "obliq/core/lcp/select.hpp"

namespace {

using obliq::Arena;
using obliq::MatView;
using obliq::Status;
using obliq::VecView;
using obliq::lcp::Solver;

// A scaled problem with its known solution (row-major M).
template <class T> struct Known {
  int m;
  std::vector<T> M, q;
  std::vector<double> z, w;  // the exact solution of the problem as stated (before rounding M, q to T)
  std::vector<double> d;     // column factors (the unit of z_j is 1 / d_j)
};

// M0 = B B^T + I (symmetric positive definite), z* > 0 on the even rows, w* > 0 on the odd ones.
template <class T> Known<T> known(int m, const std::vector<double>& e, const std::vector<double>& d, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1), pos(0.5, 2);
  std::vector<double> B(static_cast<std::size_t>(m * m)), M0(static_cast<std::size_t>(m * m)), zs(static_cast<std::size_t>(m)), ws(static_cast<std::size_t>(m));
  for (auto& x : B) x = u(rng);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) {
      double s = i == j ? 1.0 : 0.0;
      for (int k = 0; k < m; ++k) s += B[std::size_t(i * m + k)] * B[std::size_t(j * m + k)];
      M0[std::size_t(i * m + j)] = s;
    }
  for (int i = 0; i < m; ++i) (i % 2 == 0 ? zs : ws)[std::size_t(i)] = pos(rng);
  Known<T> k{m, std::vector<T>(static_cast<std::size_t>(m * m)), std::vector<T>(static_cast<std::size_t>(m)), std::vector<double>(static_cast<std::size_t>(m)),
             std::vector<double>(static_cast<std::size_t>(m)), d};
  for (int i = 0; i < m; ++i) {
    double q0 = ws[std::size_t(i)];
    for (int j = 0; j < m; ++j) q0 -= M0[std::size_t(i * m + j)] * zs[std::size_t(j)];
    k.q[std::size_t(i)] = T(e[std::size_t(i)] * q0);
    for (int j = 0; j < m; ++j) k.M[std::size_t(i * m + j)] = T(e[std::size_t(i)] * M0[std::size_t(i * m + j)] * d[std::size_t(j)]);
    k.z[std::size_t(i)] = zs[std::size_t(i)] / d[std::size_t(i)];
    k.w[std::size_t(i)] = e[std::size_t(i)] * ws[std::size_t(i)];
  }
  return k;
}

template <class T> MatView<const T> mv(const Known<T>& k) { return {k.M.data(), k.m, k.m, k.m, 1}; }
template <class T> VecView<const T> qv(const Known<T>& k) { return {k.q.data(), k.m, 1}; }

template <class T> struct Solved {
  obliq::lcp::Result<T> r;
  std::vector<T> z;
};

template <class T> Solved<T> run(const Known<T>& k, Solver s) {
  const int m = k.m;
  std::vector<T> z(static_cast<std::size_t>(m)), w(static_cast<std::size_t>(m)), scratch(obliq::lcp::solve_workspace<T>(m) + 1);
  Arena<T> a{scratch.data(), scratch.size() - 1};
  scratch.back() = T(12345);  // guard: the solver stays inside its (grown) workspace
  const auto r = obliq::lcp::solve<T>(mv(k), qv(k), {z.data(), m, 1}, {w.data(), m, 1}, a, s);
  EXPECT_EQ(scratch.back(), T(12345));
  EXPECT_EQ(a.used, 0u);
  return {r, z};
}

// Each z_j against the known one in its column's unit (d_j z_j against d_j z*_j, both O(1)).
template <class T> void expect_known(const Known<T>& k, const std::vector<T>& z, double tol, const std::string& what) {
  for (int j = 0; j < k.m; ++j)
    EXPECT_NEAR(double(z[std::size_t(j)]) * k.d[std::size_t(j)], k.z[std::size_t(j)] * k.d[std::size_t(j)], tol)
        << what << " j=" << j;
}

template <class T> class LcpScaling : public ::testing::Test {};
using Scalars = ::testing::Types<double, float>;
TYPED_TEST_SUITE(LcpScaling, Scalars);

// The largest decimal exponent a test may put on one side (double 1e300, float 1e30).
template <class T> constexpr int big_exponent() { return std::is_same_v<T, double> ? 300 : 30; }

std::vector<double> mixed_scales(int m, int big, int salt) {
  // 1e-big .. 1e+big mixed with O(1) rows: 1e-big, 1, 1e+big, 3.7, 1e-big/2, ...
  const double pattern[] = {std::pow(10.0, -big), 1.0, std::pow(10.0, big), 3.7, std::pow(10.0, big / 2),
                            std::pow(10.0, -big / 3), 0.25, std::pow(10.0, big) / 7};
  std::vector<double> f(static_cast<std::size_t>(m));
  for (int i = 0; i < m; ++i) f[std::size_t(i)] = pattern[(i + salt) % 8];
  return f;
}

// Rows 1e-300 .. 1e300 (float: 1e-30 .. 1e30) among O(1) rows: every exact solver and auto give
// the known solution with an ok certified on the original data; PGS too (its sweep is invariant
// under row scaling). The unscaled twin is solved as well, as a control.
TYPED_TEST(LcpScaling, RowScalesFromTinyToHugeAllSolvers) {
  using T = TypeParam;
  const double tol = std::is_same_v<T, double> ? 1e-9 : 2e-3;
  for (int m : {2, 5, 8}) {
    for (int salt = 0; salt < 3; ++salt) {
      const Known<T> k = known<T>(m, mixed_scales(m, big_exponent<T>(), salt), std::vector<double>(std::size_t(m), 1.0),
                                  unsigned(100 * m + salt));
      for (Solver s : {Solver::lemke, Solver::pivot, Solver::enumerate, Solver::automatic, Solver::pgs}) {
        const std::string what = std::string(obliq::lcp::solver_name(s)) + " m=" + std::to_string(m) +
                                 " salt=" + std::to_string(salt);
        const Solved<T> r = run(k, s);
        ASSERT_EQ(r.r.status, Status::ok) << what;
        // PGS stops at the certificate's tolerance, not at the exact answer: its z is known to
        // tol_T times the conditioning of M0 (below 1e2 here).
        expect_known(k, r.z, s == Solver::pgs && std::is_same_v<T, double> ? 1e-6 : tol, what);
        EXPECT_TRUE(obliq::lcp::lcp_accept<T>(mv(k), qv(k), {r.z.data(), m, 1})) << what;
      }
    }
  }
}

// Columns 1e-300 .. 1e300 (the units of the z_j), and rows and columns 1e+-150 together:
// Lemke, principal pivoting, enumeration and auto give the known solution.
TYPED_TEST(LcpScaling, ColumnAndMixedScalesExactSolvers) {
  using T = TypeParam;
  const double tol = std::is_same_v<T, double> ? 1e-9 : 2e-3;
  const int big = big_exponent<T>();
  for (int m : {2, 5, 8}) {
    for (int variant = 0; variant < 2; ++variant) {
      const std::vector<double> ones(std::size_t(m), 1.0);
      const std::vector<double> e = variant == 0 ? ones : mixed_scales(m, big / 2, 1);
      const std::vector<double> d = variant == 0 ? mixed_scales(m, big, 2) : mixed_scales(m, big / 2, 5);
      const Known<T> k = known<T>(m, e, d, unsigned(7 * m + variant));
      for (Solver s : {Solver::lemke, Solver::pivot, Solver::enumerate, Solver::automatic}) {
        const std::string what = std::string(obliq::lcp::solver_name(s)) + " m=" + std::to_string(m) +
                                 " variant=" + std::to_string(variant);
        const Solved<T> r = run(k, s);
        ASSERT_EQ(r.r.status, Status::ok) << what;
        expect_known(k, r.z, tol, what);
      }
    }
  }
}

// The certificate on such data rejects wrong answers: the known z with one pushing row dropped
// (its w_i = E_i (w* - M0 z*)_i... < 0 by O(its scale)) or one separating row pushing; with
// column scales, judged in the columns' units (here the test's own factors d).
TYPED_TEST(LcpScaling, CertificateRejectsWrongAnswersOnScaledData) {
  using T = TypeParam;
  const int m = 6, big = big_exponent<T>();
  const std::vector<double> ones(std::size_t(m), 1.0);
  for (int variant = 0; variant < 2; ++variant) {
    const std::vector<double> d = variant == 0 ? ones : mixed_scales(m, big, 3);
    const Known<T> k = known<T>(m, variant == 0 ? mixed_scales(m, big, 0) : ones, d, 99u + unsigned(variant));
    std::vector<T> unit(static_cast<std::size_t>(m));
    for (int j = 0; j < m; ++j) unit[std::size_t(j)] = T(1 / d[std::size_t(j)]);
    const auto cert = [&](const std::vector<T>& z) {
      return obliq::lcp::lcp_certificate_in_units<T>(mv(k), qv(k), {z.data(), m, 1}, {unit.data(), m, 1});
    };
    std::vector<T> z(static_cast<std::size_t>(m));
    for (int j = 0; j < m; ++j) z[std::size_t(j)] = T(k.z[std::size_t(j)]);
    EXPECT_LE(cert(z), obliq::lcp::lcp_tolerance<T>::rel) << variant;  // the exact answer, rounded
    for (int i = 0; i < m; ++i) {
      std::vector<T> bad = z;
      bad[std::size_t(i)] = i % 2 == 0 ? T(0) : T(0.5 / d[std::size_t(i)]);  // drop a push / push a separating row
      EXPECT_GT(cert(bad), T(1e-3)) << "variant " << variant << " row " << i;
    }
  }
}

// The reported reproducers and their q-scaled and column-scaled relatives, in the core: every
// exact solver returns the solution, ok; none claims infeasibility or answers with w_i < 0.
TYPED_TEST(LcpScaling, Reproducers) {
  using T = TypeParam;
  const T big = std::is_same_v<T, double> ? T(1e300) : T(1e30), tiny = std::is_same_v<T, double> ? T(1e-200) : T(1e-20);
  struct Case {
    std::vector<T> M, q;
    std::vector<double> z;
  };
  const std::vector<Case> cases = {
      {{big, 0, 0, 1}, {-big, -1}, {1, 1}},
      {{tiny, 0, 0, 1}, {-tiny, -1}, {1, 1}},
      {{1, 0, 0, 1}, {-big, -1}, {double(big), 1}},        // one row's q 1e300 times the other's
      {{1 / big, 0, 0, 1}, {-1, -1}, {double(big), 1}},    // a column of 1e-300: z_1 = 1e300
  };
  for (std::size_t c = 0; c < cases.size(); ++c) {
    const Case& k = cases[c];
    for (Solver s : {Solver::lemke, Solver::pivot, Solver::enumerate, Solver::automatic}) {
      std::vector<T> z(2), w(2), scratch(obliq::lcp::solve_workspace<T>(2));
      Arena<T> a{scratch.data(), scratch.size()};
      const auto r = obliq::lcp::solve<T>({k.M.data(), 2, 2, 2, 1}, {k.q.data(), 2, 1}, {z.data(), 2, 1},
                                          {w.data(), 2, 1}, a, s);
      const std::string what = std::string(obliq::lcp::solver_name(s)) + " case " + std::to_string(c);
      ASSERT_EQ(r.status, Status::ok) << what;
      for (int j = 0; j < 2; ++j)
        EXPECT_NEAR(double(z[std::size_t(j)]) / k.z[std::size_t(j)], 1.0, 1e-6) << what << " j=" << j;
    }
  }
}

// Equilibration applies only beyond the gate (L4): a problem whose rows and columns spread by
// 2^26 (float 2^12) or less is solved as given, bit for bit; one step beyond, the factors apply.
TEST(LcpScaling, GateIsHalfTheMantissa) {
  const double inside = std::ldexp(1.0, 26), outside = std::ldexp(1.0, 27);
  const std::vector<double> a{inside, 0, 0, 1}, b{outside, 0, 0, 1}, q{-1, -1}, qbig{-outside, -1}, eye{1, 0, 0, 1};
  EXPECT_FALSE(obliq::lcp::needs_equilibration<double>({a.data(), 2, 2, 2, 1}, {q.data(), 2, 1}));
  EXPECT_TRUE(obliq::lcp::needs_equilibration<double>({b.data(), 2, 2, 2, 1}, {q.data(), 2, 1}));
  EXPECT_TRUE(obliq::lcp::needs_equilibration<double>({eye.data(), 2, 2, 2, 1}, {qbig.data(), 2, 1}));  // rows of [M q]
  const std::vector<float> fa{4096.f, 0, 0, 1}, fb{8192.f, 0, 0, 1}, fq{-1, -1};
  EXPECT_FALSE(obliq::lcp::needs_equilibration<float>({fa.data(), 2, 2, 2, 1}, {fq.data(), 2, 1}));
  EXPECT_TRUE(obliq::lcp::needs_equilibration<float>({fb.data(), 2, 2, 2, 1}, {fq.data(), 2, 1}));
}

// Warm start on a widely scaled problem: its own active set answers it with 0 pivots.
TEST(LcpScaling, WarmStartOnScaledRows) {
  const Known<double> k = known<double>(5, mixed_scales(5, 300, 0), std::vector<double>(5, 1.0), 5u);
  std::vector<double> z(5), w(5), scratch(obliq::lcp::solve_workspace<double>(5));
  Arena<double> a{scratch.data(), scratch.size()};
  const int active[] = {0, 2, 4};
  bool hit = false;
  const auto r = obliq::lcp::solve_warm<double>(mv(k), qv(k), {z.data(), 5, 1}, {w.data(), 5, 1}, a, Solver::lemke,
                                                active, 3, &hit);
  ASSERT_EQ(r.status, Status::ok);
  EXPECT_TRUE(hit);
  EXPECT_EQ(r.iterations, 0);
  expect_known(k, z, 1e-9, "warm");
}

// (L5), with scripted solvers, so that each branch is reached on purpose: the solve is handed the
// equilibrated problem first (recognised by its data pointer differing from the caller's M).
// A solver that fails on the scaled problem and answers the problem as given correctly is
// taken; one that answers the problem as given wrongly ("ok" claimed for a z the certificate
// rejects) leaves the scaled verdict, with its z; a solver that succeeds scaled is called once.
TEST(LcpScaling, ProblemAsGivenSolvedAgainWhenEquilibratedFails) {
  using obliq::lcp::Result;
  const std::vector<double> M{1e300, 0, 0, 1}, q{-1e300, -1};  // z = (1, 1)
  const MatView<const double> Mv{M.data(), 2, 2, 2, 1};
  const VecView<const double> qv2{q.data(), 2, 1};
  ASSERT_TRUE(obliq::lcp::needs_equilibration<double>(Mv, qv2));
  std::vector<double> scratch(obliq::lcp::equilibration_workspace<double>(2) + 8);
  struct Script {
    Status scaled;        // what the solver says of the equilibrated problem
    bool given_right;     // the as-given call writes the true z (else a wrong one, claimed ok)
    Status want;          // the returned status
    std::vector<double> want_z;
    int want_calls;
  };
  const std::vector<Script> scripts = {
      {Status::infeasible, true, Status::ok, {1, 1}, 2},
      {Status::no_convergence, true, Status::ok, {1, 1}, 2},
      {Status::infeasible, false, Status::infeasible, {0.25, 0.25}, 2},  // the scaled z is kept
      {Status::ok, true, Status::ok, {1, 1}, 1},                          // scaled success: one call
  };
  for (std::size_t c = 0; c < scripts.size(); ++c) {
    const Script& sc = scripts[c];
    int calls = 0;
    auto solver = [&](MatView<const double> A, VecView<const double> b, VecView<double> z, VecView<double> w,
                      Arena<double>&) {
      ++calls;
      const bool scaled = A.data != M.data();
      Result<double> r{Status::ok, 1, 0.0};
      if (scaled) {
        // The scaled unknowns: z' = 2^c D^-1 z; answer the true one on success, a marker on failure.
        r.status = sc.scaled;
        for (int i = 0; i < 2; ++i) z[i] = sc.scaled == Status::ok ? -b[i] / A(i, i) : 0.25 * -b[i] / A(i, i);
      } else {
        for (int i = 0; i < 2; ++i) z[i] = sc.given_right ? 1.0 : 2.0;
      }
      for (int i = 0; i < 2; ++i) w[i] = A(i, 0) * z[0] + A(i, 1) * z[1] + b[i];
      return r;
    };
    std::vector<double> z(2), w(2);
    Arena<double> a{scratch.data(), scratch.size()};
    const auto r = obliq::lcp::solve_equilibrated<double>(Mv, qv2, {z.data(), 2, 1}, {w.data(), 2, 1}, a, solver);
    EXPECT_EQ(r.status, sc.want) << "script " << c;
    EXPECT_EQ(calls, sc.want_calls) << "script " << c;
    EXPECT_EQ(a.used, 0u) << "script " << c;
    for (int j = 0; j < 2; ++j) EXPECT_NEAR(z[std::size_t(j)], sc.want_z[std::size_t(j)], 1e-12) << "script " << c << " j=" << j;
    // w is the original problem's w = M z + q for the returned z, in each row's own scale.
    EXPECT_NEAR(w[0] / 1e300, z[0] - 1.0, 1e-12) << "script " << c;
    EXPECT_NEAR(w[1], z[1] - 1.0, 1e-12) << "script " << c;
  }
}

}  // namespace

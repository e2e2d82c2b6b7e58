// The core's input checks (include/obliq/core/mechanics/validate.hpp, one pass over M) against
// the reference's (src/reference/validate.cpp, written independently), entry by entry of M:
// a NaN or an infinity anywhere (lower or upper triangle, diagonal), an asymmetry just above or
// just below the tolerance at every position, and the order of the statuses (docs/format.md).
#include <gtest/gtest.h>

#include <limits>
#include <random>

#include "obliq/reference.hpp"
#include "support/core_runner.hpp"

using namespace obliq;

namespace {

Scenario spd_scenario(int n) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> N;
  Scenario s = Scenario::zeros({n, 1, 2});
  Eigen::MatrixXd B(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) B(i, j) = N(rng);
  s.M = B * B.transpose() + n * Eigen::MatrixXd::Identity(n, n);
  s.M = (s.M + s.M.transpose()).eval() / 2;
  for (int j = 0; j < n; ++j) s.A_b(0, j) = N(rng), s.A_u(0, j) = N(rng), s.A_u(1, j) = N(rng);
  s.e << 0.5, 1.0;
  return s;
}

Status core_validate(const Scenario& s, bool dynamics) {
  test::CoreScenario<double> c(s);
  return validate(c.view, dynamics);
}

}  // namespace

TEST(CoreValidate, EveryEntryOfMAgreesWithTheReference) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const int n = 5;
  const Scenario good = spd_scenario(n);
  ASSERT_EQ(reference::validate(good), Status::ok);
  const double big = good.M.cwiseAbs().maxCoeff();
  int checked = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      for (double v : {nan, inf, -inf, 3e-12 * big, 0.5e-12 * big}) {
        Scenario s = good;
        if (v == v && v < 1) s.M(i, j) += v;  // an asymmetry (or, on the diagonal, a change) of v
        else s.M(i, j) = v;
        const Status expected = reference::validate(s);
        if (v != v || v == inf || v == -inf) EXPECT_EQ(expected, Status::non_finite);
        if (i != j && v == 3e-12 * big) EXPECT_EQ(expected, Status::not_spd);
        if (v == 0.5e-12 * big) EXPECT_EQ(expected, Status::ok);
        for (bool dynamics : {false, true})
          EXPECT_EQ(core_validate(s, dynamics), expected) << "M(" << i << ", " << j << ") = " << s.M(i, j);
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 5 * n * n);
}

TEST(CoreValidate, StatusOrderAndExtremeAsymmetry) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Scenario s = spd_scenario(4);
  s.M(0, 3) = nan;  // non-finite before restitution and symmetry
  s.e(0) = 2;
  s.M(1, 2) += 1;
  EXPECT_EQ(core_validate(s, false), Status::non_finite);
  s.M(0, 3) = s.M(3, 0);  // then restitution before symmetry
  EXPECT_EQ(core_validate(s, false), Status::bad_restitution);
  EXPECT_EQ(core_validate(s, true), Status::not_spd);  // dynamics reads no restitution
  s.e(0) = 0.5;
  EXPECT_EQ(core_validate(s, false), Status::not_spd);
  // M_ij - M_ji overflows to infinity: still an asymmetry, never a non-finite input.
  s = spd_scenario(4);
  s.M(2, 1) = 1e308, s.M(1, 2) = -1e308;
  EXPECT_EQ(core_validate(s, false), Status::not_spd);
  EXPECT_EQ(reference::validate(s), Status::not_spd);
  // Float: a NaN in the upper triangle only.
  s = spd_scenario(4);
  s.M(0, 2) = nan;
  test::CoreScenario<float> c(s);
  EXPECT_EQ(validate(c.view, false), Status::non_finite);
}

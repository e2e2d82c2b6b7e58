// Issue 9's reproducers, exactly as filed, through the cpu backend (double and float) and the
// reference backend. Expected answers are worked out by hand (comments) or are closed forms.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "obliq/batch.hpp"

using namespace obliq;

namespace {

template <class T> ImpactResult impact_on(const Scenario& s, Backend b) {
  Batch<T> batch(s.shape(), 1);
  batch.set(0, s);
  ImpactResults<T> out;
  solve_impact(batch, out, {b, 1});
  return out.get(0);
}
template <class T> DynamicsResult dynamics_on(const Scenario& s, Backend b) {
  Batch<T> batch(s.shape(), 1);
  batch.set(0, s);
  DynamicsResults<T> out;
  solve_dynamics(batch, out, {b, 1});
  return out.get(0);
}

Eigen::VectorXd vec(std::initializer_list<double> x) {
  Eigen::VectorXd v(Eigen::Index(x.size()));
  Eigen::Index i = 0;
  for (double d : x) v(i++) = d;
  return v;
}

struct BackendRun {
  const char* name;
  Backend backend;
  bool single;  // float
  double tol;
};
const std::vector<BackendRun> runs = {{"cpu double", Backend::cpu, false, 1e-12},
                               {"cpu float", Backend::cpu, true, 1e-5},
                               {"reference", Backend::reference, false, 1e-12}};

ImpactResult impact_run(const Scenario& s, const BackendRun& r) {
  return r.single ? impact_on<float>(s, r.backend) : impact_on<double>(s, r.backend);
}
DynamicsResult dynamics_run(const Scenario& s, const BackendRun& r) {
  return r.single ? dynamics_on<float>(s, r.backend) : dynamics_on<double>(s, r.backend);
}

}  // namespace

// {"id":"min5","M":I3,"qdot":[0,0,0],"A_b":[[1,1,0]],"A_u":[[-0.5,-0.5,0]],"i_u":[-5,1,0]}
// v_f = M^-1 i_u = (-5, 1, 0); the bilateral row keeps v_1 + v_2 = 0, and the unilateral row
// (resting, e = 0), -0.5 (v_1 + v_2) >= 0, is then met with slack 0. v = the M-projection of v_f
// on v_1 + v_2 = 0: (-3, 3, 0), impulse (2, 2, 0). Multipliers: lambda_b - 0.5 lambda_u = 2 with
// lambda_u >= 0; the minimum-norm one (docs/math.md 7) is (2, 0).
TEST(Issue9, DependentRowsMin5) {
  Scenario s = Scenario::zeros({3, 1, 1});
  s.A_b << 1, 1, 0;
  s.A_u << -0.5, -0.5, 0;
  s.i_u = vec({-5, 1, 0});
  for (const BackendRun& r : runs) {
    const ImpactResult x = impact_run(s, r);
    ASSERT_EQ(x.status, Status::ok) << r.name << ": " << status_reason(x.status);
    EXPECT_LE((x.qdot_plus - vec({-3, 3, 0})).norm(), r.tol * 5) << r.name;
    EXPECT_LE((x.impulse - vec({2, 2, 0})).norm(), r.tol * 5) << r.name;
    EXPECT_LE((x.lambda - vec({2, 0})).norm(), r.tol * 5) << r.name;
  }
}

// {"id":"pinned","M":[[0.3]],"qdot":[-3],"A_b":[[3]],"A_u":[[1]],"e":0.5}: 3 v = 0 pins v = 0,
// and the unilateral row asks v >= -0.5 * (-3) = 1.5: infeasible. The same rows at the
// acceleration level (dynamics: resting, Adot_qdot = (0, -1.5), so qdd = 0 and qdd >= 1.5).
TEST(Issue9, PinnedIsInfeasible) {
  Scenario s = Scenario::zeros({1, 1, 1});
  s.M << 0.3;
  s.qdot << -3;
  s.A_b << 3;
  s.A_u << 1;
  s.e << 0.5;
  Scenario d = s;
  d.qdot << 0;
  d.Adot_qdot = vec({0, -1.5});
  for (const BackendRun& r : runs) {
    EXPECT_EQ(impact_run(s, r).status, Status::infeasible) << r.name;
    EXPECT_EQ(dynamics_run(d, r).status, Status::infeasible) << r.name;
  }
}

// {"id":"noise-resting", M = 2 I4, qdot = (0.30000000000000027, -1, 0.2, 0.1), A_u = (a; -2a),
// a = (1, 0.3, 0, 0), phi_u = 0, e = (0, 0.5)}: a qdot is 2.7e-16 (rounding), so both rows are
// resting, and their targets (0 and -0.5 * (-2 a qdot)) differ by rounding only. The answer is
// qdot_plus = qdot with no impulse, to rounding.
TEST(Issue9, NoiseRestingOpposingRows) {
  Scenario s = Scenario::zeros({4, 0, 2});
  s.M = 2 * Eigen::MatrixXd::Identity(4, 4);
  s.qdot = vec({0.30000000000000027, -1.0, 0.2, 0.1});
  s.A_u = Eigen::MatrixXd(2, 4);
  s.A_u << 1, 0.3, 0, 0, -2, -0.6, 0, 0;
  s.e = vec({0.0, 0.5});
  for (const BackendRun& r : runs) {
    if (r.single) continue;  // the rows and qdot as written are double-precision numbers
    const ImpactResult x = impact_run(s, r);
    ASSERT_EQ(x.status, Status::ok) << r.name << ": " << status_reason(x.status);
    EXPECT_LE((x.qdot_plus - s.qdot).norm(), 1e-14) << r.name;
    EXPECT_LE(x.impulse.norm(), 1e-14) << r.name;
  }
}

// The ball {"M":2 I3,"qdot":[1,0,-3],"A_u":[[0,0,S]],"e":0.5}: qdot_plus = (1, 0, 1.5), impulse
// (0, 0, 9) and lambda = 9 / S for every row scale S whose lambda is representable.
TEST(Issue9, BallAtEveryRowScale) {
  for (const BackendRun& r : runs) {
    const double lo = r.single ? 1e-30 : 1e-300, hi = r.single ? 1e30 : 1e300;
    for (double S = lo; S <= hi * 1.0001; S *= 1e5) {
      for (double sign : {1.0, 1.0 / 3.0}) {  // powers of ten and numbers that are not
        const double row = S * sign;
        Scenario s = Scenario::zeros({3, 0, 1});
        s.M = 2 * Eigen::Matrix3d::Identity();
        s.qdot = vec({1, 0, -3});
        s.A_u << 0, 0, row;
        s.e << 0.5;
        const ImpactResult x = impact_run(s, r);
        ASSERT_EQ(x.status, Status::ok) << r.name << " S = " << row << ": " << status_reason(x.status);
        EXPECT_LE((x.qdot_plus - vec({1, 0, 1.5})).norm(), 4 * r.tol) << r.name << " S = " << row;
        EXPECT_LE((x.impulse - vec({0, 0, 9})).norm(), 40 * r.tol) << r.name << " S = " << row;
        EXPECT_NEAR(x.lambda[0] * row, 9.0, 40 * r.tol) << r.name << " S = " << row;
      }
    }
  }
}

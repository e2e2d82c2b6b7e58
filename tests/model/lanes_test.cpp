// Lanes across states (core/lanes.hpp): evaluate_batch runs the model layer on lane_width<T>
// states at once; each lane must give its state's scalar result to the bit (the same operations
// in the same order), a lane that fails a check must leave its neighbours' results and give its
// own status, and the batch must not depend on the thread count. The oracle is evaluate(), the
// one-state scalar path, state by state.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "obliq/core/lanes.hpp"
#include "obliq/model/host.hpp"
#include "obliq/model/joint_impulses.hpp"
#include "obliq/model/kinematics.hpp"

using namespace obliq;
using namespace obliq::model;
using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

template <class T> bool same_bits(T a, T b) { return std::memcmp(&a, &b, sizeof(T)) == 0; }

template <class A, class B> int differing(const A& a, const B& b) {
  int bad = 0;
  for (Eigen::Index i = 0; i < a.size(); ++i) bad += !same_bits(a.data()[i], b.data()[i]);
  return bad;
}

// count random states of m (normalised quaternions), row per state.
void random_states(const Model& m, int count, std::mt19937& rng, RowMat<double>& Q, RowMat<double>& V) {
  std::normal_distribution<double> g(0, 1);
  Q.resize(count, m.nq);
  V.resize(count, m.nv);
  for (int s = 0; s < count; ++s) {
    for (int k = 0; k < m.nq; ++k) Q(s, k) = g(rng);
    for (int k = 0; k < m.nv; ++k) V(s, k) = g(rng);
    for (int i = 0; i < m.nbodies(); ++i)
      if (m.joint_type[i] == int(JointType::free_flyer)) Q.row(s).segment<4>(m.idx_q[i] + 3).normalize();
  }
}

// Batch scenario s against evaluate() of the same state: the number of entries that differ in
// any bit (M, h, rows, gaps, Adot qdot, qdot).
int scalar_mismatches(const Model& m, const RowMat<double>& Q, const RowMat<double>& V, const Batch<double>& b, int s) {
  Scenario one;
  EXPECT_EQ(evaluate(m, Q.row(s).transpose(), V.row(s).transpose(), one), Status::ok);
  return differing(MatrixXd(b.M_of(s)), one.M) + differing(VectorXd(b.h_of(s)), one.h) +
         differing(MatrixXd(b.A_u_of(s)), one.A_u) + differing(MatrixXd(b.A_b_of(s)), one.A_b) +
         differing(VectorXd(b.phi_u_of(s)), one.phi_u) + differing(VectorXd(b.Adot_qdot_of(s)), one.Adot_qdot) +
         differing(VectorXd(b.qdot_of(s)), one.qdot);
}

}  // namespace

TEST(Lanes, MasksAreEveryLaneAndMathIsLaneByLane) {
  using L = Lanes<double, 4>;
  L a = 0.0, b = 1.0;
  a.set(2, 3.0);
  EXPECT_FALSE(bool(a < b));   // lane 2 is not below
  EXPECT_TRUE(!(a < b));       // "not every lane": a scalar check's rejection
  EXPECT_TRUE(bool(a < 4.0));
  a.set(1, -2.0);
  const L m = max_(a, b), n = min_(a, b), abs = abs_(a);
  EXPECT_EQ(m[0], 1.0);
  EXPECT_EQ(m[2], 3.0);
  EXPECT_EQ(n[1], -2.0);
  EXPECT_EQ(abs[1], 2.0);
  const L s = sqrt(L(2.0)), c = cos(a);
  EXPECT_TRUE(same_bits(s[3], std::sqrt(2.0)));
  EXPECT_TRUE(same_bits(c[2], std::cos(3.0)));
  L x = 1.0;
  x.set(3, std::nan(""));
  EXPECT_FALSE(finite_(x));  // the model layer's check fails when one lane is not finite
  EXPECT_TRUE(finite_(L(1.0)));
}

// Every built-in model, a count that leaves a partial last chunk: each state equal to the scalar
// path to the bit, in double; in float each lane against the float scalar path.
TEST(Lanes, BatchEqualsTheScalarPathToTheBit) {
  std::mt19937 rng(7);
  for (const auto& info : builtin_models()) {
    const Model m = builtin_model(info.name);
    const int count = 4 * 5 + 3;
    RowMat<double> Q, V;
    random_states(m, count, rng, Q, V);
    Batch<double> batch;
    std::vector<Status> st;
    evaluate_batch(m, Q, V, batch, st, 1);
    int bad = 0;
    for (int s = 0; s < count; ++s) {
      ASSERT_EQ(st[s], Status::ok) << info.name;
      bad += scalar_mismatches(m, Q, V, batch, s);
    }
    EXPECT_EQ(bad, 0) << info.name << ": entries that differ from the scalar path";

    const ModelT<float> mf = m.cast<float>();
    const RowMat<float> Qf = Q.cast<float>(), Vf = V.cast<float>();
    Batch<float> bf;
    std::vector<Status> stf;
    evaluate_batch(mf, Qf, Vf, bf, stf, 1);
    // The float scalar path: a one-state batch (below the lane width, so never lanes).
    int badf = 0;
    for (int s = 0; s < count; ++s) {
      Batch<float> one;
      std::vector<Status> st1;
      evaluate_batch(mf, RowMat<float>(Qf.row(s)), RowMat<float>(Vf.row(s)), one, st1, 1);
      ASSERT_EQ(stf[s], st1[0]) << info.name;
      if (stf[s] != Status::ok) continue;
      badf += differing(Eigen::MatrixXf(bf.M_of(s)), Eigen::MatrixXf(one.M_of(0))) +
              differing(Eigen::VectorXf(bf.h_of(s)), Eigen::VectorXf(one.h_of(0))) +
              differing(Eigen::MatrixXf(bf.A_u_of(s)), Eigen::MatrixXf(one.A_u_of(0)));
    }
    EXPECT_EQ(badf, 0) << info.name << " (float)";
  }
}

// A chunk with one failing lane: that state gets its own status, the others their scalar results.
TEST(Lanes, AFailingLaneLeavesItsNeighbours) {
  const Model m = builtin_model("quadruped");
  std::mt19937 rng(11);
  RowMat<double> Q, V;
  random_states(m, 12, rng, Q, V);
  Q(5, 3) = 2.0;               // state 5 (chunk 1, lane 1): a quaternion that is not unit
  V(10, 4) = std::nan("");     // state 10 (chunk 2, lane 2): a non-finite velocity
  Batch<double> batch;
  std::vector<Status> st;
  evaluate_batch(m, Q, V, batch, st, 1);
  for (int s = 0; s < 12; ++s) {
    if (s == 5) {
      EXPECT_EQ(st[s], Status::bad_quaternion);
    } else if (s == 10) {
      EXPECT_EQ(st[s], Status::non_finite);
    } else {
      ASSERT_EQ(st[s], Status::ok) << s;
      EXPECT_EQ(scalar_mismatches(m, Q, V, batch, s), 0) << s;
    }
  }
}

TEST(Lanes, SameBatchForAnyThreadCount) {
  const Model m = builtin_model("quadruped");
  std::mt19937 rng(3);
  RowMat<double> Q, V;
  random_states(m, 4 * 40 + 1, rng, Q, V);
  Batch<double> b1, b2;
  std::vector<Status> s1, s2;
  evaluate_batch(m, Q, V, b1, s1, 1);
  evaluate_batch(m, Q, V, b2, s2, 2);
  EXPECT_EQ(s1, s2);
  EXPECT_EQ(differing(Eigen::Map<const VectorXd>(b1.M.data(), b1.M.size()),
                      Eigen::Map<const VectorXd>(b2.M.data(), b2.M.size())), 0);
  EXPECT_EQ(differing(Eigen::Map<const VectorXd>(b1.A_u.data(), b1.A_u.size()),
                      Eigen::Map<const VectorXd>(b2.A_u.data(), b2.A_u.size())), 0);
}

// evaluate_batch refills a batch without clearing what it writes (Batch::Refill::inputs_only): a
// state that fails must still come out as documented (M = I, zeros), whatever the batch held.
TEST(Lanes, AFailedStateIsClearedInAReusedBatch) {
  const Model m = builtin_model("quadruped");
  std::mt19937 rng(5);
  RowMat<double> Q, V;
  random_states(m, 9, rng, Q, V);
  Batch<double> batch;
  std::vector<Status> st;
  evaluate_batch(m, Q, V, batch, st, 1);  // every state ok: M, h, rows filled
  batch.u.assign(batch.u.size(), 7.0);    // an input the caller set
  Q(2, 0) = std::nan("");                 // lanes chunk 0 falls back; state 2 fails
  Q(8, 3) = 0.0;                          // the scalar tail; state 8's quaternion is not unit
  evaluate_batch(m, Q, V, batch, st, 1);
  for (int s : {2, 8}) {
    EXPECT_NE(st[s], Status::ok);
    EXPECT_EQ(MatrixXd(batch.M_of(s)), MatrixXd::Identity(m.nv, m.nv)) << s;
    EXPECT_TRUE(VectorXd(batch.h_of(s)).isZero(0)) << s;
    EXPECT_TRUE(VectorXd(batch.qdot_of(s)).isZero(0)) << s;
    EXPECT_TRUE(MatrixXd(batch.A_u_of(s)).isZero(0)) << s;
    EXPECT_TRUE(VectorXd(batch.phi_u_of(s)).isZero(0)) << s;
    EXPECT_TRUE(VectorXd(batch.Adot_qdot_of(s)).isZero(0)) << s;
  }
  for (int s : {0, 1, 3, 4, 5, 6, 7}) {
    ASSERT_EQ(st[s], Status::ok);
    EXPECT_EQ(scalar_mismatches(m, Q, V, batch, s), 0) << s;
  }
  for (double u : batch.u) ASSERT_EQ(u, 0.0);  // inputs are refilled with their defaults
}

// joint_impulses_batch (the sweep's joint impulses) against the one-state joint_impulses of every
// built-in model: wanted states equal to the bit whether they went through lanes or not (a
// partial last chunk, a chunk with an unwanted state among wanted ones), unwanted rows zero, and
// the same for one and two threads.
TEST(Lanes, JointImpulsesBatchEqualsTheOneStateFunction) {
  std::mt19937 rng(11);
  std::normal_distribution<double> g(0, 1);
  for (const auto& info : builtin_models()) {
    const Model m = builtin_model(info.name);
    const int count = 23, n = m.nv, nc = m.ncontacts(), nb = m.nbodies();
    RowMat<double> Q, V;
    random_states(m, count, rng, Q, V);
    RowMat<double> dV(count, n), Lambda(count, nc);
    for (Eigen::Index k = 0; k < dV.size(); ++k) dV.data()[k] = g(rng);
    for (Eigen::Index k = 0; k < Lambda.size(); ++k) Lambda.data()[k] = std::abs(g(rng));
    std::vector<std::uint8_t> want(count, 1);
    want[5] = want[14] = 0;  // chunks 1 and 3 go state by state; chunks 0, 2, 4 through lanes
    RowMat<double> J1, J2;
    joint_impulses_batch(m, Q, V, dV, Lambda, want, J1, 1);
    joint_impulses_batch(m, Q, V, dV, Lambda, want, J2, 2);
    ASSERT_EQ(J1.rows(), count) << info.name;
    ASSERT_EQ(J1.cols(), 6 * nb) << info.name;
    EXPECT_EQ(differing(J1, J2), 0) << info.name << ": 1 vs 2 threads";
    for (int s = 0; s < count; ++s) {
      if (!want[s]) {
        EXPECT_TRUE(J1.row(s).isZero(0)) << info.name << " state " << s;
        continue;
      }
      const VectorXd v = V.row(s).transpose();
      const MatrixXd one = joint_impulses(m, Q.row(s).transpose(), v, v + dV.row(s).transpose(), Lambda.row(s).transpose());
      const RowMat<double> row = Eigen::Map<const RowMat<double>>(&J1(s, 0), nb, 6);
      // qdot_plus - qdot recomputed from v + dV rounds: compare against the same dV the batch took.
      std::vector<double> block(data_size(m.view()));
      const DataView<double> d = data_view(m.view(), block.data());
      RowMat<double> ref = RowMat<double>::Zero(nb, 6);
      ASSERT_EQ(forward_kinematics(m.view(), d, VecView<const double>{&Q(s, 0), m.nq, 1}, VecView<const double>{&V(s, 0), n, 1}),
                Status::ok);
      model::joint_impulses(m.view(), d, VecView<const double>{&dV(s, 0), n, 1}, VecView<const double>{&Lambda(s, 0), nc, 1},
                            mat_view(ref.data(), nb, 6));
      EXPECT_EQ(differing(row, ref), 0) << info.name << " state " << s;
      EXPECT_TRUE(row.isApprox(RowMat<double>(one), 1e-9) || one.norm() == 0) << info.name << " state " << s;
    }
  }
  const Model m = builtin_model("quadruped");
  RowMat<double> Q(3, m.nq), V(3, m.nv + 1), J;
  EXPECT_THROW(joint_impulses_batch(m, Q, V, V, RowMat<double>(3, m.ncontacts()), std::vector<std::uint8_t>(3, 1), J),
               std::invalid_argument);
}

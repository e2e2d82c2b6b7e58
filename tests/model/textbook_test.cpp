// Textbook checks of the model layer: mass matrix and kinetic energy by hand, energy and
// momentum conservation along integrated motions, the ball and Newton's cradle impacts by hand,
// seed 002's closed-form external impulse on the multi-chained foot and its internal joint
// impulses against the subtrees' momentum jumps (from finite differences of positions only).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "obliq/model/host.hpp"
#include "obliq/model/kinematics.hpp"
#include "obliq/model/momentum.hpp"
#include "obliq/reference.hpp"

using namespace obliq;
using namespace obliq::model;
using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

double rel(const MatrixXd& a, const MatrixXd& b) { return (a - b).norm() / std::max(1.0, b.norm()); }

VectorXd random_q(const Model& m, std::mt19937& rng, double scale = 1.0) {
  std::normal_distribution<double> g(0, scale);
  VectorXd q(m.nq);
  for (int k = 0; k < m.nq; ++k) q(k) = g(rng);
  for (int i = 0; i < m.nbodies(); ++i)
    if (m.joint_type[i] == int(JointType::free_flyer)) q.segment<4>(m.idx_q[i] + 3).normalize();
  return q;
}
VectorXd random_v(const Model& m, std::mt19937& rng) {
  std::normal_distribution<double> g(0, 1);
  VectorXd v(m.nv);
  for (int k = 0; k < m.nv; ++k) v(k) = g(rng);
  return v;
}

// Total energy and spatial momentum at O from one state.
struct Invariants {
  double T = 0, V = 0;
  S6<double> H;
};
Invariants invariants(const Model& m, const VectorXd& q, const VectorXd& v) {
  const ModelView<double> mv = m.view();
  std::vector<double> block(data_size(mv));
  const DataView<double> d = data_view(mv, block.data());
  EXPECT_EQ(forward_kinematics(mv, d, VecView<const double>{q.data(), int(q.size()), 1},
                               VecView<const double>{v.data(), int(v.size()), 1}),
            Status::ok);
  return {kinetic_energy(mv, d), potential_energy(mv, d), momentum_at_origin(mv, d)};
}

// Free motion M qdd + h = 0, integrated with classical RK4 on (q, v) (quaternions renormalised).
void rk4(const Model& m, VectorXd& q, VectorXd& v, double dt, int steps) {
  auto accel = [&](const VectorXd& qq, const VectorXd& vv) {
    Scenario s;
    EXPECT_EQ(evaluate(m, qq, vv, s), Status::ok);
    return VectorXd(s.M.llt().solve(-s.h));
  };
  for (int k = 0; k < steps; ++k) {
    const VectorXd k1q = configuration_rate(m, q, v), k1v = accel(q, v);
    const VectorXd q2 = q + 0.5 * dt * k1q, v2 = v + 0.5 * dt * k1v;
    const VectorXd k2q = configuration_rate(m, q2, v2), k2v = accel(q2, v2);
    const VectorXd q3 = q + 0.5 * dt * k2q, v3 = v + 0.5 * dt * k2v;
    const VectorXd k3q = configuration_rate(m, q3, v3), k3v = accel(q3, v3);
    const VectorXd q4 = q + dt * k3q, v4 = v + dt * k3v;
    const VectorXd k4q = configuration_rate(m, q4, v4), k4v = accel(q4, v4);
    q += dt / 6 * (k1q + 2 * k2q + 2 * k3q + k4q);
    v += dt / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
    for (int i = 0; i < m.nbodies(); ++i)
      if (m.joint_type[i] == int(JointType::free_flyer)) q.segment<4>(m.idx_q[i] + 3).normalize();
  }
}

// Energy drift of RK4 over a fixed horizon, at step dt.
double energy_drift(const Model& m, const VectorXd& q0, const VectorXd& v0, double horizon, double dt) {
  VectorXd q = q0, v = v0;
  const Invariants a = invariants(m, q, v);
  rk4(m, q, v, dt, int(std::lround(horizon / dt)));
  const Invariants b = invariants(m, q, v);
  return std::abs((b.T + b.V) - (a.T + a.V)) / (a.T + std::abs(a.V) + 1e-300);
}

}  // namespace

TEST(ModelHand, BallMassMatrixGapAndImpact) {
  Model m = builtin_model("ball");
  VectorXd q(3), v(3);
  q << 0.3, -0.2, 0.1;  // resting on the floor: the lowest point at z = 0
  v << 1.0, 0.5, -2.0;
  Scenario s;
  StateExtras x;
  ASSERT_EQ(evaluate(m, q, v, s, &x), Status::ok);
  EXPECT_LT(rel(s.M, MatrixXd::Identity(3, 3)), 1e-15);
  EXPECT_NEAR(s.h(2), 9.81, 1e-14);  // holding the ball against gravity
  EXPECT_NEAR(s.phi_u(0), 0.0, 1e-15);
  EXPECT_LT(rel(s.A_u, (MatrixXd(1, 3) << 0, 0, 1).finished()), 1e-15);
  EXPECT_NEAR(x.kinetic_energy, 0.5 * v.squaredNorm(), 1e-14);
  EXPECT_NEAR(x.potential_energy, 9.81 * 0.1, 1e-14);
  // Newton's law by hand: vz+ = -e vz, tangential velocity unchanged, impulse m (1 + e) |vz|.
  s.e = VectorXd::Constant(1, 0.5);
  const ImpactResult r = reference::impact(s);
  ASSERT_EQ(r.status, Status::ok);
  EXPECT_NEAR(r.qdot_plus(0), 1.0, 1e-12);
  EXPECT_NEAR(r.qdot_plus(1), 0.5, 1e-12);
  EXPECT_NEAR(r.qdot_plus(2), 1.0, 1e-12);
  EXPECT_NEAR(r.lambda(0), 3.0, 1e-12);
  const MatrixXd J = joint_impulses(m, q, v, r.qdot_plus, r.lambda);
  // The z carriage holds nothing along z: the floor's impulse is the ball's momentum jump.
  EXPECT_NEAR(J(2, 2), 0.0, 1e-12);
}

TEST(ModelHand, NewtonsCradleSimultaneousImpact) {
  Model m = builtin_model("cradle");
  VectorXd q = VectorXd::Zero(3), v(3);
  v << -1.0, 0.0, 0.0;  // ball 1 swings into ball 2 at unit speed (x velocity = -L cos(q) qdot)
  Scenario s;
  ASSERT_EQ(evaluate(m, q, v, s), Status::ok);
  EXPECT_LT(rel(s.M, MatrixXd::Identity(3, 3)), 1e-15);  // m L^2 = 1 each
  EXPECT_LT(s.h.norm(), 1e-15);                           // hanging straight down
  MatrixXd A(2, 3);
  A << 1, -1, 0, 0, 1, -1;  // gaps x2 - x1 and x3 - x2 with x_i = -sin(q_i)
  EXPECT_LT(rel(s.A_u, A), 1e-15);
  EXPECT_LT(s.phi_u.norm(), 1e-15);
  // e = 1, Newton's law on both rows at once: x velocities (-1/3, 2/3, 2/3), energy kept,
  // impulses 4/3 and 2/3 (by hand: momentum 1 = sum, x2 - x1 = 1, x3 - x2 = 0).
  for (Law law : {Law::complementarity, Law::projection}) {
    s.e = VectorXd::Ones(2);
    s.law = law;
    const ImpactResult r = reference::impact(s);
    ASSERT_EQ(r.status, Status::ok);
    EXPECT_NEAR(r.qdot_plus(0), 1.0 / 3, 1e-12);
    EXPECT_NEAR(r.qdot_plus(1), -2.0 / 3, 1e-12);
    EXPECT_NEAR(r.qdot_plus(2), -2.0 / 3, 1e-12);
    EXPECT_NEAR(r.lambda(0), 4.0 / 3, 1e-12);
    EXPECT_NEAR(r.lambda(1), 2.0 / 3, 1e-12);
    EXPECT_NEAR(r.kinetic_energy_post, 0.5, 1e-12);
  }
  // e = 0: the three balls move on together at 1/3.
  s.e = VectorXd::Zero(2);
  s.law = Law::complementarity;
  const ImpactResult r0 = reference::impact(s);
  ASSERT_EQ(r0.status, Status::ok);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(r0.qdot_plus(i), -1.0 / 3, 1e-12);
}

TEST(ModelTextbook, KineticEnergyIsHalfQdotMQdot) {
  std::mt19937 rng(7);
  for (const auto& info : builtin_models()) {
    Model m = builtin_model(info.name);
    for (int t = 0; t < 5; ++t) {
      const VectorXd q = random_q(m, rng), v = random_v(m, rng);
      Scenario s;
      StateExtras x;
      ASSERT_EQ(evaluate(m, q, v, s, &x), Status::ok) << info.name;
      EXPECT_NEAR(0.5 * v.dot(s.M * v), x.kinetic_energy, 1e-12 * x.kinetic_energy) << info.name;
      EXPECT_LT((s.M - s.M.transpose()).norm(), 1e-14 * s.M.norm()) << info.name;
      EXPECT_EQ(s.M.llt().info(), Eigen::Success) << info.name;
    }
  }
}

// A free tree without gravity keeps its kinetic energy; RK4's error must also shrink as dt^4
// (a wrong Coriolis term gives an O(1) drift that does not).
TEST(ModelTextbook, EnergyConservationFreeTreeNoGravity) {
  std::mt19937 rng(11);
  for (const char* name : {"quadruped", "foot", "biped5"}) {
    Model m = builtin_model(name);
    m.gravity[2] = 0;
    const VectorXd q = random_q(m, rng, 0.5), v = random_v(m, rng);
    const double d1 = energy_drift(m, q, v, 0.2, 2e-3);
    const double d2 = energy_drift(m, q, v, 0.2, 1e-3);
    EXPECT_LT(d2, 1e-9) << name;
    EXPECT_LT(d2, d1 / 8) << name << " drift does not fall with dt^4: " << d1 << " -> " << d2;
  }
}

TEST(ModelTextbook, EnergyConservationWithGravity) {
  std::mt19937 rng(12);
  for (const char* name : {"quadruped", "biped5", "cradle"}) {
    Model m = builtin_model(name);
    const VectorXd q = random_q(m, rng, 0.5), v = random_v(m, rng);
    EXPECT_LT(energy_drift(m, q, v, 0.2, 1e-3), 1e-9) << name;
  }
}

// A floating base without gravity: the spatial momentum at O stays constant. With gravity
// the linear momentum grows by m g t and the angular momentum about O by c x m g integrated.
TEST(ModelTextbook, MomentumConservationFloatingBase) {
  std::mt19937 rng(13);
  for (const char* name : {"quadruped", "foot"}) {
    Model m = builtin_model(name);
    m.gravity[2] = 0;
    VectorXd q = random_q(m, rng, 0.5), v = random_v(m, rng);
    const Invariants a = invariants(m, q, v);
    rk4(m, q, v, 1e-3, 200);
    const Invariants b = invariants(m, q, v);
    const double scale = std::sqrt(dot(a.H.lin, a.H.lin) + dot(a.H.ang, a.H.ang));
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(b.H.lin[k], a.H.lin[k], 1e-10 * scale) << name;
      EXPECT_NEAR(b.H.ang[k], a.H.ang[k], 1e-10 * scale) << name;
    }
  }
  Model m = builtin_model("quadruped");
  VectorXd q = random_q(m, rng, 0.5), v = random_v(m, rng);
  const Invariants a = invariants(m, q, v);
  rk4(m, q, v, 1e-3, 200);
  const Invariants b = invariants(m, q, v);
  EXPECT_NEAR(b.H.lin[2] - a.H.lin[2], total_mass(m.view()) * -9.81 * 0.2, 1e-10 * total_mass(m.view()));
  EXPECT_NEAR(b.H.lin[0], a.H.lin[0], 1e-10 * total_mass(m.view()));
}

// Seed 002: the multi-chained foot lands with its heel and three toe tips at once. The external
// impulses at the contacts have the closed form p = -(1 + e) (G I^-1 G^T)^-1 G qdot, with I^-1
// written through the floating-base reduction I*_aa = I_aa - I_av I_vv^-1 I_va (v: the six base
// velocities, a: the toe joints). The solver's lambda must match it, and each joint's internal
// impulse must equal the momentum jump of the subtree it carries minus the contact impulses on
// that subtree (computed here from finite differences of body poses only).
TEST(ModelSeed002, MultiChainedFootExternalAndInternalImpulses) {
  Model m = builtin_model("foot");
  ASSERT_EQ(m.nv, 12);
  ASSERT_EQ(m.n_unilateral(), 4);
  VectorXd q = neutral(m);
  q(2) = 0.02;  // heel and toe tips on the floor
  VectorXd v(12);
  v << 0.1, -0.05, -1.0, 0.3, -0.2, 0.1, 0.5, -0.3, 0.2, 0.4, -0.1, 0.3;
  Scenario s;
  ASSERT_EQ(evaluate(m, q, v, s), Status::ok);
  ASSERT_LT(s.phi_u.cwiseAbs().maxCoeff(), 1e-15);
  ASSERT_TRUE(((s.A_u * v).array() < 0).all()) << (s.A_u * v).transpose();
  const double e = 0.4;
  s.e = VectorXd::Constant(4, e);
  s.law = Law::projection;
  const ImpactResult r = reference::impact(s);
  ASSERT_EQ(r.status, Status::ok);

  // Closed form.
  const MatrixXd& I = s.M;
  const MatrixXd Ivv = I.topLeftCorner(6, 6), Iva = I.topRightCorner(6, 6), Iav = I.bottomLeftCorner(6, 6),
                 Iaa = I.bottomRightCorner(6, 6);
  const MatrixXd Ivv_inv = Ivv.inverse();
  const MatrixXd Istar = Iaa - Iav * Ivv_inv * Iva;
  const MatrixXd Istar_inv = Istar.inverse();
  MatrixXd Iinv(12, 12);
  Iinv.topLeftCorner(6, 6) = Ivv_inv + Ivv_inv * Iva * Istar_inv * Iav * Ivv_inv;
  Iinv.topRightCorner(6, 6) = -Ivv_inv * Iva * Istar_inv;
  Iinv.bottomLeftCorner(6, 6) = -Istar_inv * Iav * Ivv_inv;
  Iinv.bottomRightCorner(6, 6) = Istar_inv;
  const MatrixXd& G = s.A_u;
  const MatrixXd Jd = G * Iinv * G.transpose();
  const VectorXd p = Jd.ldlt().solve(-(1 + e) * (G * v));
  const VectorXd v_plus = v + Iinv * G.transpose() * p;
  EXPECT_LT(rel(r.lambda, p), 1e-9) << r.lambda.transpose() << " vs " << p.transpose();
  EXPECT_LT(rel(r.qdot_plus, v_plus), 1e-9);

  // Internal impulses.
  const MatrixXd Jint = joint_impulses(m, q, v, r.qdot_plus, r.lambda);
  EXPECT_LT(Jint.row(0).norm(), 1e-12 * p.norm()) << "nothing holds the floating foot";

  // Independent: momentum of each body from finite differences of its pose along the velocity.
  const ModelView<double> mv = m.view();
  auto poses = [&](const VectorXd& qq, std::vector<Eigen::Matrix3d>& R, std::vector<Eigen::Vector3d>& o) {
    std::vector<double> block(data_size(mv));
    const DataView<double> d = data_view(mv, block.data());
    const VectorXd zero = VectorXd::Zero(m.nv);
    ASSERT_EQ(forward_kinematics(mv, d, VecView<const double>{qq.data(), m.nq, 1},
                                 VecView<const double>{zero.data(), m.nv, 1}),
              Status::ok);
    R.resize(m.nbodies());
    o.resize(m.nbodies());
    for (int b = 0; b < m.nbodies(); ++b) {
      R[b] = Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(d.oR + 9 * b);
      o[b] = Eigen::Map<const Eigen::Vector3d>(d.op + 3 * b);
    }
  };
  // Linear and angular momentum (about the world origin) of each body at velocity vv.
  auto body_momenta = [&](const VectorXd& vv, std::vector<Eigen::Vector3d>& P, std::vector<Eigen::Vector3d>& L) {
    const double eps = 1e-6;
    std::vector<Eigen::Matrix3d> Rp, Rm, R0;
    std::vector<Eigen::Vector3d> op, om, o0;
    poses(integrate(m, q, vv, eps), Rp, op);
    poses(integrate(m, q, vv, -eps), Rm, om);
    poses(q, R0, o0);
    P.resize(m.nbodies());
    L.resize(m.nbodies());
    for (int b = 0; b < m.nbodies(); ++b) {
      const Eigen::Vector3d cb(m.com[3 * b], m.com[3 * b + 1], m.com[3 * b + 2]);
      const Eigen::Matrix3d Ic = Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(&m.inertia[9 * b]);
      const Eigen::Vector3d c = o0[b] + R0[b] * cb;
      const Eigen::Vector3d cdot = ((op[b] + Rp[b] * cb) - (om[b] + Rm[b] * cb)) / (2 * eps);
      const Eigen::Matrix3d W = (Rp[b] - Rm[b]) / (2 * eps) * R0[b].transpose();  // [w]x
      const Eigen::Vector3d w(0.5 * (W(2, 1) - W(1, 2)), 0.5 * (W(0, 2) - W(2, 0)), 0.5 * (W(1, 0) - W(0, 1)));
      P[b] = m.mass[b] * cdot;
      L[b] = R0[b] * Ic * R0[b].transpose() * w + c.cross(P[b]);
    }
  };
  std::vector<Eigen::Vector3d> P0, L0, P1, L1;
  body_momenta(v, P0, L0);
  body_momenta(r.qdot_plus, P1, L1);
  std::vector<Eigen::Matrix3d> R0;
  std::vector<Eigen::Vector3d> o0;
  poses(q, R0, o0);
  for (int j = 1; j < m.nbodies(); ++j) {
    // Subtree of body j: j and every later body whose chain of parents reaches j.
    Eigen::Vector3d F = Eigen::Vector3d::Zero(), N = Eigen::Vector3d::Zero();
    for (int b = j; b < m.nbodies(); ++b) {
      int a = b;
      while (a > j) a = m.parent[a];
      if (a != j) continue;
      F += P1[b] - P0[b];
      N += L1[b] - L0[b];
      for (int c = 0; c < m.ncontacts(); ++c)
        if (m.contact_body_a[c] == b) {
          const Eigen::Vector3d pa = o0[b] + R0[b] * Eigen::Vector3d(m.contact_point_a[3 * c], m.contact_point_a[3 * c + 1],
                                                                     m.contact_point_a[3 * c + 2]);
          const Eigen::Vector3d Fc = r.lambda(c) * Eigen::Vector3d::UnitZ();
          F -= Fc;
          N -= pa.cross(Fc);
        }
    }
    N -= o0[j].cross(F);  // about the joint origin
    const double scale = p.norm();
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(Jint(j, k), F(k), 1e-7 * scale) << m.joint_names[j];
      EXPECT_NEAR(Jint(j, 3 + k), N(k), 1e-7 * scale) << m.joint_names[j];
    }
  }
}

TEST(ModelStatus, BadStatesAreStatusesNotCrashes) {
  Model m = builtin_model("quadruped");
  VectorXd q = neutral(m), v = VectorXd::Zero(m.nv);
  Scenario s;
  q(3) = 0.5;  // quaternion norm != 1
  EXPECT_EQ(evaluate(m, q, v, s), Status::bad_quaternion);
  q = neutral(m);
  v(4) = std::nan("");
  EXPECT_EQ(evaluate(m, q, v, s), Status::non_finite);
  EXPECT_EQ(evaluate(m, VectorXd::Zero(3), VectorXd::Zero(m.nv), s), Status::bad_shape);
}

// Many states at once into a batch: the same numbers as one at a time, float within float's
// precision, and a bad state confined to its own status.
TEST(ModelBatch, EvaluateBatchMatchesSingleStates) {
  Model m = builtin_model("quadruped");
  std::mt19937 rng(5);
  const int count = 17;
  RowMat<double> Q(count, m.nq), V(count, m.nv);
  for (int s = 0; s < count; ++s) {
    Q.row(s) = random_q(m, rng, 0.5).transpose();
    V.row(s) = random_v(m, rng).transpose();
  }
  Q(3, 0) = std::nan("");
  Batch<double> batch;
  std::vector<Status> st;
  evaluate_batch(m, Q, V, batch, st);
  ASSERT_EQ(batch.count, std::size_t(count));
  const ModelT<float> mf = m.cast<float>();
  Batch<float> bf;
  std::vector<Status> stf;
  evaluate_batch(mf, RowMat<float>(Q.cast<float>()), RowMat<float>(V.cast<float>()), bf, stf);
  for (int s = 0; s < count; ++s) {
    if (s == 3) {
      EXPECT_EQ(st[s], Status::non_finite);
      EXPECT_EQ(stf[s], Status::non_finite);
      continue;
    }
    ASSERT_EQ(st[s], Status::ok);
    Scenario one;
    ASSERT_EQ(evaluate(m, Q.row(s).transpose(), V.row(s).transpose(), one), Status::ok);
    EXPECT_LT(rel(MatrixXd(batch.M_of(s)), one.M), 1e-15);
    EXPECT_LT(rel(VectorXd(batch.h_of(s)), one.h), 1e-15);
    EXPECT_LT(rel(MatrixXd(batch.A_u_of(s)), one.A_u), 1e-15);
    EXPECT_LT(rel(VectorXd(batch.Adot_qdot_of(s)), one.Adot_qdot), 1e-15);
    EXPECT_LT(rel(MatrixXd(bf.M_of(s).cast<double>()), one.M), 1e-5);
  }
}

// The answer's certificate (include/obliq/core/mechanics/certificate.hpp) against an independent
// implementation of its formulas, written here with Eigen from docs/certificate.md and the
// header's comment, on the answers of the core and of the reference and on perturbed copies of
// them; and its two ways of running (with arena scratch, O(m n + n^2), and without, O(m^2 n)),
// which must give the same residual to the bit and leave the arena as they found it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "io/hard_scenarios.hpp"
#include "io/random_scenarios.hpp"
#include "obliq/reference.hpp"
#include "support/core_runner.hpp"

using namespace obliq;

namespace {

using Vec = Eigen::VectorXd;
using Mat = Eigen::MatrixXd;

// One answer: x (qdot_plus or qddot), lambda (bilateral rows first), active flags.
struct Answer {
  Vec x, lambda;
  Eigen::VectorXi active;
};

// violation / scale, 0 without a violation, +Inf for one on a zero scale.
double ratio(double v, double s) {
  if (std::isnan(v)) return std::numeric_limits<double>::infinity();
  if (!(v > 0)) return 0;
  return s > 0 ? v / s : std::numeric_limits<double>::infinity();
}

// The certificate residual in double, from the formulas (docs/certificate.md): balance
// M (x - x_0) - r = A^T lambda per coordinate, the rows' slacks, the law's conditions.
double oracle(const Scenario& s, bool dynamics, const Answer& a) {
  const double inf = std::numeric_limits<double>::infinity();
  const int n = int(s.M.rows()), mb = int(s.A_b.rows()), mu = int(s.A_u.rows()), m = mb + mu;
  if (!a.x.allFinite() || !a.lambda.allFinite()) return inf;
  Mat A(m, n);
  A << s.A_b, s.A_u;
  const Vec Aq = s.A_u * s.qdot;
  for (int i = 0; i < mu; ++i) {  // the candidate rule (docs/format.md "Candidates")
    const bool closed = s.phi_u[i] <= s.gap_tol;
    const bool c = closed && (dynamics ? std::abs(Aq[i]) <= s.vel_tol : Aq[i] <= s.vel_tol);
    if ((a.active[i] != 0) != c) return inf;
    if (!c && a.lambda[mb + i] != 0) return inf;
  }
  const double tol = 1e-6;                                                  // tol_T in double
  const double rho = std::min(1024 * std::numeric_limits<double>::epsilon(), tol / 16) / tol;
  const Vec x0 = dynamics ? Vec::Zero(n) : Vec(s.qdot);
  const Vec rp = dynamics ? Vec(s.u) : Vec(s.i_u), rm = dynamics ? Vec(s.h) : Vec::Zero(n);
  const Mat P = A.array().colwise() * a.lambda.array();  // P_ij = A_ij lambda_i
  const Vec net = P.colwise().sum().transpose(), single = P.cwiseAbs().colwise().sum().transpose();
  const double G = P.size() ? P.cwiseAbs().maxCoeff() : 0.0;
  const double f = rho * std::max(a.x.cwiseAbs().maxCoeff(), x0.size() ? x0.cwiseAbs().maxCoeff() : 0.0);
  // Balance, coordinate by coordinate; F the largest scale.
  const Vec res = s.M * (a.x - x0) - rp + rm - net;
  const Vec xw = (a.x.cwiseAbs() + x0.cwiseAbs()).array() + f;
  const Vec bscale = s.M.cwiseAbs() * xw + rp.cwiseAbs() + rm.cwiseAbs() + net.cwiseAbs() +
                     rho * (single.array() + G).matrix();
  double worst = 0, F = 0;
  for (int j = 0; j < n; ++j) worst = std::max(worst, ratio(std::abs(res[j]), bscale[j])), F = std::max(F, bscale[j]);
  // Rows: slack a_i x - t_i, scale |t|_i + sum_j |a_ij| (|x_j| + |x_0,j| + c_j + f).
  const Vec c = (rp.cwiseAbs() + rm.cwiseAbs() + net.cwiseAbs() + rho * single).cwiseQuotient(s.M.diagonal());
  const Vec rw = (a.x.cwiseAbs() + x0.cwiseAbs() + c).array() + f;
  Vec t = Vec::Zero(m), tmag = Vec::Zero(m);
  for (int i = 0; i < m; ++i) {
    if (dynamics) {
      t[i] = -s.Adot_qdot[i], tmag[i] = std::abs(t[i]);
    } else if (i >= mb) {
      const double e = s.e[i - mb];
      t[i] = -e * Aq[i - mb];
      tmag[i] = e * (s.A_u.row(i - mb).array() * s.qdot.transpose().array()).abs().sum();
    }
  }
  const Vec slack = A * a.x - t, rs = tmag + A.cwiseAbs() * rw;
  const bool projection = s.law == Law::projection;
  std::vector<int> taking_part;
  double worst_equal = 0;
  for (int i = 0; i < m; ++i) {
    if (i >= mb && a.active[i - mb] == 0) continue;
    taking_part.push_back(i);
    if (i < mb || projection) {
      double& into = projection ? worst_equal : worst;
      into = std::max(into, ratio(std::abs(slack[i]), rs[i]));
      continue;
    }
    const double l = F / A.row(i).cwiseAbs().maxCoeff(), lam = a.lambda[i];
    worst = std::max({worst, ratio(-slack[i], rs[i]), ratio(-lam, l)});
    if (slack[i] > 0 && lam > 0) worst = std::max(worst, std::min(ratio(slack[i], rs[i]), ratio(lam, l)));
  }
  if (projection && !(worst_equal <= tol)) {  // least squares: A^T (A x - t) = 0 on the rows taking part
    double ls = 0;
    for (int j = 0; j < n; ++j) {
      double r = 0, sc = 0;
      for (int i : taking_part) r += A(i, j) * slack[i], sc += std::abs(A(i, j)) * rs[i];
      ls = std::max(ls, ratio(std::abs(r), sc));
    }
    worst_equal = ls;
  }
  return std::max(worst, worst_equal);
}

// The core's residual of `a` in scalar T, with arena scratch (`with_arena`) or without; the
// arena starts with `used` elements taken and `room` free ones, and must end as it started.
template <class T>
T core_residual(const Scenario& s, bool dynamics, const Answer& a, bool with_arena, std::size_t room, bool& arena_kept) {
  test::CoreScenario<T> c(s);
  const int n = c.view.n, mb = c.view.m_b, mu = c.view.m_u;
  std::vector<T> x(n), imp(n), lam(mb + mu), buf(5 + room);
  std::vector<std::uint8_t> act(mu);
  for (int i = 0; i < n; ++i) x[i] = T(a.x[i]);
  for (int i = 0; i < mb + mu; ++i) lam[i] = T(a.lambda[i]);
  for (int i = 0; i < mu; ++i) act[i] = std::uint8_t(a.active[i]);
  Arena<T> arena{buf.data(), buf.size()};
  arena.take(5);
  Arena<T>* ar = with_arena ? &arena : nullptr;
  T r;
  if (dynamics) {
    r = dynamics_certificate(c.view, DynamicsView<T>{vec_view(x.data(), n), vec_view(lam.data(), mb + mu), vec_view(act.data(), mu)}, ar);
  } else {
    T k0 = 0, k1 = 0;
    std::uint8_t ec = 0;
    r = impact_certificate(c.view, ImpactView<T>{vec_view(x.data(), n), vec_view(imp.data(), n), vec_view(lam.data(), mb + mu),
                                                 vec_view(act.data(), mu), &k0, &k1, &ec}, ar);
  }
  arena_kept = arena.used == 5 && !arena.overflow;
  return r;
}

template <class T> bool same_bits(T a, T b) { return std::memcmp(&a, &b, sizeof(T)) == 0; }

// Scenarios of both laws and kinds: the plain generator and the hard classes (rows in the span
// of others, opposing, duplicated, huge and tiny scales), each with the core's and the
// reference's answers and copies perturbed by relative amounts around the tolerance.
template <class Visit> void for_each_answer(int draws, Visit visit) {
  std::mt19937_64 rng(2026);
  std::uniform_real_distribution<double> U(-1, 1);
  for (int d = 0; d < draws; ++d) {
    const bool dynamics = d % 2 == 1;
    const Law law = (d / 2) % 2 ? Law::projection : Law::complementarity;
    const int cls = (d / 4) % (hard_class_count + 1);
    Scenario s;
    if (cls < hard_class_count) {
      s = hard_scenario(rng, HardClass(cls), dynamics, law);
    } else {
      RandomOptions o;
      o.law = law;
      const int n = 1 + int(rng() % 9), mb = int(rng() % std::min(3, n)), mu = int(rng() % 7);
      if (dynamics) draw_dynamics_rows(o, 0.2);
      else o.p_resting = 0.3, o.p_separating = 0.2, o.p_open = 0.1, o.applied_impulse = true;
      s = random_scenario(rng, {n, mb, mu}, o);
    }
    for (int who = 0; who < 2; ++who) {
      Answer a;
      Status st;
      if (dynamics) {
        const DynamicsResult r = who ? reference::dynamics(s) : test::core_dynamics<double>(s);
        st = r.status, a = {r.qddot, r.lambda, r.active};
      } else {
        const ImpactResult r = who ? reference::impact(s) : test::core_impact<double>(s);
        st = r.status, a = {r.qdot_plus, r.lambda, r.active};
      }
      if (st != Status::ok) continue;
      for (double eps : {0.0, 1e-9, 1e-7, 1e-6, 1e-5, 1e-3}) {
        Answer p = a;
        for (int i = 0; i < p.x.size(); ++i) p.x[i] *= 1 + eps * U(rng);
        for (int i = 0; i < p.lambda.size(); ++i) p.lambda[i] *= 1 + eps * U(rng);
        visit(s, dynamics, p);
      }
    }
  }
}

}  // namespace

// Residuals well above rounding (perturbed answers) agree with the oracle to 1e-9 of their size;
// those at rounding level (below 1e-10: exact answers) agree in absolute terms; every verdict
// agrees except within 1e-6 of the tolerance itself.
TEST(CertificateOracle, MatchesTheFormulas) {
  int compared = 0, certified_count = 0, rejected = 0;
  for_each_answer(1400, [&](const Scenario& s, bool dynamics, const Answer& a) {
    bool kept = true;
    const double mine = core_residual<double>(s, dynamics, a, true, certificate_workspace<double>(int(s.M.rows()),
                                              int(s.A_b.rows() + s.A_u.rows())), kept);
    const double theirs = oracle(s, dynamics, a);
    ++compared;
    if (std::isinf(theirs) || std::isinf(mine)) {
      EXPECT_EQ(mine, theirs);
      return;
    }
    EXPECT_LE(std::abs(mine - theirs), 1e-12 + 1e-9 * theirs) << "core " << mine << " oracle " << theirs;
    if (std::abs(theirs - 1e-6) > 1e-12) EXPECT_EQ(certified(mine), theirs <= 1e-6);
    certified_count += certified(mine);
    rejected += !certified(mine);
  });
  EXPECT_GT(compared, 5000);
  EXPECT_GT(certified_count, 1000);  // both verdicts are exercised
  EXPECT_GT(rejected, 1000);
}

// With scratch and without (no arena, or one with too little room) the residual is the same to
// the bit, in double and float, and the arena is handed back as it was.
TEST(CertificateOracle, ScratchDoesNotChangeTheResidual) {
  int compared = 0;
  for_each_answer(1000, [&](const Scenario& s, bool dynamics, const Answer& a) {
    const std::size_t need = certificate_workspace<double>(int(s.M.rows()), int(s.A_b.rows() + s.A_u.rows()));
    bool k1 = true, k2 = true, k3 = true, k4 = true, k5 = true;
    const double d_arena = core_residual<double>(s, dynamics, a, true, need, k1);
    const double d_plain = core_residual<double>(s, dynamics, a, false, need, k2);
    const double d_small = core_residual<double>(s, dynamics, a, true, need - 1, k3);
    EXPECT_TRUE(same_bits(d_arena, d_plain)) << d_arena << " " << d_plain;
    EXPECT_TRUE(same_bits(d_arena, d_small)) << d_arena << " " << d_small;
    const float f_arena = core_residual<float>(s, dynamics, a, true, need, k4);
    const float f_plain = core_residual<float>(s, dynamics, a, false, need, k5);
    EXPECT_TRUE(same_bits(f_arena, f_plain)) << f_arena << " " << f_plain;
    EXPECT_TRUE(k1 && k2 && k3 && k4 && k5);
    ++compared;
  });
  EXPECT_GT(compared, 5000);
}

// Property tests: the per-scenario core, run through the cpu backend over batches, against the
// independent Eigen reference path, on thousands of random scenarios (n 1..40, m 0..24,
// rank-deficient Jacobians, cond(M) up to 1e8, bilateral + unilateral mixes), both laws, both
// kinds of problem, double and float.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>

#include "io/random_scenarios.hpp"
#include "obliq/batch.hpp"
#include "obliq/reference.hpp"

using namespace obliq;

namespace {

struct Case {
  const char* name;
  RandomOptions opt;
  int n_min, n_max, mb_max, mu_max;
  int count;  // scenarios per drawn shape
  int shapes;
  double tol_double;  // relative to the size of the answer
  double tol_float;   // <= 0: float not run (conditioning beyond float)
};

double rel(const Eigen::VectorXd& a, const Eigen::VectorXd& b, double scale) {
  return (a - b).norm() / std::max(scale, 1e-300);
}

std::vector<Case> cases(bool dynamics) {
  std::vector<Case> c;
  for (Law law : {Law::projection, Law::complementarity}) {
    RandomOptions o;
    o.law = law;
    if (dynamics) {
      draw_dynamics_rows(o, 0.2);
    } else {
      o.p_approaching = 1;
      o.p_resting = 0.3;
      o.p_separating = 0.2;
      o.p_open = 0.1;
      o.applied_impulse = true;
    }
    RandomOptions well = o;
    well.cond_M = 1e2;
    // n >= 2 wherever rows may be resting: with n = 1 the generator's resting row is sheared to
    // a row of pure rounding noise (1e-16), whose feasibility is decided by noise.
    c.push_back({"well-conditioned", well, 2, 40, 0, 24, 8, 40, 1e-9, 2e-3});
    RandomOptions one = well;
    one.p_resting = 0;
    c.push_back({"one dof", one, 1, 1, 0, 24, 8, 10, 1e-9, 2e-3});
    RandomOptions mixed = well;
    c.push_back({"bilateral+unilateral", mixed, 2, 30, 4, 12, 8, 25, 1e-9, 2e-3});
    RandomOptions deficient = well;
    deficient.dependent_rows = 3;
    deficient.duplicates = false;
    c.push_back({"rank-deficient", deficient, 3, 40, 0, 24, 8, 30, 1e-8, 5e-3});
    RandomOptions dup = deficient;
    dup.duplicates = true;
    dup.per_row_e = false;
    c.push_back({"duplicated rows", dup, 3, 20, 2, 10, 8, 20, 1e-8, 5e-3});
    RandomOptions ill = well;
    ill.cond_M = 1e8;
    // m <= n here (see run_property): with more inequality rows than directions, whether the
    // rows can all be met is decided at the level of rounding noise, which cond(M) = 1e8
    // amplifies to 1e-8; such draws test the noise, not the solver.
    c.push_back({"cond(M)=1e8", ill, 2, 30, 2, 12, 8, 25, 1e-5, -1});
  }
  return c;
}

template <class T> Batch<T> convert(const Batch<double>& b) {
  Batch<T> out(b.shape, b.count);
  for (std::size_t s = 0; s < b.count; ++s) {
    out.set(s, b.get(s));
  }
  return out;
}

template <class T> void run_property(bool dynamics) {
  const bool is_double = std::is_same_v<T, double>;
  std::mt19937_64 rng(dynamics ? 2024 : 2023);
  long total = 0;
  for (const Case& c : cases(dynamics)) {
    const double tol = is_double ? c.tol_double : c.tol_float;
    if (tol <= 0) continue;
    double worst = 0;
    std::map<std::string, int> failed;  // statuses both paths agreed on, other than ok
    for (int k = 0; k < c.shapes; ++k) {
      Shape sh{c.n_min + int(rng() % (c.n_max - c.n_min + 1)), c.mb_max ? int(rng() % (c.mb_max + 1)) : 0,
               int(rng() % (c.mu_max + 1))};
      sh.m_b = std::min(sh.m_b, sh.n - 1);
      // Under the complementarity law the answer is a projection onto a polyhedron; where more
      // inequality rows than directions meet (m > n), its sensitivity to the data grows with
      // how nearly dependent they are (every resting row is orthogonal to qdot), and rounding
      // at 1e-7 (float) or amplified by cond(M) = 1e8 decides which rows bind. There only m <= n.
      const bool sensitive = c.opt.cond_M > 1e6 || (!is_double && c.opt.law == Law::complementarity);
      if (sensitive) sh.m_u = std::min(sh.m_u, sh.n - sh.m_b);
      RandomOptions o = c.opt;
      if (!is_double) o.vel_tol = 1e-3;  // resting rows stay resting after rounding to float
      Batch<double> bd = random_batch<double>(rng, sh, c.count, o);
      Batch<T> bt = convert<T>(bd);
      // The reference solves the original double scenarios. The float core solves them rounded
      // to float: a perturbation of 1e-7 that its rank tolerance absorbs, so that exact
      // dependencies of the original rows (duplicates, combinations, every resting row being
      // orthogonal to qdot) are dependencies for both. (Solving the rounded data in double
      // would make the reference see those rows as independent: a different problem.)
      const Batch<double>& bref = bd;
      RunOptions cpu{Backend::cpu, 2}, ref{Backend::reference, 2};
      if (dynamics) {
        DynamicsResults<T> a;
        DynamicsResults<double> b;
        solve_dynamics(bt, a, cpu);
        solve_dynamics(bref, b, ref);
        for (std::size_t s = 0; s < bt.count; ++s) {
          DynamicsResult x = a.get(s), y = b.get(s);
          ASSERT_EQ(x.status, y.status) << c.name << " scenario " << s << " shape " << sh.n << "," << sh.m_b << ","
                                        << sh.m_u << ": " << status_reason(x.status) << " vs " << status_reason(y.status);
          if (y.status != Status::ok) {
            ++failed[std::string(status_reason(y.status))];
            continue;
          }
          ASSERT_EQ(x.active, y.active);
          Scenario sc = bref.get(s);
          const double acc_scale = y.qddot.norm() + (sc.M.llt().solve(sc.u - sc.h)).norm() + 1e-12;
          const double e1 = rel(x.qddot, y.qddot, acc_scale);
          const double e2 = rel(x.lambda, y.lambda, y.lambda.norm() + (sc.u - sc.h).norm() + 1e-12);
          worst = std::max({worst, e1, e2});
          EXPECT_LE(e1, tol) << c.name << " qddot, scenario " << s << " shape " << sh.n << "," << sh.m_b << "," << sh.m_u;
          EXPECT_LE(e2, tol) << c.name << " lambda, scenario " << s << " shape " << sh.n << "," << sh.m_b << "," << sh.m_u;
          ++total;
        }
      } else {
        ImpactResults<T> a;
        ImpactResults<double> b;
        solve_impact(bt, a, cpu);
        solve_impact(bref, b, ref);
        for (std::size_t s = 0; s < bt.count; ++s) {
          ImpactResult x = a.get(s), y = b.get(s);
          ASSERT_EQ(x.status, y.status) << c.name << " scenario " << s << " shape " << sh.n << "," << sh.m_b << ","
                                        << sh.m_u << ": " << status_reason(x.status) << " vs " << status_reason(y.status);
          if (y.status != Status::ok) {
            ++failed[std::string(status_reason(y.status))];
            continue;
          }
          ASSERT_EQ(x.active, y.active);
          Scenario sc = bref.get(s);
          const double vscale = y.qdot_plus.norm() + sc.qdot.norm() + (sc.M.llt().solve(sc.i_u)).norm() + 1e-12;
          const double e1 = rel(x.qdot_plus, y.qdot_plus, vscale);
          const double e2 = rel(x.impulse, y.impulse, y.impulse.norm() + (sc.M * sc.qdot).norm() + sc.i_u.norm() + 1e-12);
          const double e3 = rel(x.lambda, y.lambda, y.lambda.norm() + (sc.M * sc.qdot).norm() + sc.i_u.norm() + 1e-12);
          const double e4 = std::abs(x.kinetic_energy_post - y.kinetic_energy_post) /
                            (y.kinetic_energy_pre + y.kinetic_energy_post + 1e-12);
          worst = std::max({worst, e1, e2, e3, e4});
          EXPECT_LE(e1, tol) << c.name << " qdot_plus, scenario " << s << " shape " << sh.n << "," << sh.m_b << "," << sh.m_u
                             << " |core| " << x.qdot_plus.norm() << " |ref| " << y.qdot_plus.norm();
          EXPECT_LE(e2, tol) << c.name << " impulse, scenario " << s;
          EXPECT_LE(e3, tol) << c.name << " lambda, scenario " << s << " shape " << sh.n << "," << sh.m_b << "," << sh.m_u;
          EXPECT_LE(e4, tol) << c.name << " kinetic energy, scenario " << s;
          if (is_double) EXPECT_EQ(x.energy_consistent, y.energy_consistent) << c.name << " scenario " << s;
          ++total;
        }
      }
    }
    std::printf("[ %-8s %-6s ] %-22s %-15s worst relative difference %.3g (tolerance %.0e)",
                dynamics ? "dynamics" : "impact", is_double ? "double" : "float", c.name, law_name(c.opt.law), worst, tol);
    for (auto& [reason, k] : failed) std::printf("; %d x %s (both)", k, reason.c_str());
    std::printf("\n");
  }
  EXPECT_GT(total, 1000);
}

}  // namespace

TEST(CpuVsReference, ImpactDouble) { run_property<double>(false); }
TEST(CpuVsReference, ImpactFloat) { run_property<float>(false); }
TEST(CpuVsReference, DynamicsDouble) { run_property<double>(true); }
TEST(CpuVsReference, DynamicsFloat) { run_property<float>(true); }

TEST(CpuVsReference, BadScenarioDoesNotTouchItsNeighbours) {
  std::mt19937_64 rng(7);
  Batch<double> b = random_batch<double>(rng, {6, 1, 3}, 64, RandomOptions{});
  ImpactResults<double> clean;
  solve_impact(b, clean, {Backend::cpu, 2});
  Batch<double> bad = b;
  bad.M_of(5)(0, 0) = std::nan("");
  bad.M_of(9)(1, 1) = -4;
  bad.e_of(17)[0] = 2;
  ImpactResults<double> r;
  solve_impact(bad, r, {Backend::cpu, 2});
  EXPECT_EQ(r.status[5], Status::non_finite);
  EXPECT_EQ(r.status[9], Status::not_spd);
  EXPECT_EQ(r.status[17], Status::bad_restitution);
  for (std::size_t s = 0; s < b.count; ++s) {
    if (s == 5 || s == 9 || s == 17) {
      EXPECT_TRUE(r.get(s).qdot_plus.allFinite());
      continue;
    }
    ASSERT_EQ(r.status[s], Status::ok);
    EXPECT_EQ(r.get(s).qdot_plus, clean.get(s).qdot_plus) << s;  // bit for bit
  }
}

// tests/sim: Moreau-Jean's LCP warm start (SimOptions::warm_start, ScenarioView::warm_active):
// each step's complementarity LCP first tries the rows that took part in the last step. The
// oracle is the same run solved cold: on the quadruped and the biped (frictionless, every foot's
// LCP unique), landing and standing, the same statuses, contacts, impacts and LCP counts and the
// same trajectories to rounding.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "obliq/simulator.hpp"

namespace {

using obliq::SimOptions;
using obliq::Simulator;
using obliq::Status;
namespace model = obliq::model;

Simulator<double> landing(const std::string& name, bool warm, std::uint32_t seed) {
  SimOptions o;
  o.threads = 1;
  o.warm_start = warm;
  const model::Model m = model::builtin_model(name);
  Simulator<double> sim(m, 6, o);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-0.3, 0.3);
  for (std::size_t s = 0; s < sim.count(); ++s) {
    sim.q(long(s), 2) += 0.05 + 0.02 * double(s);  // dropped from a few centimetres
    for (int k = 0; k < sim.nv(); ++k) sim.v(long(s), k) = u(rng);
    sim.e.row(long(s)).setConstant(0.1 * double(s % 3));
  }
  return sim;
}

TEST(MoreauJeanWarmStart, SameTrajectoriesAsTheColdSolve) {
  for (const std::string name : {"quadruped", "biped5"}) {
    Simulator<double> warm = landing(name, true, 17), cold = landing(name, false, 17);
    ASSERT_FALSE(SimOptions{}.warm_start);  // off by default: cold is the default path
    int differ_in_bits = 0;
    long lcp_solves = 0;
    for (int block = 0; block < 20; ++block) {
      warm.step(2e-3, 20);
      cold.step(2e-3, 20);
      for (std::size_t s = 0; s < warm.count(); ++s) {
        const std::string what = name + " scenario " + std::to_string(s) + " block " + std::to_string(block);
        ASSERT_EQ(warm.status[s], Status::ok) << what;
        ASSERT_EQ(cold.status[s], Status::ok) << what;
        ASSERT_EQ(warm.impacts[s], cold.impacts[s]) << what;
        ASSERT_EQ(warm.lcp_solves[s], cold.lcp_solves[s]) << what;
        for (int i = 0; i < warm.m_u(); ++i)
          ASSERT_EQ(warm.active[s * std::size_t(warm.m_u()) + std::size_t(i)],
                    cold.active[s * std::size_t(cold.m_u()) + std::size_t(i)])
              << what;
        const double scale_q = 1 + cold.q.row(long(s)).cwiseAbs().maxCoeff();
        const double scale_v = 1 + cold.v.row(long(s)).cwiseAbs().maxCoeff();
        EXPECT_LE((warm.q.row(long(s)) - cold.q.row(long(s))).cwiseAbs().maxCoeff(), 1e-9 * scale_q) << what;
        EXPECT_LE((warm.v.row(long(s)) - cold.v.row(long(s))).cwiseAbs().maxCoeff(), 1e-9 * scale_v) << what;
        differ_in_bits += warm.v.row(long(s)) != cold.v.row(long(s));
      }
    }
    for (std::size_t s = 0; s < cold.count(); ++s) lcp_solves += cold.lcp_solves[s];
    // Not vacuous: the copies land and stand (many LCPs), and the warm path answered some of
    // them by its own basis solve (whose rounding differs from Lemke's pivots).
    EXPECT_GT(lcp_solves, 1000) << name;
    EXPECT_GT(differ_in_bits, 0) << name << ": the warm start never answered";
  }
}

}  // namespace

// tests/sim: the event-driven integrator's rest guard (docs/simulator.md "Zeno guard"): grazing
// gap events and slow slips that the event loop cannot resolve are brought to rest. Each scenario
// below is one that ended in Status::no_convergence before the guard (found by random-policy
// quadrupeds and restitution drops of the built-in block, 2026-12-03).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "obliq/simulator.hpp"
#include "support/contact_points.hpp"

namespace {

using namespace obliq;  // SimOptions, Simulator, Status
using obliq::test::contact_points;

SimOptions event_driven() {
  SimOptions o;
  o.threads = 1;
  o.integrator = sim::Integrator::event_driven;
  return o;
}

// A quadruped under PD torques (the state, the torques) at the start of a 5 ms advance, mu 0.8.
struct QuadrupedState {
  std::vector<double> q, v, u;
  int chattering_foot;
};

// Foot 2 rests on the floor, sliding at 5e-9 m/s. Sliding with its direction frozen (the friction
// force -mu r_N s0) it would stick, so its slip turns by 90 degrees within each step: 472 of the
// 473 turns of the advance ended at a slip stop, the slip growing to 2e-6 m/s.
const QuadrupedState kSlipChatter{
    {0.016870640052096212, -0.0025472165490092844, 0.39083634843463827, -0.027763342150611513, -0.037949674892108702,
     0.19757709604477602, 0.97915898102745536, -0.67647483606465664, -0.27580774269101993, -1.0219943883851406,
     -0.025461554531442231, 0.72785622906235392, -1.066450100768229, -0.55509900651622734, 0.95374404360944087,
     -0.96064574466589958, -0.67495540006916144, 0.66034127346486893, -0.86969653971596472},
    {-0.25352084688100252, 0.39778167499906836, -2.3916180801329792, -1.3191096867725238, 6.6856908315294854,
     -0.57183675869045114, -7.6566792365384444, 6.1939524330523286, -63.006551308418658, 0.45156069283098998,
     10.636311444371454, -32.579331816522838, 0.8695917000158071, -4.9273495939900585, -2.9453351546622399,
     4.9574552173963653, -24.612471959095053, 1.9017742154455313},
    {0, 0, 0, 0, 0, 0, 30, 30, 28.158843305085135, -30, -30, 30, -3.2768082362028981, -30, 16.035675789082848, 30,
     -4.2912133315472012, -7.0835964978688519},
    2};

// Foot 0 slides at 7.5e-7 m/s beside foot 3 sliding at 2.8 m/s: the acceleration problem with both
// directions frozen (foot 2 sticking) had no certified answer at t = 1.3e-8 s.
const QuadrupedState kFrozenSlowSlip{
    {0.0080132048196295529, 0.048931014545460338, 0.20969260374623971, -0.18189604206862792, 0.21757945623350089,
     -0.7046475837721532, 0.65041893637022019, -0.39487168495631086, -0.11226056509852902, -1.9602373409471632,
     -0.26765863556177194, -0.11264318278254951, -1.1767822121975589, -0.40429209242850506, 0.6495766435642274,
     -2.3554242750850403, 0.097603154518301705, 0.33311060449411506, -1.3919695000029866},
    {-1.3639316475035239, 1.1098662255664926, -1.4372014761084666, -5.7968783802315551, 3.7926374120170823,
     -0.77747083073081646, -12.280787323328717, -16.458365482784345, -2.8146336833585255, -14.713379239462263,
     -23.037401416859748, 60.911995821793894, -4.9007489596198326, -11.819474633716599, -1.2375687014255106,
     -4.4559980386432567, -14.468382119503975, 16.837566950112098},
    {0, 0, 0, 0, 0, 0, 30, 9.5349059734693533, 30, -11.905588420209597, 30, 13.191930205542178, 30, 30, 30, -30,
     -9.2086057578559384, 30},
    0};

Simulator<double> quadruped_at(const QuadrupedState& s, const SimOptions& o) {
  Simulator<double> sim(model::builtin_model("quadruped"), 1, o);
  for (int i = 0; i < 19; ++i) sim.q(0, i) = s.q[i];
  for (int i = 0; i < 18; ++i) sim.v(0, i) = s.v[i], sim.u(0, i) = s.u[i];
  sim.mu.setConstant(0.8);
  return sim;
}

// The advance completes (it ended in no_convergence before the guard). With max_step 1e-4 (so that
// the held feet's drift is small) the chattering foot comes to rest and sticks: it moves along the
// floor 3.9e-6 m in 5 ms (measured 2026-12-03); the scheme without the guard (max_impacts large:
// every event resolved) lets its slip zigzag and grow to 5e-2 m/s, and it moves 5.8e-5 m.
TEST(EventDrivenRestGuard, SlowSlipChatterComesToRest) {
  Simulator<double> plain = quadruped_at(kSlipChatter, event_driven());
  plain.step(5e-3);
  ASSERT_EQ(plain.status[0], Status::ok);
  EXPECT_EQ(plain.t[0], 5e-3);

  const model::Model m = model::builtin_model("quadruped");
  SimOptions o = event_driven();
  o.max_step = 1e-4;
  SimOptions late = o;
  late.max_impacts = 100000;
  Simulator<double> guarded = quadruped_at(kSlipChatter, o), unguarded = quadruped_at(kSlipChatter, late);
  const int f = kSlipChatter.chattering_foot;
  const Eigen::Vector3d start = contact_points(m, guarded.q.row(0).transpose())[f];
  guarded.step(5e-3);
  unguarded.step(5e-3);
  ASSERT_EQ(guarded.status[0], Status::ok);
  ASSERT_EQ(unguarded.status[0], Status::ok);
  const double rest = (contact_points(m, guarded.q.row(0).transpose())[f] - start).head<2>().norm();
  const double zigzag = (contact_points(m, unguarded.q.row(0).transpose())[f] - start).head<2>().norm();
  std::printf("chattering foot moves %.3g m in 5 ms with the guard, %.3g m without\n", rest, zigzag);
  EXPECT_LT(rest, 1e-5);
  EXPECT_GT(zigzag, 10 * rest);
}

TEST(EventDrivenRestGuard, FrozenSlowSlipIsBroughtToRest) {
  const model::Model m = model::builtin_model("quadruped");
  Simulator<double> sim = quadruped_at(kFrozenSlowSlip, event_driven());
  const Eigen::Vector3d start = contact_points(m, sim.q.row(0).transpose())[kFrozenSlowSlip.chattering_foot];
  sim.step(5e-3);
  ASSERT_EQ(sim.status[0], Status::ok);
  EXPECT_EQ(sim.t[0], 5e-3);
  const Eigen::Vector3d end = contact_points(m, sim.q.row(0).transpose())[kFrozenSlowSlip.chattering_foot];
  std::printf("slow foot: moved %.3g m along the floor in 5 ms\n", (end - start).head<2>().norm());
}

// The built-in block (0.2 x 0.4) dropped with restitution onto a frictional floor: while it settles,
// a corner sits at phi = 0 leaving the floor at 9e-9 m/s and falling back at 3 m/s^2; its gap is
// rounding noise, so the event loop found a "crossing" every 5.6e-13 s (469 of the 473 turns of
// the advance). With the guard it comes to rest on its base. Drops 3, 19, 24, 30, 43, 53, 65 and 90
// of 100 (e in [0, 0.5], mu in [0.2, 1], height and tilt spread) all failed that way.
TEST(EventDrivenRestGuard, GrazingCornerComesToRest) {
  struct Drop {
    double y, pitch, e, mu;
  };
  const Drop drops[] = {  // y (height of the centre), pitch, e, mu
      {0.24970161629320412, 0.20287452047496615, 0.055450383443378035, 0.36332379994431263},
      {0.27824194427243321, 0.095317036774634128, 0.44534412976162274, 0.94607578421743588},
      {0.26042854082584826, 0.14721979177651887, 0.026706361511328568, 0.39706630639943924},
      {0.27617908584615264, 0.10220723560552825, 0.29836550317324367, 0.46721208448975338},
      {0.27138035492243712, 0.22180882568590515, 0.35110970766095556, 0.92081288533632577},
      {0.26466805290894369, 0.22921615772152507, 0.31526399584364556, 0.84025860543701958},
      {0.25836431512336738, 0.24354616030145876, 0.0024517411588058265, 0.3545531901780915},
      {0.27219004021840343, 0.17757653293597497, 0.4925716040451299, 0.79786544988729213}};
  for (const Drop& d : drops) {
    Simulator<double> sim(model::builtin_model("block"), 1, event_driven());
    sim.q(0, 1) = d.y, sim.q(0, 2) = d.pitch, sim.v(0, 0) = 0.3;
    sim.e.setConstant(d.e);
    sim.mu.setConstant(d.mu);
    for (int k = 0; k < 40; ++k) {
      sim.step(0.05);
      ASSERT_EQ(sim.status[0], Status::ok) << "t " << sim.t[0];
    }
    std::printf("block: %ld impacts, at rest at z %.12f, pitch %.3g, |v| %.3g\n", long(sim.impacts[0]), sim.q(0, 1),
                sim.q(0, 2), sim.v.row(0).cwiseAbs().maxCoeff());
    EXPECT_LT(sim.v.row(0).cwiseAbs().maxCoeff(), 1e-9) << "at rest";
    EXPECT_NEAR(sim.q(0, 1), 0.2, 1e-9) << "on its base (half height 0.2)";
    EXPECT_NEAR(sim.q(0, 2), 0.0, 1e-9) << "flat";
  }
}

}  // namespace

// The frictionless core's impact() and dynamics() run as their three parts apart (prepare, the
// law's solve, conclude: ContactLawCall, mechanics/contact_law.hpp), as kernels of their own
// would run them: the call handed from part to part as bytes, the arena after the mark the
// first part leaves poisoned with NaN before each later part (so that no part reads scratch an
// earlier one wrote after that mark). Every output and status must equal the whole function's,
// bit for bit, on random scenarios of several shapes: both laws, approaching, resting,
// separating and open rows, dependent rows (the Delassus factor's SVD path), double and float.
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "io/random_scenarios.hpp"
#include "support/core_runner.hpp"

using namespace obliq;

namespace {

static_assert(std::is_trivially_copyable_v<ContactLawCall<double>> && std::is_trivially_copyable_v<ContactLawCall<float>>,
              "a part hands the next one its call as bytes in memory");

// The call through memory, as one kernel stores it and the next loads it.
template <class T> ContactLawCall<T> through_bytes(const ContactLawCall<T>& call) {
  std::vector<unsigned char> bytes(sizeof call);
  std::memcpy(bytes.data(), &call, sizeof call);
  ContactLawCall<T> back;
  std::memcpy(&back, bytes.data(), sizeof back);
  return back;
}

// An arena resumed at `mark` with everything after it poisoned.
template <class T> Arena<T> resumed(std::vector<T>& scratch, std::size_t mark) {
  for (std::size_t i = mark; i < scratch.size(); ++i) scratch[i] = std::numeric_limits<T>::quiet_NaN();
  Arena<T> arena{scratch.data(), scratch.size()};
  arena.take(mark);
  return arena;
}

template <class T> bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

struct Tally {
  int ok = 0, failed = 0, svd = 0;
};

template <class T> void impact_apart_matches(const Scenario& s, Tally& tally) {
  test::CoreScenario<T> c(s);
  const int n = c.view.n, mb = c.view.m_b, mu = c.view.m_u;
  const std::size_t ws = impact_workspace_size<T>(n, mb, mu);
  struct Out {
    std::vector<T> qp, imp, lam, energies;
    std::vector<std::uint8_t> act, consistent;
    ImpactView<T> view;
  };
  const auto make_out = [&](Out& o) {
    o.qp.assign(n, T(7)), o.imp.assign(n, T(7)), o.lam.assign(mb + mu, T(7)), o.energies.assign(2, T(7));
    o.act.assign(mu, 7), o.consistent.assign(1, 7);
    o.view = ImpactView<T>{vec_view(o.qp.data(), n),   vec_view(o.imp.data(), n),     vec_view(o.lam.data(), mb + mu),
                           vec_view(o.act.data(), mu), o.energies.data(), o.energies.data() + 1, o.consistent.data()};
  };
  Out whole, apart;
  make_out(whole), make_out(apart);
  std::vector<T> scratch(ws);
  Arena<T> arena{scratch.data(), ws};
  const Status expected = impact(c.view, whole.view, arena);

  std::vector<T> scratch2(ws, T(0));
  Arena<T> first{scratch2.data(), ws};
  ContactLawCall<T> call;
  Status st = detail::impact_prepare(c.view, apart.view, call, first);
  const std::size_t mark = first.mark();
  if (st == Status::ok) {
    if (call.f.from_svd) ++tally.svd;
    Arena<T> law = resumed(scratch2, mark);
    const ContactLawCall<T> handed = through_bytes(call);
    st = solve_contact_law(law_scenario(handed), handed, law);
  }
  if (st == Status::ok) {
    Arena<T> last = resumed(scratch2, mark);
    st = detail::impact_conclude(c.view, apart.view, through_bytes(call), last);
  }
  if (st != Status::ok) clear_impact(apart.view);
  ASSERT_EQ(st, expected);
  (expected == Status::ok ? tally.ok : tally.failed)++;
  EXPECT_TRUE(same_bits(whole.qp, apart.qp));
  EXPECT_TRUE(same_bits(whole.imp, apart.imp));
  EXPECT_TRUE(same_bits(whole.lam, apart.lam));
  EXPECT_TRUE(same_bits(whole.energies, apart.energies));
  EXPECT_EQ(whole.act, apart.act);
  EXPECT_EQ(whole.consistent, apart.consistent);
}

template <class T> void dynamics_apart_matches(const Scenario& s, Tally& tally) {
  test::CoreScenario<T> c(s);
  const int n = c.view.n, mb = c.view.m_b, mu = c.view.m_u;
  const std::size_t ws = dynamics_workspace_size<T>(n, mb, mu);
  std::vector<T> qdd(n, T(7)), lam(mb + mu, T(7)), qdd2(n, T(7)), lam2(mb + mu, T(7));
  std::vector<std::uint8_t> act(mu, 7), act2(mu, 7);
  const DynamicsView<T> whole{vec_view(qdd.data(), n), vec_view(lam.data(), mb + mu), vec_view(act.data(), mu)};
  const DynamicsView<T> apart{vec_view(qdd2.data(), n), vec_view(lam2.data(), mb + mu), vec_view(act2.data(), mu)};
  std::vector<T> scratch(ws);
  Arena<T> arena{scratch.data(), ws};
  const Status expected = dynamics(c.view, whole, arena);

  std::vector<T> scratch2(ws, T(0));
  Arena<T> first{scratch2.data(), ws};
  ContactLawCall<T> call;
  Status st = detail::dynamics_prepare(c.view, apart, call, first);
  const std::size_t mark = first.mark();
  if (st == Status::ok) {
    Arena<T> law = resumed(scratch2, mark);
    const ContactLawCall<T> handed = through_bytes(call);
    st = solve_contact_law(law_scenario(handed), handed, law);
  }
  if (st == Status::ok) {
    Arena<T> last = resumed(scratch2, mark);
    st = detail::dynamics_conclude(c.view, apart, through_bytes(call), last);
  }
  if (st != Status::ok) clear_dynamics(apart);
  ASSERT_EQ(st, expected);
  (expected == Status::ok ? tally.ok : tally.failed)++;
  EXPECT_TRUE(same_bits(qdd, qdd2));
  EXPECT_TRUE(same_bits(lam, lam2));
  EXPECT_EQ(act, act2);
}

template <class T> void check_apart(bool dynamics_law) {
  std::mt19937_64 rng(20261207);
  Tally tally;
  const Shape shapes[] = {{3, 0, 2}, {6, 1, 4}, {12, 2, 4}, {8, 0, 8}, {18, 0, 8}};
  for (const Shape& shape : shapes)
    for (Law law : {Law::projection, Law::complementarity})
      for (int dependent : {0, 1})
        for (int draw = 0; draw < 12; ++draw) {
          RandomOptions o;
          o.law = law;
          o.cond_M = 1e3;
          o.dependent_rows = shape.m_u > 1 ? dependent : 0;
          if (dynamics_law) {
            o.p_approaching = 0, o.p_resting = 2, o.p_open = 1, o.forces = true, o.adot_qdot = true;
          } else {
            o.p_approaching = 3, o.p_resting = 1, o.p_separating = 1, o.p_open = 1, o.applied_impulse = true;
          }
          Scenario sc = random_scenario(rng, shape, o);
          if (std::is_same_v<T, float>) sc.vel_tol = 1e-3;
          SCOPED_TRACE(testing::Message() << "shape (" << shape.n << ", " << shape.m_b << ", " << shape.m_u
                                          << ") draw " << draw << " dependent " << dependent);
          if (dynamics_law)
            dynamics_apart_matches<T>(sc, tally);
          else
            impact_apart_matches<T>(sc, tally);
        }
  // The draws reach the solve and its conclusion, not only early failures.
  EXPECT_GT(tally.ok, 100);
  if (!dynamics_law) EXPECT_GT(tally.svd, 0) << "no draw took the Delassus factor's SVD path";
}

}  // namespace

TEST(ContactLawParts, ImpactApartIsImpactDouble) { check_apart<double>(false); }
TEST(ContactLawParts, ImpactApartIsImpactFloat) { check_apart<float>(false); }
TEST(ContactLawParts, DynamicsApartIsDynamicsDouble) { check_apart<double>(true); }
TEST(ContactLawParts, DynamicsApartIsDynamicsFloat) { check_apart<float>(true); }

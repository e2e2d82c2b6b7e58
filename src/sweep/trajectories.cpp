// sweep/trajectories.cpp: trajectory samples (docs/sweep.md "Trajectory samples"). Every sample of
// a chunk is one scenario of a Simulator (include/obliq/simulator.hpp): its drawn state, e and mu
// are set, the whole chunk is stepped `steps` times by dt, and the end state, the impact count and
// the energies are read back. The Simulator steps each scenario alone (bitwise the same for any
// thread count), so a sample's outputs depend on (seed, sample) only.
#include <cmath>
#include <limits>

#include "sweep/distribution.hpp"
#include "sweep/random.hpp"
#include "sweep/samples.hpp"

namespace obliq::sweep {

void run_trajectories(const Study& st, std::uint64_t first, std::size_t count, int threads, SampleTable& out,
                      ChunkBuffers& buf, Backend backend) {
  const Layout L = layout(st);
  const Trajectory& tr = *st.trajectory;
  SimOptions opt = tr.sim;
  opt.threads = threads;
  opt.backend = backend;  // cuda: step() runs on the device; energies() stay on the host
  const int n = L.n, m_u = L.m_u;

  // The chunk's systems at their drawn initial states.
  std::optional<Simulator<double>> sim;
  if (st.model) {
    draw_states(st, first, count, threads, buf.Q, buf.V);
    sim.emplace(*st.model, count, opt);
    sim->q = buf.Q;
    sim->v = buf.V;
  } else {  // raw data: q = 0, the scenario's qdot perturbed
    Batch<double> batch(st.scenario->shape(), count);
    for (std::size_t s = 0; s < count; ++s) {
      batch.set(s, *st.scenario);
      for (int k = 0; k < n; ++k)
        batch.qdot[s * n + k] += draw(st.dqdot[k], uniform01(st.seed, Stream::qdot, first + s, k));
    }
    sim.emplace(batch, opt);
  }
  for (std::size_t s = 0; s < count; ++s)
    for (int r = 0; r < m_u; ++r) sim->e(s, r) = draw(st.restitution[r], uniform01(st.seed, Stream::restitution, first + s, r));
  if (!st.friction.empty()) {
    draw_friction(st, first, count, buf, nullptr);
    for (std::size_t s = 0; s < count; ++s)
      for (int r = 0; r < m_u; ++r) sim->mu(s, r) = buf.mu[s * m_u + r];
  }

  sim->energies(buf.ke0, buf.pe0);
  sim->step(tr.dt, int(tr.steps));
  sim->energies(buf.ke1, buf.pe1);

  out.first = first;
  out.count = count;
  out.values.setConstant(count, L.total, std::numeric_limits<double>::quiet_NaN());
  out.status.assign(sim->status.begin(), sim->status.end());
  out.non_finite.assign(count, -1);
  out.energy_consistent.assign(count, 0);
  out.at_rest.assign(count, 0);
  out.candidate.assign(count * m_u, 0);
  out.released.assign(count * m_u, 0);
  for (std::size_t s = 0; s < count; ++s) {
    auto row = out.values.row(s);
    for (int r = 0; r < m_u; ++r) row(L.e + r) = sim->e(s, r);
    if (L.mu >= 0)
      for (int r = 0; r < m_u; ++r) row(L.mu + r) = sim->mu(s, r);
    if (out.status[s] != Status::ok) continue;
    OutputRow<decltype(row)> put{row};  // the writers' finiteness rule (samples.hpp)
    put(L.impacts, double(sim->impacts[s]));
    row(L.last_impact_time) = sim->last_impact_time[s];  // NaN (missing) without an impact; a time in [0, T]
    for (int k = 0; k < L.nq; ++k) put(L.q_T + k, sim->q(s, k));
    for (int k = 0; k < n; ++k) put(L.qdot_T + k, sim->v(s, k));
    const double ke0 = buf.ke0[s], ke1 = buf.ke1[s];
    put(L.kinetic_energy_T, ke1);
    // KE(T) / KE(0): missing only when KE(0) = 0; an energy that overflowed makes it non-finite.
    if (!(std::isfinite(ke0) && ke0 <= 0))
      put(L.energy_ratio_T, std::isfinite(ke0) && std::isfinite(ke1) ? ke1 / ke0 : std::numeric_limits<double>::quiet_NaN());
    // At rest at T: the kinetic energy left is a tiny fraction of the energy the motion had to
    // spend (the initial kinetic energy plus the potential energy released), docs/sweep.md.
    const double available = ke0 + std::abs(buf.pe0[s] - buf.pe1[s]);
    out.at_rest[s] = ke1 <= tr.rest_energy * available;
    if (out.at_rest[s]) row(L.impacts_before_rest) = row(L.impacts);  // missing for a sample still moving
    if (put.bad >= 0) reject_non_finite(out, s, put.bad, L);
  }
}

}  // namespace obliq::sweep

// sweep/samples.cpp: drawing a chunk of samples and solving them (docs/sweep.md "Samples").
#include "sweep/samples.hpp"

#include <omp.h>

#include <cmath>
#include <limits>

#include "cpu/omp_guard.hpp"
#include "obliq/friction.hpp"
#include "obliq/io/scenario_json.hpp"
#include "obliq/model/friction_rows.hpp"
#include "sweep/distribution.hpp"
#include "sweep/random.hpp"

namespace obliq::sweep {
namespace {

constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();

// The batch of pre-impact scenarios: the model at the perturbed states, or the raw scenario
// with perturbed qdot. Model failures leave their status in `status`.
void build_batch(const Study& st, std::uint64_t first, std::size_t count, int threads, ChunkBuffers& buf) {
  RowMat<double>& Q = buf.Q;
  Batch<double>& batch = buf.batch;
  std::vector<Status>& status = buf.status;
  const int nv = int(st.qdot.size());
  const long long c = static_cast<long long>(count);
  if (st.model) {
    const model::Model& m = *st.model;
    draw_states(st, first, count, threads, Q, buf.V);
    model::evaluate_batch(m, Q, buf.V, batch, status, threads);
    if (st.closed_gaps) std::fill(batch.phi_u.begin(), batch.phi_u.end(), 0.0);
  } else {
    batch.reset(st.scenario->shape(), count);
    status.assign(count, Status::ok);
    for (std::size_t s = 0; s < count; ++s) {
      batch.set(s, *st.scenario);
      for (int k = 0; k < nv; ++k)
        batch.qdot[s * nv + k] += draw(st.dqdot[k], uniform01(st.seed, Stream::qdot, first + s, k));
    }
  }
  // Restitution per unilateral row; e(v) laws read the row's approach speed -(A_u qdot)_i.
  const int mu = batch.shape.m_u;
  cpu::OmpGuard guard;  // no exception crosses the region (cpu/omp_guard.hpp)
#pragma omp parallel for schedule(static) num_threads(cpu::thread_count(threads))
  for (long long s = 0; s < c; ++s) {
    guard.run([&] {
      for (int r = 0; r < mu; ++r) {
        const double vn = batch.A_u_of(s).row(r).dot(batch.qdot_of(s));
        batch.e[s * mu + r] = draw(st.restitution[r], uniform01(st.seed, Stream::restitution, first + s, r), -vn);
      }
      batch.law[s] = std::uint8_t(st.law);
    });
  }
  guard.rethrow();
}

// The impact of every sample with friction: the core's frictional impact (docs/friction.md (F9),
// e_t = 0) through obliq::impact(Scenario, Friction) on each sample's scenario (Backend::cuda:
// the same function on the device, through obliq::impact_batch), with the tangent
// rows of the model's contact frames at the sample's state and the sample's mu (mu = 0 on every
// contact: the core answers with the frictionless impact). Results go into buffers.results as the
// batch solve would put them; |lambda_t| per contact into buffers.tangential.
void solve_frictional(const Study& st, std::uint64_t first, std::size_t count, int threads, ChunkBuffers& buf,
                      Backend backend) {
  const Batch<double>& batch = buf.batch;
  const int m_u = batch.shape.m_u;
  draw_friction(st, first, count, buf, &batch);
  buf.results.resize(batch.shape, count);
  buf.tangential.assign(count * std::size_t(m_u), std::numeric_limits<double>::quiet_NaN());
  const model::Model& m = *st.model;
  // Each sample's scenario and Friction (tangent rows at its state, its mu); `pre` the status
  // of a sample that fails before the solve (the model's or the tangent rows').
  const auto prepare = [&](long long s, Scenario& sc, Friction& f, Status& pre) {
    pre = buf.status[s];
    if (pre != Status::ok) return;
    pre = model::evaluate_friction(m, buf.Q.row(s).transpose(), buf.V.row(s).transpose(), 0.0, f);
    if (pre != Status::ok) return;
    f.mu = ConstVecMap<double>(buf.mu.data() + s * m_u, m_u);
    f.formulation = st.friction_formulation;
    f.directions = st.facets;
    sc = batch.get(std::size_t(s));
  };
  // The answer of sample s into the results (and |lambda_t| per contact).
  const auto store = [&](long long s, ImpactResult& r, const FrictionResult& info) {
    if (r.status == Status::ok) {
      for (int c = 0; c < m_u; ++c)
        buf.tangential[s * m_u + c] = info.lambda_t.size() > 0 ? info.lambda_t.segment(2 * c, 2).norm() : 0.0;
    } else {  // the shape set() expects, values unused
      const Shape sh = batch.shape;
      r.qdot_plus = r.impulse = Eigen::VectorXd::Zero(sh.n);
      r.lambda = Eigen::VectorXd::Zero(sh.m_b + sh.m_u);
      r.active = Eigen::VectorXi::Zero(sh.m_u);
      r.energy_consistent = false;
    }
    buf.results.set(std::size_t(s), r);
  };
  cpu::OmpGuard guard;  // no exception crosses the region (cpu/omp_guard.hpp)
  if (backend == Backend::cuda) {
    // Prepared on the host, solved on the device in one obliq::impact_batch (the same core
    // function per sample, docs/cuda.md "Frictional scenarios on the device"), stored back.
    std::vector<Scenario> scenarios(count);
    std::vector<Friction> frictions(count);
    std::vector<Status> pre(count);
#pragma omp parallel for schedule(dynamic, 16) num_threads(cpu::thread_count(threads))
    for (long long s = 0; s < static_cast<long long>(count); ++s)
      guard.run([&] { prepare(s, scenarios[s], frictions[s], pre[s]); });
    guard.rethrow();
    std::vector<FrictionalScenario> todo;
    std::vector<long long> which;
    for (long long s = 0; s < static_cast<long long>(count); ++s)
      if (pre[s] == Status::ok) {
        todo.push_back({&scenarios[s], &frictions[s]});
        which.push_back(s);
      }
    std::vector<FrictionResult> infos;
    std::vector<ImpactResult> solved = impact_batch<double>(todo, Backend::cuda, &infos);
    std::vector<long long> slot(count, -1);
    for (std::size_t k = 0; k < which.size(); ++k) slot[which[k]] = static_cast<long long>(k);
#pragma omp parallel for schedule(static) num_threads(cpu::thread_count(threads))
    for (long long s = 0; s < static_cast<long long>(count); ++s)
      guard.run([&] {
        ImpactResult none;
        none.status = pre[s];
        const FrictionResult no_info;
        if (slot[s] >= 0) store(s, solved[std::size_t(slot[s])], infos[std::size_t(slot[s])]);
        else store(s, none, no_info);
      });
    guard.rethrow();
    return;
  }
#pragma omp parallel for schedule(dynamic, 16) num_threads(cpu::thread_count(threads))
  for (long long s = 0; s < static_cast<long long>(count); ++s) {
    guard.run([&] {
      ImpactResult r;
      FrictionResult info;
      Scenario sc;
      Friction f;
      prepare(s, sc, f, r.status);
      if (r.status == Status::ok) r = obliq::impact(sc, f, &info);
      store(s, r, info);
    });
  }
  guard.rethrow();
}

}  // namespace

void draw_states(const Study& st, std::uint64_t first, std::size_t count, int threads, RowMat<double>& Q,
                 RowMat<double>& V) {
  const model::Model& m = *st.model;
  const int nv = m.nv;
  Q.resize(count, m.nq);
  V.resize(count, nv);
  cpu::OmpGuard guard;  // no exception crosses the region (cpu/omp_guard.hpp)
#pragma omp parallel for schedule(static) num_threads(cpu::thread_count(threads))
  for (long long s = 0; s < static_cast<long long>(count); ++s) {
    guard.run([&] {
      const std::uint64_t i = first + std::uint64_t(s);
      Eigen::VectorXd dq(nv);
      for (int k = 0; k < nv; ++k) {
        dq(k) = draw(st.dq[k], uniform01(st.seed, Stream::q, i, k));
        V(s, k) = st.qdot(k) + draw(st.dqdot[k], uniform01(st.seed, Stream::qdot, i, k));
      }
      Q.row(s) = model::integrate(m, st.q, dq, 1.0).transpose();  // q perturbed along the tangent space
    });
  }
  guard.rethrow();
}

Layout layout(const Study& st) {
  Layout L;
  L.n = int(st.qdot.size());
  L.nq = st.model ? st.model->nq : L.n;
  L.m_b = st.model ? st.model->n_bilateral : int(st.scenario->A_b.rows());
  L.m_u = int(st.contact_names.size()) - L.m_b;
  L.joints = st.joint_impulses ? st.model->nbodies() : 0;
  int at = 0;
  const auto take = [&](int size) {
    const int start = size > 0 ? at : -1;
    at += size;
    return start;
  };
  const bool friction = !st.friction.empty();
  L.e = take(L.m_u);
  L.mu = take(friction ? L.m_u : 0);
  L.outputs = at;
  if (st.trajectory) {
    L.joints = 0;
    L.impacts = take(1);
    L.impacts_before_rest = take(1);
    L.last_impact_time = take(1);
    L.q_T = take(L.nq);
    L.qdot_T = take(L.n);
    L.kinetic_energy_T = take(1);
    L.energy_ratio_T = take(1);
  } else {
    L.qdot_plus = take(L.n);
    L.qdot_plus_norm = take(1);
    L.impulse = take(L.m_b + L.m_u);
    L.tangential_impulse = take(friction ? L.m_u : 0);
    L.separation = take(L.m_u);
    L.energy_ratio = take(1);
    L.joint_force = take(L.joints);
    L.joint_moment = take(L.joints);
  }
  L.total = at;
  return L;
}

namespace {

// Names and units of the velocity coordinates (or, `positions`, the configuration coordinates)
// of a model: a free flyer's six (seven), one per other joint.
std::vector<Column> coordinates(const model::Model& m, bool positions) {
  static const char* ffv[6] = {"vx", "vy", "vz", "wx", "wy", "wz"};
  static const char* ffq[7] = {"x", "y", "z", "qx", "qy", "qz", "qw"};
  std::vector<Column> c(positions ? m.nq : m.nv);
  for (int b = 0; b < m.nbodies(); ++b) {
    const auto t = model::JointType(m.joint_type[b]);
    const int k0 = positions ? m.idx_q[b] : m.idx_v[b];
    const bool revolute = t == model::JointType::revolute;
    if (t == model::JointType::free_flyer) {
      for (int k = 0; k < (positions ? 7 : 6); ++k)
        c[k0 + k] = {m.joint_names[b] + "." + (positions ? ffq[k] : ffv[k]),
                     positions ? (k < 3 ? "m" : "1") : (k < 3 ? "m/s" : "rad/s")};
    } else if (k0 >= 0 && k0 < int(c.size())) {
      c[k0] = {m.joint_names[b], positions ? (revolute ? "rad" : "m") : (revolute ? "rad/s" : "m/s")};
    }
  }
  return c;
}

}  // namespace

std::vector<Column> columns(const Study& st) {
  const Layout L = layout(st);
  std::vector<Column> c(L.total);
  for (int r = 0; r < L.m_u; ++r) c[L.e + r] = {"e." + st.contact_names[L.m_b + r], "1"};
  if (L.mu >= 0)
    for (int r = 0; r < L.m_u; ++r) c[L.mu + r] = {"mu." + st.contact_names[L.m_b + r], "1"};
  std::vector<Column> vel, pos;
  if (st.model) {
    vel = coordinates(*st.model, false);
    pos = coordinates(*st.model, true);
  } else {
    for (int k = 0; k < L.n; ++k) {
      vel.push_back({std::to_string(k + 1), "generalized"});
      pos.push_back({std::to_string(k + 1), "generalized"});
    }
  }
  const std::string energy = st.model ? "J" : "generalized";
  if (st.trajectory) {
    c[L.impacts] = {"impacts", "1"};
    c[L.impacts_before_rest] = {"impacts_before_rest", "1"};
    c[L.last_impact_time] = {"last_impact_time", "s"};
    for (int k = 0; k < L.nq; ++k) c[L.q_T + k] = {"q_T." + pos[k].name, pos[k].unit};
    for (int k = 0; k < L.n; ++k) c[L.qdot_T + k] = {"qdot_T." + vel[k].name, vel[k].unit};
    c[L.kinetic_energy_T] = {"kinetic_energy_T", energy};
    c[L.energy_ratio_T] = {"energy_ratio_T", "1"};
    return c;
  }
  for (int k = 0; k < L.n; ++k) c[L.qdot_plus + k] = {"qdot_plus." + vel[k].name, vel[k].unit};
  c[L.qdot_plus_norm] = {"qdot_plus_norm", "generalized"};
  for (int r = 0; r < L.m_b + L.m_u; ++r) c[L.impulse + r] = {"impulse." + st.contact_names[r], st.model ? "N s" : "generalized"};
  if (L.tangential_impulse >= 0)
    for (int r = 0; r < L.m_u; ++r)
      c[L.tangential_impulse + r] = {"tangential_impulse." + st.contact_names[L.m_b + r], st.model ? "N s" : "generalized"};
  for (int r = 0; r < L.m_u; ++r)
    c[L.separation + r] = {"separation_velocity." + st.contact_names[L.m_b + r], st.model ? "m/s" : "generalized"};
  c[L.energy_ratio] = {"energy_ratio", "1"};
  for (int b = 0; b < L.joints; ++b) {
    c[L.joint_force + b] = {"joint_force." + st.model->joint_names[b], "N s"};
    c[L.joint_moment + b] = {"joint_moment." + st.model->joint_names[b], "N m s"};
  }
  return c;
}

void draw_friction(const Study& st, std::uint64_t first, std::size_t count, ChunkBuffers& buf, const Batch<double>* batch) {
  const int m_u = int(st.friction.size());
  buf.mu.resize(count * std::size_t(m_u));
  for (std::size_t s = 0; s < count; ++s)
    for (int r = 0; r < m_u; ++r) {
      const double vn = batch ? batch->A_u_of(s).row(r).dot(batch->qdot_of(s)) : 0.0;
      buf.mu[s * m_u + r] = draw(st.friction[r], uniform01(st.seed, Stream::friction, first + s, r), -vn);
    }
}

void run_samples(const Study& st, std::uint64_t first, std::size_t count, int threads, SampleTable& out,
                 Backend backend) {
  ChunkBuffers buffers;
  run_samples(st, first, count, threads, out, buffers, backend);
}

void run_samples(const Study& st, std::uint64_t first, std::size_t count, int threads, SampleTable& out,
                 ChunkBuffers& buf, Backend backend) {
  if (st.trajectory) return run_trajectories(st, first, count, threads, out, buf, backend);
  const Layout L = layout(st);
  build_batch(st, first, count, threads, buf);
  const Batch<double>& batch = buf.batch;
  const RowMat<double>& Q = buf.Q;
  const std::vector<Status>& model_status = buf.status;
  ImpactResults<double>& res = buf.results;
  if (st.friction.empty()) {
    RunOptions run;
    run.backend = backend;
    run.threads = backend == Backend::cuda ? 0 : threads;  // the cpu's threads; cuda refuses any other
    solve_impact(batch, res, run);
  } else {
    solve_frictional(st, first, count, threads, buf, backend);
  }

  out.first = first;
  out.count = count;
  out.values.setConstant(count, L.total, kMissing);
  out.status.resize(count);
  out.non_finite.assign(count, -1);
  out.energy_consistent.assign(count, 0);
  out.candidate.assign(count * L.m_u, 0);
  out.released.assign(count * L.m_u, 0);
  const long long c = static_cast<long long>(count);
  const int n = L.n, m = L.m_b + L.m_u;
  if (L.joints > 0) {
    buf.want_joints.assign(count, 0);
    buf.dqdot.resize(Eigen::Index(count), n);
  }
#pragma omp parallel for schedule(static) num_threads(cpu::thread_count(threads))
  for (long long s = 0; s < c; ++s) {
    auto row = out.values.row(s);
    for (int r = 0; r < L.m_u; ++r) row(L.e + r) = batch.e[s * L.m_u + r];
    if (L.mu >= 0)
      for (int r = 0; r < L.m_u; ++r) row(L.mu + r) = buf.mu[s * L.m_u + r];
    const Status status = model_status[s] != Status::ok ? model_status[s] : res.status[s];
    out.status[s] = status;
    if (status != Status::ok) continue;
    OutputRow<decltype(row)> put{row};
    const ConstVecMap<double> vp(res.qdot_plus.data() + s * n, n);
    const ConstVecMap<double> lambda(res.lambda.data() + s * m, m);
    for (int k = 0; k < n; ++k) put(L.qdot_plus + k, vp(k));
    put(L.qdot_plus_norm, vp.norm());
    for (int r = 0; r < m; ++r) put(L.impulse + r, lambda(r));
    if (L.tangential_impulse >= 0)
      for (int r = 0; r < L.m_u; ++r) put(L.tangential_impulse + r, buf.tangential[s * L.m_u + r]);
    const ConstMatMap<double> A_u(batch.A_u.data() + s * L.m_u * n, L.m_u, n);
    for (int r = 0; r < L.m_u; ++r) {
      put(L.separation + r, A_u.row(r).dot(vp));
      // Released: a candidate row without impulse under the complementarity law; under the
      // projection law, a candidate row that pulls (lambda < 0), which complementarity releases.
      const bool cand = res.active[s * L.m_u + r] != 0;
      const double lr = lambda(L.m_b + r);
      out.candidate[s * L.m_u + r] = cand;
      out.released[s * L.m_u + r] = cand && (st.law == Law::complementarity ? lr == 0.0 : lr < 0.0);
    }
    // KE_post / KE_pre (docs/math.md 5): missing only when KE_pre = 0; a kinetic energy that
    // overflowed makes it non-finite.
    const double ke0 = res.kinetic_energy_pre[s], ke1 = res.kinetic_energy_post[s];
    if (!(std::isfinite(ke0) && ke0 <= 0)) put(L.energy_ratio, std::isfinite(ke0) && std::isfinite(ke1) ? ke1 / ke0 : kMissing);
    out.energy_consistent[s] = res.energy_consistent[s];
    if (put.bad >= 0) {
      reject_non_finite(out, std::size_t(s), put.bad, L);
      continue;
    }
    if (L.joints > 0) {  // seed 002's internal impulses over the velocity jump, below
      buf.want_joints[s] = 1;
      for (int k = 0; k < n; ++k) buf.dqdot(s, k) = vp(k) - batch.qdot[s * n + k];
    }
  }
  if (L.joints == 0) return;
  const Eigen::Map<const RowMat<double>> lambda_all(res.lambda.data(), Eigen::Index(count), m);
  model::joint_impulses_batch(*st.model, Q, buf.V, buf.dqdot, lambda_all, buf.want_joints, buf.joints, threads);
#pragma omp parallel for schedule(static) num_threads(cpu::thread_count(threads))
  for (long long s = 0; s < c; ++s) {
    if (!buf.want_joints[s]) continue;
    auto row = out.values.row(s);
    OutputRow<decltype(row)> put{row};
    const ConstMatMap<double> J(&buf.joints(s, 0), L.joints, 6);
    for (int b = 0; b < L.joints; ++b) {
      put(L.joint_force + b, J.row(b).head<3>().norm());
      put(L.joint_moment + b, J.row(b).tail<3>().norm());
    }
    if (put.bad >= 0) reject_non_finite(out, std::size_t(s), put.bad, L);
  }
}

void reject_non_finite(SampleTable& t, std::size_t s, int column, const Layout& L) {
  t.status[s] = Status::non_finite;
  t.non_finite[s] = column;
  t.values.row(s).segment(L.outputs, L.total - L.outputs).setConstant(kMissing);
  if (!t.energy_consistent.empty()) t.energy_consistent[s] = 0;
  if (!t.at_rest.empty()) t.at_rest[s] = 0;
  for (int r = 0; r < L.m_u; ++r) t.candidate[s * L.m_u + r] = t.released[s * L.m_u + r] = 0;
}

std::string output_group(const std::string& column) { return column.substr(0, column.find('.')); }

std::string non_finite_reason(const Column& c) { return io::non_finite_result(output_group(c.name).c_str()); }

std::string outcome_reason(const SampleTable& t, std::size_t s, const std::vector<Column>& cols) {
  if (!t.non_finite.empty() && t.non_finite[s] >= 0) return non_finite_reason(cols[t.non_finite[s]]);
  return status_reason(t.status[s]);
}

}  // namespace obliq::sweep

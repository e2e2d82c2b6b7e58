// model/model.cpp: the host side of the model layer: building models, views, evaluation of one
// state or many states into scenarios and batches.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "cpu/omp_guard.hpp"
#include "obliq/core/lanes.hpp"
#include "obliq/model/contact_rows.hpp"
#include "obliq/model/crba.hpp"
#include "obliq/model/host.hpp"
#include "obliq/model/integrate.hpp"
#include "obliq/model/joint_impulses.hpp"
#include "obliq/model/kinematics.hpp"
#include "obliq/model/momentum.hpp"
#include "obliq/model/rnea.hpp"

namespace obliq::model {

template <class T> ModelView<T> ModelT<T>::view() const {
  ModelView<T> v;
  v.nbodies = nbodies();
  v.nq = nq;
  v.nv = nv;
  v.ncontacts = ncontacts();
  v.n_bilateral = n_bilateral;
  v.parent = parent.data();
  v.joint_type = joint_type.data();
  v.idx_q = idx_q.data();
  v.idx_v = idx_v.data();
  v.velocity_parent = velocity_parent.size() == std::size_t(nv) ? velocity_parent.data() : nullptr;
  v.placement_R = placement_R.data();
  v.placement_p = placement_p.data();
  v.axis = axis.data();
  v.mass = mass.data();
  v.com = com.data();
  v.inertia = inertia.data();
  v.contact_body_a = contact_body_a.data();
  v.contact_body_b = contact_body_b.data();
  v.contact_point_a = contact_point_a.data();
  v.contact_point_b = contact_point_b.data();
  v.contact_normal = contact_normal.data();
  v.contact_offset = contact_offset.data();
  for (int k = 0; k < 3; ++k) v.gravity[k] = gravity[k];
  return v;
}

template <class T> template <class U> ModelT<U> ModelT<T>::cast() const {
  auto conv = [](const std::vector<T>& a) { return std::vector<U>(a.begin(), a.end()); };
  ModelT<U> o;
  o.name = name;
  o.nq = nq;
  o.nv = nv;
  o.n_bilateral = n_bilateral;
  o.joint_names = joint_names;
  o.parent = parent;
  o.joint_type = joint_type;
  o.idx_q = idx_q;
  o.idx_v = idx_v;
  o.velocity_parent = velocity_parent;
  o.placement_R = conv(placement_R);
  o.placement_p = conv(placement_p);
  o.axis = conv(axis);
  o.mass = conv(mass);
  o.com = conv(com);
  o.inertia = conv(inertia);
  o.contact_body_a = contact_body_a;
  o.contact_body_b = contact_body_b;
  o.contact_point_a = conv(contact_point_a);
  o.contact_point_b = conv(contact_point_b);
  o.contact_normal = conv(contact_normal);
  o.contact_offset = conv(contact_offset);
  o.contact_names = contact_names;
  o.frames = frames;
  for (int k = 0; k < 3; ++k) o.gravity[k] = U(gravity[k]);
  o.warnings = warnings;
  return o;
}

template struct ModelT<double>;
template struct ModelT<float>;
template ModelT<float> ModelT<double>::cast<float>() const;
template ModelT<double> ModelT<double>::cast<double>() const;  // a copy: generic code casts to its T
// The model's constants broadcast to lanes (evaluate_batch).
template struct ModelT<Lanes<double, lane_width<double>>>;
template struct ModelT<Lanes<float, lane_width<float>>>;
template ModelT<Lanes<double, lane_width<double>>> ModelT<double>::cast<Lanes<double, lane_width<double>>>() const;
template ModelT<Lanes<float, lane_width<float>>> ModelT<float>::cast<Lanes<float, lane_width<float>>>() const;

namespace {
void push_mat(std::vector<double>& dst, const Eigen::Matrix3d& R) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) dst.push_back(R(i, j));
}
void push_vec(std::vector<double>& dst, const Eigen::Vector3d& p) {
  for (int i = 0; i < 3; ++i) dst.push_back(p(i));
}
}  // namespace

int add_body(Model& m, const std::string& joint_name, int parent, JointType type, const Eigen::Matrix3d& R0,
             const Eigen::Vector3d& p0, const Eigen::Vector3d& axis, double mass, const Eigen::Vector3d& com,
             const Eigen::Matrix3d& Ic) {
  if (parent >= m.nbodies()) throw std::invalid_argument("add_body: parent " + std::to_string(parent) + " does not exist");
  const int i = m.nbodies();
  m.joint_names.push_back(joint_name);
  m.parent.push_back(parent);
  m.joint_type.push_back(int(type));
  m.idx_q.push_back(m.nq);
  m.idx_v.push_back(m.nv);
  // The joint's coordinates form a chain below the last coordinate of the parent body's joint.
  const int above = parent < 0 ? -1 : m.idx_v[std::size_t(parent)] + joint_nv(JointType(m.joint_type[std::size_t(parent)])) - 1;
  for (int k = 0; k < joint_nv(type); ++k) m.velocity_parent.push_back(k == 0 ? above : m.nv + k - 1);
  m.nq += joint_nq(type);
  m.nv += joint_nv(type);
  push_mat(m.placement_R, R0);
  push_vec(m.placement_p, p0);
  const double na = axis.norm();
  push_vec(m.axis, na > 0 ? Eigen::Vector3d(axis / na) : Eigen::Vector3d::UnitZ());
  m.mass.push_back(0);
  push_vec(m.com, Eigen::Vector3d::Zero());
  push_mat(m.inertia, Eigen::Matrix3d::Zero());
  add_rigid_inertia(m, i, mass, com, Ic);
  return i;
}

// Two rigid masses combine into one: m = m1 + m2, c = (m1 c1 + m2 c2) / m,
// I_c = sum (I_k + m_k (|d_k|^2 1 - d_k d_k^T)) with d_k = c_k - c.
void add_rigid_inertia(Model& m, int body, double mass, const Eigen::Vector3d& com, const Eigen::Matrix3d& Ic) {
  const double m1 = m.mass[body];
  const Eigen::Vector3d c1(m.com[3 * body], m.com[3 * body + 1], m.com[3 * body + 2]);
  const Eigen::Matrix3d I1 = Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(&m.inertia[9 * body]);
  const double mt = m1 + mass;
  const Eigen::Vector3d c = mt > 0 ? Eigen::Vector3d((m1 * c1 + mass * com) / mt) : c1;
  auto shift = [](double mk, const Eigen::Vector3d& d) {
    return Eigen::Matrix3d(mk * (d.squaredNorm() * Eigen::Matrix3d::Identity() - d * d.transpose()));
  };
  const Eigen::Matrix3d I = I1 + shift(m1, c1 - c) + Ic + shift(mass, com - c);
  m.mass[body] = mt;
  for (int k = 0; k < 3; ++k) m.com[3 * body + k] = c(k);
  for (int r = 0; r < 3; ++r)
    for (int s = 0; s < 3; ++s) m.inertia[9 * body + 3 * r + s] = 0.5 * (I(r, s) + I(s, r));
}

void add_contact(Model& m, const ContactSpec& c) {
  if (c.body_a < -1 || c.body_a >= m.nbodies() || c.body_b < -1 || c.body_b >= m.nbodies())
    throw std::invalid_argument("add_contact: unknown body in contact '" + c.name + "'");
  const double nn = c.normal.norm();
  if (!(nn > 0)) throw std::invalid_argument("add_contact: zero normal in contact '" + c.name + "'");
  // Bilateral rows first: insert at n_bilateral, unilateral rows at the end.
  const int at = c.bilateral ? m.n_bilateral : m.ncontacts();
  auto ins3 = [at](std::vector<double>& v, const Eigen::Vector3d& x) {
    v.insert(v.begin() + 3 * at, {x(0), x(1), x(2)});
  };
  m.contact_names.insert(m.contact_names.begin() + at, c.name);
  m.contact_body_a.insert(m.contact_body_a.begin() + at, c.body_a);
  m.contact_body_b.insert(m.contact_body_b.begin() + at, c.body_b);
  ins3(m.contact_point_a, c.point_a);
  ins3(m.contact_point_b, c.point_b);
  ins3(m.contact_normal, c.normal / nn);
  m.contact_offset.insert(m.contact_offset.begin() + at, c.offset);
  if (c.bilateral) ++m.n_bilateral;
}

void add_ground_contact(Model& m, const std::string& link, const Eigen::Vector3d& point, double ground) {
  auto it = m.frames.find(link);
  if (it == m.frames.end()) {
    std::string known;
    for (const auto& [name, f] : m.frames) known += (known.empty() ? "" : ", ") + name;
    throw std::invalid_argument("unknown link '" + link + "' (links: " + known + ")");
  }
  const Frame& f = it->second;
  ContactSpec c;
  c.name = link;
  c.body_a = f.body;
  c.point_a = f.p + f.R * point;  // in the body frame (the world frame when the link is the fixed root)
  c.body_b = -1;
  c.point_b = Eigen::Vector3d::Zero();
  c.normal = Eigen::Vector3d::UnitZ();
  c.offset = ground;
  add_contact(m, c);
}

Eigen::VectorXd neutral(const Model& m) {
  Eigen::VectorXd q = Eigen::VectorXd::Zero(m.nq);
  for (int i = 0; i < m.nbodies(); ++i)
    if (m.joint_type[i] == int(JointType::free_flyer)) q(m.idx_q[i] + 6) = 1;
  return q;
}

Eigen::VectorXd configuration_rate(const Model& m, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  Eigen::VectorXd qd(m.nq);
  configuration_rate(m.view(), VecView<const double>{q.data(), int(q.size()), 1},
                     VecView<const double>{v.data(), int(v.size()), 1}, vec_view(qd.data(), m.nq));
  return qd;
}

Eigen::VectorXd integrate(const Model& m, const Eigen::VectorXd& q, const Eigen::VectorXd& v, double dt) {
  Eigen::VectorXd out(m.nq);
  integrate(m.view(), VecView<const double>{q.data(), int(q.size()), 1},
            VecView<const double>{v.data(), int(v.size()), 1}, dt, vec_view(out.data(), m.nq));
  return out;
}

Status evaluate(const Model& m, const Eigen::VectorXd& q, const Eigen::VectorXd& qdot, Scenario& out,
                StateExtras* extras) {
  const ModelView<double> mv = m.view();
  const Shape shape{m.nv, m.n_bilateral, m.n_unilateral()};
  out = Scenario::zeros(shape);
  if (q.size() != m.nq || qdot.size() != m.nv) return Status::bad_shape;
  std::vector<double> block(data_size(mv));
  const DataView<double> d = data_view(mv, block.data());
  const Status st = forward_kinematics(mv, d, VecView<const double>{q.data(), int(q.size()), 1},
                                       VecView<const double>{qdot.data(), int(qdot.size()), 1});
  if (st != Status::ok) return st;
  RowMat<double> M(m.nv, m.nv), A(m.ncontacts(), m.nv);
  Eigen::VectorXd phi(m.ncontacts());
  out.qdot = qdot;
  mass_matrix(mv, d, mat_view(M.data(), m.nv, m.nv));
  bias_forces(mv, d, vec_view(out.h.data(), m.nv));
  contact_rows(mv, d, mat_view(A.data(), m.ncontacts(), m.nv), vec_view(phi.data(), m.ncontacts()),
               vec_view(out.Adot_qdot.data(), m.ncontacts()));
  out.M = M;
  out.A_b = A.topRows(m.n_bilateral);
  out.A_u = A.bottomRows(m.n_unilateral());
  out.phi_u = phi.tail(m.n_unilateral());
  if (extras) {
    centroidal_momentum(mv, d, extras->com.data(), extras->momentum.data());
    extras->kinetic_energy = kinetic_energy(mv, d);
    extras->potential_energy = potential_energy(mv, d);
  }
  return Status::ok;
}

// Lanes across states (core/lanes.hpp, docs/design.md "Lanes across scenarios"): the model
// layer's per-state algorithms run on W = lane_width<T> states at once, on the model's constants
// broadcast to every lane, and each lane's M, h, rows, gaps and Adot qdot are written to its own
// scenario. A lane gives its state's scalar result (the same operations in the same order), so
// the batch does not depend on which states went through lanes. A chunk with a state that fails
// the kinematics' checks (any lane), the batch's last chunk when count is not a multiple of W,
// and the extras go through the scalar path, which gives each state its own status.
//
// The chunk loop of the lane drivers below (an orphaned `omp for`: call it inside a parallel
// region): states in chunks of W, a full chunk through lane_chunk(s0) when `lanes` (false from it
// sends the chunk the scalar way), every other state through scalar_state(s); nothing without
// scratch (the caller's guard rethrows after the region).
template <int W, class LaneChunk, class ScalarState>
void for_each_chunk(std::size_t count, bool lanes, bool have_scratch, const LaneChunk& lane_chunk,
                    const ScalarState& scalar_state) {
  const std::size_t chunks = (count + W - 1) / W;
#pragma omp for schedule(static)
  for (long long c = 0; c < (long long)chunks; ++c) {
    if (!have_scratch) continue;
    const std::size_t s0 = std::size_t(c) * W, s1 = std::min(count, s0 + W);
    if (lanes && s1 - s0 == std::size_t(W) && lane_chunk(s0)) continue;
    for (std::size_t s = s0; s < s1; ++s) scalar_state(s);
  }
}

// One thread's lane buffers; the lane model itself is built once per call and shared (read only).
template <class T> struct LaneScratch {
  using L = Lanes<T, lane_width<T>>;
  std::vector<L> block, q, v, M, h, A, phi, Adot_qdot;
  LaneScratch(const ModelT<T>& m, std::size_t dsize)
      : block(dsize), q(m.nq), v(m.nv), M(std::size_t(m.nv) * m.nv), h(m.nv), A(std::size_t(m.ncontacts()) * m.nv),
        phi(m.ncontacts()), Adot_qdot(m.ncontacts()) {}
};

template <class T>
void evaluate_batch(const ModelT<T>& m, const StatesRef<T>& Q, const StatesRef<T>& V,
                    Batch<T>& batch, std::vector<Status>& status, int threads, StateExtrasBatch<T>* extras) {
  if (Q.cols() != m.nq || V.cols() != m.nv || Q.rows() != V.rows())
    throw std::invalid_argument("evaluate_batch: Q must be (count x nq) and V (count x nv)");
  const std::size_t count = std::size_t(Q.rows());
  constexpr int W = lane_width<T>;
  const bool lanes = extras == nullptr && count >= std::size_t(W);
  using LT = typename LaneScratch<T>::L;
  ModelT<LT> lane_model;  // the model's constants broadcast to lanes, shared by every thread
  if (lanes) lane_model = m.template cast<LT>();
  const ModelView<LT> lane_mv = lane_model.view();
  const Shape shape{m.nv, m.n_bilateral, m.n_unilateral()};
  batch.reset(shape, count, Batch<T>::Refill::inputs_only);  // every state is written below, or cleared
  if (m.velocity_parent.size() == std::size_t(m.nv)) batch.parent = m.velocity_parent;
  status.assign(count, Status::ok);
  if (extras) {
    extras->com.setZero(count, 3);
    extras->momentum.setZero(count, 6);
    extras->kinetic_energy.setZero(count);
    extras->potential_energy.setZero(count);
  }
  const ModelView<T> mv = m.view();
  const std::size_t dsize = data_size(mv);
  const int nc = m.ncontacts(), nb = m.n_bilateral, nu = m.n_unilateral(), n = m.nv;
  // Scenario s's rows (nc x n, bilateral first), gaps and Adot qdot from the full rows a_ij,
  // phi_i, ad_i (functions of the row and column).
  const auto store_rows = [&](std::size_t s, auto a_ij, auto phi_i) {
    for (int i = 0; i < nc; ++i) {
      T* row = i < nb ? batch.A_b.data() + (s * nb + i) * n : batch.A_u.data() + (s * nu + i - nb) * n;
      for (int k = 0; k < n; ++k) row[k] = a_ij(i, k);
      if (i >= nb) batch.phi_u[s * nu + i - nb] = phi_i(i);
    }
  };
  cpu::OmpGuard guard;  // an allocation that fails is rethrown after the region, never inside
#pragma omp parallel num_threads(cpu::thread_count(threads))
  {
    std::vector<T> block, A, phi;
    std::unique_ptr<LaneScratch<T>> ls;
    guard.run([&] {
      block.resize(dsize);                              // per-thread state data
      A.resize(std::size_t(nc) * n), phi.resize(nc);    // (m x n), (m) all rows
      if (lanes) ls = std::make_unique<LaneScratch<T>>(m, dsize);
    });
    const bool have_scratch = block.size() == dsize && phi.size() == std::size_t(nc) && (!lanes || ls);
    const DataView<T> d = data_view(mv, block.data());
    const auto scalar_state = [&](std::size_t s) {
      const Status st = forward_kinematics(mv, d, VecView<const T>{Q.data() + s * Q.outerStride(), m.nq, 1},
                                           VecView<const T>{V.data() + s * V.outerStride(), n, 1});
      status[s] = st;
      if (st != Status::ok) return batch.clear_state(s);  // M = I, zeros: as a failed state is documented
      T* M = batch.M.data() + s * n * n;
      mass_matrix(mv, d, mat_view(M, n, n));
      bias_forces(mv, d, vec_view(batch.h.data() + s * n, n));
      for (int k = 0; k < n; ++k) batch.qdot[s * n + k] = V(s, k);
      contact_rows(mv, d, mat_view(A.data(), nc, n), vec_view(phi.data(), nc),
                   vec_view(batch.Adot_qdot.data() + s * nc, nc));
      store_rows(s, [&](int i, int k) { return A[std::size_t(i) * n + k]; }, [&](int i) { return phi[i]; });
      if (extras) {
        centroidal_momentum(mv, d, &extras->com(s, 0), &extras->momentum(s, 0));
        extras->kinetic_energy[s] = kinetic_energy(mv, d);
        extras->potential_energy[s] = potential_energy(mv, d);
      }
    };
    // W states s0 .. s0 + W - 1 in lanes; false (nothing written) when a lane fails a check.
    const auto lane_chunk = [&](std::size_t s0) {
      LaneScratch<T>& L = *ls;
      for (int l = 0; l < W; ++l) {
        for (int k = 0; k < m.nq; ++k) L.q[k].set(l, Q(s0 + l, k));
        for (int k = 0; k < n; ++k) L.v[k].set(l, V(s0 + l, k));
      }
      const DataView<LT> dl = data_view(lane_mv, L.block.data());
      if (forward_kinematics(lane_mv, dl, VecView<const LT>{L.q.data(), m.nq, 1}, VecView<const LT>{L.v.data(), n, 1}) !=
          Status::ok)
        return false;
      mass_matrix(lane_mv, dl, mat_view(L.M.data(), n, n));
      bias_forces(lane_mv, dl, vec_view(L.h.data(), n));
      contact_rows(lane_mv, dl, mat_view(L.A.data(), nc, n), vec_view(L.phi.data(), nc), vec_view(L.Adot_qdot.data(), nc));
      for (int l = 0; l < W; ++l) {
        const std::size_t s = s0 + l;
        for (std::size_t k = 0; k < std::size_t(n) * n; ++k) batch.M[s * n * n + k] = L.M[k][l];
        for (int k = 0; k < n; ++k) batch.h[s * n + k] = L.h[k][l], batch.qdot[s * n + k] = V(s, k);
        for (int i = 0; i < nc; ++i) batch.Adot_qdot[s * nc + i] = L.Adot_qdot[i][l];
        store_rows(s, [&](int i, int k) { return L.A[std::size_t(i) * n + k][l]; }, [&](int i) { return L.phi[i][l]; });
      }
      return true;
    };
    for_each_chunk<W>(count, lanes, have_scratch, lane_chunk, scalar_state);
  }
  guard.rethrow();
}

template void evaluate_batch<double>(const ModelT<double>&, const StatesRef<double>&, const StatesRef<double>&,
                                     Batch<double>&, std::vector<Status>&, int, StateExtrasBatch<double>*);
template void evaluate_batch<float>(const ModelT<float>&, const StatesRef<float>&, const StatesRef<float>&,
                                    Batch<float>&, std::vector<Status>&, int, StateExtrasBatch<float>*);

template <class T>
void joint_impulses_batch(const ModelT<T>& m, const StatesRef<T>& Q, const StatesRef<T>& V, const StatesRef<T>& dV,
                          const StatesRef<T>& Lambda, const std::vector<std::uint8_t>& want, RowMat<T>& out, int threads) {
  const int n = m.nv, nc = m.ncontacts(), nb = m.nbodies();
  const std::size_t count = std::size_t(Q.rows());
  if (Q.cols() != m.nq || V.cols() != n || dV.cols() != n || Lambda.cols() != nc || std::size_t(V.rows()) != count ||
      std::size_t(dV.rows()) != count || std::size_t(Lambda.rows()) != count || want.size() != count)
    throw std::invalid_argument(
        "joint_impulses_batch: Q (count x nq), V and dV (count x nv), Lambda (count x contacts) and want (count) must "
        "agree with the model and with each other");
  out.resize(Eigen::Index(count), 6 * Eigen::Index(nb));
  constexpr int W = lane_width<T>;
  using LT = Lanes<T, W>;
  const bool lanes = count >= std::size_t(W);
  ModelT<LT> lane_model;  // as in evaluate_batch: broadcast once, shared read-only by every thread
  if (lanes) lane_model = m.template cast<LT>();
  const ModelView<LT> lane_mv = lane_model.view();
  const ModelView<T> mv = m.view();
  const std::size_t dsize = data_size(mv);
  cpu::OmpGuard guard;
#pragma omp parallel num_threads(cpu::thread_count(threads))
  {
    std::vector<T> block;
    std::vector<LT> lblock, q, v, dv, lambda, J;
    guard.run([&] {
      block.resize(dsize);
      if (lanes) lblock.resize(dsize), q.resize(m.nq), v.resize(n), dv.resize(n), lambda.resize(nc), J.resize(6 * std::size_t(nb));
    });
    const bool have_scratch = block.size() == dsize && (!lanes || J.size() == 6 * std::size_t(nb));
    const DataView<T> d = data_view(mv, block.data());
    const auto scalar_state = [&](std::size_t s) {
      if (!want[s] || forward_kinematics(mv, d, VecView<const T>{Q.data() + s * Q.outerStride(), m.nq, 1},
                                         VecView<const T>{V.data() + s * V.outerStride(), n, 1}) != Status::ok) {
        out.row(Eigen::Index(s)).setZero();
        return;
      }
      joint_impulses(mv, d, VecView<const T>{dV.data() + s * dV.outerStride(), n, 1},
                     VecView<const T>{Lambda.data() + s * Lambda.outerStride(), nc, 1}, mat_view(&out(Eigen::Index(s), 0), nb, 6));
    };
    // W wanted states s0 .. s0 + W - 1 in lanes; false (nothing written) when a lane fails a check.
    const auto lane_chunk = [&](std::size_t s0) {
      for (int l = 0; l < W; ++l) {
        const std::size_t s = s0 + l;
        if (!want[s]) return false;
        for (int k = 0; k < m.nq; ++k) q[k].set(l, Q(s, k));
        for (int k = 0; k < n; ++k) v[k].set(l, V(s, k)), dv[k].set(l, dV(s, k));
        for (int k = 0; k < nc; ++k) lambda[k].set(l, Lambda(s, k));
      }
      const DataView<LT> dl = data_view(lane_mv, lblock.data());
      if (forward_kinematics(lane_mv, dl, VecView<const LT>{q.data(), m.nq, 1}, VecView<const LT>{v.data(), n, 1}) != Status::ok)
        return false;
      joint_impulses(lane_mv, dl, VecView<const LT>{dv.data(), n, 1}, VecView<const LT>{lambda.data(), nc, 1},
                     mat_view(J.data(), nb, 6));
      for (int l = 0; l < W; ++l)
        for (int k = 0; k < 6 * nb; ++k) out(Eigen::Index(s0 + l), k) = J[std::size_t(k)][l];
      return true;
    };
    for_each_chunk<W>(count, lanes, have_scratch, lane_chunk, scalar_state);
  }
  guard.rethrow();
}

template void joint_impulses_batch<double>(const ModelT<double>&, const StatesRef<double>&, const StatesRef<double>&,
                                           const StatesRef<double>&, const StatesRef<double>&,
                                           const std::vector<std::uint8_t>&, RowMat<double>&, int);

Eigen::MatrixXd joint_impulses(const Model& m, const Eigen::VectorXd& q, const Eigen::VectorXd& qdot,
                               const Eigen::VectorXd& qdot_plus, const Eigen::VectorXd& lambda) {
  const ModelView<double> mv = m.view();
  std::vector<double> block(data_size(mv));
  const DataView<double> d = data_view(mv, block.data());
  RowMat<double> out = RowMat<double>::Zero(m.nbodies(), 6);
  if (q.size() != m.nq || qdot.size() != m.nv || qdot_plus.size() != m.nv || lambda.size() != m.ncontacts())
    throw std::invalid_argument("joint_impulses: sizes do not match the model");
  if (forward_kinematics(mv, d, VecView<const double>{q.data(), int(q.size()), 1},
                         VecView<const double>{qdot.data(), int(qdot.size()), 1}) != Status::ok)
    return out;
  const Eigen::VectorXd dq = qdot_plus - qdot;
  joint_impulses(mv, d, VecView<const double>{dq.data(), int(dq.size()), 1},
                 VecView<const double>{lambda.data(), int(lambda.size()), 1}, mat_view(out.data(), m.nbodies(), 6));
  return out;
}

}  // namespace obliq::model

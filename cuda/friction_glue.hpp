// cuda/friction_glue.hpp: frictional scenarios on the cuda backend (obliq::impact_batch /
// dynamics_batch with Backend::cuda) as a sequence over a memory object: the scenarios grouped by
// shape and friction options, each group packed into a host Batch<T> (Batch::set, the cast the
// cpu path makes) and friction arrays, copied into the memory, cut into chunks whose scratch fits,
// the kernel body (cuda/friction_body.hpp) run over each chunk, the outputs copied back and
// unpacked in input order. cuda/friction_glue.cpp runs it with device memory
// (cuda/device_memory.hpp) and a kernel launch per chunk; tests/cuda_emulation with host vectors
// and a host loop over the body.
//
// Mem: cuda/sim_glue.hpp's (up, down, scratch); one per group, so that a group's memory is freed
// before the next one is taken. Host code (Eigen), no CUDA headers.
#pragma once

#include <cstddef>
#include <map>
#include <tuple>
#include <type_traits>
#include <vector>

#include "chunks.hpp"
#include "friction/host_glue.hpp"
#include "friction_body.hpp"
#include "obliq/batch.hpp"
#include "obliq/friction.hpp"

namespace obliq::cuda::detail {

// What one kernel launch shares: shape, dim, formulation, facets, LCP method, whether
// Adot_qdot_t / e_t are given (an absent one is not read, a zero one is added: -0 + 0 is +0), and
// A_t's rows and columns (as given: a misshaped A_t gets the core's own status, as on the cpu).
using FrictionGroup = std::tuple<Shape, int, int, int, int, bool, bool, long, long>;

inline FrictionGroup friction_group(const Scenario& s, const Friction& f) {
  return {s.shape(), f.dim, int(f.formulation), f.directions, int(f.lcp_solver), f.Adot_qdot_t.size() > 0, f.e_t.size() > 0,
          f.A_t.rows(), f.A_t.cols()};
}

// s with the vectors its use does not read sized for Batch::set (zeros), or s itself when they fit.
inline const Scenario& batch_ready(const Scenario& s, Scenario& padded) {
  const long n = s.M.rows(), mu = s.A_u.rows(), m = s.A_b.rows() + mu;
  if (s.qdot.size() == n && s.h.size() == n && s.u.size() == n && s.i_u.size() == n && s.Adot_qdot.size() == m &&
      s.e.size() == mu)
    return s;
  padded = s;
  for (Eigen::VectorXd* v : {&padded.h, &padded.u, &padded.i_u})
    if (v->size() != n) v->setZero(n);
  if (padded.Adot_qdot.size() != m) padded.Adot_qdot.setZero(m);
  if (padded.e.size() != mu) padded.e.setZero(mu);
  return padded;
}

// A scenario-contiguous array (the host Batch's layout): block entries per scenario.
template <class U> Strided<U> contiguous(U* data, std::size_t block) { return {data, std::ptrdiff_t(block), 1}; }

// Scenarios `members` of `batch` (all of group g) solved into out / info.
template <class T, class Result, class Mem, class Launch>
void solve_friction_group(const std::vector<FrictionalScenario>& batch, const std::vector<std::size_t>& members,
                          const FrictionGroup& g, std::vector<Result>& out, std::vector<FrictionResult>* info,
                          std::size_t scratch_bytes, Mem& mem, Launch&& launch) {
  constexpr bool dynamics = std::is_same_v<Result, DynamicsResult>;
  const auto& [shape, dim, formulation, directions, lcp_solver, has_adot_t, has_e_t, at_rows, at_cols] = g;
  const std::size_t c = members.size(), n = shape.n, mb = shape.m_b, mu = shape.m_u, m = mb + mu;
  const std::size_t t = std::size_t(dim - 1) * mu, at = std::size_t(at_rows) * std::size_t(at_cols);
  Batch<T> b(shape, c);
  std::vector<T> A_t(c * at), mu_(c * mu), adot_t(has_adot_t ? c * t : 0), e_t(has_e_t ? c * mu : 0);
  for (std::size_t j = 0; j < c; ++j) {
    const Scenario& s = *batch[members[j]].scenario;
    const Friction& f = *batch[members[j]].friction;
    Scenario padded;
    b.set(j, batch_ready(s, padded));
    Eigen::Map<RowMat<T>>(A_t.data() + j * at, at_rows, at_cols) = f.A_t.cast<T>();
    Eigen::Map<Vec<T>>(mu_.data() + j * mu, long(mu)) = f.mu.cast<T>();
    if (has_adot_t) Eigen::Map<Vec<T>>(adot_t.data() + j * t, long(t)) = f.Adot_qdot_t.cast<T>();
    if (has_e_t) Eigen::Map<Vec<T>>(e_t.data() + j * mu, long(mu)) = f.e_t.cast<T>();
  }
  // Outputs: the batched results' host buffers (zero-filled by resize), mirrored, run, copied
  // back, and unpacked by their get(), as frictionless batches are (obliq/batch.hpp).
  std::conditional_t<dynamics, DynamicsResults<T>, ImpactResults<T>> res;
  res.resize(shape, c);
  std::vector<T> lambda_t(c * t);
  std::vector<std::uint8_t> sliding(dynamics ? c * mu : 0);
  std::vector<int> status(c, int(Status::not_solved));
  std::vector<friction::Report<T>> reports(c);
  FrictionArrays<T> a;
  a.dynamics = dynamics;
  Inputs<T>& in = a.in;
  in.n = shape.n, in.m_b = shape.m_b, in.m_u = shape.m_u, in.count = c;
  in.M = contiguous<const T>(mem.up(b.M.data(), b.M.size()), n * n);
  in.qdot = contiguous<const T>(mem.up(b.qdot.data(), b.qdot.size()), n);
  in.h = contiguous<const T>(mem.up(b.h.data(), b.h.size()), n);
  in.u = contiguous<const T>(mem.up(b.u.data(), b.u.size()), n);
  in.i_u = contiguous<const T>(mem.up(b.i_u.data(), b.i_u.size()), n);
  in.A_b = contiguous<const T>(mem.up(b.A_b.data(), b.A_b.size()), mb * n);
  in.A_u = contiguous<const T>(mem.up(b.A_u.data(), b.A_u.size()), mu * n);
  in.phi_u = contiguous<const T>(mem.up(b.phi_u.data(), b.phi_u.size()), mu);
  in.Adot_qdot = contiguous<const T>(mem.up(b.Adot_qdot.data(), b.Adot_qdot.size()), m);
  in.e = contiguous<const T>(mem.up(b.e.data(), b.e.size()), mu);
  in.law = contiguous<const std::uint8_t>(mem.up(b.law.data(), c), 1);
  in.gap_tol = contiguous<const T>(mem.up(b.gap_tol.data(), c), 1);
  in.vel_tol = contiguous<const T>(mem.up(b.vel_tol.data(), c), 1);
  in.lcp_solver = ScenarioView<T>{}.lcp_solver;  // as the cpu's frictional entry (src/friction/solve.cpp)
  a.dim = dim;
  a.formulation = friction::Formulation(formulation);
  a.directions = directions;
  a.lcp_solver = lcp::Solver(lcp_solver);
  a.A_t_rows = int(at_rows), a.A_t_cols = int(at_cols);
  a.A_t = contiguous<const T>(mem.up(A_t.data(), A_t.size()), at);
  a.mu = contiguous<const T>(mem.up(mu_.data(), mu_.size()), mu);
  if (has_adot_t) a.Adot_qdot_t = contiguous<const T>(mem.up(adot_t.data(), adot_t.size()), t);
  if (has_e_t) a.e_t = contiguous<const T>(mem.up(e_t.data(), e_t.size()), mu);
  T* dlambda = mem.up(res.lambda.data(), res.lambda.size());
  std::uint8_t* dactive = mem.up(res.active.data(), res.active.size());
  int* dstatus = mem.up(status.data(), c);
  a.lambda_t = contiguous<T>(mem.up(lambda_t.data(), lambda_t.size()), t);
  a.report = mem.up(reports.data(), c);
  if constexpr (dynamics) {
    a.dout = {contiguous<T>(mem.up(res.qddot.data(), res.qddot.size()), n), contiguous<T>(dlambda, m),
              contiguous<std::uint8_t>(dactive, mu), contiguous<int>(dstatus, 1)};
    a.sliding = contiguous<std::uint8_t>(mem.up(sliding.data(), sliding.size()), mu);
  } else {
    a.io = {contiguous<T>(mem.up(res.qdot_plus.data(), res.qdot_plus.size()), n),
            contiguous<T>(mem.up(res.impulse.data(), res.impulse.size()), n),
            contiguous<T>(dlambda, m),
            contiguous<std::uint8_t>(dactive, mu),
            contiguous<T>(mem.up(res.kinetic_energy_pre.data(), c), 1),
            contiguous<T>(mem.up(res.kinetic_energy_post.data(), c), 1),
            contiguous<std::uint8_t>(mem.up(res.energy_consistent.data(), c), 1),
            contiguous<int>(dstatus, 1)};
  }
  const std::size_t ws = friction_scratch(a);
  for_each_chunk_with_scratch<T>(c, ws, scratch_bytes, mem,
                                 [&](std::size_t s0, std::size_t k, T* scratch) { launch(a, s0, k, scratch, ws); });
  mem.down(res.lambda.data(), dlambda, res.lambda.size());
  mem.down(res.active.data(), dactive, res.active.size());
  mem.down(status.data(), dstatus, c);
  mem.down(lambda_t.data(), a.lambda_t.data, lambda_t.size());
  mem.down(reports.data(), a.report, c);
  if constexpr (dynamics) {
    mem.down(res.qddot.data(), a.dout.qddot.data, res.qddot.size());
    mem.down(sliding.data(), a.sliding.data, sliding.size());
  } else {
    mem.down(res.qdot_plus.data(), a.io.qdot_plus.data, res.qdot_plus.size());
    mem.down(res.impulse.data(), a.io.impulse.data, res.impulse.size());
    mem.down(res.kinetic_energy_pre.data(), a.io.kinetic_energy_pre.data, c);
    mem.down(res.kinetic_energy_post.data(), a.io.kinetic_energy_post.data, c);
    mem.down(res.energy_consistent.data(), a.io.energy_consistent.data, c);
  }
  for (std::size_t j = 0; j < c; ++j) {
    res.status[j] = Status(status[j]);
    out[members[j]] = res.get(j);
    if (!info) continue;
    FrictionResult& fi = (*info)[members[j]];
    friction::fill_result(reports[j], lambda_t.data() + j * t, int(t), 1, &fi);
    if constexpr (dynamics)
      fi.sliding = Eigen::Map<const Eigen::Matrix<std::uint8_t, Eigen::Dynamic, 1>>(sliding.data() + j * mu, long(mu)).template cast<int>();
  }
}

// The whole batch: scenarios whose vectors do not fit their shape get Status::bad_shape unsolved
// (the cpu entry's check), the rest run group by group, each with a fresh Mem. launch(a, s0, chunk, scratch, ws) runs the body over one chunk.
template <class T, class Result, class Mem, class Launch>
std::vector<Result> run_friction(const std::vector<FrictionalScenario>& batch, std::vector<FrictionResult>* info,
                                 std::size_t scratch_bytes, Launch&& launch) {
  constexpr bool dynamics = std::is_same_v<Result, DynamicsResult>;
  std::vector<Result> out(batch.size());
  if (info) info->assign(batch.size(), FrictionResult{});
  std::map<FrictionGroup, std::vector<std::size_t>> groups;
  for (std::size_t k = 0; k < batch.size(); ++k) {
    const Scenario& s = *batch[k].scenario;
    const Friction& f = *batch[k].friction;
    if (!friction::host_inputs_fit(s, f, dynamics)) {
      out[k].status = Status::bad_shape;
      continue;
    }
    groups[friction_group(s, f)].push_back(k);
  }
  for (const auto& [g, members] : groups) {
    Mem mem;
    solve_friction_group<T>(batch, members, g, out, info, scratch_bytes, mem, launch);
  }
  return out;
}

// run_friction on the device (cuda/friction_glue.cpp); Result is ImpactResult or DynamicsResult.
// std::runtime_error ("backend cuda: ...") without a device.
template <class T, class Result>
std::vector<Result> solve_friction(const std::vector<FrictionalScenario>& batch, std::vector<FrictionResult>* info);

}  // namespace obliq::cuda::detail

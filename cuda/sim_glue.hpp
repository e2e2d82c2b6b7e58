// cuda/sim_glue.hpp: the Simulator's step on the cuda backend as a sequence over a memory
// object: mirror the batch (the model as two flat arrays, the raw systems, state, controls) into
// the memory, cut it into chunks whose scratch fits, run the kernel body over each chunk, copy
// the state back. cuda/sim_kernels.cuh runs it with device memory and a kernel launch per chunk
// (the kernel of the batch's configuration, chosen in cuda/sim_dispatch.cpp); tests/cuda_emulation
// with host vectors and a host loop over the body (cuda/sim_body.hpp).
//
// Mem: U* up(const U* host, std::size_t n)   a copy of n elements in that memory
//      void down(U* host, const U* copy, std::size_t n)
//      void to(U* copy, const U* host, std::size_t n)   into an existing copy (the resident batch)
//      T* scratch(std::size_t n)             n elements of scratch
// Host code, no CUDA headers.
#pragma once

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <vector>

#include "chunks.hpp"
#include "flat_model.hpp"
#include "sim_body.hpp"

namespace obliq::cuda::detail {

// True when some scenario has some mu != 0 (the frictional step's scratch is then needed).
template <class T> bool any_friction(const sim::BatchArrays<T>& h) {
  if (h.controls.mu == nullptr) return false;
  for (std::size_t k = 0; k < h.count * std::size_t(h.controls.m_u); ++k)
    if (!(h.controls.mu[k] == T(0))) return true;
  return false;
}

// The batch's configuration: which of the Simulator's kernels steps it.
template <class T> SimConfiguration sim_configuration(const sim::BatchArrays<T>& h, const sim::StepParams<T>& p) {
  return {h.is_model ? SimSystems::model : SimSystems::raw, p.integrator, any_friction(h)};
}

// f.template operator()<K, I, Frictional>() with configuration k as the template arguments: the
// one place where a batch's configuration becomes a kernel (the device launch and the emulation
// tests both go through it).
template <class F> void with_configuration(const SimConfiguration& k, F&& f) {
  using I = sim::Integrator;
  constexpr SimSystems model = SimSystems::model, raw = SimSystems::raw;
  const bool mj = k.integrator == I::moreau_jean, fr = k.frictional;
  if (k.systems == model) {
    if (mj) fr ? f.template operator()<model, I::moreau_jean, true>() : f.template operator()<model, I::moreau_jean, false>();
    else fr ? f.template operator()<model, I::event_driven, true>() : f.template operator()<model, I::event_driven, false>();
  } else {
    if (mj) fr ? f.template operator()<raw, I::moreau_jean, true>() : f.template operator()<raw, I::moreau_jean, false>();
    else fr ? f.template operator()<raw, I::event_driven, true>() : f.template operator()<raw, I::event_driven, false>();
  }
}

// Whether mirror() copies the host torques (step()) or leaves a count x nv buffer for the device
// to fill before any step reads it (step_pd: the actuator kernel writes every entry).
enum class Torques : int { copied, written_on_device };

// f(host, copy, n) for each state array of the host batch h and its copy d (n elements; copy is
// d's pointer itself, assignable where d is not const).
template <class T, class D, class F> void for_each_state_array(const sim::BatchArrays<T>& h, D& d, F&& f) {
  const std::size_t c = h.count, nq = h.state.nq, nv = h.state.nv, mu = h.state.m_u;
  f(h.state.q, d.state.q, c * nq);
  f(h.state.v, d.state.v, c * nv);
  f(h.state.t, d.state.t, c);
  f(h.state.active, d.state.active, c * mu);
  f(h.state.impacts, d.state.impacts, c);
  f(h.state.lcp_solves, d.state.lcp_solves, c);
  f(h.state.status, d.state.status, c);
  f(h.state.last_impact_time, d.state.last_impact_time, c);
  f(h.state.last_impact_v, d.state.last_impact_v, c * nv);
}

// The host torques of every scenario gathered into count x nv, row-major.
template <class T> std::vector<T> gathered_torques(const sim::BatchArrays<T>& h) {
  const sim::ControlArrays<T>& u = h.controls;
  const std::size_t c = h.count, nv = std::size_t(h.state.nv);
  std::vector<T> gathered(c * nv);
  for (std::size_t i = 0; i < c; ++i)
    for (std::size_t k = 0; k < nv; ++k) gathered[i * nv + k] = u.u[std::ptrdiff_t(i) * u.u_ss + std::ptrdiff_t(k) * u.u_es];
  return gathered;
}

// The batch's arrays copied into `mem` (the torques gathered into count x nv, or that buffer
// left to the device: Torques).
template <class T, class Mem>
sim::BatchArrays<T> mirror(const sim::BatchArrays<T>& h, Mem& mem, Torques torques = Torques::copied) {
  sim::BatchArrays<T> d = h;
  const std::size_t c = h.count;
  if (h.is_model) {
    const FlatModel<T> f = flatten(h.model);
    d.model = flat_view(h.model, mem.up(f.ints.data(), f.ints.size()), mem.up(f.reals.data(), f.reals.size()));
    d.gravity = mem.up(h.gravity, 3 * c);
  } else {
    const sim::LinearArrays<T>& r = h.raw;
    const std::size_t n = r.n, mb = r.mb, mu = r.mu;
    d.raw.M = mem.up(r.M, c * n * n);
    d.raw.h = mem.up(r.h, c * n);
    d.raw.A_b = mem.up(r.A_b, c * mb * n);
    d.raw.A_u = mem.up(r.A_u, c * mu * n);
    d.raw.phi_u = mem.up(r.phi_u, c * mu);
    d.raw.A_t = r.A_t ? mem.up(r.A_t, c * std::size_t(r.tdim - 1) * mu * n) : nullptr;
  }
  for_each_state_array(h, d, [&](const auto* host, auto& copy, std::size_t n) { copy = mem.up(host, n); });
  const std::size_t nv = h.state.nv, mu = h.state.m_u;
  const sim::ControlArrays<T>& u = h.controls;
  if (torques == Torques::copied) {
    const std::vector<T> gathered = gathered_torques(h);
    d.controls.u = mem.up(gathered.data(), gathered.size());
  } else {
    d.controls.u = mem.scratch(c * nv);
  }
  d.controls.u_ss = std::ptrdiff_t(nv);
  d.controls.u_es = 1;
  d.controls.e = mem.up(u.e, c * mu);
  d.controls.mu = u.mu ? mem.up(u.mu, c * mu) : nullptr;
  return d;
}

// The state of the copy `d` back into the host batch `h`.
template <class T, class Mem> void download_state(const sim::BatchArrays<T>& h, const sim::BatchArrays<T>& d, Mem& mem) {
  for_each_state_array(h, d, [&](auto* host, const auto* copy, std::size_t n) { mem.down(host, copy, n); });
}

// The host batch's state and controls into the existing copy `d` (the resident batch's upload;
// its systems stay): the host torques gathered into d's count x nv.
template <class T, class Mem> void upload_state_and_controls(const sim::BatchArrays<T>& h, const sim::BatchArrays<T>& d, Mem& mem) {
  for_each_state_array(h, d, [&](const auto* host, auto* copy, std::size_t n) { mem.to(copy, host, n); });
  const std::size_t c = h.count, nv = h.state.nv, mu = h.state.m_u;
  const sim::ControlArrays<T>& u = h.controls;
  const std::vector<T> gathered = gathered_torques(h);
  mem.to(const_cast<T*>(d.controls.u), gathered.data(), c * nv);
  mem.to(const_cast<T*>(d.controls.e), u.e, c * mu);
  if (u.mu != nullptr && d.controls.mu != nullptr) mem.to(const_cast<T*>(d.controls.mu), u.mu, c * mu);
  if (h.is_model) mem.to(const_cast<T*>(d.gravity), h.gravity, 3 * c);
}

// The copy's state and controls back into the host batch (its torques count x nv contiguous:
// the host's u must be too, u_ss = nv, u_es = 1).
template <class T, class Mem> void download_state_and_controls(const sim::BatchArrays<T>& h, const sim::BatchArrays<T>& d, Mem& mem) {
  download_state(h, d, mem);
  const std::size_t c = h.count, nv = h.state.nv, mu = h.state.m_u;
  if (h.controls.u_ss != std::ptrdiff_t(nv) || h.controls.u_es != 1)
    throw std::logic_error("backend cuda: the host torques must be count x nv contiguous");
  mem.down(const_cast<T*>(h.controls.u), d.controls.u, c * nv);
  mem.down(const_cast<T*>(h.controls.e), d.controls.e, c * mu);
  if (h.controls.mu != nullptr && d.controls.mu != nullptr) mem.down(const_cast<T*>(h.controls.mu), d.controls.mu, c * mu);
  if (h.is_model) mem.down(const_cast<T*>(h.gravity), d.gravity, 3 * c);
}

// One step() of the whole batch: launch(d, s0, chunk, scratch, ws) runs the body over scenarios
// [s0, s0 + chunk) of the copy d.
template <class T, class Mem, class Launch>
void run_simulation(const sim::BatchArrays<T>& h, const sim::StepParams<T>& p, std::size_t scratch_bytes, Mem& mem,
                    Launch&& launch) {
  if (h.count == 0) return;
  const sim::BatchArrays<T> d = mirror(h, mem);
  const std::size_t ws = sim_scratch(d, p, any_friction(h));
  for_each_chunk_with_scratch<T>(h.count, ws, scratch_bytes, mem,
                                 [&](std::size_t s0, std::size_t n, T* scratch) { launch(d, s0, n, scratch, ws); });
  download_state(h, d, mem);
}

}  // namespace obliq::cuda::detail

// obliq/host_views.hpp: solve scenarios that live in the caller's own host memory.
//
// The host twin of obliq::cuda::DeviceBatch (obliq/cuda.hpp): every quantity is one strided
// array over all scenarios, entry k of scenario s at data[s * scenario_stride + k * element_stride]
// (matrices row-major within a scenario: entry (i, j) is k = i * cols + j). Nothing is copied or
// allocated by obliq. A scenario_stride of 0 broadcasts one value to every scenario: one shared M
// or A for a whole Monte Carlo batch, one e (with element_stride 0 too: one global coefficient).
//
//   obliq::HostBatchView<double> v{{3, 0, 1}, count};
//   v.M = {M.data(), 0, 1};                   // one M for all scenarios
//   v.qdot = {qdot.data(), 3, 1};             // (count x 3)
//   v.A_u = {A.data(), 0, 1};                 // one contact row for all
//   v.e = {e.data(), 1, 0};                   // one coefficient per scenario
//   v.qdot_plus = {vplus.data(), 3, 1};  ...  // outputs: a stride per scenario, never 0
//   obliq::solve_impact(v, {obliq::Backend::cpu});
//
// Optional inputs left null read as zero (h, u, i_u, phi_u, Adot_qdot, e) or as their defaults
// (law = complementarity, gap_tol = vel_tol = 1e-9). Only the outputs of the solve asked for are
// needed (impact: qdot_plus, impulse, lambda, active, the two energies, energy_consistent and
// status; dynamics: qddot, lambda, active, status). The cpu and reference backends run on views;
// Backend::cuda is refused (device data goes through obliq::cuda::DeviceBatch).
#pragma once

#include <cstddef>
#include <cstdint>

#include "obliq/batch.hpp"

namespace obliq {

// A strided host array of all scenarios' values of one quantity; the same fields as
// obliq::cuda::DeviceArray.
template <class T> struct HostArray {
  T* data = nullptr;
  std::ptrdiff_t scenario_stride = 0;
  std::ptrdiff_t element_stride = 1;
};

template <class T> struct HostBatchView {
  Shape shape;
  std::size_t count = 0;

  // Inputs (const: never written).
  HostArray<const T> M;          // (count x n x n)        required
  HostArray<const T> qdot;       // (count x n)            required
  HostArray<const T> h;          // (count x n)            dynamics; null = 0
  HostArray<const T> u;          // (count x n)            dynamics; null = 0
  HostArray<const T> i_u;        // (count x n)            impact; null = 0
  HostArray<const T> A_b;        // (count x m_b x n)      required when m_b > 0
  HostArray<const T> A_u;        // (count x m_u x n)      required when m_u > 0
  HostArray<const T> phi_u;      // (count x m_u)          null = 0 (every row closed)
  HostArray<const T> Adot_qdot;  // (count x (m_b + m_u))  dynamics; null = 0
  HostArray<const T> e;          // (count x m_u)          impact; null = 0
  HostArray<const std::uint8_t> law;  // (count), Law      null = complementarity
  HostArray<const T> gap_tol;    // (count)                null = 1e-9
  HostArray<const T> vel_tol;    // (count)                null = 1e-9
  const int* parent = nullptr;   // (n) kinematic tree, shared (Batch::parent); null = none

  // Outputs (scenario_stride must not be 0 when count > 1).
  HostArray<T> qdot_plus;            // (count x n)            impact
  HostArray<T> impulse;              // (count x n)            impact
  HostArray<T> kinetic_energy_pre;   // (count)                impact
  HostArray<T> kinetic_energy_post;  // (count)                impact
  HostArray<std::uint8_t> energy_consistent;  // (count)       impact
  HostArray<T> qddot;                // (count x n)            dynamics
  HostArray<T> lambda;               // (count x (m_b + m_u))  both
  HostArray<std::uint8_t> active;    // (count x m_u)          both
  HostArray<Status> status;          // (count)                both
};

// Throws std::invalid_argument naming `what` unless parent (n entries) numbers a tree parents
// first: -1 <= parent[i] < i. A null parent is valid (no tree).
void check_tree(const int* parent, std::size_t size, int n, const char* what);

// Views of an owning batch and its results (scenario-contiguous blocks).
template <class T> HostBatchView<T> host_view(const Batch<T>& in);
template <class T> void set_outputs(HostBatchView<T>& v, ImpactResults<T>& out);
template <class T> void set_outputs(HostBatchView<T>& v, DynamicsResults<T>& out);

// Run the cpu or reference backend over the viewed scenarios (opt.mask selects a subset).
// Throws std::invalid_argument, before writing any output, for a missing required array, an
// output with scenario_stride 0, a negative dimension or thread count, a mask of the wrong
// length, or Backend::cuda.
template <class T> void solve_impact(const HostBatchView<T>& v, const RunOptions& opt = {});
template <class T> void solve_dynamics(const HostBatchView<T>& v, const RunOptions& opt = {});

}  // namespace obliq

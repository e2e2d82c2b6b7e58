// cuda/launch.hpp: what the host glue (device_batch.cpp, g++) hands to the kernels (*.cu, nvcc).
//
// Plain structs of strided device pointers, no Eigen and no CUDA headers, so that both
// compilers see the same definitions. Entry k of scenario s of an array a is
// a.data[s * a.ss + k * a.es] (ss: scenario stride, es: element stride).
#pragma once

#include <cstddef>
#include <cstdint>

#include "obliq/core/scenario_view.hpp"
#include "obliq/core/status.hpp"

namespace obliq::cuda::detail {

template <class T> struct Strided {
  T* data = nullptr;
  std::ptrdiff_t ss = 0;  // scenario stride
  std::ptrdiff_t es = 1;  // element stride

  OBLIQ_HD T* at(std::size_t s) const { return data ? data + std::ptrdiff_t(s) * ss : nullptr; }
  OBLIQ_HD T& operator()(std::size_t s, int k) const { return data[std::ptrdiff_t(s) * ss + std::ptrdiff_t(k) * es]; }
};

// Model + data in: the inputs of every scenario of one shape.
template <class T> struct Inputs {
  int n = 0, m_b = 0, m_u = 0;
  std::size_t count = 0;
  Strided<const T> M;          // (count x n x n)
  Strided<const T> qdot;       // (count x n)
  Strided<const T> h;          // (count x n)
  Strided<const T> u;          // (count x n)
  Strided<const T> i_u;        // (count x n)
  Strided<const T> A_b;        // (count x m_b x n)
  Strided<const T> A_u;        // (count x m_u x n)
  Strided<const T> phi_u;      // (count x m_u)
  Strided<const T> Adot_qdot;  // (count x (m_b + m_u))
  Strided<const T> e;          // (count x m_u)
  Strided<const std::uint8_t> law;  // (count)
  Strided<const T> gap_tol;    // (count)
  Strided<const T> vel_tol;    // (count)
  lcp::Solver lcp_solver = lcp::Solver::lemke;  // the complementarity law's LCP method (RunOptions)
};

template <class T> struct ImpactOutputs {
  Strided<T> qdot_plus;            // (count x n)
  Strided<T> impulse;              // (count x n)
  Strided<T> lambda;               // (count x (m_b + m_u))
  Strided<std::uint8_t> active;    // (count x m_u)
  Strided<T> kinetic_energy_pre;   // (count)
  Strided<T> kinetic_energy_post;  // (count)
  Strided<std::uint8_t> energy_consistent;  // (count)
  Strided<int> status;             // (count)
};

template <class T> struct DynamicsOutputs {
  Strided<T> qddot;                // (count x n)
  Strided<T> lambda;               // (count x (m_b + m_u))
  Strided<std::uint8_t> active;    // (count x m_u)
  Strided<int> status;             // (count)
};

// The scenarios another path handed to the fused kernel, compacted (cuda/compaction.hpp): the
// fused kernel's thread j solves scenario index[j] for j < *count (device memory both; the
// count stays on the device, so nothing waits for it). index is increasing: the handed-back
// scenarios in batch order.
struct Selection {
  const std::size_t* index = nullptr;  // null: no selection, thread j solves scenario j
  const std::size_t* count = nullptr;

  // The scenario thread j of the batch solves, or false where it has none.
  OBLIQ_HD bool scenario(std::size_t j, std::size_t& s) const {
    if (!index) {
      s = j;
      return true;
    }
    if (j >= *count) return false;
    s = index[j];
    return true;
  }
};

// Entries of Launch::select_buffer for a batch of count scenarios (cuda/compaction.hpp).
inline std::size_t selection_buffer_size(std::size_t count) { return 2 * count + 1; }

struct Launch {
  int block_size = 128;
  bool interleaved_scratch = true;
  void* scratch = nullptr;            // device scratch of scratch_bytes
  std::size_t scratch_bytes = 0;
  void* stream = nullptr;             // cudaStream_t
  Selection only;                     // when set, run only the selected scenarios
  std::uint8_t* mask_buffer = nullptr; // device (count) bytes the warp and library paths mark hand-backs in
  std::size_t* select_buffer = nullptr; // device (2 count + 1) entries for the compaction of that mask
};

// Fused kernels: the per-scenario core, one thread per scenario, chunked so that scratch fits.
template <class T> void fused_impact(const Inputs<T>& in, const ImpactOutputs<T>& out, const Launch& l);
template <class T> void fused_dynamics(const Inputs<T>& in, const DynamicsOutputs<T>& out, const Launch& l);

// The most threads per block every kernel of a call can launch with (cudaFuncGetAttributes).
template <class T> int fused_max_block_size();
template <class T> int library_max_block_size();

// Library path (cuBLAS/cuSOLVER batched), projection law; hands the rest to the fused kernel.
template <class T> void library_impact(const Inputs<T>& in, const ImpactOutputs<T>& out, const Launch& l);
template <class T> void library_dynamics(const Inputs<T>& in, const DynamicsOutputs<T>& out, const Launch& l);

// Warp path (cuda/warp_impact.hpp): projection-law impacts one warp per scenario, matrices in
// shared memory; the rest (other laws, shapes, doubtful scenarios) by the fused kernel.
template <class T> void warp_impact_batch(const Inputs<T>& in, const ImpactOutputs<T>& out, const Launch& l);

// Bytes of scratch the library path needs per scenario (its own buffers plus a fused fallback).
template <class T> std::size_t library_scratch_per_scenario(int n, int m_b, int m_u);

// dst(s, k) = src(s % pool, k): a pool of scenarios copied across a batch (replicate.cu).
template <class U>
void tile(Strided<U> dst, Strided<const U> src, std::size_t count, std::size_t pool, std::size_t block, void* stream);

}  // namespace obliq::cuda::detail

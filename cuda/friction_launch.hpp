// cuda/friction_launch.hpp: frictional scenarios of one group (one shape and one set of friction
// options) handed from the host glue (cuda/friction_glue.hpp, g++) to the kernels
// (cuda/friction_kernels.cuh, nvcc). Plain structs of strided pointers, no CUDA headers.
#pragma once

#include <cstddef>
#include <cstdint>

#include "launch.hpp"
#include "obliq/core/friction/setup.hpp"

namespace obliq::cuda::detail {

template <class T> struct FrictionArrays {
  bool dynamics = false;
  Inputs<T> in;                 // the scenarios (Inputs::lcp_solver: the frictionless core's)
  ImpactOutputs<T> io;          // impact
  DynamicsOutputs<T> dout;      // dynamics
  // The friction inputs: FrictionView's, per scenario (A_t A_t_rows x A_t_cols, which the core
  // checks to be (dim - 1) m_u x n, mu m_u, Adot_qdot_t (dim - 1) m_u, e_t m_u; a null array: not
  // given, as FrictionView's data == nullptr).
  int dim = 3, A_t_rows = 0, A_t_cols = 0;
  friction::Formulation formulation = friction::Formulation::cone;
  int directions = 8;
  lcp::Solver lcp_solver = lcp::Solver::lemke;
  Strided<const T> A_t, mu, Adot_qdot_t, e_t;
  // The friction outputs: FrictionOutView's, per scenario.
  Strided<T> lambda_t;                  // (dim - 1) m_u
  Strided<std::uint8_t> sliding;        // m_u (dynamics)
  friction::Report<T>* report = nullptr;  // one per scenario
};

// Scenarios [s0, s0 + chunk) of a, thread i on scratch + i (interleaved, stride chunk), ws
// elements each: one kernel launch on the default stream (cuda/friction_kernels.cuh).
template <class T> void friction_chunk(const FrictionArrays<T>& a, std::size_t s0, std::size_t chunk, T* scratch, std::size_t ws);

}  // namespace obliq::cuda::detail

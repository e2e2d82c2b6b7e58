// python/src/friction.hpp: the frictional solves of obliq.impact / obliq.dynamics (docs/python.md
// "Friction"): the scenarios of a HostBatchView (the caller's arrays, read in place) with their
// friction inputs, each copied into the host API's Scenario and Friction and solved by
// obliq::impact<T> / dynamics<T> (include/obliq/friction.hpp), over OpenMP on the cpu backend, or
// all at once by impact_batch / dynamics_batch on another backend.
#pragma once

#include <cstdint>

#include "obliq/friction.hpp"
#include "obliq/host_views.hpp"

namespace obliq::python {

template <class T> struct FrictionViews {
  int dim = 3;  // 2: one tangent row per unilateral row, 3: two
  int m_t = 0;  // tangent rows per scenario (A_t's rows; the core wants (dim - 1) m_u: else bad_shape)
  friction::Formulation formulation = friction::Formulation::cone;
  int facets = 8;
  // Inputs.
  HostArray<const T> mu;           // (count x m_u)          required
  HostArray<const T> A_t;          // (count x m_t x n)      required
  HostArray<const T> e_t;          // (count x m_u)          impact; null = 0
  HostArray<const T> Adot_qdot_t;  // (count x m_t)          dynamics; null = 0
  // Outputs (a stride per scenario).
  HostArray<T> lambda_t;                // (count x m_t)
  HostArray<std::uint8_t> sliding;      // (count x m_u)       dynamics
  HostArray<std::int8_t> method;        // (count) -1: the frictionless core answered, else friction::Method
  HostArray<std::int32_t> iterations;   // (count)
  HostArray<double> residual;           // (count) the certificate's largest relative residual
};

// Solves every scenario of v (impact or dynamics) with its friction f into v's outputs and f's.
// A scenario whose inputs do not fit gets its status (bad_shape, bad_friction, ...), never an
// exception; std::invalid_argument for a backend without a frictional solver (reference).
template <class T> void solve_frictional(const HostBatchView<T>& v, bool impact, const FrictionViews<T>& f,
                                         const RunOptions& opt);

}  // namespace obliq::python

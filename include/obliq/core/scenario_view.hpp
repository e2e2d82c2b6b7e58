// obliq/core/scenario_view.hpp: one scenario's inputs and outputs as views, the argument
// structs of the per-scenario core (one struct of views, not twenty loose arguments).
#pragma once

#include <cstdint>

#include "obliq/core/lcp/select.hpp"
#include "obliq/core/view.hpp"

namespace obliq {

enum class Law : int { projection = 0, complementarity = 1 };

template <class T> struct ScenarioView {
  int n = 0, m_b = 0, m_u = 0;
  MatView<const T> M;          // n x n, SPD
  // The kinematic tree of the velocity coordinates (n entries, parent[i] < i, -1 for a root) when
  // the model layer knows it: M is then factored along the tree (mechanics/mass_factor.hpp,
  // docs/math.md (M1)-(M3)); null (raw scenario lines): the dense Cholesky.
  const int* parent = nullptr;
  // The complementarity law's first guess (m_u flags, or size 0: none): the unilateral rows that
  // took part in the caller's previous, nearly equal problem (the Simulator's last Moreau-Jean
  // step). Their LCP basis is tried before any pivoting (mechanics/complementarity.hpp).
  VecView<const std::uint8_t> warm_active;
  VecView<const T> qdot;       // n
  VecView<const T> h;          // n (dynamics)
  VecView<const T> u;          // n (dynamics)
  VecView<const T> i_u;        // n (impact)
  MatView<const T> A_b;        // m_b x n
  MatView<const T> A_u;        // m_u x n
  VecView<const T> phi_u;      // m_u
  VecView<const T> Adot_qdot;  // m_b + m_u (dynamics)
  VecView<const T> e;          // m_u (inc = 0 broadcasts one global coefficient)
  Law law = Law::complementarity;
  T gap_tol = T(1e-9), vel_tol = T(1e-9);
  // LCP method of the complementarity law's contact LCP (complementarity.hpp). Default: Lemke's
  // method, exact for the PSD Delassus matrices of contacts (singular ones included), where a
  // secondary ray proves infeasibility. (`automatic` would go on to other methods after a ray,
  // and on a nearly infeasible problem they can certify a far-away approximate solution.)
  lcp::Solver lcp_solver = lcp::Solver::lemke;
};

template <class T> struct ImpactView {
  VecView<T> qdot_plus;              // n
  VecView<T> impulse;                // n
  VecView<T> lambda;                 // m_b + m_u
  VecView<std::uint8_t> active;      // m_u
  T* kinetic_energy_pre = nullptr;
  T* kinetic_energy_post = nullptr;
  std::uint8_t* energy_consistent = nullptr;
};

template <class T> struct DynamicsView {
  VecView<T> qddot;              // n
  VecView<T> lambda;             // m_b + m_u
  VecView<std::uint8_t> active;  // m_u
};

}  // namespace obliq

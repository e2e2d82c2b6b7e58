// obliq/sim/system.hpp: what a time stepper asks of a mechanical system at one state (q, v):
//
//   M(q) vdot + h(q, v) = u + A(q)^T lambda,   gaps phi(q) (bilateral rows first, then the
//   unilateral rows), A = d phi / dq per velocity coordinate, and Adot v (the rows' drift),
//
// plus how a configuration moves (q' = q (+) dt v) and the potential energy; for friction, the
// tangent rows A_t of each unilateral row (dim - 1 of them: dim() is 2 in a plane, 3 in space;
// docs/friction.md (F1)), evaluated when the caller gives room for them. Two systems:
//
//   ModelSystem   a multibody model (include/obliq/model): forward kinematics, CRBA (M), RNEA
//                 (h, gravity included), contact_rows (A, phi, Adot v), tangent_rows (A_t,
//                 each contact frame's two tangents, dim 3); q (+) dt v is
//                 model/integrate.hpp; V = -sum m_i g . c_i (momentum.hpp).
//   LinearSystem  raw scenario data: constant M, h and rows A, gaps linear in q,
//                 phi_b(q) = A_b q, phi_u(q) = phi0_u + A_u q, Adot v = 0, nq = nv, q (+) dt v = q + dt v; h is a
//                 constant generalized force (gravity as h = -f_g), so V = h . q; constant
//                 tangent rows A_t (dim 2 or 3).
//
// Both are plain structs of views (a CUDA kernel can take them by value); evaluate() takes its
// scratch from the arena and releases it. No allocation.
#pragma once

#include "obliq/core/dense/ops.hpp"
#include "obliq/core/mechanics/energy.hpp"
#include "obliq/core/status.hpp"
#include "obliq/core/view.hpp"
#include "obliq/model/contact_rows.hpp"
#include "obliq/model/crba.hpp"
#include "obliq/model/integrate.hpp"
#include "obliq/model/kinematics.hpp"
#include "obliq/model/momentum.hpp"
#include "obliq/model/rnea.hpp"
#include "obliq/model/tangent_rows.hpp"

namespace obliq::sim {

// The system at one state: views the caller owns (m = m_b + m_u rows).
template <class T> struct SystemEval {
  MatView<T> M;          // nv x nv
  VecView<T> h;          // nv
  MatView<T> A;          // m x nv, bilateral rows first
  VecView<T> phi;        // m
  VecView<T> Adot_qdot;  // m
  MatView<T> A_t;        // (dim - 1) m_u x nv tangent rows; 0 rows: not asked for (no friction)
  VecView<T> Adot_qdot_t;  // (dim - 1) m_u: their drift (size 0: not asked for)
  const int* parent = nullptr;  // nv: M's kinematic tree (the system's mass_tree()), or null
};

// A flag vector (one byte per row) in arena slots.
template <class T> OBLIQ_HD VecView<std::uint8_t> take_flags(int size, Arena<T>& arena) {
  T* p = arena.take(std::size_t(size));
  return {reinterpret_cast<std::uint8_t*>(p), size, std::ptrdiff_t(sizeof(T)) * arena.stride};
}

// The evaluation buffers of `sys` (nv, all m = m_b + m_u rows), with its mass tree.
template <class T, class System> OBLIQ_HD SystemEval<T> take_system_eval(const System& sys, Arena<T>& arena) {
  const int nv = sys.nv(), m = sys.m_b() + sys.m_u();
  SystemEval<T> e;
  e.parent = sys.mass_tree();
  e.M = arena.mat(nv, nv);
  e.h = arena.vec(nv);
  e.A = arena.mat(m, nv);
  e.phi = arena.vec(m);
  e.Adot_qdot = arena.vec(m);
  return e;
}
template <class T> OBLIQ_HD std::size_t system_eval_size(int nv, int m) {
  return std::size_t(nv) * nv + nv + std::size_t(m) * nv + 2 * std::size_t(m);
}

template <class T> struct ModelSystem {
  model::ModelView<T> model;  // gravity: the scenario's own (a per-scenario control)

  OBLIQ_HD int nq() const { return model.nq; }
  OBLIQ_HD int nv() const { return model.nv; }
  OBLIQ_HD int m_b() const { return model.n_bilateral; }
  OBLIQ_HD int m_u() const { return model.ncontacts - model.n_bilateral; }
  OBLIQ_HD int dim() const { return 3; }
  // The velocity coordinates' tree, along which M is factored (core/mechanics/mass_factor.hpp).
  OBLIQ_HD const int* mass_tree() const { return model.velocity_parent; }
  // data_size, and the tangent rows' drift (unused by the steppers: Moreau-Jean needs no drift).
  OBLIQ_HD std::size_t workspace() const { return model::data_size(model) + 2 * std::size_t(m_u()) + 8; }

  OBLIQ_HD Status evaluate(VecView<const T> q, VecView<const T> v, const SystemEval<T>& out, Arena<T>& arena) const {
    const std::size_t mark = arena.mark();
    T* block = arena.take(model::data_size(model));
    if (arena.overflow) return Status::bad_shape;
    const model::DataView<T> d = model::data_view(model, block);  // stride-1 block (CPU, or per-thread)
    const Status st = model::forward_kinematics(model, d, q, v);
    if (st == Status::ok) {
      model::mass_matrix(model, d, out.M);
      model::bias_forces(model, d, out.h);
      model::contact_rows(model, d, out.A, out.phi, out.Adot_qdot);
      if (out.A_t.rows > 0) {
        const VecView<T> drift_t = out.Adot_qdot_t.size == out.A_t.rows ? out.Adot_qdot_t : arena.vec(out.A_t.rows);
        if (arena.overflow) {
          arena.release(mark);
          return Status::bad_shape;
        }
        model::tangent_rows(model, d, out.A_t, drift_t);
      }
    }
    arena.release(mark);
    return st;
  }
  OBLIQ_HD void integrate(VecView<const T> q, VecView<const T> v, T dt, VecView<T> q_out) const {
    model::integrate(model, q, v, dt, q_out);
  }
  // Kinetic and potential energy at (q, v), independently of M (momentum.hpp).
  OBLIQ_HD Status energies(VecView<const T> q, VecView<const T> v, T& kinetic, T& potential, Arena<T>& arena) const {
    const std::size_t mark = arena.mark();
    T* block = arena.take(model::data_size(model));
    if (arena.overflow) return Status::bad_shape;
    const model::DataView<T> d = model::data_view(model, block);
    const Status st = model::forward_kinematics(model, d, q, v);
    kinetic = st == Status::ok ? model::kinetic_energy(model, d) : T(0);
    potential = st == Status::ok ? model::potential_energy(model, d) : T(0);
    arena.release(mark);
    return st;
  }
};

template <class T> struct LinearSystem {
  int n = 0, mb = 0, mu = 0;
  MatView<const T> M;       // n x n
  VecView<const T> h;       // n
  MatView<const T> A_b;     // mb x n (gaps A_b q)
  MatView<const T> A_u;     // mu x n
  VecView<const T> phi0_u;  // mu: the unilateral gaps at q = 0
  int tdim = 3;             // friction: 2 (one tangent row per contact) or 3 (two)
  MatView<const T> A_t;     // (tdim - 1) mu x n tangent rows (data == nullptr: zero rows)

  OBLIQ_HD int nq() const { return n; }
  OBLIQ_HD int nv() const { return n; }
  OBLIQ_HD int m_b() const { return mb; }
  OBLIQ_HD int m_u() const { return mu; }
  OBLIQ_HD int dim() const { return tdim; }
  OBLIQ_HD const int* mass_tree() const { return nullptr; }  // raw M: no known structure
  OBLIQ_HD std::size_t workspace() const { return 0; }

  OBLIQ_HD Status evaluate(VecView<const T> q, VecView<const T> v, const SystemEval<T>& out, Arena<T>&) const {
    if (!dense::all_finite(q) || !dense::all_finite(v)) return Status::non_finite;
    dense::copy(M, out.M);
    dense::copy(h, out.h);
    dense::copy(A_b, out.A.top_rows(mb));
    dense::copy(A_u, out.A.block(mb, 0, mu, n));
    dense::gemv(T(1), A_b, q, T(0), out.phi.head(mb));
    dense::copy(phi0_u, out.phi.segment(mb, mu));
    dense::gemv(T(1), A_u, q, T(1), out.phi.segment(mb, mu));
    dense::fill(out.Adot_qdot, T(0));
    if (out.A_t.rows > 0) {
      if (A_t.data != nullptr)
        dense::copy(A_t, out.A_t);
      else
        dense::fill(out.A_t, T(0));
    }
    dense::fill(out.Adot_qdot_t, T(0));
    return Status::ok;
  }
  OBLIQ_HD void integrate(VecView<const T> q, VecView<const T> v, T dt, VecView<T> q_out) const {
    for (int i = 0; i < n; ++i) q_out[i] = q[i] + dt * v[i];
  }
  OBLIQ_HD Status energies(VecView<const T> q, VecView<const T> v, T& kinetic, T& potential, Arena<T>&) const {
    if (!dense::all_finite(q) || !dense::all_finite(v)) return Status::non_finite;
    kinetic = kinetic_energy(M, v);
    potential = dense::dot(h, q);
    return Status::ok;
  }
};

}  // namespace obliq::sim

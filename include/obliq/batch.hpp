// obliq/batch.hpp: the host API. A Batch holds many scenarios of one shape (n, m_b, m_u) in
// SoA buffers (one buffer per quantity, scenario-contiguous blocks); per-scenario Eigen::Map
// views fill and read it. solve_impact / solve_dynamics run a backend over the whole batch and
// leave one result and one status per scenario. A bad scenario never changes another's result.
#pragma once

#include <Eigen/Dense>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "obliq/core/lcp/select.hpp"
#include "obliq/scenario.hpp"

namespace obliq {

enum class Backend { cpu, reference, cuda };
const char* backend_name(Backend b);
bool parse_backend(const std::string& name, Backend& out);

struct RunOptions {
  Backend backend = Backend::cpu;
  // 0: automatic (one thread for batches below serial_batch_size(shape), else all OpenMP threads);
  // > 0: at most that many OpenMP threads; negative: rejected (std::invalid_argument).
  int threads = 0;
  // LCP method of the complementarity law (cpu backend; see ScenarioView::lcp_solver).
  lcp::Solver lcp_solver = lcp::Solver::lemke;
  // Scenarios to solve: empty = all; otherwise one entry per scenario, 0 = skip it (its results
  // and status are left exactly as they were). cpu and reference backends only.
  std::span<const std::uint8_t> mask = {};
};

// Below this many scenarios of this shape the cpu backend runs on the calling thread when
// threads = 0 (starting an OpenMP team costs more than it saves; measured in docs/host-api.md).
std::size_t serial_batch_size(Shape shape);

template <class T> using RowMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T> using Vec = Eigen::Matrix<T, Eigen::Dynamic, 1>;
template <class T> using MatMap = Eigen::Map<RowMat<T>>;
template <class T> using VecMap = Eigen::Map<Vec<T>>;
template <class T> using ConstMatMap = Eigen::Map<const RowMat<T>>;
template <class T> using ConstVecMap = Eigen::Map<const Vec<T>>;
using FlagMap = Eigen::Map<Eigen::Matrix<std::uint8_t, Eigen::Dynamic, 1>>;
using ConstFlagMap = Eigen::Map<const Eigen::Matrix<std::uint8_t, Eigen::Dynamic, 1>>;

// Inputs of a batch. Buffers are public (flat, scenario s at offset s * block size) so that a
// backend or a caller with its own data can read and write them directly. Every solve checks
// that each buffer still has count x block entries for `shape` (std::invalid_argument if not),
// so a shape, count or buffer changed after construction is refused, never read out of bounds.
// The per-scenario accessors (X_of(s)) are Eigen::Map views: no allocation, s not checked.
template <class T> struct Batch {
  Shape shape;
  std::size_t count = 0;

  std::vector<T> M;          // (count x n x n), row-major per scenario
  std::vector<T> qdot;       // (count x n)
  std::vector<T> h;          // (count x n)
  std::vector<T> u;          // (count x n)
  std::vector<T> i_u;        // (count x n)
  std::vector<T> A_b;        // (count x m_b x n)
  std::vector<T> A_u;        // (count x m_u x n)
  std::vector<T> phi_u;      // (count x m_u)
  std::vector<T> Adot_qdot;  // (count x (m_b + m_u))
  std::vector<T> e;          // (count x m_u)
  std::vector<std::uint8_t> law;  // (count), Law
  std::vector<T> gap_tol;    // (count)
  std::vector<T> vel_tol;    // (count)
  // The kinematic tree of the velocity coordinates, shared by every scenario (n entries,
  // parent[i] < i, -1 for a root; empty: none). The model layer fills it (evaluate_batch); with
  // it each M is factored along the tree (docs/math.md (M1)-(M3)), where M has its pattern.
  std::vector<int> parent;

  Batch() = default;
  // All inputs zero, M = I, law = complementarity, tolerances 1e-9. Throws std::invalid_argument
  // for a negative dimension or n = 0 with count > 0.
  Batch(Shape s, std::size_t count);
  // The same contents as Batch(s, count), in the storage this batch already holds (no allocation
  // or page faults when it is large enough: a batch filled again each step or chunk). `parent`
  // is cleared. With Refill::inputs_only the state quantities that a model evaluation writes
  // (M, qdot, h, A_b, A_u, phi_u, Adot_qdot) are left as they were (sized, not filled): for a
  // caller that writes every scenario's, or clear_state(s) for the ones it does not.
  enum class Refill { all, inputs_only };
  void reset(Shape s, std::size_t count, Refill refill = Refill::all);
  // Scenario s's state quantities as reset leaves them: M = I; qdot, h, A_b, A_u, phi_u and
  // Adot_qdot zero.
  void clear_state(std::size_t s);

  int m() const { return shape.m_b + shape.m_u; }
  MatMap<T> M_of(std::size_t s) { return {M.data() + s * nn(), shape.n, shape.n}; }
  VecMap<T> qdot_of(std::size_t s) { return {qdot.data() + s * shape.n, shape.n}; }
  VecMap<T> h_of(std::size_t s) { return {h.data() + s * shape.n, shape.n}; }
  VecMap<T> u_of(std::size_t s) { return {u.data() + s * shape.n, shape.n}; }
  VecMap<T> i_u_of(std::size_t s) { return {i_u.data() + s * shape.n, shape.n}; }
  MatMap<T> A_b_of(std::size_t s) { return {A_b.data() + s * std::size_t(shape.m_b) * shape.n, shape.m_b, shape.n}; }
  MatMap<T> A_u_of(std::size_t s) { return {A_u.data() + s * std::size_t(shape.m_u) * shape.n, shape.m_u, shape.n}; }
  VecMap<T> phi_u_of(std::size_t s) { return {phi_u.data() + s * shape.m_u, shape.m_u}; }
  VecMap<T> Adot_qdot_of(std::size_t s) { return {Adot_qdot.data() + s * m(), m()}; }
  VecMap<T> e_of(std::size_t s) { return {e.data() + s * shape.m_u, shape.m_u}; }

  ConstMatMap<T> M_of(std::size_t s) const { return {M.data() + s * nn(), shape.n, shape.n}; }
  ConstVecMap<T> qdot_of(std::size_t s) const { return {qdot.data() + s * shape.n, shape.n}; }
  ConstVecMap<T> h_of(std::size_t s) const { return {h.data() + s * shape.n, shape.n}; }
  ConstVecMap<T> u_of(std::size_t s) const { return {u.data() + s * shape.n, shape.n}; }
  ConstVecMap<T> i_u_of(std::size_t s) const { return {i_u.data() + s * shape.n, shape.n}; }
  ConstMatMap<T> A_b_of(std::size_t s) const { return {A_b.data() + s * std::size_t(shape.m_b) * shape.n, shape.m_b, shape.n}; }
  ConstMatMap<T> A_u_of(std::size_t s) const { return {A_u.data() + s * std::size_t(shape.m_u) * shape.n, shape.m_u, shape.n}; }
  ConstVecMap<T> phi_u_of(std::size_t s) const { return {phi_u.data() + s * shape.m_u, shape.m_u}; }
  ConstVecMap<T> Adot_qdot_of(std::size_t s) const { return {Adot_qdot.data() + s * m(), m()}; }
  ConstVecMap<T> e_of(std::size_t s) const { return {e.data() + s * shape.m_u, shape.m_u}; }

  // Copy one scenario in (converting to T; its shape must be this batch's, else
  // std::invalid_argument) or out (as double; allocates, for tests and tools).
  void set(std::size_t s, const Scenario& sc);
  Scenario get(std::size_t s) const;

  // Throws std::invalid_argument naming the first buffer whose size does not match
  // count x block for `shape`, or a negative dimension. Every solve calls it.
  void check() const;

 private:
  std::size_t nn() const { return std::size_t(shape.n) * shape.n; }
};

// Results of solve_impact: one entry per scenario, the same blocks as Batch. Sized by the solve
// (kept, with its contents, when shape and count are unchanged: reusing one results object
// across steps allocates nothing). Freshly sized results read zero with Status::not_solved.
template <class T> struct ImpactResults {
  Shape shape;
  std::size_t count = 0;
  std::vector<T> qdot_plus;            // (count x n)
  std::vector<T> impulse;              // (count x n)
  std::vector<T> lambda;               // (count x (m_b + m_u))
  std::vector<std::uint8_t> active;    // (count x m_u)
  std::vector<T> kinetic_energy_pre;   // (count)
  std::vector<T> kinetic_energy_post;  // (count)
  std::vector<std::uint8_t> energy_consistent;  // (count)
  std::vector<Status> status;          // (count)

  void resize(Shape s, std::size_t count);
  // Per-scenario views (no allocation, s not checked).
  VecMap<T> qdot_plus_of(std::size_t s) { return {qdot_plus.data() + s * shape.n, shape.n}; }
  VecMap<T> impulse_of(std::size_t s) { return {impulse.data() + s * shape.n, shape.n}; }
  VecMap<T> lambda_of(std::size_t s) { return {lambda.data() + s * m(), m()}; }
  FlagMap active_of(std::size_t s) { return {active.data() + s * shape.m_u, shape.m_u}; }
  ConstVecMap<T> qdot_plus_of(std::size_t s) const { return {qdot_plus.data() + s * shape.n, shape.n}; }
  ConstVecMap<T> impulse_of(std::size_t s) const { return {impulse.data() + s * shape.n, shape.n}; }
  ConstVecMap<T> lambda_of(std::size_t s) const { return {lambda.data() + s * m(), m()}; }
  ConstFlagMap active_of(std::size_t s) const { return {active.data() + s * shape.m_u, shape.m_u}; }
  int m() const { return shape.m_b + shape.m_u; }
  // Copy of scenario s as Eigen objects in double (allocates; the _of views do not).
  ImpactResult get(std::size_t s) const;
  void set(std::size_t s, const ImpactResult& r);
};

template <class T> struct DynamicsResults {
  Shape shape;
  std::size_t count = 0;
  std::vector<T> qddot;              // (count x n)
  std::vector<T> lambda;             // (count x (m_b + m_u))
  std::vector<std::uint8_t> active;  // (count x m_u)
  std::vector<Status> status;        // (count)

  void resize(Shape s, std::size_t count);
  VecMap<T> qddot_of(std::size_t s) { return {qddot.data() + s * shape.n, shape.n}; }
  VecMap<T> lambda_of(std::size_t s) { return {lambda.data() + s * m(), m()}; }
  FlagMap active_of(std::size_t s) { return {active.data() + s * shape.m_u, shape.m_u}; }
  ConstVecMap<T> qddot_of(std::size_t s) const { return {qddot.data() + s * shape.n, shape.n}; }
  ConstVecMap<T> lambda_of(std::size_t s) const { return {lambda.data() + s * m(), m()}; }
  ConstFlagMap active_of(std::size_t s) const { return {active.data() + s * shape.m_u, shape.m_u}; }
  int m() const { return shape.m_b + shape.m_u; }
  DynamicsResult get(std::size_t s) const;
  void set(std::size_t s, const DynamicsResult& r);
};

// Run a backend over the batch. Each solved scenario gets a status; a bad scenario never
// changes another's result. The call itself throws, before touching `out`, only for misuse:
// std::invalid_argument for a batch whose buffers do not match its shape and count, a negative
// thread count or a mask of the wrong length; std::runtime_error for Backend::cuda when the
// CUDA backend is not available (not built, library missing, or no device).
template <class T> void solve_impact(const Batch<T>& in, ImpactResults<T>& out, const RunOptions& opt = {});
template <class T> void solve_dynamics(const Batch<T>& in, DynamicsResults<T>& out, const RunOptions& opt = {});

extern template struct Batch<double>;
extern template struct Batch<float>;
extern template struct ImpactResults<double>;
extern template struct ImpactResults<float>;
extern template struct DynamicsResults<double>;
extern template struct DynamicsResults<float>;

}  // namespace obliq

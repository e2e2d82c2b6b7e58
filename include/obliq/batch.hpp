// obliq/batch.hpp: the host API. A Batch holds many scenarios of one shape (n, m_b, m_u) in
// SoA buffers (one buffer per quantity, scenario-contiguous blocks); per-scenario Eigen::Map
// views fill and read it. solve_impact / solve_dynamics run a backend over the whole batch and
// leave one result and one status per scenario. A bad scenario never changes another's result.
#pragma once

#include <Eigen/Dense>
#include <cstdint>
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
  int threads = 0;  // 0: all hardware threads (OpenMP default)
  // LCP method of the complementarity law (cpu backend; see ScenarioView::lcp_solver).
  lcp::Solver lcp_solver = lcp::Solver::lemke;
};

template <class T> using RowMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T> using Vec = Eigen::Matrix<T, Eigen::Dynamic, 1>;
template <class T> using MatMap = Eigen::Map<RowMat<T>>;
template <class T> using VecMap = Eigen::Map<Vec<T>>;
template <class T> using ConstMatMap = Eigen::Map<const RowMat<T>>;
template <class T> using ConstVecMap = Eigen::Map<const Vec<T>>;

// Inputs of a batch. Buffers are public (flat, scenario s at offset s * block size) so that a
// backend or a caller with its own data can read and write them directly.
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

  Batch() = default;
  // All inputs zero, M = I, law = complementarity, tolerances 1e-9.
  Batch(Shape s, std::size_t count);

  int m() const { return shape.m_b + shape.m_u; }
  MatMap<T> M_of(std::size_t s) { return {M.data() + s * shape.n * shape.n, shape.n, shape.n}; }
  VecMap<T> qdot_of(std::size_t s) { return {qdot.data() + s * shape.n, shape.n}; }
  VecMap<T> h_of(std::size_t s) { return {h.data() + s * shape.n, shape.n}; }
  VecMap<T> u_of(std::size_t s) { return {u.data() + s * shape.n, shape.n}; }
  VecMap<T> i_u_of(std::size_t s) { return {i_u.data() + s * shape.n, shape.n}; }
  MatMap<T> A_b_of(std::size_t s) { return {A_b.data() + s * shape.m_b * shape.n, shape.m_b, shape.n}; }
  MatMap<T> A_u_of(std::size_t s) { return {A_u.data() + s * shape.m_u * shape.n, shape.m_u, shape.n}; }
  VecMap<T> phi_u_of(std::size_t s) { return {phi_u.data() + s * shape.m_u, shape.m_u}; }
  VecMap<T> Adot_qdot_of(std::size_t s) { return {Adot_qdot.data() + s * m(), m()}; }
  VecMap<T> e_of(std::size_t s) { return {e.data() + s * shape.m_u, shape.m_u}; }

  // Copy one scenario in (converting to T) or out (as double).
  void set(std::size_t s, const Scenario& sc);
  Scenario get(std::size_t s) const;
};

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
  DynamicsResult get(std::size_t s) const;
  void set(std::size_t s, const DynamicsResult& r);
};

// Run a backend over the batch. Results are resized to the batch. Each scenario gets a status;
// the call itself throws only for misuse (e.g. Backend::cuda in a build without CUDA).
template <class T> void solve_impact(const Batch<T>& in, ImpactResults<T>& out, const RunOptions& opt = {});
template <class T> void solve_dynamics(const Batch<T>& in, DynamicsResults<T>& out, const RunOptions& opt = {});

extern template struct Batch<double>;
extern template struct Batch<float>;
extern template struct ImpactResults<double>;
extern template struct ImpactResults<float>;
extern template struct DynamicsResults<double>;
extern template struct DynamicsResults<float>;

}  // namespace obliq

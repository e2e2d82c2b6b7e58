// obliq/simulator.hpp: the host API of the time steppers. A Simulator holds `count` independent
// copies of one multibody model (built-in or URDF), or `count` raw linear systems (a Batch:
// constant M, h, rows, gaps linear in q), each with its own state and controls, and steps them
// all with the per-scenario steppers of include/obliq/sim (Moreau-Jean or event-driven) over
// OpenMP. Scenarios never interact, so results are bitwise identical for any thread count.
// One status per scenario: a scenario that fails stops where it is; the others go on.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "obliq/batch.hpp"
#include "obliq/friction.hpp"
#include "obliq/host_views.hpp"
#include "obliq/model/host.hpp"
#include "obliq/sim/state.hpp"

namespace obliq {

namespace sim {
template <class T> struct BatchArrays;
}

struct SimOptions {
  sim::Integrator integrator = sim::Integrator::moreau_jean;
  Law law = Law::complementarity;
  lcp::Solver lcp_solver = lcp::Solver::lemke;
  double theta = 0.5;          // Moreau-Jean theta
  double gamma = 0.5;          // Moreau-Jean activation: phi + gamma h (A v) <= 0
  double gap_tol = -1;         // < 0: the scalar's default (1e-9 double, 1e-4 float)
  double vel_tol = -1;         // < 0: the scalar's default
  double max_step = 0;         // event-driven: largest smooth step (0: the step() interval)
  double zeno_velocity = 0;    // event-driven: plastic below this approach speed
  int max_impacts = 100;       // event-driven: plastic after this many impacts in one step()
  // Friction (some mu != 0): exact Coulomb cone (default) or pyramid LCP with
  // `facets` facets per spatial contact (docs/friction.md (F6), (F8)).
  friction::Formulation friction = friction::Formulation::cone;
  int facets = 8;
  lcp::Solver friction_lcp_solver = lcp::Solver::automatic;  // the pyramid's LCP method (auto rule)
  // Moreau-Jean, complementarity law: each step's LCP first tries the rows that took part in the
  // last step (no pivot when they still carry the impulses); false (default): every LCP solved
  // cold. The answers are certified either way and equal where the LCP's solution is unique.
  // Off by default: with 1-4 contacts Lemke's few pivots cost no more than the warm trial
  // (docs/simulator.md "Warm start", measured).
  bool warm_start = false;
  int threads = 0;             // 0: all hardware threads (cpu backend)
  // cpu: OpenMP over the scenarios. cuda: step() uploads the systems, state and controls, runs
  // the same per-scenario steppers on the GPU (one thread per scenario, docs/cuda.md
  // "Simulator"), and downloads the state; std::runtime_error ("backend cuda: ...") when this
  // build has no CUDA backend or no device is found. energies() runs on the host either way.
  Backend backend = Backend::cpu;
  std::size_t cuda_scratch_bytes = 0;  // cuda: device scratch per launch (0: 256 MiB); smaller cuts more chunks
};

// PD actuators of Simulator::step_pd (include/obliq/sim/pd_tracking.hpp (PD1)): the actuated
// velocity indices a_j (distinct, in [0, nv)) with their configuration indices c_j (in [0, nq);
// a joint's angle and rate), the gains and the torque limit, the same for every scenario.
struct PdTracking {
  std::vector<int> v_index;
  std::vector<int> q_index;
  double kp = 0;  // finite
  double kd = 0;  // finite
  double max_torque = std::numeric_limits<double>::infinity();  // >= 0
};

// Actuators on every revolute joint of `model`, in body order (a floating base and prismatic
// joints get none), with the given gains and torque limit.
PdTracking revolute_actuators(const model::Model& model, double kp, double kd,
                              double max_torque = std::numeric_limits<double>::infinity());

template <class T> class Simulator {
 public:
  // `count` copies of a model at its neutral configuration, zero velocity, t = 0, the model's
  // gravity, u = 0, e = 0 on every unilateral row.
  Simulator(const model::Model& model, std::size_t count, const SimOptions& options = {});
  // Raw data: scenario s of `systems` is M qdd + h = u + A^T lambda with constant M, h, A_b,
  // A_u; bilateral gaps A_b q, unilateral gaps phi_u + A_u q (phi_u: the gaps at q = 0).
  // Its u and e are the initial controls; q = 0, v = systems.qdot.
  Simulator(const Batch<T>& systems, const SimOptions& options = {});
  // Raw data with friction: scenario s's tangent rows friction[s].A_t ((dim - 1) m_u x n, every
  // scenario the same dim) and its initial mu (friction[s].mu; empty: 0). Formulation, facets
  // and e_t of the Frictions are not used (options.friction, options.facets; e_t = 0).
  // std::invalid_argument for a count, dim or shape that does not match.
  Simulator(const Batch<T>& systems, const std::vector<Friction>& friction, const SimOptions& options = {});
  ~Simulator();
  Simulator(Simulator&&) noexcept;
  Simulator& operator=(Simulator&&) noexcept;

  std::size_t count() const { return count_; }
  int nq() const { return nq_; }
  int nv() const { return nv_; }
  int m_b() const { return m_b_; }
  int m_u() const { return m_u_; }
  bool is_model() const;

  // Every scenario advances `steps` times by dt: a Moreau-Jean step of length dt, or an
  // event-driven advance to t + dt (events resolved where they fall).
  void step(T dt, int steps = 1);
  // The same with the joint torques read from the caller's memory instead of `u` (no copy):
  // entry k of scenario s is u.data[s * u.scenario_stride + k * u.element_stride] (count x nv;
  // scenario_stride 0 gives every scenario the same torques). `u` itself is left as it is.
  // Throws std::invalid_argument (nothing stepped) when u.data is null.
  void step(T dt, int steps, HostArray<const T> u);
  // An environment's step: every scenario advances frame_skip times by dt (as step(dt,
  // frame_skip)) under PD actuators tracking position targets, their torques (PD1) evaluated
  // from the state before each step (include/obliq/sim/pd_tracking.hpp), zero on the other
  // coordinates. Caller memory, read and written in place: target entry j of scenario s at
  // target.data[s * scenario_stride + j * element_stride] (count x n, n = pd.v_index.size());
  // hold (count; null: none) a scenario held with zero torque where nonzero; effort (count;
  // null: not written) receives each scenario's mean |u|^2 over the steps (PD2). The same
  // torques passed to step(dt, 1, u) one step at a time give the same states bit for bit; `u`
  // itself is left as it is. Throws std::invalid_argument (nothing stepped) for frame_skip < 1,
  // index lists of different lengths, an index out of range or repeated, kp or kd not finite,
  // max_torque negative or NaN, a null target (n > 0), an effort with scenario_stride 0
  // (count > 1), or a backend without a time stepper (reference). The cuda backend runs the
  // actuators and the steps on the device (docs/cuda.md "The PD-tracked step on the device"):
  // the state is copied to the device and back once per call, not per step (a DeviceSimulator,
  // include/obliq/device_simulator.hpp, keeps it there between calls).
  void step_pd(T dt, int frame_skip, const PdTracking& pd, HostArray<const T> target,
               HostArray<const std::uint8_t> hold = {}, HostArray<T> effort = {});
  // Kinetic and potential energy of every scenario at its state (0 where the state is bad).
  // `state_status`, when not null, receives each state's own status (ok, or why it cannot be
  // evaluated: bad_quaternion, non_finite), so that a state is judged before any step.
  void energies(std::vector<T>& kinetic, std::vector<T>& potential, std::vector<Status>* state_status = nullptr) const;

  // What a backend steps (include/obliq/sim/batch_views.hpp): every scenario's system, state
  // (views of the members below, written by step()) and controls with torques `u`; and the
  // steppers' parameters from `options`.
  sim::BatchArrays<T> arrays(HostArray<const T> u) const;
  sim::StepParams<T> step_params() const;

  SimOptions options;

  // State (row s = scenario s). Writable: set initial states here.
  RowMat<T> q;                             // count x nq
  RowMat<T> v;                             // count x nv
  std::vector<T> t;                        // count
  std::vector<std::uint8_t> active;        // count x m_u (rows in contact after the last step)
  std::vector<std::int64_t> impacts;       // count
  std::vector<std::int64_t> lcp_solves;    // count
  std::vector<Status> status;              // count
  std::vector<T> last_impact_time;         // count (NaN before the first impact)
  RowMat<T> last_impact_v;                 // count x nv (velocity right after it)

  // Controls.
  RowMat<T> u;        // count x nv
  RowMat<T> e;        // count x m_u (restitution per contact; fill a column for a global e)
  RowMat<T> mu;       // count x m_u (Coulomb friction per contact, >= 0; all 0: frictionless,
                      // bit for bit; a model's tangent rows come from each contact frame)
  RowMat<T> gravity;  // count x 3 (model systems only; raw systems carry gravity in h)

 private:
  struct Systems;
  std::unique_ptr<Systems> systems_;
  std::size_t count_ = 0;
  int nq_ = 0, nv_ = 0, m_b_ = 0, m_u_ = 0;
  int dim_ = 3;  // contacts' dimension for friction (raw systems: their tangent rows')
  void init_state();
};

extern template class Simulator<double>;
extern template class Simulator<float>;

}  // namespace obliq

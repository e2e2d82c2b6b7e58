// obliq/sweep.hpp: Monte Carlo restitution sweeps (docs/sweep.md). A Study names a mechanism
// (a model at a pre-impact state, or one raw scenario), the impact law, the distributions of the
// per-contact restitution (and friction) coefficients and of the perturbations of q and qdot, the
// number of samples and the seed. run() draws every sample from a counter-based generator keyed
// by (seed, sample index, stream), evaluates the model and solves the impact in chunks through
// the model layer's batch evaluation and the core's impact solve (or steps each sample's
// trajectory through the Simulator), and folds every output into
// streaming statistics whose value depends only on the study: not on threads, chunk size, or how
// the sample range is split over processes (Statistics::merge).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "obliq/batch.hpp"
#include "obliq/model/host.hpp"
#include "obliq/scenario.hpp"
#include "obliq/simulator.hpp"

namespace obliq::sweep {

// One scalar distribution (docs/sweep.md "Distributions").
struct Distribution {
  enum class Kind { fixed, uniform, truncated_normal, beta, power_law, normal };
  Kind kind = Kind::fixed;
  double value = 0;             // fixed
  double low = 0, high = 1;     // uniform; truncated_normal, power_law: the clamp / truncation
  double mean = 0, sd = 0;      // truncated_normal, normal
  double a = 1, b = 1;          // beta
  double e0 = 1, v0 = 1, exponent = 0;  // power_law: e = clamp(e0 (v / v0)^-exponent, low, high)
};

// Trajectory samples (docs/sweep.md "Trajectory samples"): each sample's state is stepped through
// the Simulator (include/obliq/simulator.hpp) for `steps` steps of `dt` (horizon T = steps dt).
struct Trajectory {
  double dt = 0;
  long steps = 0;
  SimOptions sim;             // integrator, theta, gamma, max_step, zeno_velocity, max_impacts; law,
                              // friction formulation and facets: the study's; threads: the run's
  double rest_energy = 1e-9;  // at rest at T: KE(T) <= rest_energy (KE(0) + |V(0) - V(T)|)
};

struct Study {
  nlohmann::ordered_json source;  // the study file as read (echoed in the summary)
  std::string name;
  // Mechanism: a model at (q, qdot), or one raw scenario (then q perturbations do not apply).
  std::optional<model::Model> model;
  Eigen::VectorXd q, qdot;
  bool closed_gaps = true;  // every unilateral row closed at the impact instant (phi_u = 0)
  std::optional<Scenario> scenario;
  std::vector<std::string> contact_names;  // one per constraint row, bilateral rows first
  Law law = Law::complementarity;
  std::uint64_t samples = 0, seed = 0;
  std::vector<Distribution> restitution;  // one per unilateral row
  std::vector<Distribution> friction;     // one per unilateral row (Coulomb mu); empty: frictionless
  friction::Formulation friction_formulation = friction::Formulation::cone;  // or the pyramid LCP
  int facets = 8;                         // pyramid facets per contact
  std::optional<Trajectory> trajectory;   // set: trajectory samples; else one impact per sample
  std::vector<Distribution> dq, dqdot;    // one per velocity coordinate (kind normal/uniform/fixed 0)
  // What to collect.
  bool joint_impulses = true;     // model only
  std::uint64_t rows = 0;         // per-sample rows for samples [0, rows) (CSV, HDF5)
  bool rows_csv = true, rows_hdf5 = true;
  int bins = 40;                  // histogram bins per output
  std::vector<std::pair<std::string, std::pair<double, double>>> ranges;  // fixed histogram ranges
  std::vector<double> quantiles = {0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99};
  int sketch_k = 200;             // KLL accuracy parameter
  std::uint64_t scatter = 2000;   // samples kept for the scatter plots
  bool plots = true;
};

// Throws std::invalid_argument naming the key that is wrong. Relative model paths are taken
// from `base_dir` (the study file's folder).
Study parse_study(const nlohmann::ordered_json& j, const std::string& base_dir);
Study load_study(const std::string& path);
// A study from its JSON text (load_study's checks: size, nesting depth, valid JSON); `what`
// names the text in the messages ("'path'", "the study").
Study read_study(const std::string& text, const std::string& base_dir, const std::string& what);

// The per-sample outputs (columns) of a study: name and unit.
struct Column {
  std::string name, unit;
};
std::vector<Column> columns(const Study& study);

// Per-sample values of one chunk [first, first + count): values (count x columns), NaN where an
// output does not exist for that sample (failed status, KE_pre = 0); e always. A sample the solver
// answered ok but with an output that is not finite (inputs that overflow double precision) is a
// failed sample (docs/sweep.md "Outputs per sample"): status Status::non_finite, `non_finite` the
// column of that output, its outputs NaN.
struct SampleTable {
  std::uint64_t first = 0;
  std::size_t count = 0;
  RowMat<double> values;
  std::vector<Status> status;
  std::vector<std::int32_t> non_finite;         // (count) -1, or the first non-finite output's column (empty: none)
  std::vector<std::uint8_t> energy_consistent;  // (count) impact samples
  std::vector<std::uint8_t> at_rest;            // (count) trajectory samples
  std::vector<std::uint8_t> candidate, released;  // (count x m_u)
};

class Statistics;  // streaming, mergeable statistics (src/sweep/statistics.hpp)

struct Options {
  int threads = 0;             // 0: all
  // Where the solves run: Backend::cpu (OpenMP with `threads`) or Backend::cuda (docs/sweep.md
  // "On the GPU"): the samples are still drawn, evaluated through the model and reduced into the
  // statistics on the host (`threads`), and each chunk's impacts (obliq::solve_impact, or
  // obliq::impact_batch with friction) or trajectories (the Simulator) are solved on the device.
  // The statistics are the cpu run's up to the device's rounding. std::runtime_error
  // ("backend cuda: ...") when the CUDA backend or a device is not available.
  Backend backend = Backend::cpu;
  std::size_t chunk = 8192;    // samples per chunk
  std::uint64_t begin = 0, end = UINT64_MAX;  // this process's sample range (clipped to samples)
  const std::atomic<bool>* stop = nullptr;     // checked between chunks
  std::function<void(std::uint64_t done, std::uint64_t total)> progress;
  std::function<void(const SampleTable&)> on_chunk;  // rows, scatter (called in sample order)
};

struct Result {
  std::shared_ptr<Statistics> stats;
  std::uint64_t begin = 0, end = 0;  // samples done: [begin, end)
  bool partial = false;              // stopped before its range was done
  double wall_s = 0;
};

// Runs the samples of opt's range. Histogram ranges come from the study or from a pilot of the
// first samples (the same on every process).
Result run(const Study& study, const Options& opt);

// Block-aligned share of rank `rank` of `size` (whole statistics blocks per rank).
std::pair<std::uint64_t, std::uint64_t> shard(std::uint64_t samples, int rank, int size);

// The summary (docs/sweep.md "Summary"): every statistic, the study, seed, version; `run` holds
// what may differ between runs of the same study (wall time, threads, chunk, ranks).
nlohmann::ordered_json summary(const Study& study, const Result& result, const nlohmann::ordered_json& run_info);
// The summary's `run`: wall_time_s, samples_per_s, threads, chunk, ranks, backend.
nlohmann::ordered_json run_info(const Result& result, int threads, std::size_t chunk, int ranks,
                                Backend backend = Backend::cpu);
// A readable digest of a summary for the terminal.
std::string summary_text(const nlohmann::ordered_json& summary);

}  // namespace obliq::sweep

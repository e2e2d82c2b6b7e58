// obliq simulate MODEL --state FILE --dt H --steps K (docs/simulator.md): steps every state line
// of FILE through impacts with the batched Simulator (Moreau-Jean or event-driven) and writes one
// JSON line per recorded state per scenario: the initial state, then every --record N-th step
// (every step by default). MODEL is a .urdf file or a built-in model (state lines
// {"id", "q", "qdot", "u"?, "e"?}), or `scenario`: then each line is a docs/format.md scenario
// (M, h, A_b, A_u, phi_u, qdot, u, e; optional "q", default 0) taken as a linear system with
// constant M, h and rows, and gaps phi_u + A_u (q' - q). Friction (Moreau-Jean): --mu or a line's
// "mu" (a number or one per unilateral row); a model's tangent rows come from its contact frames,
// a scenario line's are its "A_t" (and "dim"), as for obliq impact. A bad line gets an error line and the
// others run; a scenario that fails during the run (or whose numbers overflow: no null on an ok
// line) gets one error line and stops. The input streams through cli::pump (docs/limits.md): each
// chunk of lines is simulated as one batch and its records are written while they are made;
// SIGINT/SIGTERM stops after a whole record. Exit codes as elsewhere: 0, 3 (some error line),
// 2 (misuse, a failed write), 130/143 (stopped by a signal). A progress bar goes to standard
// error when it is a terminal (not with --quiet).
#include <unistd.h>

#include <cmath>
#include <iostream>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/model_source.hpp"
#include "cli/parallel_lines.hpp"
#include "cli/pump.hpp"
#include "cpu/cuda_backend.hpp"
#include "io/limits.hpp"
#include "obliq/io/scenario_json.hpp"
#include "obliq/simulator.hpp"

namespace obliq::cli {
namespace {

using io::ojson;

struct SimulateOptions {
  ModelSource source;
  std::string state_file, output;
  double dt = 0;
  long steps = 0;
  long record = 1;
  std::string integrator = "moreau";
  std::string law = "complementarity";
  std::string scalar = "double";
  std::string backend = "cpu";
  double e = 0;
  double mu = 0;
  std::string friction = "cone";
  bool quiet = false;
  SimOptions sim;
};

// One input line, ready to simulate (or its error).
struct SimLine {
  ojson id;
  std::string error;
  Eigen::VectorXd q, v, u, e, mu;
  Scenario raw;                     // `scenario` mode: the linear system
  std::optional<Friction> friction;  // `scenario` mode: its tangent rows and mu (some mu > 0)
};

template <class T> ojson array_json(const T* p, int n) {
  ojson a = ojson::array();
  for (int k = 0; k < n; ++k) a.push_back(double(p[k]));
  return a;
}

// Per-line contact coefficients `key` (e: restitution in [0, 1]; mu: friction >= 0): a number
// (every unilateral row) or an array of m_u; absent: the option's value.
bool read_coefficients(const ojson& j, const char* key, int m_u, double fallback, Eigen::VectorXd& c, std::string& error) {
  const bool is_e = std::string(key) == "e";
  c = Eigen::VectorXd::Constant(m_u, fallback);
  if (!j.contains(key)) return true;
  if (j[key].is_number()) {
    c.setConstant(j[key].get<double>());
  } else if (!read_vector(j, key, m_u, c, error)) {
    return false;
  }
  for (int i = 0; i < m_u; ++i)
    if (!(c(i) >= 0 && (c(i) <= 1 || !is_e) && std::isfinite(c(i)))) {
      error = status_reason(is_e ? Status::bad_restitution : Status::bad_friction);
      return false;
    }
  return true;
}


SimLine model_line(const std::string& text, long number, const model::Model& m, const SimulateOptions& opt) {
  StateLine s = parse_state_line(text, number, m);
  SimLine l;
  l.id = s.id;
  if (s.blank) {
    l.error = "blank";
    return l;
  }
  l.u = Eigen::VectorXd::Zero(m.nv);
  if (s.error.empty() && s.json.contains("u")) read_vector(s.json, "u", m.nv, l.u, s.error);
  if (s.error.empty()) read_coefficients(s.json, "e", m.n_unilateral(), opt.e, l.e, s.error);
  if (s.error.empty()) read_coefficients(s.json, "mu", m.n_unilateral(), opt.mu, l.mu, s.error);
  reject_unread_non_finite(s, "obliq simulate");
  l.error = std::move(s.error);
  l.q = std::move(s.q);
  l.v = std::move(s.qdot);
  return l;
}

SimLine scenario_line(const std::string& text, long number, const SimulateOptions& opt) {
  SimLine l;
  io::ScenarioLine s = io::parse_scenario_line(text, number, io::Use::all);
  ojson j = ojson::parse(text, nullptr, false);
  if (s.error.empty() && !s.blank && opt.mu > 0 && j.is_object() && !j.contains("mu")) {  // --mu: a line without "mu"
    j["mu"] = opt.mu;
    s = io::parse_scenario_line(io::dump_line(j), number, io::Use::all);
  }
  l.id = s.id;
  l.error = s.blank ? "blank" : s.error;
  if (!l.error.empty()) return l;
  l.raw = s.scenario;
  l.friction = s.friction;
  const int n = int(l.raw.M.rows()), mu = int(l.raw.A_u.rows());
  l.q = Eigen::VectorXd::Zero(n);
  if (j.contains("q") && !read_vector(j, "q", n, l.q, l.error)) return l;
  l.v = l.raw.qdot;
  l.u = l.raw.u;
  if (!j.contains("e")) l.raw.e = Eigen::VectorXd::Constant(mu, opt.e);
  l.e = l.raw.e;
  // Gaps at q = 0 (the linear system's phi0).
  l.raw.phi_u = l.raw.phi_u - l.raw.A_u * l.q;
  return l;
}

void progress(long done, long total, bool show) {
  if (!show) return;
  const int width = 40, filled = total > 0 ? int(width * done / total) : width;
  std::cerr << "\r[" << std::string(filled, '=') << std::string(width - filled, ' ') << "] " << done << "/" << total
            << " steps" << (done == total ? "\n" : "") << std::flush;
}

// One Simulator and the lines it steps (one for a model; one per shape for raw scenarios).
template <class T> struct SimGroup {
  Simulator<T> sim;
  std::vector<std::size_t> which;  // the lines of its scenarios, in order
  std::vector<bool> stopped;       // scenarios whose error line was written
  std::string failed;              // a reason for every unstopped scenario (memory not allocated)
};

// The record of every unstopped scenario of g at its present state into rec[line]: an ok line,
// or one error line (a failed scenario, a number that overflowed, a group that failed) after
// which the scenario writes nothing more.
template <class T>
bool record(SimGroup<T>& g, const std::vector<SimLine>& lines, std::vector<std::string>& rec) {
  bool any_error = false;
  Simulator<T>& sim = g.sim;
  std::vector<T> kin, pot;
  std::vector<Status> state;  // each state judged as it stands (the initial one before any step)
  if (g.failed.empty()) sim.energies(kin, pot, &state);
  const int nq = sim.nq(), nv = sim.nv();
  for (std::size_t s = 0; s < g.which.size(); ++s) {
    if (g.stopped[s]) continue;
    const SimLine& l = lines[g.which[s]];
    const auto row_finite = [&](const RowMat<T>& a, int width) {
      for (int k = 0; k < width; ++k)
        if (!std::isfinite(double(a(Eigen::Index(s), k)))) return false;
      return true;
    };
    std::string reason = g.failed;
    if (reason.empty() && sim.status[s] != Status::ok) reason = status_reason(sim.status[s]);
    if (reason.empty()) {  // every number of an ok line is finite (docs/limits.md)
      const char* bad = !std::isfinite(double(sim.t[s])) ? "t"
                        : !row_finite(sim.q, nq)          ? "q"
                        : !row_finite(sim.v, nv)          ? "qdot"
                        : !std::isfinite(double(kin[s]))  ? "kinetic_energy"
                        : !std::isfinite(double(pot[s]))  ? "potential_energy"
                        : sim.impacts[s] > 0 && !(std::isfinite(double(sim.last_impact_time[s])) &&
                                                  row_finite(sim.last_impact_v, nv))
                            ? "last_impact_qdot"
                            : nullptr;
      if (bad) reason = io::non_finite_result(bad);
    }
    if (reason.empty() && state[s] != Status::ok) reason = status_reason(state[s]);
    ojson j;
    j["id"] = l.id;
    if (!reason.empty()) {
      j["status"] = "error: " + reason;
      if (std::isfinite(double(sim.t[s]))) j["t"] = double(sim.t[s]);
      g.stopped[s] = true;
      any_error = true;
    } else {
      j["status"] = "ok";
      j["t"] = double(sim.t[s]);
      j["q"] = array_json(sim.q.data() + s * nq, nq);
      j["qdot"] = array_json(sim.v.data() + s * nv, nv);
      j["kinetic_energy"] = double(kin[s]);
      j["potential_energy"] = double(pot[s]);
      j["impacts"] = sim.impacts[s];
      j["lcp_solves"] = sim.lcp_solves[s];
      ojson act = ojson::array();
      for (int i = 0; i < sim.m_u(); ++i) act.push_back(int(sim.active[s * sim.m_u() + i]));
      j["active"] = std::move(act);
      if (sim.impacts[s] > 0) {  // the last impact: when, and the velocity right after it
        j["last_impact_t"] = double(sim.last_impact_time[s]);
        j["last_impact_qdot"] = array_json(sim.last_impact_v.data() + s * nv, nv);
      }
    }
    rec[g.which[s]] = io::dump_line(j);
  }
  return any_error;
}

template <class T>
SimGroup<T> model_group(const model::Model& m, const std::vector<SimLine>& lines, const std::vector<std::size_t>& good,
                        const SimulateOptions& opt) {
  SimGroup<T> g{Simulator<T>(m, good.size(), opt.sim), good, std::vector<bool>(good.size(), false), {}};
  for (std::size_t s = 0; s < good.size(); ++s) {
    const SimLine& l = lines[good[s]];
    g.sim.q.row(s) = l.q.transpose().cast<T>();
    g.sim.v.row(s) = l.v.transpose().cast<T>();
    g.sim.u.row(s) = l.u.transpose().cast<T>();
    if (m.n_unilateral() > 0) {
      g.sim.e.row(s) = l.e.transpose().cast<T>();
      g.sim.mu.row(s) = l.mu.transpose().cast<T>();
    }
  }
  return g;
}

// Raw scenarios of one shape, all with friction of one dim or all without.
template <class T>
SimGroup<T> scenario_group(const std::vector<SimLine>& lines, Shape shape, bool friction,
                           const std::vector<std::size_t>& which, const SimulateOptions& opt) {
  Batch<T> batch(shape, which.size());
  std::vector<Friction> fr;
  for (std::size_t s = 0; s < which.size(); ++s) {
    batch.set(s, lines[which[s]].raw);
    if (friction) fr.push_back(*lines[which[s]].friction);
  }
  SimGroup<T> g{friction ? Simulator<T>(batch, fr, opt.sim) : Simulator<T>(batch, opt.sim), which,
                std::vector<bool>(which.size(), false), {}};
  for (std::size_t s = 0; s < which.size(); ++s) g.sim.q.row(s) = lines[which[s]].q.transpose().template cast<T>();
  return g;
}

std::string too_large_reason() { return "too large (the simulation's memory cannot be allocated)"; }

// Simulates the good lines (one group for a model, one per shape for raw scenarios) and writes
// their records through `emit` as they are made: record by record, scenarios in input order, so
// that nothing but one record per scenario is held. Stops early at SIGINT/SIGTERM (after a whole
// record) or when `emit` fails. Returns whether any error line was written.
template <class T, class Emit>
bool simulate(const model::Model* m, const std::vector<SimLine>& lines, const std::vector<std::size_t>& good,
              const SimulateOptions& opt, bool show, Emit&& emit) {
  bool any_error = false;
  std::vector<SimGroup<T>> groups;
  std::vector<std::string> rec(lines.size());
  try {
    if (m) {
      groups.push_back(model_group<T>(*m, lines, good, opt));
    } else {
      std::map<std::pair<Shape, int>, std::vector<std::size_t>> by_shape;  // (shape, friction dim or 0)
      for (std::size_t k : good)
        by_shape[{lines[k].raw.shape(), lines[k].friction ? lines[k].friction->dim : 0}].push_back(k);
      for (const auto& [key, which] : by_shape)
        groups.push_back(scenario_group<T>(lines, key.first, key.second > 0, which, opt));
    }
  } catch (const std::bad_alloc&) {
    groups.clear();
    std::string text;
    for (std::size_t k : good)
      (text += io::dump_line(io::error_to_json(lines[k].id, too_large_reason()))) += '\n';
    emit(text);
    return true;
  }
  std::string text;
  for (long done = 0;;) {
    for (auto& g : groups) any_error = record(g, lines, rec) || any_error;
    text.clear();
    for (auto& r : rec)
      if (!r.empty()) (text += r) += '\n', r.clear();
    if (!emit(text) || done == opt.steps || StopSignals::received()) break;
    const long chunk = std::min(opt.record, opt.steps - done);
    for (auto& g : groups) {
      if (!g.failed.empty()) continue;
      try {
        g.sim.step(T(opt.dt), int(chunk));
      } catch (const std::bad_alloc&) {
        g.failed = too_large_reason();
      }
    }
    done += chunk;
    progress(done, opt.steps, show);
  }
  return any_error;
}

// The lines of one chunk (cli::pump): the chunk's bad lines' error lines first, then the records
// of its good lines, simulated together, written while they are made (LineBatch::write_now).
class SimBatch final : public HeldLines {
 public:
  SimBatch(const model::Model& m, bool raw, const SimulateOptions& opt, bool show)
      : m_(m), raw_(raw), opt_(opt), show_(show) {}

  bool flush(std::string& out) override {
    lines_ = parse_held<SimLine>(  // on all threads (cli/parallel_lines.hpp)
        opt_.sim.threads,
        [&](const std::string& text, long number) -> std::optional<SimLine> {
          SimLine l = raw_ ? scenario_line(text, number, opt_) : model_line(text, number, m_, opt_);
          if (l.error == "blank") return std::nullopt;
          return l;
        });
    bool any_error = false;
    std::vector<std::size_t> good;
    for (std::size_t k = 0; k < lines_.size(); ++k) {
      if (lines_[k].error.empty()) {
        good.push_back(k);
      } else {
        (out += io::dump_line(io::error_to_json(lines_[k].id, lines_[k].error))) += '\n';
        any_error = true;
      }
    }
    if (!good.empty() && write_now(out)) {
      const auto emit = [this](std::string& text) { return write_now(text); };
      const model::Model* m = raw_ ? nullptr : &m_;
      const bool err = opt_.scalar == "float" ? simulate<float>(m, lines_, good, opt_, show_, emit)
                                              : simulate<double>(m, lines_, good, opt_, show_, emit);
      any_error = any_error || err;
    }
    lines_.clear();
    return any_error;
  }

 private:
  const model::Model& m_;
  bool raw_;
  const SimulateOptions& opt_;
  bool show_;
  std::vector<SimLine> lines_;
};

int run_simulate(SimulateOptions opt) {
  const char* who = "obliq simulate";
  if (opt.source.model.empty() || opt.state_file.empty()) {
    std::cerr << who << ": MODEL and --state FILE are required\n";
    return 2;
  }
  if (!(opt.dt > 0) || !std::isfinite(opt.dt)) {
    std::cerr << who << ": --dt must be a positive number\n";
    return 2;
  }
  if (!(opt.e >= 0 && opt.e <= 1)) {
    std::cerr << who << ": --e must be in [0, 1]\n";
    return 2;
  }
  if (!(opt.mu >= 0) || !std::isfinite(opt.mu)) {
    std::cerr << who << ": --mu must be a finite number >= 0\n";
    return 2;
  }
  opt.sim.friction = formulation_named(opt.friction);
  parse_backend(opt.backend, opt.sim.backend);  // cpu or cuda (checked by the option)
  // The cuda backend loaded (or refused, exit 2 with "backend cuda: ...") before any file is opened.
  if (opt.sim.backend == Backend::cuda) cpu::cuda_backend();
  opt.sim.integrator = opt.integrator == "event" ? sim::Integrator::event_driven : sim::Integrator::moreau_jean;
  opt.sim.law = opt.law == "projection" ? Law::projection : Law::complementarity;
  const bool raw = opt.source.model == "scenario";
  model::Model m;
  if (!raw && !build_model(opt.source, m, who)) return 2;

  StopSignals signals;
  InputLines in;
  if (!in.open(opt.state_file, who)) return 2;
  OutputLines out;
  if (!out.open(opt.output, in, who)) return 2;
  SimBatch batch(m, raw, opt, !opt.quiet && isatty(STDERR_FILENO));
  return pump(in, out, batch, who);
}

}  // namespace

void register_simulate_command(CLI::App& app, Action& run) {
  auto opt = std::make_shared<SimulateOptions>();
  CLI::App* sub = app.add_subcommand(
      "simulate", "Step the states of FILE through impacts (Moreau-Jean or event-driven) and write their trajectories");
  add_model_source_options(sub, opt->source);
  sub->add_option("--state", opt->state_file,
                  "State lines {\"id\", \"q\", \"qdot\", \"u\"?, \"e\"?, \"mu\"?} (MODEL scenario: docs/format.md scenario "
                  "lines, optional \"q\"); - reads standard input");
  sub->add_option("--dt", opt->dt, "Step (Moreau-Jean) or output interval (event-driven)")->required();
  sub->add_option("--steps", opt->steps, "Number of steps")->required()->check(CLI::Range(0L, 1L << 40));
  sub->add_option("--integrator", opt->integrator, "moreau (Moreau-Jean, default) or event (event-driven)")
      ->check(CLI::IsMember({"moreau", "event"}));
  sub->add_option("--theta", opt->sim.theta, "Moreau-Jean theta (default 0.5)")->check(CLI::Range(0.0, 1.0));
  sub->add_option("--gamma", opt->sim.gamma, "Moreau-Jean activation: phi + gamma dt (A v) <= 0 (default 0.5)")
      ->check(CLI::Range(0.0, 1.0));
  sub->add_option("--law", opt->law, "Impact law: complementarity (default) or projection")
      ->check(CLI::IsMember({"complementarity", "projection"}));
  sub->add_option("--e", opt->e, "Global restitution coefficient in [0, 1] (default 0; a line's \"e\" wins)");
  sub->add_option("--mu", opt->mu,
                  "Coulomb friction coefficient of every contact (default 0: frictionless; a line's \"mu\" wins; "
                  "docs/simulator.md)");
  sub->add_option("--friction", opt->friction, "Friction formulation: cone (exact Coulomb cone, default) or pyramid")
      ->check(CLI::IsMember(formulation_names));
  sub->add_option("--facets", opt->sim.facets, "Pyramid facets per contact in space (default 8)")->check(CLI::Range(min_facets, max_facets));
  sub->add_option("--record", opt->record, "Write every N-th step (default 1)")->check(CLI::Range(1L, 1L << 40));
  sub->add_option("--max-step", opt->sim.max_step, "Event-driven: largest smooth step (default: --dt)")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--zeno-velocity", opt->sim.zeno_velocity, "Event-driven: plastic impacts below this approach speed")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--max-impacts", opt->sim.max_impacts, "Event-driven: plastic after this many impacts per --dt")
      ->check(CLI::Range(0, 1 << 30));
  sub->add_option("--scalar", opt->scalar, "double (default) or float")->check(CLI::IsMember({"double", "float"}));
  sub->add_option("--backend", opt->backend, "cpu (default: OpenMP) or cuda (one GPU thread per scenario)")
      ->check(CLI::IsMember({"cpu", "cuda"}));
  sub->add_option("--threads", opt->sim.threads, "Threads (default 0: all; cpu backend)")->check(CLI::Range(0, io::kMaxThreads));
  sub->add_flag("--quiet", opt->quiet, "No progress bar");
  sub->add_option("-o,--output", opt->output, "Write to OUT instead of standard output");
  sub->callback([&run, opt] { run = [opt] { return run_simulate(*opt); }; });
}

}  // namespace obliq::cli

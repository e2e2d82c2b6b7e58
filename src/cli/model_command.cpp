// obliq model MODEL --state FILE (docs/format.md "Models"): evaluates a multibody model (a .urdf file
// or a built-in model) at every state line of FILE and writes one scenario line (docs/format.md's input
// schema) per state, so that `obliq model ... | obliq impact -` works. With --impact it also
// solves the impact (the solver's backends) and adds the impact keys and the internal joint
// impulses. A bad state line becomes an error line ({"id", "status": "error: ..."}, exit 3) and
// never touches the others; a number an ok line would report that is not finite makes it an error
// line naming the quantity. The state lines stream through cli::pump (src/cli/pump.hpp).
#include <cmath>
#include <iostream>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/model_source.hpp"
#include "cli/parallel_lines.hpp"
#include "cli/pump.hpp"
#include "io/limits.hpp"
#include "obliq/io/scenario_json.hpp"
#include "obliq/batch.hpp"
#include "obliq/friction.hpp"
#include "obliq/model/friction_rows.hpp"
#include "obliq/model/host.hpp"

namespace obliq::cli {
namespace {

using io::ojson;

struct ModelOptions {
  ModelSource source;
  std::string state_file;
  std::string output;
  bool list = false;
  bool impact = false;
  std::string law = "complementarity";
  std::string backend = "cpu";
  double e = 0;
  double mu = 0;                    // friction coefficient of every unilateral row (docs/friction.md)
  std::string friction = "cone";    // formulation for --impact with mu > 0
  std::string floor_normal;         // x,y,z: normal of the ground rows (default +z)
  int threads = 0;
};

ojson vector_json(const Eigen::VectorXd& v) {
  ojson a = ojson::array();
  for (int k = 0; k < v.size(); ++k) a.push_back(v(k));
  return a;
}

// The first non-finite number among those an ok line reports, or nullptr.
const char* non_finite_quantity(const Scenario& sc, const model::StateExtras& x) {
  if (!sc.M.allFinite()) return "M";
  if (!sc.h.allFinite()) return "h";
  if (!sc.qdot.allFinite()) return "qdot";
  if (!sc.A_b.allFinite()) return "A_b";
  if (!sc.A_u.allFinite()) return "A_u";
  if (!sc.phi_u.allFinite()) return "phi_u";
  if (!sc.Adot_qdot.allFinite()) return "Adot_qdot";
  if (!x.com.allFinite()) return "com";
  if (!x.momentum.allFinite()) return "momentum";
  if (!std::isfinite(x.kinetic_energy)) return "kinetic_energy";
  if (!std::isfinite(x.potential_energy)) return "potential_energy";
  return nullptr;
}

const char* non_finite_quantity(const Friction& f) {
  if (!f.A_t.allFinite()) return "A_t";
  if (!f.Adot_qdot_t.allFinite()) return "Adot_qdot_t";
  return nullptr;
}

// The state lines of one chunk: evaluated, with --impact solved, and written in order.
class StateBatch final : public HeldLines {
 public:
  StateBatch(const model::Model& m, const ModelOptions& opt, const RunOptions& run) : m_(m), opt_(opt), run_(run) {
    for (const auto& n : m.joint_names) names_.push_back(n);
  }

  // The chunk's lines parsed, evaluated and their objects built on all threads (each line in its
  // own slot, cli/parallel_lines.hpp), then the impacts solved, then the lines formatted.
  bool flush(std::string& out) override {
    lines_ = parse_held<StateLine>(
        run_.threads,
        [&](const std::string& line, long number) -> std::optional<StateLine> {
          StateLine s = parse_state_line(line, number, m_);
          if (s.blank) return std::nullopt;
          reject_unread_non_finite(s, "obliq model");
          s.json = ojson();  // not needed past here
          return s;
        });
    std::vector<ojson> text(lines_.size());
    std::vector<Scenario> scen(lines_.size());
    std::vector<model::StateExtras> extras(lines_.size());
    std::vector<Friction> fric(lines_.size());
    bool any_error = for_each_line(lines_.size(), run_.threads, [&](std::size_t k) {
      StateLine& s = lines_[k];
      if (s.error.empty()) {
        const Status st = model::evaluate(m_, s.q, s.qdot, scen[k], &extras[k]);
        if (st != Status::ok) s.error = status_reason(st);
        else if (const char* q = non_finite_quantity(scen[k], extras[k])) s.error = io::non_finite_result(q);
      }
      if (s.error.empty() && opt_.mu > 0) {  // tangent rows from each contact frame (docs/friction.md)
        const Status st = model::evaluate_friction(m_, s.q, s.qdot, opt_.mu, fric[k]);
        if (st != Status::ok) s.error = status_reason(st);
        else if (const char* q = non_finite_quantity(fric[k])) s.error = io::non_finite_result(q);
      }
      if (!s.error.empty()) {
        text[k] = io::error_to_json(s.id, s.error);
        return true;
      }
      Scenario& sc = scen[k];
      sc.e = Eigen::VectorXd::Constant(sc.A_u.rows(), opt_.e);
      sc.law = opt_.law == "projection" ? Law::projection : Law::complementarity;
      ojson j;
      j["id"] = s.id;
      j["status"] = "ok";
      nlohmann::json body = io::scenario_to_json(sc);
      if (opt_.mu > 0) io::add_friction_json(body, fric[k]);
      for (const char* key : {"M", "h", "qdot", "A_b", "A_u", "phi_u", "Adot_qdot", "e", "law", "gap_tol", "vel_tol",
                              "mu", "dim", "A_t", "Adot_qdot_t"})
        if (body.contains(key)) j[key] = ojson::parse(body[key].dump());
      j["joint_names"] = names_;
      j["com"] = vector_json(extras[k].com);
      j["momentum"] = vector_json(extras[k].momentum);
      j["kinetic_energy"] = extras[k].kinetic_energy;
      j["potential_energy"] = extras[k].potential_energy;
      text[k] = std::move(j);
      return false;
    });
    std::vector<std::size_t> good;
    for (std::size_t k = 0; k < lines_.size(); ++k)
      if (lines_[k].error.empty()) good.push_back(k);
    if (opt_.impact && !good.empty()) {
      try {
        any_error = solve_impacts(scen, fric, good, text) || any_error;
      } catch (const std::bad_alloc&) {
        for (std::size_t k : good)
          text[k] = io::error_to_json(lines_[k].id, "too large (the impact's memory cannot be allocated)");
        any_error = true;
      }
    }
    std::vector<std::string> lines(text.size());
    for_each_line(text.size(), run_.threads, [&](std::size_t k) { lines[k] = io::dump_line(text[k]); });
    for (const auto& l : lines) (out += l) += '\n';
    lines_.clear();
    return any_error;
  }

 private:
  // --impact: the good lines' impacts (with --mu > 0 the frictional ones, obliq::impact_batch on
  // the cpu or, with --backend cuda, on the device; docs/friction.md), their keys and joint
  // impulses added to their ok lines.
  bool solve_impacts(const std::vector<Scenario>& scen, std::vector<Friction>& fric, const std::vector<std::size_t>& good,
                     std::vector<ojson>& text) {
    bool any_error = false;
    const Shape shape{m_.nv, m_.n_bilateral, m_.n_unilateral()};
    ImpactResults<double> res;
    std::vector<ImpactResult> frictional;
    std::vector<FrictionResult> info;
    if (opt_.mu <= 0) {
      Batch<double> batch(shape, good.size());
      for (std::size_t s = 0; s < good.size(); ++s) batch.set(s, scen[good[s]]);
      solve_impact(batch, res, run_);
    } else {  // the reference backend has no frictional solver: the cpu's
      std::vector<FrictionalScenario> batch;
      for (std::size_t k : good) {
        fric[k].formulation = formulation_named(opt_.friction);
        batch.push_back({&scen[k], &fric[k]});
      }
      frictional = impact_batch<double>(batch, run_.backend == Backend::cuda ? Backend::cuda : Backend::cpu, &info);
    }
    for (std::size_t s = 0; s < good.size(); ++s) {
      const std::size_t k = good[s];
      const ImpactResult r = opt_.mu > 0 ? frictional[s] : res.get(s);
      ojson& j = text[k];
      ojson ij = io::impact_result_to_json(lines_[k].id, r);
      if (opt_.mu > 0) io::add_friction_keys(ij, info[s], false);
      if (ij.at("status") != "ok") {  // the solver's status, or a result that overflowed
        j["status"] = ij.at("status");
        any_error = true;
        continue;
      }
      const Eigen::MatrixXd J = model::joint_impulses(m_, lines_[k].q, lines_[k].qdot, r.qdot_plus, r.lambda);
      if (!J.allFinite()) {
        j = io::error_to_json(lines_[k].id, io::non_finite_result("joint_impulses"));
        any_error = true;
        continue;
      }
      for (auto it = ij.begin(); it != ij.end(); ++it)
        if (it.key() != "id" && it.key() != "status") j[it.key()] = it.value();
      ojson ji = ojson::array();
      for (int b = 0; b < J.rows(); ++b) ji.push_back(vector_json(J.row(b).transpose()));
      j["joint_impulses"] = std::move(ji);
    }
    return any_error;
  }

  const model::Model& m_;
  const ModelOptions& opt_;
  const RunOptions& run_;
  ojson names_ = ojson::array();
  std::vector<StateLine> lines_;
};

int list_models() {
  for (const auto& b : model::builtin_models()) std::cout << b.name << "\t" << b.description << "\n";
  return 0;
}

int run_model(const ModelOptions& opt) {
  const char* who = "obliq model";
  if (opt.list) return list_models();
  if (opt.source.model.empty() || opt.state_file.empty()) {
    std::cerr << who << ": MODEL and --state FILE are required (or --list)\n";
    return 2;
  }
  RunOptions run;
  if (!parse_backend(opt.backend, run.backend)) {
    std::cerr << who << ": unknown backend '" << opt.backend << "'\n";
    return 2;
  }
  run.threads = opt.threads;
  if (!(opt.e >= 0 && opt.e <= 1)) {
    std::cerr << who << ": --e must be in [0, 1]\n";
    return 2;
  }

  // The model: a URDF file or a built-in name, with gravity, the ground height and contacts; then
  // every ground row (normal +z so far) gets the floor's normal.
  model::Model m;
  if (!build_model(opt.source, m, who)) return 2;
  if (!opt.floor_normal.empty()) {
    Eigen::Vector3d nrm;
    if (!model::parse_triple(opt.floor_normal, nrm) || !(nrm.norm() > 0)) {
      std::cerr << who << ": --floor-normal wants three numbers x,y,z, not all zero\n";
      return 2;
    }
    nrm.normalize();
    for (int r = 0; r < m.ncontacts(); ++r)
      if (m.contact_body_b[r] == -1 && m.contact_normal[3 * r + 2] == 1.0)
        for (int k = 0; k < 3; ++k) m.contact_normal[3 * r + k] = nrm(k);
  }

  StopSignals signals;
  InputLines in;
  if (!in.open(opt.state_file, who)) return 2;
  OutputLines out;
  if (!out.open(opt.output, in, who)) return 2;
  StateBatch batch(m, opt, run);
  return pump(in, out, batch, who);
}

}  // namespace

void register_model_command(CLI::App& app, Action& run) {
  auto opt = std::make_shared<ModelOptions>();
  CLI::App* sub = app.add_subcommand(
      "model", "Evaluate a multibody model (a .urdf file or a built-in model) at the states of FILE into scenario lines");
  add_model_source_options(sub, opt->source);
  sub->add_option("--state", opt->state_file, "State lines {\"id\", \"q\": [nq], \"qdot\": [nv]}; - reads standard input");
  sub->add_flag("--list", opt->list, "Name the built-in models");
  sub->add_flag("--impact", opt->impact, "Also solve the impact: impact keys and joint_impulses per line");
  sub->add_option("--law", opt->law, "Impact law: complementarity (default) or projection")
      ->check(CLI::IsMember({"complementarity", "projection"}));
  sub->add_option("--backend", opt->backend, "Solver backend for --impact: cpu, reference or cuda (default cpu)")
      ->check(CLI::IsMember({"cpu", "reference", "cuda"}));
  sub->add_option("--e", opt->e, "Global restitution coefficient in [0, 1] (default 0)");
  sub->add_option("--mu", opt->mu,
                  "Friction coefficient of every contact (default 0: none); > 0 adds mu, dim, A_t (tangent rows "
                  "from each contact frame) and Adot_qdot_t to every line (docs/friction.md)")
      ->check(CLI::Range(0.0, 1e300));
  sub->add_option("--friction", opt->friction, "Friction formulation for --impact: cone (default) or pyramid")
      ->check(CLI::IsMember(formulation_names));
  sub->add_option("--floor-normal", opt->floor_normal,
                  "x,y,z: normal of the ground plane for the ground contacts (default 0,0,1; the plane is "
                  "n . x = --ground)");
  sub->add_option("--threads", opt->threads, "Threads for the cpu backend (default 0: all)")
      ->check(CLI::Range(0, io::kMaxThreads));
  sub->add_option("-o,--output", opt->output, "Write to OUT instead of standard output");
  sub->callback([&run, opt] { run = [opt] { return run_model(*opt); }; });
}

}  // namespace obliq::cli

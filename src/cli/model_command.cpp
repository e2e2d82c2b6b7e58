// obliq model MODEL --state FILE (docs/format.md "Models"): evaluates a multibody model (a .urdf file
// or a built-in model) at every state line of FILE and writes one scenario line (docs/format.md's input
// schema) per state, so that `obliq model ... | obliq impact -` works. With --impact it also
// solves the impact (the solver's backends) and adds the impact keys and the internal joint
// impulses. A bad state line becomes an error line ({"id", "status": "error: ..."}, exit 3) and
// never touches the others.
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/model_source.hpp"
#include "cli/streams.hpp"
#include "io/scenario_json.hpp"
#include "obliq/batch.hpp"
#include "obliq/friction.hpp"
#include "obliq/model/friction_rows.hpp"
#include "obliq/model/host.hpp"

namespace obliq::cli {
namespace {

using io::ojson;

struct ModelOptions {
  std::string model;
  std::string state_file;
  std::string output;
  bool list = false;
  std::string base = "fixed";
  std::vector<std::string> contacts;
  double ground = 0;
  std::string gravity = "0,0,-9.81";
  bool impact = false;
  std::string law = "complementarity";
  std::string backend = "cpu";
  double e = 0;
  double mu = 0;                    // friction coefficient of every unilateral row (docs/friction.md)
  std::string friction = "cone";    // formulation for --impact with mu > 0
  std::string floor_normal;         // x,y,z: normal of the ground rows (default +z)
  int threads = 0;
};

constexpr std::size_t kChunkLines = 1 << 12;

std::string state_reason(Status st) {
  if (st == Status::bad_shape) return "bad state (a free-flyer quaternion must have unit norm)";
  return status_reason(st);
}

ojson vector_json(const Eigen::VectorXd& v) {
  ojson a = ojson::array();
  for (int k = 0; k < v.size(); ++k) a.push_back(v(k));
  return a;
}

// Evaluates and writes one chunk. Returns whether any line was an error.
bool run_chunk(const model::Model& m, const ModelOptions& opt, const RunOptions& run, std::vector<StateLine>& lines,
               std::ostream& out) {
  bool any_error = false;
  std::vector<ojson> text(lines.size());
  std::vector<Scenario> scen(lines.size());
  std::vector<model::StateExtras> extras(lines.size());
  std::vector<Friction> fric(lines.size());
  std::vector<std::size_t> good;
  ojson names = ojson::array();
  for (const auto& n : m.joint_names) names.push_back(n);
  for (std::size_t k = 0; k < lines.size(); ++k) {
    StateLine& s = lines[k];
    if (s.error.empty()) {
      const Status st = model::evaluate(m, s.q, s.qdot, scen[k], &extras[k]);
      if (st != Status::ok) s.error = state_reason(st);
    }
    if (!s.error.empty()) {
      text[k] = io::error_to_json(s.id, s.error);
      any_error = true;
      continue;
    }
    Scenario& sc = scen[k];
    sc.e = Eigen::VectorXd::Constant(sc.A_u.rows(), opt.e);
    sc.law = opt.law == "projection" ? Law::projection : Law::complementarity;
    ojson j;
    j["id"] = s.id;
    j["status"] = "ok";
    nlohmann::json body = io::scenario_to_json(sc);
    if (opt.mu > 0) {  // tangent rows from each contact frame (docs/friction.md)
      const Status st = model::evaluate_friction(m, s.q, s.qdot, opt.mu, fric[k]);
      if (st != Status::ok) {
        text[k] = io::error_to_json(s.id, state_reason(st));
        any_error = true;
        continue;
      }
      io::add_friction_json(body, fric[k]);
    }
    for (const char* key : {"M", "h", "qdot", "A_b", "A_u", "phi_u", "Adot_qdot", "e", "law", "gap_tol", "vel_tol",
                            "mu", "dim", "A_t", "Adot_qdot_t"})
      if (body.contains(key)) j[key] = ojson::parse(body[key].dump());
    j["joint_names"] = names;
    j["com"] = vector_json(extras[k].com);
    j["momentum"] = vector_json(extras[k].momentum);
    j["kinetic_energy"] = extras[k].kinetic_energy;
    j["potential_energy"] = extras[k].potential_energy;
    text[k] = std::move(j);
    good.push_back(k);
  }

  if (opt.impact && !good.empty()) {
    const Shape shape{m.nv, m.n_bilateral, m.n_unilateral()};
    Batch<double> batch(shape, good.size());
    for (std::size_t s = 0; s < good.size(); ++s) batch.set(s, scen[good[s]]);
    ImpactResults<double> res;
    if (opt.mu <= 0) solve_impact(batch, res, run);
    for (std::size_t s = 0; s < good.size(); ++s) {
      const std::size_t k = good[s];
      FrictionResult info;
      if (opt.mu > 0)
        fric[k].formulation = opt.friction == "pyramid" ? friction::Formulation::pyramid : friction::Formulation::cone;
      const ImpactResult r = opt.mu > 0 ? obliq::impact(scen[k], fric[k], &info) : res.get(s);
      ojson& j = text[k];
      if (r.status != Status::ok) {
        j["status"] = std::string("error: ") + status_reason(r.status);
        any_error = true;
        continue;
      }
      ojson ij = io::impact_result_to_json(lines[k].id, r);
      if (opt.mu > 0) io::add_friction_keys(ij, info, false);
      for (auto it = ij.begin(); it != ij.end(); ++it)
        if (it.key() != "id" && it.key() != "status") j[it.key()] = it.value();
      const Eigen::MatrixXd J = model::joint_impulses(m, lines[k].q, lines[k].qdot, r.qdot_plus, r.lambda);
      ojson ji = ojson::array();
      for (int b = 0; b < J.rows(); ++b) ji.push_back(vector_json(J.row(b).transpose()));
      j["joint_impulses"] = std::move(ji);
    }
  }
  for (const auto& j : text) out << io::dump_line(j) << '\n';
  return any_error;
}

int list_models() {
  for (const auto& b : model::builtin_models()) std::cout << b.name << "\t" << b.description << "\n";
  return 0;
}

int run_model(const ModelOptions& opt) {
  if (opt.list) return list_models();
  if (opt.model.empty() || opt.state_file.empty()) {
    std::cerr << "obliq model: MODEL and --state FILE are required (or --list)\n";
    return 2;
  }
  RunOptions run;
  if (!parse_backend(opt.backend, run.backend)) {
    std::cerr << "obliq model: unknown backend '" << opt.backend << "'\n";
    return 2;
  }
  run.threads = opt.threads;
  if (!(opt.e >= 0 && opt.e <= 1)) {
    std::cerr << "obliq model: --e must be in [0, 1]\n";
    return 2;
  }
  Eigen::Vector3d g;
  if (!model::parse_triple(opt.gravity, g)) {
    std::cerr << "obliq model: --gravity wants three numbers gx,gy,gz\n";
    return 2;
  }

  // The model: a URDF file or a built-in name; then gravity, the ground height and contacts.
  model::Model m;
  try {
    model::ModelSpec spec;
    spec.model = opt.model;
    spec.free_base = opt.base == "free";
    spec.gravity = g;
    spec.ground = opt.ground;
    spec.contacts = opt.contacts;
    m = model::load_model(spec);
    if (!opt.floor_normal.empty()) {  // every ground row (normal +z so far) gets the floor's normal
      Eigen::Vector3d nrm;
      if (!model::parse_triple(opt.floor_normal, nrm) || !(nrm.norm() > 0)) {
        std::cerr << "obliq model: --floor-normal wants three numbers x,y,z, not all zero\n";
        return 2;
      }
      nrm.normalize();
      for (int r = 0; r < m.ncontacts(); ++r)
        if (m.contact_body_b[r] == -1 && m.contact_normal[3 * r + 2] == 1.0)
          for (int k = 0; k < 3; ++k) m.contact_normal[3 * r + k] = nrm(k);
    }
  } catch (const std::exception& e) {
    std::cerr << "obliq model: " << e.what() << "\n";
    return 2;
  }

  std::ifstream file_in;
  std::istream* in = open_input(opt.state_file, file_in, "obliq model");
  if (!in) return 2;
  std::ofstream file_out;
  std::ostream* out = open_output(opt.output, file_out, "obliq model");
  if (!out) return 2;

  bool any_error = false;
  long line_number = 0;
  std::string line;
  std::vector<StateLine> chunk;
  while (std::getline(*in, line)) {
    StateLine s = parse_state_line(line, ++line_number, m);
    if (s.blank) continue;
    chunk.push_back(std::move(s));
    if (chunk.size() >= kChunkLines) {
      any_error = run_chunk(m, opt, run, chunk, *out) || any_error;
      chunk.clear();
    }
  }
  if (!chunk.empty()) any_error = run_chunk(m, opt, run, chunk, *out) || any_error;
  out->flush();
  if (!*out) {
    std::cerr << "obliq model: error while writing the output\n";
    return 2;
  }
  return any_error ? 3 : 0;
}

}  // namespace

void register_model_command(CLI::App& app, Action& run) {
  auto opt = std::make_shared<ModelOptions>();
  CLI::App* sub = app.add_subcommand(
      "model", "Evaluate a multibody model (a .urdf file or a built-in model) at the states of FILE into scenario lines");
  sub->add_option("MODEL", opt->model, "A .urdf file or a built-in model's name (see --list)");
  sub->add_option("--state", opt->state_file, "State lines {\"id\", \"q\": [nq], \"qdot\": [nv]}; - reads standard input");
  sub->add_flag("--list", opt->list, "Name the built-in models");
  sub->add_option("--base", opt->base, "URDF root: fixed (welded to the world, default) or free (floating base)")
      ->check(CLI::IsMember({"fixed", "free"}));
  sub->add_option("--contact", opt->contacts, "LINK[:x,y,z]: a point fixed in LINK's frame against the ground (repeatable)");
  sub->add_option("--ground", opt->ground, "Height of the ground plane (normal +z), default 0");
  sub->add_option("--gravity", opt->gravity, "gx,gy,gz (default 0,0,-9.81)");
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
      ->check(CLI::IsMember({"cone", "pyramid"}));
  sub->add_option("--floor-normal", opt->floor_normal,
                  "x,y,z: normal of the ground plane for the ground contacts (default 0,0,1; the plane is "
                  "n . x = --ground)");
  sub->add_option("--threads", opt->threads, "Threads for the cpu backend (default 0: all)")->check(CLI::Range(0, 1 << 16));
  sub->add_option("-o,--output", opt->output, "Write to OUT instead of standard output");
  sub->callback([&run, opt] { run = [opt] { return run_model(*opt); }; });
}

}  // namespace obliq::cli

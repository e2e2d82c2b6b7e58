// sweep/study.cpp: the study file (docs/sweep.md "The study file") into a Study.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "io/json_line.hpp"
#include "io/limits.hpp"
#include "obliq/io/scenario_json.hpp"
#include "obliq/sweep.hpp"
#include "sweep/distribution.hpp"
#include "sweep/samples.hpp"
#include "sweep/study_keys.hpp"

namespace obliq::sweep {
namespace {

using json = nlohmann::ordered_json;

Eigen::VectorXd vector_of(const json& j, const char* key, int size, const std::string& where) {
  auto it = j.find(key);
  if (it == j.end()) throw std::invalid_argument(where + ": missing '" + key + "'");
  if (!it->is_array() || int(it->size()) != size)
    throw std::invalid_argument(where + ": '" + key + "' must be an array of " + std::to_string(size) + " numbers");
  Eigen::VectorXd v(size);
  for (int k = 0; k < size; ++k) {
    if (!(*it)[k].is_number() || !std::isfinite((*it)[k].get<double>()))
      throw std::invalid_argument(where + ": '" + key + "' must hold finite numbers");
    v(k) = (*it)[k].get<double>();
  }
  return v;
}

std::uint64_t count_of(const json& j, const char* key, std::uint64_t fallback, bool required) {
  auto it = j.find(key);
  if (it == j.end()) {
    if (required) throw std::invalid_argument(std::string("study: missing '") + key + "'");
    return fallback;
  }
  if (!it->is_number_unsigned()) throw std::invalid_argument(std::string("study: '") + key + "' must be an integer >= 0");
  return it->get<std::uint64_t>();
}

void read_model(Study& s, const json& mech, const std::string& base_dir) {
  check_keys(mech, {"model", "base", "inertia_check", "contacts", "ground", "gravity", "q", "qdot", "gaps"}, "mechanism");
  model::ModelSpec spec;
  spec.model = mech["model"].get<std::string>();
  const bool is_file = spec.model.find(".urdf") != std::string::npos || spec.model.find(".xml") != std::string::npos;
  if (is_file && std::filesystem::path(spec.model).is_relative())
    spec.model = (std::filesystem::path(base_dir) / spec.model).string();
  if (mech.contains("base")) {
    const auto base = mech["base"].get<std::string>();
    if (base != "fixed" && base != "free") throw std::invalid_argument("mechanism: 'base' is fixed or free");
    spec.free_base = base == "free";
  }
  if (mech.contains("inertia_check") &&
      !(mech["inertia_check"].is_string() &&
        model::parse_inertia_check(mech["inertia_check"].get<std::string>(), spec.inertia_check)))
    throw std::invalid_argument("mechanism: 'inertia_check' is standard or strict");
  if (mech.contains("gravity")) spec.gravity = vector_of(mech, "gravity", 3, "mechanism");
  if (mech.contains("ground")) spec.ground = mech["ground"].get<double>();
  if (mech.contains("contacts")) spec.contacts = mech["contacts"].get<std::vector<std::string>>();
  s.model = model::load_model(spec);
  const model::Model& m = *s.model;
  s.q = mech.contains("q") ? vector_of(mech, "q", m.nq, "mechanism") : model::neutral(m);
  s.qdot = vector_of(mech, "qdot", m.nv, "mechanism");
  s.contact_names = m.contact_names;
  if (mech.contains("gaps")) {
    const auto gaps = mech["gaps"].get<std::string>();
    if (gaps != "closed" && gaps != "model") throw std::invalid_argument("mechanism: 'gaps' is closed or model");
    s.closed_gaps = gaps == "closed";
  }
}

// A trajectory reads the scenario's dynamics keys too (h, u: the Simulator's constant forces).
// Its keys: docs/format.md's input keys that a sweep reads (friction keys are not: friction draws
// need a model's contact frames).
void read_scenario(Study& s, const json& mech, bool trajectory) {
  check_keys(mech, {"scenario"}, "mechanism");
  check_keys(mech["scenario"], {"id", "M", "qdot", "h", "u", "i_u", "A_b", "A_u", "phi_u", "Adot_qdot", "e", "law",
                                "gap_tol", "vel_tol"},
             "mechanism.scenario");
  Scenario sc;
  const std::string error = io::scenario_from_json(mech["scenario"], trajectory ? io::Use::all : io::Use::impact, sc);
  if (!error.empty()) throw std::invalid_argument("mechanism.scenario: " + error);
  s.qdot = sc.qdot;
  for (int r = 0; r < sc.A_b.rows(); ++r) s.contact_names.push_back("bilateral_" + std::to_string(r + 1));
  for (int r = 0; r < sc.A_u.rows(); ++r) s.contact_names.push_back("contact_" + std::to_string(r + 1));
  s.scenario = std::move(sc);
  s.closed_gaps = false;  // the scenario's own gaps
}

// Per-contact coefficients (restitution e or friction mu): one distribution for every contact, or
// {"default": ..., "<contact>": ...}.
std::vector<Distribution> read_coefficients(const Study& s, const json& j, int n_bilateral, int m_u, Coefficient which) {
  const std::string key = which == Coefficient::restitution ? "restitution" : "friction";
  std::vector<Distribution> d(m_u, Distribution{});
  if (!j.is_object() || j.contains("dist")) {  // one distribution for every contact
    for (auto& x : d) x = parse_coefficient(j, key, which);
    return d;
  }
  // An object of unilateral contact names and "default" ("dist" too: the key of a distribution,
  // whose misspelling lands here).
  std::vector<std::string> known(s.contact_names.begin() + n_bilateral, s.contact_names.end());
  known.push_back("default");
  known.push_back("dist");
  check_keys(j, known, key);
  if (j.contains("default"))
    for (auto& x : d) x = parse_coefficient(j["default"], key + ".default", which);
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key() == "default") continue;
    int row = -1;
    for (int r = 0; r < m_u; ++r)
      if (s.contact_names[n_bilateral + r] == it.key()) row = r;
    d[row] = parse_coefficient(it.value(), key + "." + it.key(), which);
  }
  return d;
}

double positive(const json& t, const char* key, double fallback, bool required) {
  auto it = t.find(key);
  if (it == t.end()) {
    if (required) throw std::invalid_argument(std::string("trajectory: missing '") + key + "'");
    return fallback;
  }
  if (!it->is_number() || !(it->get<double>() > 0) || !std::isfinite(it->get<double>()))
    throw std::invalid_argument(std::string("trajectory: '") + key + "' must be a positive number");
  return it->get<double>();
}

// "trajectory": {"T", "dt", "integrator", ...} (docs/sweep.md "Trajectory samples"): the options
// of `obliq simulate` under the same names.
Trajectory read_trajectory(const json& t, Law law) {
  if (!t.is_object()) throw std::invalid_argument("trajectory: must be an object");
  check_keys(t, {"T", "dt", "integrator", "theta", "gamma", "max_step", "zeno_velocity", "max_impacts", "rest_energy"},
             "trajectory");
  Trajectory tr;
  const double T = positive(t, "T", 0, true);
  tr.dt = positive(t, "dt", 0, true);
  const double steps = std::round(T / tr.dt);
  if (!(steps >= 1 && steps <= 1e9) || std::abs(steps * tr.dt - T) > 1e-9 * T)
    throw std::invalid_argument("trajectory: 'T' must be a whole number (1 to 1e9) of steps 'dt'");
  tr.steps = long(steps);
  const std::string integrator = t.value("integrator", std::string("event"));
  if (integrator != "event" && integrator != "moreau")
    throw std::invalid_argument("trajectory: 'integrator' is event (event-driven) or moreau (Moreau-Jean)");
  tr.sim.integrator = integrator == "event" ? sim::Integrator::event_driven : sim::Integrator::moreau_jean;
  tr.sim.law = law;
  tr.sim.theta = t.value("theta", tr.sim.theta);
  tr.sim.gamma = t.value("gamma", tr.sim.gamma);
  if (!(tr.sim.theta >= 0 && tr.sim.theta <= 1) || !(tr.sim.gamma >= 0 && tr.sim.gamma <= 1))
    throw std::invalid_argument("trajectory: 'theta' and 'gamma' must lie in [0, 1]");
  tr.sim.max_step = t.contains("max_step") ? positive(t, "max_step", 0, true) : 0.0;
  tr.sim.zeno_velocity = t.value("zeno_velocity", 0.0);
  if (!(tr.sim.zeno_velocity >= 0 && std::isfinite(tr.sim.zeno_velocity)))
    throw std::invalid_argument("trajectory: 'zeno_velocity' must be >= 0");
  tr.sim.max_impacts = t.value("max_impacts", tr.sim.max_impacts);
  if (tr.sim.max_impacts < 0) throw std::invalid_argument("trajectory: 'max_impacts' must be >= 0");
  tr.rest_energy = t.contains("rest_energy") ? positive(t, "rest_energy", 0, true) : tr.rest_energy;
  return tr;
}

void read_collect(Study& s, const json& c) {
  if (!c.is_object()) throw std::invalid_argument("collect: must be an object");
  check_keys(c, {"joint_impulses", "rows", "rows_format", "bins", "ranges", "quantiles", "sketch_k", "scatter", "plots"},
             "collect");
  s.joint_impulses = c.value("joint_impulses", s.joint_impulses) && s.model.has_value();
  if (c.contains("rows")) {
    if (c["rows"] == "all") s.rows = s.samples;
    else s.rows = std::min(count_of(c, "rows", 0, true), s.samples);
  }
  if (c.contains("rows_format")) {
    const auto f = c["rows_format"].get<std::vector<std::string>>();
    for (const std::string& format : f) check_value(format, {"csv", "hdf5"}, "collect.rows_format");
    s.rows_csv = std::find(f.begin(), f.end(), "csv") != f.end();
    s.rows_hdf5 = std::find(f.begin(), f.end(), "hdf5") != f.end();
  }
  s.bins = c.value("bins", s.bins);
  if (s.bins < 1 || s.bins > 100000) throw std::invalid_argument("collect: 'bins' must be in 1..100000");
  if (c.contains("ranges")) {  // their names are checked once the columns are known (check_range_names)
    if (!c["ranges"].is_object()) throw std::invalid_argument("collect.ranges: must be an object of output names");
    for (auto it = c["ranges"].begin(); it != c["ranges"].end(); ++it) {
      const auto r = it.value().get<std::vector<double>>();
      if (r.size() != 2 || !(r[0] < r[1]) || !std::isfinite(r[1] - r[0]))
        throw std::invalid_argument("collect.ranges." + it.key() + ": [low, high], low < high, high - low finite");
      s.ranges.push_back({it.key(), {r[0], r[1]}});
    }
  }
  if (c.contains("quantiles")) {
    s.quantiles = c["quantiles"].get<std::vector<double>>();
    for (double q : s.quantiles)
      if (!(q >= 0 && q <= 1)) throw std::invalid_argument("collect: 'quantiles' must lie in [0, 1]");
  }
  s.sketch_k = c.value("sketch_k", s.sketch_k);
  if (s.sketch_k < 8 || s.sketch_k > 65535) throw std::invalid_argument("collect: 'sketch_k' must be in 8..65535");
  s.scatter = count_of(c, "scatter", s.scatter, false);
  s.plots = c.value("plots", s.plots);
}

// The names of collect.ranges: an output's name, or a group of outputs (a name's part before a '.',
// "e" for every "e.<contact>"), as sweep.cpp's histogram_ranges matches them.
void check_range_names(const Study& s, const json& study) {
  if (!study.contains("collect") || !study["collect"].contains("ranges")) return;
  std::vector<std::string> known;
  for (const Column& c : columns(s))
    for (std::size_t dot = c.name.find('.'); dot != std::string::npos; dot = c.name.find('.', dot + 1))
      if (std::find(known.begin(), known.end(), c.name.substr(0, dot)) == known.end()) known.push_back(c.name.substr(0, dot));
  for (const Column& c : columns(s)) known.push_back(c.name);
  check_keys(study["collect"]["ranges"], known, "collect.ranges");
}

}  // namespace

Study parse_study(const json& j, const std::string& base_dir) {
  if (!j.is_object()) throw std::invalid_argument("study: the file must hold one JSON object");
  check_no_null(j);  // the summary echoes the study, and a summary never carries a null
  check_keys(j, {"name", "mechanism", "law", "samples", "seed", "restitution", "friction", "friction_formulation", "facets",
                 "perturb", "collect", "trajectory"},
             "study");
  Study s;
  s.source = j;
  try {
    s.name = j.value("name", std::string("sweep"));
    s.samples = count_of(j, "samples", 0, true);
    s.seed = count_of(j, "seed", 0, true);
    if (!j.contains("mechanism") || !j["mechanism"].is_object()) throw std::invalid_argument("study: missing 'mechanism'");
    const json& mech = j["mechanism"];
    if (mech.contains("model") && mech.contains("scenario"))
      throw std::invalid_argument("mechanism: give either 'model' or 'scenario', not both");
    if (mech.contains("model")) read_model(s, mech, base_dir);
    else if (mech.contains("scenario")) read_scenario(s, mech, j.contains("trajectory"));
    else throw std::invalid_argument("mechanism: give 'model' (a built-in name or a .urdf file) or 'scenario'");
    const std::string law = j.value("law", std::string("complementarity"));
    if (law != "complementarity" && law != "projection") throw std::invalid_argument("study: 'law' is complementarity or projection");
    s.law = law == "projection" ? Law::projection : Law::complementarity;

    const int nv = int(s.qdot.size());
    const int nb = s.model ? s.model->n_bilateral : int(s.scenario->A_b.rows());
    const int mu = int(s.contact_names.size()) - nb;
    s.restitution = read_coefficients(s, j.contains("restitution") ? j["restitution"] : json(0.0), nb, mu,
                                      Coefficient::restitution);
    if (j.contains("friction")) {
      if (!s.model) throw std::invalid_argument("friction: needs a model (tangent rows from its contact frames)");
      s.friction = read_coefficients(s, j["friction"], nb, mu, Coefficient::friction);
    }
    s.friction_formulation = formulation_named(j.value("friction_formulation", std::string("cone")));
    s.facets = j.value("facets", s.facets);
    check_facets(s.facets);
    if (j.contains("trajectory")) {
      s.trajectory = read_trajectory(j["trajectory"], s.law);
      s.trajectory->sim.friction = s.friction_formulation;
      s.trajectory->sim.facets = s.facets;
      for (const auto* group : {&s.restitution, &s.friction})
        for (const Distribution& d : *group)
          if (d.kind == Distribution::Kind::power_law)
            throw std::invalid_argument("trajectory: a power_law e(v) needs impact samples (a trajectory keeps one "
                                        "coefficient per contact)");
    }
    s.dq.assign(nv, Distribution{});
    s.dqdot.assign(nv, Distribution{});
    if (j.contains("perturb")) {
      const json& p = j["perturb"];
      if (!p.is_object()) throw std::invalid_argument("perturb: must be an object {\"q\": ..., \"qdot\": ...}");
      check_keys(p, {"q", "qdot"}, "perturb");
      if (p.contains("q")) {
        if (!s.model) throw std::invalid_argument("perturb.q: needs a model (a raw scenario has no q)");
        for (int k = 0; k < nv; ++k) s.dq[k] = parse_perturbation(p["q"], k, "perturb.q");
      }
      if (p.contains("qdot"))
        for (int k = 0; k < nv; ++k) s.dqdot[k] = parse_perturbation(p["qdot"], k, "perturb.qdot");
    }
    if (j.contains("collect")) read_collect(s, j["collect"]);
    else s.joint_impulses = s.model.has_value();
    if (s.trajectory) s.joint_impulses = false;  // an impact's output
    check_range_names(s, j);
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(std::string("study: a key has the wrong type (") + e.what() + ")");
  }
  return s;
}

// The text's size and nesting depth are checked before the JSON parser (which recurses) sees it
// (docs/limits.md).
Study read_study(const std::string& text, const std::string& base_dir, const std::string& what) {
  if (text.size() > io::kMaxStudyBytes)
    throw std::invalid_argument(what + " is too large (more than " + std::to_string(io::kMaxStudyBytes) + " bytes)");
  if (io::json_depth(text, io::kMaxJsonDepth) > io::kMaxJsonDepth)
    throw std::invalid_argument(what + " is too deeply nested (more than " + std::to_string(io::kMaxJsonDepth) +
                                " levels of [ and {)");
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) throw std::invalid_argument(what + " is not valid JSON");
  return parse_study(j, base_dir);
}

// The file is read whole, at most io::kMaxStudyBytes (read_study).
Study load_study(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in || std::filesystem::is_directory(path)) throw std::invalid_argument("cannot read '" + path + "'");
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  std::string text;
  if (ec || size <= io::kMaxStudyBytes) text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (text.size() > io::kMaxStudyBytes || (!ec && size > io::kMaxStudyBytes))
    throw std::invalid_argument("'" + path + "' is too large (more than " + std::to_string(io::kMaxStudyBytes) + " bytes)");
  return read_study(text, std::filesystem::path(path).parent_path().string(), "'" + path + "'");
}

}  // namespace obliq::sweep

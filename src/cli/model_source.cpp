// src/cli/model_source.cpp: the model named on the command line and the state lines (shared by
// `obliq model` and `obliq simulate`).
#include "cli/model_source.hpp"

#include <cmath>
#include <iostream>
#include <sstream>

#include "io/json_line.hpp"

namespace obliq::cli {

using io::ojson;

void add_model_source_options(CLI::App* sub, ModelSource& source) {
  sub->add_option("MODEL", source.model, "A .urdf file or a built-in model's name (see obliq model --list)");
  sub->add_option("--base", source.base, "URDF root: fixed (welded to the world, default) or free (floating base)")
      ->check(CLI::IsMember({"fixed", "free"}));
  sub->add_option("--inertia-check", source.inertia_check,
                  "URDF inertial checks: standard (default: refuses non-finite data, a negative mass or a negative "
                  "moment; an inertia that is not positive semi-definite to rounding or breaks the triangle inequality "
                  "is loaded with a warning naming the link) or strict (refuses those too, and asks for positive "
                  "definite); basic and full are other names of standard and strict")
      ->check(CLI::IsMember({"standard", "strict", "basic", "full"}));
  sub->add_option("--contact", source.contacts, "LINK[:x,y,z]: a point fixed in LINK's frame against the ground (repeatable)");
  sub->add_option("--ground", source.ground, "Height of the ground plane (normal +z), default 0");
  sub->add_option("--gravity", source.gravity, "gx,gy,gz (default 0,0,-9.81)");
}

bool read_vector(const ojson& j, const char* key, int size, Eigen::VectorXd& out, std::string& error) {
  auto it = j.find(key);
  if (it == j.end()) {
    error = std::string("missing key '") + key + "'";
    return false;
  }
  if (!it->is_array()) {
    error = io::is_non_finite_marker(*it) ? std::string("non-finite number in ") + key
                                          : std::string("'") + key + "' must be an array";
    return false;
  }
  if (int(it->size()) != size) {
    error = std::string("'") + key + "' has " + std::to_string(it->size()) + " entries, the model needs " +
            std::to_string(size);
    return false;
  }
  out.resize(size);
  for (int k = 0; k < size; ++k) {
    const ojson& x = (*it)[k];
    if (io::is_non_finite_marker(x) || (x.is_number() && !std::isfinite(x.get<double>()))) {
      error = std::string("non-finite number in ") + key + "[" + std::to_string(k) + "]";
      return false;
    }
    if (!x.is_number()) {
      error = std::string("'") + key + "' has a non-numeric entry";
      return false;
    }
    out(k) = x.get<double>();
  }
  return true;
}

StateLine parse_state_line(const std::string& line, long line_number, const model::Model& m) {
  io::JsonLine<ojson> parsed = io::parse_json_line<ojson>(line, line_number);
  StateLine s;
  s.blank = parsed.blank;
  s.id = std::move(parsed.id);
  s.non_finite = parsed.non_finite;
  if (s.blank) return s;
  if (!parsed.error.empty()) {
    s.error = std::move(parsed.error);
    return s;
  }
  if (!parsed.value.is_object()) {
    s.error = "not a JSON object";
    return s;
  }
  s.json = std::move(parsed.value);
  if (read_vector(s.json, "q", m.nq, s.q, s.error)) read_vector(s.json, "qdot", m.nv, s.qdot, s.error);
  return s;
}

void reject_unread_non_finite(StateLine& s, const char* who) {
  if (s.error.empty() && s.non_finite) s.error = std::string(io::kNonFiniteReason) + " in a key " + who + " does not use";
}

bool build_model(const ModelSource& source, model::Model& out, const char* who) {
  model::ModelSpec spec;
  spec.model = source.model;
  spec.free_base = source.base == "free";
  model::parse_inertia_check(source.inertia_check, spec.inertia_check);  // one of the values --inertia-check admits
  spec.ground = source.ground;
  spec.contacts = source.contacts;
  if (!model::parse_triple(source.gravity, spec.gravity)) {
    std::cerr << who << ": --gravity wants three numbers gx,gy,gz\n";
    return false;
  }
  try {
    out = model::load_model(spec);
  } catch (const std::exception& e) {
    std::cerr << who << ": " << e.what() << "\n";
    return false;
  }
  for (const auto& w : out.warnings) std::cerr << who << ": warning: " << w << "\n";
  return true;
}

}  // namespace obliq::cli

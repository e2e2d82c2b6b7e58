// src/cli/model_source.hpp: what `obliq model` and `obliq simulate` share: the model named on the
// command line (a .urdf file or a built-in model, with --base, --inertia-check, --contact, --ground,
// --gravity) and the state lines {"id", "q", "qdot"} read against it (io::parse_json_line: bounded
// depth, the line's own id kept, a non-finite entry named).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "obliq/io/scenario_json.hpp"
#include "obliq/model/host.hpp"

namespace obliq::cli {

struct ModelSource {
  std::string model;
  std::string base = "fixed";
  std::string inertia_check = "standard";  // URDF inertial checks (model::parse_inertia_check)
  std::vector<std::string> contacts;
  double ground = 0;
  std::string gravity = "0,0,-9.81";
};

// MODEL, --base, --inertia-check, --contact, --ground, --gravity.
void add_model_source_options(CLI::App* sub, ModelSource& source);

// Builds the model (model::load_model); on a problem prints "<who>: <reason>" and returns false
// (exit 2); the loader's warnings go to standard error as "<who>: warning: <message>".
bool build_model(const ModelSource& source, model::Model& out, const char* who);

// A JSON array of `size` finite numbers under `key`; false with the reason in `error` (a
// non-finite entry is named: "non-finite number in q[2]").
bool read_vector(const io::ojson& j, const char* key, int size, Eigen::VectorXd& out, std::string& error);

// One state line: id (as given, else the line number), q, qdot, or the reason it is bad.
struct StateLine {
  bool blank = false;
  io::ojson id;
  std::string error;
  Eigen::VectorXd q, qdot;
  io::ojson json;  // the parsed line (other keys a command may read)
  bool non_finite = false;  // some key holds a non-finite literal: an error unless a reader named it
};
StateLine parse_state_line(const std::string& line, long line_number, const model::Model& m);

// After a command has read every key it uses: a non-finite literal left in another key makes the
// line an error ("... in a key <who> does not use").
void reject_unread_non_finite(StateLine& s, const char* who);

}  // namespace obliq::cli

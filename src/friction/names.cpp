// src/friction/names.cpp: the friction options' names and bounds (obliq/friction.hpp), the one
// place the CLI, the sweep's study files and the Python bindings read them from.
#include <stdexcept>
#include <string>

#include "obliq/friction.hpp"

namespace obliq {

friction::Formulation formulation_named(const std::string& name) {
  if (name == formulation_names[0]) return friction::Formulation::cone;
  if (name == formulation_names[1]) return friction::Formulation::pyramid;
  throw std::invalid_argument("friction must be '" + formulation_names[0] + "' or '" + formulation_names[1] +
                              "', not '" + name + "'");
}

void check_facets(int facets) {
  if (facets < min_facets || facets > max_facets)
    throw std::invalid_argument("facets must be in [" + std::to_string(min_facets) + ", " + std::to_string(max_facets) +
                                "], not " + std::to_string(facets));
}

}  // namespace obliq

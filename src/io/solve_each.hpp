// io/solve_each.hpp: a list of scenarios of any shapes through one backend (grouped into one
// batch per shape, answers back in list order): the differential checks' common step
// (tests/backends/hard_classes_test.cpp, bench/differential_fuzz.cpp).
#pragma once

#include <vector>

#include "obliq/batch.hpp"

namespace obliq {

// One scenario's answer: qdot_plus (impact) or qddot (dynamics) as x.
struct Answer {
  Status status = Status::ok;
  Eigen::VectorXd x, lambda;
  Eigen::VectorXi active;
};

std::vector<Answer> solve_each(const std::vector<Scenario>& list, bool dynamics, const RunOptions& run);

}  // namespace obliq

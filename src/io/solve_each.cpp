// io/solve_each.cpp: see the header.
#include "io/solve_each.hpp"

#include <map>
#include <tuple>

namespace obliq {

std::vector<Answer> solve_each(const std::vector<Scenario>& list, bool dynamics, const RunOptions& run) {
  std::map<std::tuple<int, int, int>, std::vector<std::size_t>> by_shape;
  for (std::size_t k = 0; k < list.size(); ++k) {
    const Shape sh = list[k].shape();
    by_shape[{sh.n, sh.m_b, sh.m_u}].push_back(k);
  }
  std::vector<Answer> out(list.size());
  for (const auto& [key, index] : by_shape) {
    Batch<double> b({std::get<0>(key), std::get<1>(key), std::get<2>(key)}, index.size());
    for (std::size_t s = 0; s < index.size(); ++s) b.set(s, list[index[s]]);
    if (dynamics) {
      DynamicsResults<double> r;
      solve_dynamics(b, r, run);
      for (std::size_t s = 0; s < index.size(); ++s) {
        const DynamicsResult y = r.get(s);
        out[index[s]] = {y.status, y.qddot, y.lambda, y.active};
      }
    } else {
      ImpactResults<double> r;
      solve_impact(b, r, run);
      for (std::size_t s = 0; s < index.size(); ++s) {
        const ImpactResult y = r.get(s);
        out[index[s]] = {y.status, y.qdot_plus, y.lambda, y.active};
      }
    }
  }
  return out;
}

}  // namespace obliq

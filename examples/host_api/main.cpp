#include <cmath>
#include <cstdio>

#include "obliq/batch.hpp"

int main() {
  // 100,000 balls of mass 2 falling on a floor, each with its own restitution e in [0, 1).
  obliq::Batch<double> batch({/*n=*/3, /*m_b=*/0, /*m_u=*/1}, /*count=*/100000);
  for (std::size_t s = 0; s < batch.count; ++s) {
    batch.M_of(s) = 2.0 * Eigen::Matrix3d::Identity();  // per-scenario Eigen::Map views
    batch.qdot_of(s) << 1, 0, -3;
    batch.A_u_of(s) << 0, 0, 1;                          // the floor's normal
    batch.e_of(s)[0] = double(s) / batch.count;          // a sweep of restitution
  }
  obliq::ImpactResults<double> out;
  obliq::solve_impact(batch, out, {obliq::Backend::cpu, /*threads=*/0});  // 0: automatic

  double sum_vz = 0;
  std::size_t ok = 0;
  for (std::size_t s = 0; s < out.count; ++s)
    if (out.status[s] == obliq::Status::ok) {  // one status per scenario
      sum_vz += out.qdot_plus_of(s)[2];        // a view into the results, no copy
      ++ok;
    }
  // Newton's law: vz = 3 e, so the mean is 3 (count - 1) / (2 count).
  const double mean = sum_vz / double(ok), expected = 1.5 * double(out.count - 1) / double(out.count);
  std::printf("%zu of %zu ok, mean post-impact vz %.9f (expected %.9f)\n", ok, out.count, mean, expected);
  return ok == out.count && std::abs(mean - expected) < 1e-9 ? 0 : 1;
}

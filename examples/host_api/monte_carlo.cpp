// examples/host_api/monte_carlo.cpp: a Monte Carlo restitution study through caller-owned host
// views (docs/host-api.md). A 3-ball Newton's cradle (unit masses, ball 1 arrives at 1 m/s,
// balls touching) with an independent uniform restitution coefficient at each of its two
// contacts: the one inertia matrix, contact Jacobian and pre-impact velocity are broadcast to
// every draw (scenario_stride 0); only e and the outputs are per draw. Prints the statistics of
// the post-impact velocities, the throughput and the memory per draw, and checks momentum
// conservation and that no draw gains energy.
//
//   monte_carlo [--draws N] [--threads T] [--seed S]
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "obliq/host_views.hpp"

namespace {

long peak_rss_kb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

struct Stats {  // running mean and variance (Welford), min, max
  double n = 0, mean = 0, m2 = 0, lo = INFINITY, hi = -INFINITY;
  void add(double x) {
    n += 1;
    const double d = x - mean;
    mean += d / n;
    m2 += d * (x - mean);
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  }
  double stddev() const { return n > 1 ? std::sqrt(m2 / (n - 1)) : 0.0; }
};

}  // namespace

int main(int argc, char** argv) {
  std::size_t draws = 1000000;
  int threads = 0;
  unsigned long long seed = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--draws")) draws = std::strtoull(argv[i + 1], nullptr, 10);
    else if (!std::strcmp(argv[i], "--threads")) threads = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--seed")) seed = std::strtoull(argv[i + 1], nullptr, 10);
  }
  const long rss_start = peak_rss_kb();

  // The cradle, shared by every draw. Contact row k: gap between balls k and k+1, positive
  // when they separate, so A_u row k = e_{k+1} - e_k.
  const double M[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  const double A_u[6] = {-1, 1, 0, 0, -1, 1};
  const double qdot[3] = {1, 0, 0};

  // Per draw: the restitution of each contact, and the outputs.
  std::vector<double> e(2 * draws);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  for (double& x : e) x = uniform(rng);
  std::vector<double> qdot_plus(3 * draws), impulse(3 * draws), lambda(2 * draws), ke_pre(draws), ke_post(draws);
  std::vector<std::uint8_t> active(2 * draws), consistent(draws);
  std::vector<obliq::Status> status(draws);

  obliq::HostBatchView<double> v;
  v.shape = {3, 0, 2};
  v.count = draws;
  v.M = {M, 0, 1};  // scenario_stride 0: one M for all draws
  v.A_u = {A_u, 0, 1};
  v.qdot = {qdot, 0, 1};
  v.e = {e.data(), 2, 1};
  v.qdot_plus = {qdot_plus.data(), 3, 1};
  v.impulse = {impulse.data(), 3, 1};
  v.lambda = {lambda.data(), 2, 1};
  v.active = {active.data(), 2, 1};
  v.kinetic_energy_pre = {ke_pre.data(), 1, 1};
  v.kinetic_energy_post = {ke_post.data(), 1, 1};
  v.energy_consistent = {consistent.data(), 1, 1};
  v.status = {status.data(), 1, 1};

  obliq::RunOptions opt;
  opt.threads = threads;
  const auto t0 = std::chrono::steady_clock::now();
  obliq::solve_impact(v, opt);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const long rss_end = peak_rss_kb();

  Stats vel[3];
  std::size_t ok = 0, energy_gained = 0;
  double momentum_error = 0;
  for (std::size_t s = 0; s < draws; ++s) {
    if (status[s] != obliq::Status::ok) continue;
    ++ok;
    const double* vp = &qdot_plus[3 * s];
    for (int i = 0; i < 3; ++i) vel[i].add(vp[i]);
    momentum_error = std::max(momentum_error, std::abs(vp[0] + vp[1] + vp[2] - 1.0));
    if (ke_post[s] > ke_pre[s] * (1 + 1e-12)) ++energy_gained;
  }

  std::printf("Monte Carlo restitution study: 3-ball cradle, %zu draws, e_1, e_2 ~ U[0, 1]\n", draws);
  std::printf("  %zu ok, %zu other statuses\n", ok, draws - ok);
  for (int i = 0; i < 3; ++i)
    std::printf("  ball %d post-impact velocity: mean %.6f  std %.6f  min %.6f  max %.6f\n", i + 1, vel[i].mean,
                vel[i].stddev(), vel[i].lo, vel[i].hi);
  std::printf("  largest momentum error %.3g, draws gaining energy %zu\n", momentum_error, energy_gained);
  std::printf("  solve: %.3f s, %.3g draws/s\n", seconds, double(draws) / seconds);
  std::printf("  peak RSS %.1f MB (%.1f MB at start): %.0f bytes per draw\n", rss_end / 1024.0, rss_start / 1024.0,
              double(rss_end - rss_start) * 1024.0 / double(draws));
  return ok == draws && momentum_error < 1e-12 && energy_gained == 0 ? 0 : 1;
}

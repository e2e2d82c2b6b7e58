// bench/siconos/friction_vs_siconos.cpp: per-problem time of obliq's exact-cone solver
// (Newton on Alart-Curnier, NSGS fallback) and pyramid LCP (8 facets, Lemke) against Siconos
// numerics 4.4.0's fc3d_nsgs and fc3d_nonsmooth_Newton_AlartCurnier, on the same random 3D
// frictional contact problems (tests/support/fc3d_problems.hpp: impacts with n = 3 nc + 3 dofs,
// cond(M) ~ 100, mu uniform in [0, 0.5]), 1 to 24 contacts, one core, side by side in one run.
//
// Accuracy: every answer is checked by obliq's certificate (per contact, relative 1e-9,
// core/friction/certificate.hpp) whoever computed it; Siconos runs at its tolerance 1e-12 (its
// relative error), which is what it takes for its answers to pass that certificate. The pyramid
// is certified by its LCP certificate (it solves the faceted law); its exact-cone residual is
// printed for information. Time: best of 5 passes over the batch, divided by its size.
//
// Usage: bench_friction_vs_siconos [problems per size, default 100] [contact counts, default 1 2 4 8 12 16 24]
// (bench/peer_instructions.sh runs one contact count at a time under callgrind.)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "siconos_fc3d.hpp"
#include "best_time.hpp"

namespace {

using obliq::test::Fc3d;

using obliq::bench::best_time_us;

struct Stats {
  double us = 0;
  int certified = 0;
  double worst = 0;  // largest exact-cone certificate residual (relative) among all answers
};

// Each side's solve of one problem, kept out of line so that callgrind's --toggle-collect counts
// exactly what the timed passes run (bench/peer_instructions.sh).
[[gnu::noinline]] obliq::test::ObliqAnswer obliq_cone_solve(const Fc3d& p) { return obliq::test::solve_obliq(p, false); }
[[gnu::noinline]] int siconos_nsgs_solve(obliq::test::SiconosFc3d& sp, std::vector<double>& r, std::vector<double>& u) {
  return sp.solve(SICONOS_FRICTION_3D_NSGS, 1e-12, 100000, r, u);
}
[[gnu::noinline]] int siconos_nsn_ac_solve(obliq::test::SiconosFc3d& sp, std::vector<double>& r, std::vector<double>& u) {
  return sp.solve(SICONOS_FRICTION_3D_NSN_AC, 1e-12, 1000, r, u);
}

}  // namespace

int main(int argc, char** argv) {
  const int count = argc > 1 ? std::max(1, std::atoi(argv[1])) : 100;
  std::vector<int> contacts;
  for (int a = 2; a < argc; ++a) contacts.push_back(std::max(1, std::atoi(argv[a])));
  if (contacts.empty()) contacts = {1, 2, 4, 8, 12, 16, 24};
  std::printf("| contacts | obliq cone (us) | obliq pyramid k=8 (us) | Siconos fc3d_nsgs (us) | Siconos NSN_AC (us) | "
              "nsgs / cone | certified cone / pyramid (LCP) / nsgs / nsn_ac | worst cone residual: obliq cone / "
              "pyramid / nsgs / nsn_ac |\n|---|---|---|---|---|---|---|---|\n");
  for (int nc : contacts) {
    std::mt19937 gen(1000 + nc);
    std::vector<Fc3d> batch;
    for (int k = 0; k < count; ++k) batch.push_back(obliq::test::random_problem(gen, nc, 0.5));
    Stats cone, pyr, nsgs, nsn;
    std::vector<obliq::test::ObliqAnswer> oc(batch.size()), op(batch.size());
    cone.us = best_time_us([&] { for (std::size_t k = 0; k < batch.size(); ++k) oc[k] = obliq_cone_solve(batch[k]); },
                           count);
    pyr.us = best_time_us([&] { for (std::size_t k = 0; k < batch.size(); ++k) op[k] = obliq::test::solve_obliq(batch[k], true); },
                          count);
    for (std::size_t k = 0; k < batch.size(); ++k) {
      double res = 0;
      cone.certified += obliq::test::certify(batch[k], oc[k].r.data(), &res) == obliq::Status::ok;
      cone.worst = std::max(cone.worst, res);
      pyr.certified += op[k].status == obliq::Status::ok;  // the LCP certificate of the faceted law
      obliq::test::certify(batch[k], op[k].r.data(), &res);
      pyr.worst = std::max(pyr.worst, res);
    }
    std::vector<std::unique_ptr<obliq::test::SiconosFc3d>> sp;
    for (const auto& p : batch) sp.push_back(std::make_unique<obliq::test::SiconosFc3d>(p));
    for (auto [solve, st] : {std::pair{&siconos_nsgs_solve, &nsgs}, std::pair{&siconos_nsn_ac_solve, &nsn}}) {
      std::vector<std::vector<double>> r(batch.size()), u(batch.size());
      std::vector<int> info(batch.size());
      st->us = best_time_us([&] { for (std::size_t k = 0; k < batch.size(); ++k) info[k] = solve(*sp[k], r[k], u[k]); },
                            count);
      for (std::size_t k = 0; k < batch.size(); ++k) {
        double res = 0;
        st->certified += info[k] == 0 && obliq::test::certify(batch[k], r[k].data(), &res) == obliq::Status::ok;
        st->worst = std::max(st->worst, res);
      }
    }
    std::printf("| %d | %.2f | %.2f | %.2f | %.2f | %.2fx | %d / %d / %d / %d of %d | %.1e / %.1e / %.1e / %.1e |\n", nc,
                cone.us, pyr.us, nsgs.us, nsn.us, nsgs.us / cone.us, cone.certified, pyr.certified, nsgs.certified,
                nsn.certified, count, cone.worst, pyr.worst, nsgs.worst, nsn.worst);
    std::fflush(stdout);
  }
  return 0;
}

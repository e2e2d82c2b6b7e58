// bench/differential_fuzz.cpp: N random scenarios (default 1e6) through the core (cpu backend)
// and the reference backend, drawn from the hard classes of issue 9 (src/io/hard_scenarios.hpp:
// rows in the span of the bilateral rows with either sign, opposing rows, duplicates,
// combinations, and all of them at row scales 1e-300..1e300 and mass scales 1e-100..1e100) and
// from the plain generator, half impacts and half dynamics, complementarity law. Prints, per
// class, how often the two backends agree, every pair of differing statuses, and the
// not-certified counts; a "wrong ok" is an ok answer contradicted by the other backend (the
// other says infeasible, or both are ok and the answers differ by more than 1e-6 of their
// scale). A draw whose rows include two that are parallel to within 1e-3 but not exactly
// (ill_posed below), or a unilateral row that lies in the span of the bilateral rows to within
// 1e-3 but not exactly, is ill-posed for this comparison: its certified answers are unique only to
// more than 1e-6 of their scale, and a disagreement on it is counted as such, not as a wrong ok. docs/certificate.md
// explains the remaining disagreements.
//
//   bench_differential_fuzz [--draws N] [--seed S] [--threads T] [--chunk K] [--dump FILE]
//
// --dump writes every draw whose statuses or answers differ, as a scenario line (docs/format.md)
// with its class, kind and both statuses in "id", for `obliq impact` / `obliq dynamics`.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "io/hard_scenarios.hpp"
#include "io/random_scenarios.hpp"
#include "io/solve_each.hpp"
#include "obliq/io/scenario_json.hpp"

using namespace obliq;

namespace {

constexpr int plain_class = hard_class_count;  // the plain generator, as a seventh class

const char* class_name(int c) { return c == plain_class ? "plain" : hard_class_name(HardClass(c)); }

Scenario draw(std::mt19937_64& rng, int c, bool dynamics) {
  if (c != plain_class) return hard_scenario(rng, HardClass(c), dynamics);
  RandomOptions o;
  const int n = std::uniform_int_distribution<int>(1, 8)(rng);
  const int m_b = std::uniform_int_distribution<int>(0, std::min(2, n - 1))(rng);
  const int m_u = std::uniform_int_distribution<int>(0, 6)(rng);
  if (dynamics) {
    draw_dynamics_rows(o, 0.2);
  } else {
    o.p_approaching = 1, o.p_resting = 0.3, o.p_separating = 0.2, o.p_open = 0.1;
    o.applied_impulse = true;
  }
  o.cond_M = 1e2;
  return random_scenario(rng, {n, m_b, m_u}, o);
}

// Relative difference of two certified answers counted as a disagreement.
constexpr double compare_rel = 1e-6;

// A draw is ill-posed for the comparison when its rows are dependent to within
// tol_f / compare_rel = 1e-3 but not exactly (io/hard_scenarios.hpp).
bool ill_posed(const Scenario& S) {
  return rows_nearly_dependent(S, scalar_traits<double>::feasibility_tol / compare_rel);
}

struct ClassTally {
  long draws = 0, ok_both = 0, agree = 0, wrong_ok_cpu = 0, wrong_ok_ref = 0, differ = 0;
  long not_certified_cpu = 0, not_certified_ref = 0;
  long ill_posed = 0, ill_posed_disagree = 0;  // draws with rows parallel to rounding; wrong-ok-like disagreements on them
  long status_only_ill = 0;                     // status-only disagreements on ill-posed draws
  std::map<std::string, long> mismatches;  // "cpu status / reference status", statuses differing
};

Eigen::VectorXd free_motion(const Scenario& S, bool dynamics) {
  return dynamics ? Eigen::VectorXd(S.M.llt().solve(S.u - S.h)) : Eigen::VectorXd(S.qdot + S.M.llt().solve(S.i_u));
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Differential fuzz: core vs reference on the hard classes of issue 9"};
  long draws = 1000000, chunk = 20000;
  unsigned long long seed = 9;
  int threads = 0;
  std::string dump_path;
  app.add_option("--draws", draws, "Scenarios in all (default 1e6)");
  app.add_option("--seed", seed, "Random seed (default 9)");
  app.add_option("--threads", threads, "Threads per backend (default all)");
  app.add_option("--chunk", chunk, "Scenarios per round (default 20000)");
  app.add_option("--dump", dump_path, "Write the disagreeing draws to this file, one scenario line each");
  CLI11_PARSE(app, argc, argv);

  std::mt19937_64 rng(seed);
  std::ofstream dump;
  if (!dump_path.empty()) dump.open(dump_path);
  const auto record = [&](Scenario S, int c, bool dynamics, Status a, Status b) {
    if (!dump.is_open()) return;
    S.id = std::string(class_name(c)) + (dynamics ? " dynamics" : " impact") + ": cpu " + status_reason(a) +
           " / reference " + status_reason(b);
    dump << io::scenario_to_json(S).dump() << '\n';
  };
  std::vector<ClassTally> tally(plain_class + 1);
  const auto t0 = std::chrono::steady_clock::now();
  long done = 0;
  while (done < draws) {
    const long k = std::min(chunk, draws - done);
    for (int kind = 0; kind < 2; ++kind) {
      const bool dynamics = kind == 1;
      std::vector<Scenario> list;
      std::vector<int> cls;
      for (long i = (kind == 0 ? 0 : k / 2); i < (kind == 0 ? k / 2 : k); ++i) {
        const int c = int((done + i) % (plain_class + 1));
        cls.push_back(c);
        list.push_back(draw(rng, c, dynamics));
      }
      const std::vector<Answer> a = solve_each(list, dynamics, {Backend::cpu, threads});
      const std::vector<Answer> b = solve_each(list, dynamics, {Backend::reference, threads});
      for (std::size_t s = 0; s < list.size(); ++s) {
        ClassTally& t = tally[std::size_t(cls[s])];
        ++t.draws;
        const bool ill = ill_posed(list[s]);
        t.ill_posed += ill;
        // A disagreement on an ill-posed draw is counted as ill-posed, not as a wrong ok.
        const auto wrong_ok = [&](long& counter) { ++(ill ? t.ill_posed_disagree : counter); };
        t.not_certified_cpu += a[s].status == Status::not_certified;
        t.not_certified_ref += b[s].status == Status::not_certified;
        if (a[s].status != b[s].status) {
          record(list[s], cls[s], dynamics, a[s].status, b[s].status);
          ++t.mismatches[std::string(status_reason(a[s].status)) + " / " + status_reason(b[s].status)];
          if (a[s].status == Status::ok && b[s].status == Status::infeasible) wrong_ok(t.wrong_ok_cpu);
          else if (b[s].status == Status::ok && a[s].status == Status::infeasible) wrong_ok(t.wrong_ok_ref);
          else t.status_only_ill += ill;
          continue;
        }
        if (a[s].status != Status::ok) {
          ++t.agree;
          continue;
        }
        ++t.ok_both;
        const Scenario& S = list[s];
        const double scale = b[s].x.norm() + free_motion(S, dynamics).norm() + S.qdot.norm();
        if ((a[s].x - b[s].x).norm() <= compare_rel * scale) {
          ++t.agree;
        } else {
          wrong_ok(t.differ);  // both ok, both certified, different: one of them is a wrong ok
          record(list[s], cls[s], dynamics, a[s].status, b[s].status);
        }
      }
    }
    done += k;
    std::fprintf(stderr, "\r%ld / %ld", done, draws);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::fprintf(stderr, "\n");
  std::printf("differential fuzz: %ld draws (seed %llu), %.0f s\n", draws, seed, secs);
  std::printf("| class | draws | agree | both ok | both ok, x differ | cpu ok / ref infeasible | ref ok / cpu infeasible "
              "| not certified cpu | not certified ref | other status pairs (cpu / ref) | ill-posed draws | of them: answers "
              "differ, ok / infeasible | of them: other status pairs |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  long wrong = 0, disagree = 0;
  for (int c = 0; c <= plain_class; ++c) {
    const ClassTally& t = tally[std::size_t(c)];
    std::string other;
    for (const auto& [k, v] : t.mismatches) other += (other.empty() ? "" : ", ") + k + ": " + std::to_string(v);
    std::printf("| %s | %ld | %ld | %ld | %ld | %ld | %ld | %ld | %ld | %s | %ld | %ld | %ld |\n", class_name(c), t.draws,
                t.agree, t.ok_both, t.differ, t.wrong_ok_cpu, t.wrong_ok_ref, t.not_certified_cpu, t.not_certified_ref,
                other.empty() ? "none" : other.c_str(), t.ill_posed, t.ill_posed_disagree, t.status_only_ill);
    wrong += t.differ + t.wrong_ok_cpu + t.wrong_ok_ref;
    disagree += t.draws - t.agree;
  }
  long ill = 0;
  for (const ClassTally& t : tally) ill += t.ill_posed_disagree;
  std::printf("wrong ok answers on well-posed draws (contradicted by the other backend): %ld; the same on ill-posed "
              "draws: %ld; disagreements in all: %ld\n", wrong, ill, disagree);
  return 0;
}

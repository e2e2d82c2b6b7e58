// bench_model_impact: model evaluation plus impact solve, states per second, for a URDF robot at
// the states of a file (state lines as bench/pinocchio/model_vs_pinocchio.py writes them; the
// side-by-side Pinocchio comparison is bench/pinocchio). Without arguments it runs the built-in
// quadruped at random states with its feet on the ground.
//
//   bench_model_impact [--urdf FILE --free --contact LINK:x,y,z ... --states FILE --e E] [benchmark flags]
//
// State lines {"q": [...], "qdot": [...]}. Every contact row is taken as closed (phi = 0, as
// impulseDynamics assumes) so that the solver does the full impact; law: projection (the same
// problem as impulseDynamics with restitution e), and complementarity for comparison.
#include <benchmark/benchmark.h>

#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "obliq/batch.hpp"
#include "obliq/model/host.hpp"

using namespace obliq;

namespace {

struct Setup {
  model::Model m;
  RowMat<double> Q, V;
  double e = 0.5;
};
Setup setup;

void eval_and_solve(benchmark::State& st, Law law, bool solve, int threads) {
  const auto count = setup.Q.rows();
  Batch<double> batch;
  std::vector<Status> status;
  ImpactResults<double> res;
  RunOptions run;
  run.threads = threads;
  for (auto _ : st) {
    model::evaluate_batch(setup.m, setup.Q, setup.V, batch, status, threads);
    if (solve) {
      std::fill(batch.phi_u.begin(), batch.phi_u.end(), 0.0);
      std::fill(batch.e.begin(), batch.e.end(), setup.e);
      std::fill(batch.law.begin(), batch.law.end(), std::uint8_t(law));
      solve_impact(batch, res, run);
      benchmark::DoNotOptimize(res.qdot_plus.data());
    }
    benchmark::DoNotOptimize(batch.M.data());
  }
  st.SetItemsProcessed(st.iterations() * count);
  st.counters["n"] = setup.m.nv;
  st.counters["contacts"] = setup.m.ncontacts();
  if (solve) {
    std::size_t bad = 0;
    for (auto s : res.status) bad += s != Status::ok;
    st.counters["failed_states"] = double(bad);
  }
}

void random_quadruped_states(int count) {
  setup.m = model::builtin_model("quadruped");
  std::mt19937 rng(1);
  std::normal_distribution<double> g(0, 0.3);
  setup.Q.resize(count, setup.m.nq);
  setup.V.resize(count, setup.m.nv);
  for (int s = 0; s < count; ++s) {
    Eigen::VectorXd q = model::neutral(setup.m);
    for (int k = 7; k < setup.m.nq; ++k) q(k) = g(rng);
    Eigen::VectorXd v(setup.m.nv);
    for (int k = 0; k < setup.m.nv; ++k) v(k) = g(rng);
    v(2) = -1.0;  // falling
    setup.Q.row(s) = q.transpose();
    setup.V.row(s) = v.transpose();
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string urdf, states;
  bool free_base = false;
  std::vector<std::string> contacts;
  std::vector<char*> rest{argv[0]};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--urdf" && i + 1 < argc) urdf = argv[++i];
    else if (a == "--states" && i + 1 < argc) states = argv[++i];
    else if (a == "--contact" && i + 1 < argc) contacts.push_back(argv[++i]);
    else if (a == "--e" && i + 1 < argc) setup.e = std::stod(argv[++i]);
    else if (a == "--free") free_base = true;
    else rest.push_back(argv[i]);
  }
  if (urdf.empty()) {
    random_quadruped_states(1024);
  } else {
    setup.m = model::load_urdf(urdf, free_base);
    for (const auto& c : contacts) {
      const auto colon = c.find(':');
      Eigen::Vector3d p = Eigen::Vector3d::Zero();
      if (colon != std::string::npos) std::sscanf(c.c_str() + colon + 1, "%lf,%lf,%lf", &p(0), &p(1), &p(2));
      model::add_ground_contact(setup.m, c.substr(0, colon), p, 0.0);
    }
    std::ifstream in(states);
    std::vector<std::vector<double>> qs, vs;
    for (std::string line; std::getline(in, line);) {
      if (line.empty()) continue;
      const auto j = nlohmann::json::parse(line);
      qs.push_back(j["q"].get<std::vector<double>>());
      vs.push_back(j["qdot"].get<std::vector<double>>());
    }
    setup.Q.resize(qs.size(), setup.m.nq);
    setup.V.resize(vs.size(), setup.m.nv);
    for (std::size_t s = 0; s < qs.size(); ++s) {
      setup.Q.row(s) = Eigen::Map<const Eigen::RowVectorXd>(qs[s].data(), setup.m.nq);
      setup.V.row(s) = Eigen::Map<const Eigen::RowVectorXd>(vs[s].data(), setup.m.nv);
    }
  }
  for (int threads : {1, 0}) {
    const std::string t = threads == 1 ? "/threads:1" : "/threads:all";
    benchmark::RegisterBenchmark(("model_eval" + t).c_str(),
                                 [threads](benchmark::State& s) { eval_and_solve(s, Law::projection, false, threads); })
        ->Unit(benchmark::kMillisecond)->UseRealTime();
    benchmark::RegisterBenchmark(("model_eval+impact_projection" + t).c_str(),
                                 [threads](benchmark::State& s) { eval_and_solve(s, Law::projection, true, threads); })
        ->Unit(benchmark::kMillisecond)->UseRealTime();
    benchmark::RegisterBenchmark(("model_eval+impact_complementarity" + t).c_str(),
                                 [threads](benchmark::State& s) { eval_and_solve(s, Law::complementarity, true, threads); })
        ->Unit(benchmark::kMillisecond)->UseRealTime();
  }
  int n = int(rest.size());
  benchmark::Initialize(&n, rest.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

// bench/sim_throughput.cpp: scenario-steps per second of the batched Simulator.
//
// For each model (built-ins ball, cradle, biped5, quadruped, and a URDF given with --urdf), each
// integrator (Moreau-Jean; event-driven with the step as output interval), each batch size and
// thread count: copies dropped onto the ground (the ball and the cradle's first ball with a
// velocity), stepped with dt = 1e-3 until at least --min-time seconds have passed; reports
// count * steps / elapsed wall time. One JSON line per configuration (--json) or a table.
// --mu: Coulomb friction on every contact (Moreau-Jean only; event-driven runs skip mu > 0);
// --warm-up-steps: steps taken before the clock starts (default 1), e.g. 200 to time the copies
// standing on the ground rather than falling; --warm-start on,off: Moreau-Jean's LCP warm start
// (SimOptions::warm_start; default off, as the Simulator's), each setting a row of its own.
//
// Usage: bench_sim_throughput [--models ball,cradle,...] [--batches 1,1000,100000]
//        [--threads 1,0] [--min-time 0.5] [--urdf FILE --urdf-contacts L1,L2,.. --urdf-name NAME]
//        [--integrators moreau,event] [--mu 0,0.8] [--friction cone|pyramid] [--warm-up-steps N]
//        [--warm-start on,off] [--json]
#include <omp.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "obliq/simulator.hpp"

namespace {

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) out.push_back(item);
  return out;
}

// Lifts the model so that every unilateral gap is `clearance` at the neutral configuration.
void drop_pose(const obliq::model::Model& m, obliq::Simulator<double>& sim, double clearance) {
  obliq::Scenario sc;
  obliq::model::evaluate(m, obliq::model::neutral(m), Eigen::VectorXd::Zero(m.nv), sc);
  const double lift = sc.phi_u.size() ? clearance - sc.phi_u.minCoeff() : 0.0;
  for (std::size_t s = 0; s < sim.count(); ++s)
    for (int i = 0; i < m.nbodies(); ++i) {
      const bool free_root = m.parent[i] == -1 && m.joint_type[i] == int(obliq::model::JointType::free_flyer);
      const bool z_slider = m.joint_type[i] == int(obliq::model::JointType::prismatic) && m.joint_names[i] == "z";
      if (free_root) sim.q(s, m.idx_q[i] + 2) += lift;
      if (z_slider) sim.q(s, m.idx_q[i]) += lift;
    }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> models = {"ball", "cradle", "biped5", "quadruped"};
  std::vector<std::string> integrators = {"moreau", "event"};
  std::vector<long> batches = {1, 1000, 100000};
  std::vector<int> threads = {1, 0};
  double min_time = 0.5;
  std::vector<double> mus = {0.0};
  std::string friction = "cone";
  int warm_up = 1;
  std::vector<std::string> warm_starts = {"off"};
  bool json = false;
  std::string urdf, urdf_name = "urdf";
  std::vector<std::string> urdf_contacts;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--models") models = split(next());
    else if (a == "--integrators") integrators = split(next());
    else if (a == "--batches") { batches.clear(); for (auto& b : split(next())) batches.push_back(std::stol(b)); }
    else if (a == "--threads") { threads.clear(); for (auto& t : split(next())) threads.push_back(std::stoi(t)); }
    else if (a == "--min-time") min_time = std::stod(next());
    else if (a == "--urdf") urdf = next();
    else if (a == "--urdf-name") urdf_name = next();
    else if (a == "--urdf-contacts") urdf_contacts = split(next());
    else if (a == "--mu") { mus.clear(); for (auto& x : split(next())) mus.push_back(std::stod(x)); }
    else if (a == "--friction") friction = next();
    else if (a == "--warm-up-steps") warm_up = std::stoi(next());
    else if (a == "--warm-start") warm_starts = split(next());
    else if (a == "--json") json = true;
    else { std::cerr << "unknown argument " << a << "\n"; return 2; }
  }
  std::vector<std::pair<std::string, obliq::model::Model>> systems;
  for (const auto& name : models) systems.emplace_back(name, obliq::model::builtin_model(name));
  if (!urdf.empty()) {
    obliq::model::Model m = obliq::model::load_urdf(urdf, /*free_base=*/true);
    for (const auto& link : urdf_contacts) obliq::model::add_ground_contact(m, link, Eigen::Vector3d::Zero(), 0.0);
    systems.emplace_back(urdf_name, m);
  }
  if (!json)
    std::printf("%-10s %-7s %5s %5s %8s %8s %14s %10s\n", "model", "integr", "warm", "mu", "batch", "threads", "steps/s",
                "us/step");
  const double dt = 1e-3;
  for (const auto& [name, m] : systems)
    for (const auto& integ : integrators)
      for (const auto& warm : warm_starts)
      for (const double mu : mus)
      for (const long count : batches)
        for (const int th : threads) {
          if (integ == "event" && mu > 0) continue;  // friction is Moreau-Jean's
          obliq::SimOptions o;
          o.friction = friction == "pyramid" ? obliq::friction::Formulation::pyramid : obliq::friction::Formulation::cone;
          o.integrator = integ == "event" ? obliq::sim::Integrator::event_driven : obliq::sim::Integrator::moreau_jean;
          o.threads = th;
          o.warm_start = warm == "on";
          obliq::Simulator<double> sim(m, std::size_t(count), o);
          drop_pose(m, sim, 0.02);
          sim.e.setConstant(0.5);
          sim.mu.setConstant(mu);
          if (name == "cradle") sim.v.col(0).setConstant(-0.5);
          if (name == "ball") sim.v.col(2).setConstant(-1.0);
          sim.step(dt, warm_up);  // warm-up (first touch of the buffers; with N steps: landed)
          long steps = 0;
          double elapsed = 0;
          int chunk = 1;
          const auto t0 = std::chrono::steady_clock::now();
          while (elapsed < min_time) {
            sim.step(dt, chunk);
            steps += chunk;
            elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            if (elapsed < min_time / 4) chunk *= 2;
          }
          long bad = 0, impacts = 0;
          for (std::size_t s = 0; s < sim.count(); ++s) {
            bad += sim.status[s] != obliq::Status::ok;
            impacts += sim.impacts[s];
          }
          const double rate = double(count) * double(steps) / elapsed;
          const int used = th > 0 ? th : omp_get_max_threads();
          if (json)
            std::printf(
                "{\"model\":\"%s\",\"integrator\":\"%s\",\"warm_start\":%s,\"mu\":%g,\"batch\":%ld,\"threads\":%d,\"steps\":%ld,\"seconds\":%.6g,"
                "\"steps_per_s\":%.6g,\"failed\":%ld,\"impacts\":%ld}\n",
                name.c_str(), integ.c_str(), o.warm_start ? "true" : "false", mu, count, used, steps, elapsed, rate, bad,
                impacts);
          else
            std::printf("%-10s %-7s %5s %5g %8ld %8d %14.4g %10.3g%s\n", name.c_str(), integ.c_str(), warm.c_str(), mu, count,
                        used, rate,
                        1e6 / rate * used, bad ? "  (failed scenarios!)" : "");
          std::fflush(stdout);
        }
  return 0;
}

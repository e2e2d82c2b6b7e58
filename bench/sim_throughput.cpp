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
// --scalar double,float: the Simulator's scalar type (default double). --backend cpu|cuda
// (default cpu): with cuda every step() call copies the state to the device and back, so the
// clock runs over calls of growing step counts (1, 2, 4, ... while under a quarter of
// --min-time), as on the cpu; --threads is the cpu's and ignored (printed 0) for cuda.
// --cuda-scratch-mb N: SimOptions::cuda_scratch_bytes (the device scratch of one launch; the
// default 256 MiB cuts a large batch into many launches). --budget-s S: configurations that would start after S seconds are skipped, each with a line.
// --env-frame-skip N (N > 0): time an environment's step instead, Simulator::step_pd with N steps
// of dt = 5e-3 per call (obliq.envs' step: every revolute joint tracked by a PD law, kp 80, kd 1,
// |tau| <= 30 N m, the targets the neutral joints), one call per env step (on cuda: one round
// trip of the state per env step, as the environments do); steps/s counts physics steps
// (count * N per call), env_steps_per_s the calls' (count per call).
// --resident (obliq_gpu_sim_bench only, with --backend cuda): the state resident on the device
// (obliq::DeviceSimulator, what obliq.Simulator(backend="cuda") and the environments use): copied
// there once before the clock starts, each step() / step_pd() call then runs on it with nothing
// copied in or out (the targets in device memory); the JSON line says "resident":true.
// Also built as obliq_gpu_sim_bench (cuda/CMakeLists.txt, linked with the CUDA backend and the
// CUDA runtime: OBLIQ_BENCH_CUDA_RUNTIME) for bench/gpu_check.sh.
//
// Usage: bench_sim_throughput [--models ball,cradle,...] [--batches 1,1000,100000]
//        [--threads 1,0] [--min-time 0.5] [--urdf FILE --urdf-contacts L1,L2,.. --urdf-name NAME]
//        [--integrators moreau,event] [--mu 0,0.8] [--friction cone|pyramid] [--warm-up-steps N]
//        [--warm-start on,off] [--scalar double,float] [--backend cpu|cuda] [--cuda-scratch-mb N] [--budget-s S]
//        [--env-frame-skip N] [--resident] [--json]
#include <omp.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "obliq/simulator.hpp"

#if defined(OBLIQ_BENCH_CUDA_RUNTIME)
#include <cuda_runtime.h>

#include "obliq/device_simulator.hpp"
#endif

namespace {

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) out.push_back(item);
  return out;
}

// Lifts the model so that every unilateral gap is `clearance` at the neutral configuration.
template <class T> void drop_pose(const obliq::model::Model& m, obliq::Simulator<T>& sim, double clearance) {
  obliq::Scenario sc;
  obliq::model::evaluate(m, obliq::model::neutral(m), Eigen::VectorXd::Zero(m.nv), sc);
  const double lift = sc.phi_u.size() ? clearance - sc.phi_u.minCoeff() : 0.0;
  for (std::size_t s = 0; s < sim.count(); ++s)
    for (int i = 0; i < m.nbodies(); ++i) {
      const bool free_root = m.parent[i] == -1 && m.joint_type[i] == int(obliq::model::JointType::free_flyer);
      const bool z_slider = m.joint_type[i] == int(obliq::model::JointType::prismatic) && m.joint_names[i] == "z";
      if (free_root) sim.q(s, m.idx_q[i] + 2) += T(lift);
      if (z_slider) sim.q(s, m.idx_q[i]) += T(lift);
    }
}

struct Run {
  std::string friction;
  int warm_up;
  double min_time;
  bool json;
  obliq::Backend backend;
  std::size_t cuda_scratch_bytes;
  int env_frame_skip;  // > 0: time step_pd calls of this many steps (an environment's step)
  bool resident;       // the state resident on the device (DeviceSimulator)
};

// The timing loop: call(chunk) advances every copy by `chunk` steps (growing while under a
// quarter of min_time; step_pd's calls keep frame_skip); returns (steps per copy, calls, seconds).
template <class Call> std::tuple<long, long, double> time_calls(double min_time, int frame_skip, Call&& call) {
  long steps = 0, calls = 0;
  double elapsed = 0;
  int chunk = 1;
  const auto t0 = std::chrono::steady_clock::now();
  while (elapsed < min_time) {
    const int n = frame_skip > 0 ? frame_skip : chunk;
    call(n);
    steps += n;
    ++calls;
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (elapsed < min_time / 4) chunk *= 2;
  }
  return {steps, calls, elapsed};
}


// One configuration: count copies dropped, stepped until min_time has passed; one line printed.
template <class T>
void run_one(const Run& r, const std::string& name, const obliq::model::Model& m, const std::string& integ,
             const std::string& warm, double mu, long count, int th) {
  const int frame_skip = r.env_frame_skip;
  const double dt = frame_skip > 0 ? 5e-3 : 1e-3;
  obliq::SimOptions o;
  o.friction = r.friction == "pyramid" ? obliq::friction::Formulation::pyramid : obliq::friction::Formulation::cone;
  o.integrator = integ == "event" ? obliq::sim::Integrator::event_driven : obliq::sim::Integrator::moreau_jean;
  o.threads = th;
  o.warm_start = warm == "on";
  o.backend = r.backend;
  o.cuda_scratch_bytes = r.cuda_scratch_bytes;
  const bool cuda = r.backend == obliq::Backend::cuda;
  obliq::Simulator<T> sim(m, std::size_t(count), o);
  drop_pose(m, sim, 0.02);
  sim.e.setConstant(T(0.5));
  sim.mu.setConstant(T(mu));
  if (name == "cradle") sim.v.col(0).setConstant(T(-0.5));
  if (name == "ball") sim.v.col(2).setConstant(T(-1.0));
  const obliq::PdTracking pd = obliq::revolute_actuators(m, 80, 1, 30);  // obliq.envs' gains
  std::vector<T> target(std::size_t(count) * pd.q_index.size());
  for (std::size_t s = 0; s < std::size_t(count); ++s)
    for (std::size_t j = 0; j < pd.q_index.size(); ++j) target[s * pd.q_index.size() + j] = sim.q(long(s), pd.q_index[j]);
  const obliq::HostArray<const T> targets{target.data(), std::ptrdiff_t(pd.q_index.size()), 1};
  sim.step(T(dt), r.warm_up);  // warm-up (first touch of the buffers; with N steps: landed)
  long steps = 0, calls = 0;
  double elapsed = 0;
  if (r.resident) {
#if defined(OBLIQ_BENCH_CUDA_RUNTIME)
    obliq::DeviceSimulator<T> dev(sim);
    T* device_target = nullptr;
    if (cudaMalloc(&device_target, target.size() * sizeof(T)) != cudaSuccess ||
        cudaMemcpy(device_target, target.data(), target.size() * sizeof(T), cudaMemcpyHostToDevice) != cudaSuccess)
      throw std::runtime_error("--resident: cannot put the targets on the device");
    const obliq::cuda::DeviceArray<const T> on_device{device_target, targets.scenario_stride, 1};
    std::tie(steps, calls, elapsed) = time_calls(r.min_time, frame_skip, [&](int n) {
      if (frame_skip > 0) dev.step_pd(T(dt), frame_skip, pd, on_device);
      else dev.step(T(dt), n);
    });
    dev.download();  // after the clock: the counts below
    cudaFree(device_target);
#else
    throw std::runtime_error("--resident: this build has no CUDA runtime (obliq_gpu_sim_bench has)");
#endif
  } else {
    std::tie(steps, calls, elapsed) = time_calls(r.min_time, frame_skip, [&](int n) {
      if (frame_skip > 0) sim.step_pd(T(dt), frame_skip, pd, targets);
      else sim.step(T(dt), n);
    });
  }
  long bad = 0, impacts = 0;
  for (std::size_t s = 0; s < sim.count(); ++s) {
    bad += sim.status[s] != obliq::Status::ok;
    impacts += sim.impacts[s];
  }
  const double rate = double(count) * double(steps) / elapsed;
  const int used = cuda ? 0 : th > 0 ? th : omp_get_max_threads();
  const char* scalar = sizeof(T) == 4 ? "float" : "double";
  if (r.json)
    std::printf(
        "{\"model\":\"%s\",\"integrator\":\"%s\",\"warm_start\":%s,\"mu\":%g,\"batch\":%ld,\"scalar\":\"%s\",\"backend\":\"%s\","
        "\"resident\":%s,\"threads\":%d,\"frame_skip\":%d,\"steps\":%ld,\"calls\":%ld,\"seconds\":%.6g,\"steps_per_s\":%.6g,"
        "\"env_steps_per_s\":%.6g,\"failed\":%ld,\"impacts\":%ld}\n",
        name.c_str(), integ.c_str(), o.warm_start ? "true" : "false", mu, count, scalar, obliq::backend_name(r.backend),
        r.resident ? "true" : "false", used,
        frame_skip, steps, calls, elapsed, rate, frame_skip > 0 ? rate / frame_skip : 0.0, bad, impacts);
  else
    std::printf("%-10s %-7s %5s %5g %8ld %-6s %-7s %8d %14.4g %10.3g%s\n", name.c_str(), integ.c_str(), warm.c_str(), mu, count,
                scalar, obliq::backend_name(r.backend), used, rate, 1e6 / rate * std::max(used, 1),
                bad ? "  (failed scenarios!)" : "");
  std::fflush(stdout);
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
  int env_frame_skip = 0;
  bool resident = false;
  std::vector<std::string> scalars = {"double"};
  double budget_s = 0;
  std::size_t cuda_scratch = 0;
  obliq::Backend backend = obliq::Backend::cpu;
  bool failures = false;
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
    else if (a == "--env-frame-skip") env_frame_skip = std::stoi(next());
    else if (a == "--resident") resident = true;
    else if (a == "--scalar") scalars = split(next());
    else if (a == "--budget-s") budget_s = std::stod(next());
    else if (a == "--cuda-scratch-mb") cuda_scratch = std::size_t(std::stoul(next())) << 20;
    else if (a == "--backend") {
      const std::string b = next();
      if (!obliq::parse_backend(b, backend) || backend == obliq::Backend::reference) {
        std::cerr << "--backend wants cpu or cuda, got '" << b << "'\n";
        return 2;
      }
    }
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
    std::printf("%-10s %-7s %5s %5s %8s %-6s %-7s %8s %14s %10s\n", "model", "integr", "warm", "mu", "batch", "scalar",
                "backend", "threads", "steps/s", "us/step");
  const auto t_start = std::chrono::steady_clock::now();
  if (resident && backend != obliq::Backend::cuda) {
    std::cerr << "--resident keeps the state on the device: it needs --backend cuda\n";
    return 2;
  }
  Run run{friction, warm_up, min_time, json, backend, cuda_scratch, env_frame_skip, resident};
  for (const auto& [name, m] : systems)
    for (const auto& integ : integrators)
      for (const auto& warm : warm_starts)
      for (const double mu : mus)
      for (const auto& scalar : scalars)
      for (const long count : batches)
        for (const int th : threads) {
          if (integ == "event" && mu > 0) continue;  // friction is Moreau-Jean's
          if (backend == obliq::Backend::cuda && th != threads.front()) continue;  // threads are the cpu's
          const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
          if (budget_s > 0 && spent > budget_s) {
            std::printf("%-10s %-7s %5s %5g %8ld %-6s skipped: past --budget-s %g (%.0f s spent)\n", name.c_str(), integ.c_str(),
                        warm.c_str(), mu, count, scalar.c_str(), budget_s, spent);
            std::fflush(stdout);
            continue;
          }
          try {
            if (scalar == "float") run_one<float>(run, name, m, integ, warm, mu, count, th);
            else run_one<double>(run, name, m, integ, warm, mu, count, th);
          } catch (const std::exception& e) {
            std::printf("%-10s %-7s %5s %5g %8ld %-6s error: %s\n", name.c_str(), integ.c_str(), warm.c_str(), mu, count,
                        scalar.c_str(), e.what());
            std::fflush(stdout);
            failures = true;
          }
        }
  return failures ? 1 : 0;
}

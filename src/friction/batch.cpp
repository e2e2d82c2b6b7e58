// src/friction/batch.cpp: obliq::impact_batch / dynamics_batch, frictional scenarios in bulk on a
// backend: the cpu runs obliq::impact / dynamics on each, the cuda backend the device kernel
// (cuda/friction_glue.hpp) through the loaded library's table (src/cpu/cuda_backend.hpp).
#include <stdexcept>

#include "cpu/cuda_backend.hpp"
#include "obliq/friction.hpp"

namespace obliq {
namespace {

// Result k of the cpu backend: one(scenario, friction, info or null) for each scenario.
template <class Result, class One>
std::vector<Result> on_the_cpu(const std::vector<FrictionalScenario>& batch, std::vector<FrictionResult>* info, One&& one) {
  std::vector<Result> out(batch.size());
  if (info) info->assign(batch.size(), FrictionResult{});
  for (std::size_t k = 0; k < batch.size(); ++k)
    out[k] = one(*batch[k].scenario, *batch[k].friction, info ? &(*info)[k] : nullptr);
  return out;
}

void check_backend(Backend backend) {
  if (backend != Backend::cpu && backend != Backend::cuda)
    throw std::invalid_argument(std::string("frictional contact has no ") + backend_name(backend) +
                                " backend (cpu or cuda; docs/friction.md)");
}

}  // namespace

template <class T>
std::vector<ImpactResult> impact_batch(const std::vector<FrictionalScenario>& batch, Backend backend,
                                       std::vector<FrictionResult>* info) {
  check_backend(backend);
  if (backend == Backend::cuda) return cpu::cuda_backend().friction_impact<T>(batch, info);
  return on_the_cpu<ImpactResult>(batch, info, [](const Scenario& s, const Friction& f, FrictionResult* i) {
    return impact<T>(s, f, i);
  });
}

template <class T>
std::vector<DynamicsResult> dynamics_batch(const std::vector<FrictionalScenario>& batch, Backend backend,
                                           std::vector<FrictionResult>* info) {
  check_backend(backend);
  if (backend == Backend::cuda) return cpu::cuda_backend().friction_dynamics<T>(batch, info);
  return on_the_cpu<DynamicsResult>(batch, info, [](const Scenario& s, const Friction& f, FrictionResult* i) {
    return dynamics<T>(s, f, i);
  });
}

template std::vector<ImpactResult> impact_batch<double>(const std::vector<FrictionalScenario>&, Backend,
                                                        std::vector<FrictionResult>*);
template std::vector<ImpactResult> impact_batch<float>(const std::vector<FrictionalScenario>&, Backend,
                                                       std::vector<FrictionResult>*);
template std::vector<DynamicsResult> dynamics_batch<double>(const std::vector<FrictionalScenario>&, Backend,
                                                            std::vector<FrictionResult>*);
template std::vector<DynamicsResult> dynamics_batch<float>(const std::vector<FrictionalScenario>&, Backend,
                                                           std::vector<FrictionResult>*);

}  // namespace obliq

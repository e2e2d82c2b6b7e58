// cuda/friction_glue.cpp: obliq::impact_batch / dynamics_batch on the device (the backend table's
// friction entries, cuda/backend_table.cpp): cuda/friction_glue.hpp's sequence with device memory
// and one launch of cuda/friction_kernels.cuh per chunk.
#include "friction_glue.hpp"

#include <stdexcept>
#include <string>

#include "device_memory.hpp"
#include "friction_launch.hpp"
#include "obliq/cuda.hpp"

namespace obliq::cuda::detail {

template <class T, class Result>
std::vector<Result> solve_friction(const std::vector<FrictionalScenario>& batch, std::vector<FrictionResult>* info) {
  std::string why;
  if (!device_available(&why)) throw std::runtime_error("backend cuda: " + why);
  std::vector<Result> out = run_friction<T, Result, DeviceMemory<T>>(
      batch, info, default_scratch_bytes(),
      [](const FrictionArrays<T>& a, std::size_t s0, std::size_t chunk, T* scratch, std::size_t ws) {
        friction_chunk<T>(a, s0, chunk, scratch, ws);
      });
  OBLIQ_CUDA_CHECK(cudaDeviceSynchronize());
  return out;
}

template std::vector<ImpactResult> solve_friction<double, ImpactResult>(const std::vector<FrictionalScenario>&,
                                                                         std::vector<FrictionResult>*);
template std::vector<ImpactResult> solve_friction<float, ImpactResult>(const std::vector<FrictionalScenario>&,
                                                                        std::vector<FrictionResult>*);
template std::vector<DynamicsResult> solve_friction<double, DynamicsResult>(const std::vector<FrictionalScenario>&,
                                                                             std::vector<FrictionResult>*);
template std::vector<DynamicsResult> solve_friction<float, DynamicsResult>(const std::vector<FrictionalScenario>&,
                                                                            std::vector<FrictionResult>*);

}  // namespace obliq::cuda::detail

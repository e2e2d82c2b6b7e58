// cuda/sim_kernels_float.cu: the Simulator's step on the device in float (cuda/sim_kernels.cuh).
#include "sim_kernels.cuh"

namespace obliq::cuda::detail {

template void simulate<float>(const sim::BatchArrays<float>&, const sim::StepParams<float>&, float, int, std::size_t);

}  // namespace obliq::cuda::detail

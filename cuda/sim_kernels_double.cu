// cuda/sim_kernels_double.cu: the Simulator's step on the device in double (cuda/sim_kernels.cuh).
#include "sim_kernels.cuh"

namespace obliq::cuda::detail {

template void simulate<double>(const sim::BatchArrays<double>&, const sim::StepParams<double>&, double, int, std::size_t);

}  // namespace obliq::cuda::detail

// cuda/friction_kernels_double.cu: frictional scenarios on the device in double (cuda/friction_kernels.cuh).
#include "friction_kernels.cuh"

namespace obliq::cuda::detail {

template void friction_chunk<double>(const FrictionArrays<double>&, std::size_t, std::size_t, double*, std::size_t);

}  // namespace obliq::cuda::detail

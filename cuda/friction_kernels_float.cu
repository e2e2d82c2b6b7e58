// cuda/friction_kernels_float.cu: frictional scenarios on the device in float (cuda/friction_kernels.cuh).
#include "friction_kernels.cuh"

namespace obliq::cuda::detail {

template void friction_chunk<float>(const FrictionArrays<float>&, std::size_t, std::size_t, float*, std::size_t);

}  // namespace obliq::cuda::detail

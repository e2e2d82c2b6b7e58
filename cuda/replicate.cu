// cuda/replicate.cu: copy a pool of scenarios across a batch on the device (any strides), with
// cuda/tile.hpp's Thrust for_each_n on the call's stream.
#include "thrust.cuh"
#include "tile.hpp"

namespace obliq::cuda::detail {

template <class U>
void tile(Strided<U> dst, Strided<const U> src, std::size_t count, std::size_t pool, std::size_t block, void* stream) {
  PoolAllocator alloc(static_cast<cudaStream_t>(stream));
  tile_with(thrust_on(alloc), dst, src, count, pool, block);
}

template void tile<double>(Strided<double>, Strided<const double>, std::size_t, std::size_t, std::size_t, void*);
template void tile<float>(Strided<float>, Strided<const float>, std::size_t, std::size_t, std::size_t, void*);
template void tile<std::uint8_t>(Strided<std::uint8_t>, Strided<const std::uint8_t>, std::size_t, std::size_t, std::size_t,
                                 void*);

}  // namespace obliq::cuda::detail

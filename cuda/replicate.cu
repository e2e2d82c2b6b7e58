// cuda/replicate.cu: copy a pool of scenarios across a batch on the device (any strides).
#include "common.cuh"

namespace obliq::cuda::detail {

// dst(s, k) = src(s % pool, k) for s < count, k < block; s fastest, so an interleaved dst is
// written coalesced.
template <class U>
__global__ void tile_kernel(Strided<U> dst, Strided<const U> src, std::size_t count, std::size_t pool, std::size_t block) {
  const std::size_t idx = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= count * block) return;
  const std::size_t s = idx % count, k = idx / count;
  dst(s, int(k)) = src(s % pool, int(k));
}

template <class U>
void tile(Strided<U> dst, Strided<const U> src, std::size_t count, std::size_t pool, std::size_t block, void* stream) {
  if (count == 0 || block == 0) return;
  if (!dst.data || !src.data || pool == 0) throw std::runtime_error("obliq cuda: replicate: unset array");
  const std::size_t total = count * block;
  tile_kernel<U><<<unsigned((total + 255) / 256), 256, 0, static_cast<cudaStream_t>(stream)>>>(dst, src, count, pool, block);
  OBLIQ_CUDA_CHECK(cudaGetLastError());
}

template void tile<double>(Strided<double>, Strided<const double>, std::size_t, std::size_t, std::size_t, void*);
template void tile<float>(Strided<float>, Strided<const float>, std::size_t, std::size_t, std::size_t, void*);
template void tile<std::uint8_t>(Strided<std::uint8_t>, Strided<const std::uint8_t>, std::size_t, std::size_t, std::size_t,
                                 void*);

}  // namespace obliq::cuda::detail

// cuda/warp_kernels.cu: Method::warp, the projection-law impact with one warp per scenario and
// its matrices in shared memory (cuda/warp_impact.hpp), then the fused kernel on whatever the
// warps handed over, compacted by Thrust (cuda/compaction.hpp) so that the fused kernel's warps
// are full of handed-back scenarios instead of one here and there.
#include "common.cuh"
#include "compaction.hpp"
#include "thrust.cuh"
#include "warp_impact.hpp"

namespace obliq::cuda::detail {

namespace {

// The 32 lanes of a warp (cuda/warp_impact.hpp's Warp).
struct DeviceWarp {
  int lane;
  static constexpr int width = 32;
  OBLIQ_HD void sync() const {
#ifdef __CUDA_ARCH__
    __syncwarp();
#endif
  }
  OBLIQ_HD bool all(bool p) const {
#ifdef __CUDA_ARCH__
    return __all_sync(0xffffffffu, p);
#else
    return p;
#endif
  }
};

constexpr int kWarpsPerBlock = 4;

// Warp k of block b solves scenario b * (warps per block) + k with shared elements [k ws, (k + 1) ws).
template <class T>
__global__ void warp_impact_kernel(Inputs<T> in, ImpactOutputs<T> out, std::uint8_t* mask, std::size_t ws) {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  const int warp = threadIdx.x / 32;
  const std::size_t s = std::size_t(blockIdx.x) * (blockDim.x / 32) + warp;
  if (s >= in.count) return;  // the whole warp
  T* sm = reinterpret_cast<T*>(shared_bytes) + std::size_t(warp) * ws;
  warp_impact(in, out, mask, s, sm, DeviceWarp{int(threadIdx.x % 32)});
}

}  // namespace

template <class T> void warp_impact_batch(const Inputs<T>& in, const ImpactOutputs<T>& out, const Launch& l) {
  if (in.count == 0) return;
  if (!warp_impact_takes<T>(in.n, in.m_b, in.m_u)) return fused_impact(in, out, l);
  const std::size_t ws = warp_layout(in.n, in.m_b, in.m_u).total;
  const int warps = int(std::max<std::size_t>(1, std::min<std::size_t>(kWarpsPerBlock, (std::size_t(48) << 10) / (ws * sizeof(T)))));
  const std::size_t blocks = (in.count + warps - 1) / warps;
  warp_impact_kernel<T><<<unsigned(blocks), 32 * warps, warps * ws * sizeof(T), stream_of(l)>>>(in, out, l.mask_buffer, ws);
  OBLIQ_CUDA_CHECK(cudaGetLastError());
  PoolAllocator alloc(stream_of(l));
  Launch fallback = l;
  fallback.only = select_handed_back(thrust_on(alloc), l.mask_buffer, in.count, l.select_buffer);
  fused_impact(in, out, fallback);
}

template void warp_impact_batch<double>(const Inputs<double>&, const ImpactOutputs<double>&, const Launch&);
template void warp_impact_batch<float>(const Inputs<float>&, const ImpactOutputs<float>&, const Launch&);

}  // namespace obliq::cuda::detail

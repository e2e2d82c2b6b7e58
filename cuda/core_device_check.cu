// cuda/core_device_check.cu: the per-scenario core instantiated in device code, double and
// float, so that a host-only construct in include/obliq/core (std:: calls, exceptions,
// allocation, recursion nvcc cannot handle) fails the build in CI, which has nvcc but no GPU.
// The kernels are never launched; the fused kernels (fused_kernels.cu, lcp_kernels.cu) are the
// ones that run.
#include "obliq/core/lcp/select.hpp"
#include "obliq/core/mechanics/dynamics.hpp"
#include "obliq/core/mechanics/impact.hpp"

namespace obliq::cuda::detail {

template <class T>
__global__ void check_impact(ScenarioView<T> in, ImpactView<T> out, Arena<T> arena, int* status) {
  *status = static_cast<int>(obliq::impact(in, out, arena));
}

template <class T>
__global__ void check_dynamics(ScenarioView<T> in, DynamicsView<T> out, Arena<T> arena, int* status) {
  *status = static_cast<int>(obliq::dynamics(in, out, arena));
}

template <class T>
__global__ void check_lcp(MatView<const T> M, VecView<const T> q, VecView<T> z, VecView<T> w, Arena<T> arena, int solver,
                          int* status) {
  *status = static_cast<int>(obliq::lcp::solve(M, q, z, w, arena, static_cast<lcp::Solver>(solver)).status);
}

template __global__ void check_impact<double>(ScenarioView<double>, ImpactView<double>, Arena<double>, int*);
template __global__ void check_impact<float>(ScenarioView<float>, ImpactView<float>, Arena<float>, int*);
template __global__ void check_dynamics<double>(ScenarioView<double>, DynamicsView<double>, Arena<double>, int*);
template __global__ void check_dynamics<float>(ScenarioView<float>, DynamicsView<float>, Arena<float>, int*);
template __global__ void check_lcp<double>(MatView<const double>, VecView<const double>, VecView<double>, VecView<double>,
                                           Arena<double>, int, int*);
template __global__ void check_lcp<float>(MatView<const float>, VecView<const float>, VecView<float>, VecView<float>,
                                          Arena<float>, int, int*);

}  // namespace obliq::cuda::detail

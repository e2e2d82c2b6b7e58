// cuda/friction_device_check.cu: the frictional core (include/obliq/core/friction: cone solver,
// pyramid LCP, certificate, impact and dynamics with friction) instantiated in device code, double
// and float, so that a host-only construct there fails the build in CI (which has nvcc but no GPU),
// as core_device_check.cu does for the frictionless core. The kernel is never launched.
#include "obliq/core/friction/dynamics.hpp"
#include "obliq/core/friction/impact.hpp"

namespace obliq::cuda::detail {

template <class T>
__global__ void check_friction(ScenarioView<T> in, friction::FrictionView<T> fr, ImpactView<T> imp, DynamicsView<T> dyn,
                               friction::FrictionOutView<T> fo, Arena<T> arena, int* status) {
  status[0] = static_cast<int>(friction::impact(in, fr, imp, fo, arena));
  status[1] = static_cast<int>(friction::dynamics(in, fr, dyn, fo, arena));
}

#define OBLIQ_CHECK_FRICTION(T)                                                                                    \
  template __global__ void check_friction<T>(ScenarioView<T>, friction::FrictionView<T>, ImpactView<T>, DynamicsView<T>, \
                                             friction::FrictionOutView<T>, Arena<T>, int*);
OBLIQ_CHECK_FRICTION(double)
OBLIQ_CHECK_FRICTION(float)
#undef OBLIQ_CHECK_FRICTION

}  // namespace obliq::cuda::detail

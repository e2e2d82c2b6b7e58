// cuda/sim_dispatch.cpp: the Simulator's step and PD-tracked step on the device pick the kernel
// of the batch's configuration (cuda/sim_glue.hpp's with_configuration; the kernels:
// cuda/sim_kernels/). Host compiler.
#include "obliq/sim/pd_tracking.hpp"
#include "sim_glue.hpp"
#include "sim_launch.hpp"

namespace obliq::cuda::detail {

template <class T>
void simulate(const sim::BatchArrays<T>& b, const sim::StepParams<T>& p, T dt, int steps, std::size_t scratch_bytes) {
  with_configuration(sim_configuration(b, p), [&]<SimSystems K, sim::Integrator I, bool Frictional>() {
    simulate_configuration<T, K, I, Frictional>(b, p, dt, steps, scratch_bytes);
  });
}

template <class T>
void simulate_pd(const sim::BatchArrays<T>& b, const sim::StepParams<T>& p, const sim::PdArrays<T>& pd, T dt,
                 int frame_skip, std::size_t scratch_bytes) {
  with_configuration(sim_configuration(b, p), [&]<SimSystems K, sim::Integrator I, bool Frictional>() {
    simulate_pd_configuration<T, K, I, Frictional>(b, p, pd, dt, frame_skip, scratch_bytes);
  });
}

template void simulate<double>(const sim::BatchArrays<double>&, const sim::StepParams<double>&, double, int, std::size_t);
template void simulate<float>(const sim::BatchArrays<float>&, const sim::StepParams<float>&, float, int, std::size_t);

template void simulate_pd<double>(const sim::BatchArrays<double>&, const sim::StepParams<double>&,
                                  const sim::PdArrays<double>&, double, int, std::size_t);
template void simulate_pd<float>(const sim::BatchArrays<float>&, const sim::StepParams<float>&,
                                 const sim::PdArrays<float>&, float, int, std::size_t);

}  // namespace obliq::cuda::detail

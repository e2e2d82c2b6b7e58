// cuda/sim_kernels/raw_event_driven_frictional_double.cu: the Simulator's kernel for raw systems,
// event-driven, frictional, in double (cuda/sim_kernels.cuh; one configuration per file).
#include "sim_kernels.cuh"

namespace obliq::cuda::detail {

template void simulate_configuration<double, SimSystems::raw, sim::Integrator::event_driven, true>(
    const sim::BatchArrays<double>&, const sim::StepParams<double>&, double, int, std::size_t);
template void simulate_pd_configuration<double, SimSystems::raw, sim::Integrator::event_driven, true>(
    const sim::BatchArrays<double>&, const sim::StepParams<double>&, const sim::PdArrays<double>&, double, int, std::size_t);

template void resident_step_configuration<double, SimSystems::raw, sim::Integrator::event_driven, true>(
    ResidentBatch<double, DeviceMemory<double>>&, const sim::StepParams<double>&, double, int);
template void resident_step_pd_configuration<double, SimSystems::raw, sim::Integrator::event_driven, true>(
    ResidentBatch<double, DeviceMemory<double>>&, const sim::StepParams<double>&, const sim::PdArrays<double>&, double, int);

}  // namespace obliq::cuda::detail

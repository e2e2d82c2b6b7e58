// cuda/sim_kernels/model_event_driven_frictionless_float.cu: the Simulator's kernel for model systems,
// event-driven, frictionless, in float (cuda/sim_kernels.cuh; one configuration per file).
#include "sim_kernels.cuh"

namespace obliq::cuda::detail {

template void simulate_configuration<float, SimSystems::model, sim::Integrator::event_driven, false>(
    const sim::BatchArrays<float>&, const sim::StepParams<float>&, float, int, std::size_t);
template void simulate_pd_configuration<float, SimSystems::model, sim::Integrator::event_driven, false>(
    const sim::BatchArrays<float>&, const sim::StepParams<float>&, const sim::PdArrays<float>&, float, int, std::size_t);

template void resident_step_configuration<float, SimSystems::model, sim::Integrator::event_driven, false>(
    ResidentBatch<float, DeviceMemory<float>>&, const sim::StepParams<float>&, float, int);
template void resident_step_pd_configuration<float, SimSystems::model, sim::Integrator::event_driven, false>(
    ResidentBatch<float, DeviceMemory<float>>&, const sim::StepParams<float>&, const sim::PdArrays<float>&, float, int);

}  // namespace obliq::cuda::detail

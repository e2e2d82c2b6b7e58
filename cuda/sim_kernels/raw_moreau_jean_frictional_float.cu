// cuda/sim_kernels/raw_moreau_jean_frictional_float.cu: the Simulator's kernel for raw systems,
// Moreau-Jean, frictional, in float (cuda/sim_kernels.cuh; one configuration per file).
#include "sim_kernels.cuh"

namespace obliq::cuda::detail {

template void simulate_configuration<float, SimSystems::raw, sim::Integrator::moreau_jean, true>(
    const sim::BatchArrays<float>&, const sim::StepParams<float>&, float, int, std::size_t);
template void simulate_pd_configuration<float, SimSystems::raw, sim::Integrator::moreau_jean, true>(
    const sim::BatchArrays<float>&, const sim::StepParams<float>&, const sim::PdArrays<float>&, float, int, std::size_t);

template void resident_step_configuration<float, SimSystems::raw, sim::Integrator::moreau_jean, true>(
    ResidentBatch<float, DeviceMemory<float>>&, const sim::StepParams<float>&, float, int);
template void resident_step_pd_configuration<float, SimSystems::raw, sim::Integrator::moreau_jean, true>(
    ResidentBatch<float, DeviceMemory<float>>&, const sim::StepParams<float>&, const sim::PdArrays<float>&, float, int);

}  // namespace obliq::cuda::detail

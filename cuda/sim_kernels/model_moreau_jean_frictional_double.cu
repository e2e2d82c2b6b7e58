// cuda/sim_kernels/model_moreau_jean_frictional_double.cu: the Simulator's kernel for model systems,
// Moreau-Jean, frictional, in double (cuda/sim_kernels.cuh; one configuration per file).
#include "sim_kernels.cuh"

namespace obliq::cuda::detail {

template void simulate_configuration<double, SimSystems::model, sim::Integrator::moreau_jean, true>(
    const sim::BatchArrays<double>&, const sim::StepParams<double>&, double, int, std::size_t);
template void simulate_pd_configuration<double, SimSystems::model, sim::Integrator::moreau_jean, true>(
    const sim::BatchArrays<double>&, const sim::StepParams<double>&, const sim::PdArrays<double>&, double, int, std::size_t);

template void resident_step_configuration<double, SimSystems::model, sim::Integrator::moreau_jean, true>(
    ResidentBatch<double, DeviceMemory<double>>&, const sim::StepParams<double>&, double, int);
template void resident_step_pd_configuration<double, SimSystems::model, sim::Integrator::moreau_jean, true>(
    ResidentBatch<double, DeviceMemory<double>>&, const sim::StepParams<double>&, const sim::PdArrays<double>&, double, int);

}  // namespace obliq::cuda::detail

// cuda/sim_kernels/raw_moreau_jean_frictionless_double.cu: the Simulator's kernel for raw systems,
// Moreau-Jean, frictionless, in double (cuda/sim_kernels.cuh; one configuration per file).
#include "sim_kernels.cuh"

namespace obliq::cuda::detail {

template void simulate_configuration<double, SimSystems::raw, sim::Integrator::moreau_jean, false>(
    const sim::BatchArrays<double>&, const sim::StepParams<double>&, double, int, std::size_t);
template void simulate_pd_configuration<double, SimSystems::raw, sim::Integrator::moreau_jean, false>(
    const sim::BatchArrays<double>&, const sim::StepParams<double>&, const sim::PdArrays<double>&, double, int, std::size_t);

template void resident_step_configuration<double, SimSystems::raw, sim::Integrator::moreau_jean, false>(
    ResidentBatch<double, DeviceMemory<double>>&, const sim::StepParams<double>&, double, int);
template void resident_step_pd_configuration<double, SimSystems::raw, sim::Integrator::moreau_jean, false>(
    ResidentBatch<double, DeviceMemory<double>>&, const sim::StepParams<double>&, const sim::PdArrays<double>&, double, int);

}  // namespace obliq::cuda::detail

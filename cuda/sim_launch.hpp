// cuda/sim_launch.hpp: the Simulator's step (and PD-tracked step, and the resident batch) on the device, as the backend table
// (cuda/backend_table.cpp, host compiler) sees it: simulate (cuda/sim_dispatch.cpp) picks the
// batch's configuration and calls simulate_configuration, which each file of cuda/sim_kernels/
// instantiates for one configuration and scalar type (cuda/sim_kernels.cuh). No CUDA headers.
#pragma once

#include <cstddef>
#include <memory>

namespace obliq::sim {
template <class T> struct BatchArrays;
template <class T> struct StepParams;
template <class T> struct PdArrays;
enum class Integrator : int;
}  // namespace obliq::sim

namespace obliq::cpu {
template <class T> class ResidentSimulation;
}

namespace obliq::cuda::detail {

enum class SimSystems : int;  // cuda/sim_body.hpp
template <class T, class Mem> class ResidentBatch;  // cuda/sim_resident.hpp
template <class T> struct DeviceMemory;             // cuda/device_memory.hpp

// Host arrays in (the Simulator's own buffers), the state copied back; scratch_bytes 0: 256 MiB
// (at most half the free device memory).
template <class T>
void simulate(const sim::BatchArrays<T>& b, const sim::StepParams<T>& p, T dt, int steps, std::size_t scratch_bytes);

// The same with the kernel of configuration (K, I, Frictional), which must be the batch's
// (sim_configuration, cuda/sim_glue.hpp; std::logic_error otherwise).
template <class T, SimSystems K, sim::Integrator I, bool Frictional>
void simulate_configuration(const sim::BatchArrays<T>& b, const sim::StepParams<T>& p, T dt, int steps,
                            std::size_t scratch_bytes);

// Simulator::step_pd on the device (cuda/sim_pd.hpp): frame_skip rounds of the actuators and one
// step; the state and, when pd.effort is not null, the effort written back to the host arrays.
template <class T>
void simulate_pd(const sim::BatchArrays<T>& b, const sim::StepParams<T>& p, const sim::PdArrays<T>& pd, T dt,
                 int frame_skip, std::size_t scratch_bytes);

template <class T, SimSystems K, sim::Integrator I, bool Frictional>
void simulate_pd_configuration(const sim::BatchArrays<T>& b, const sim::StepParams<T>& p, const sim::PdArrays<T>& pd,
                               T dt, int frame_skip, std::size_t scratch_bytes);

// A batch resident on the device (cuda/sim_resident.hpp; the backend table's resident entry):
// host arrays copied in once (scratch_bytes 0: 256 MiB, at most half the free device memory).
template <class T>
std::unique_ptr<cpu::ResidentSimulation<T>> make_resident(const sim::BatchArrays<T>& b, std::size_t scratch_bytes);

// Its step() and step_pd() with the kernels of configuration (K, I, Frictional), which must be
// the copy's (ResidentBatch::configuration; std::logic_error otherwise).
template <class T, SimSystems K, sim::Integrator I, bool Frictional>
void resident_step_configuration(ResidentBatch<T, DeviceMemory<T>>& r, const sim::StepParams<T>& p, T dt, int steps);
template <class T, SimSystems K, sim::Integrator I, bool Frictional>
void resident_step_pd_configuration(ResidentBatch<T, DeviceMemory<T>>& r, const sim::StepParams<T>& p,
                                    const sim::PdArrays<T>& pd, T dt, int frame_skip);

}  // namespace obliq::cuda::detail

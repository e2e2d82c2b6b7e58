// cuda/sim_dispatch.cpp: the Simulator's step and PD-tracked step on the device, per call or on a
// resident batch, pick the kernel of the batch's configuration (cuda/sim_glue.hpp's with_configuration; the kernels:
// cuda/sim_kernels/). Host compiler.
#include "cpu/cuda_backend.hpp"
#include "device_memory.hpp"
#include "obliq/sim/pd_tracking.hpp"
#include "sim_glue.hpp"
#include "sim_launch.hpp"
#include "sim_resident.hpp"

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

namespace {

// The backend table's resident batch: a ResidentBatch in device memory, each call with the
// kernels of the copy's configuration.
template <class T> class DeviceResident final : public cpu::ResidentSimulation<T> {
 public:
  DeviceResident(const sim::BatchArrays<T>& h, std::size_t scratch_bytes)
      : batch_(h, scratch_bytes == 0 ? default_scratch_bytes() : scratch_bytes) {
    OBLIQ_CUDA_CHECK(cudaGetDevice(&this->device_id));
  }
  const sim::BatchArrays<T>& arrays() const override { return batch_.arrays(); }
  void step(const sim::StepParams<T>& p, T dt, int steps) override {
    with_configuration(batch_.configuration(p), [&]<SimSystems K, sim::Integrator I, bool Frictional>() {
      resident_step_configuration<T, K, I, Frictional>(batch_, p, dt, steps);
    });
  }
  void step_pd(const sim::StepParams<T>& p, const sim::PdArrays<T>& pd, T dt, int frame_skip) override {
    with_configuration(batch_.configuration(p), [&]<SimSystems K, sim::Integrator I, bool Frictional>() {
      resident_step_pd_configuration<T, K, I, Frictional>(batch_, p, pd, dt, frame_skip);
    });
  }
  void upload(const sim::BatchArrays<T>& h) override { batch_.upload(h); }
  void download(const sim::BatchArrays<T>& h) override { batch_.download(h); }

 private:
  ResidentBatch<T, DeviceMemory<T>> batch_;
};

}  // namespace

template <class T>
std::unique_ptr<cpu::ResidentSimulation<T>> make_resident(const sim::BatchArrays<T>& b, std::size_t scratch_bytes) {
  return std::make_unique<DeviceResident<T>>(b, scratch_bytes);
}

template std::unique_ptr<cpu::ResidentSimulation<double>> make_resident<double>(const sim::BatchArrays<double>&,
                                                                                std::size_t);
template std::unique_ptr<cpu::ResidentSimulation<float>> make_resident<float>(const sim::BatchArrays<float>&, std::size_t);

template void simulate<double>(const sim::BatchArrays<double>&, const sim::StepParams<double>&, double, int, std::size_t);
template void simulate<float>(const sim::BatchArrays<float>&, const sim::StepParams<float>&, float, int, std::size_t);

template void simulate_pd<double>(const sim::BatchArrays<double>&, const sim::StepParams<double>&,
                                  const sim::PdArrays<double>&, double, int, std::size_t);
template void simulate_pd<float>(const sim::BatchArrays<float>&, const sim::StepParams<float>&,
                                 const sim::PdArrays<float>&, float, int, std::size_t);

}  // namespace obliq::cuda::detail

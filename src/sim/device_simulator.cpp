// src/sim/device_simulator.cpp: DeviceSimulator, the host side of a batch resident on the device:
// the checks of each call and the backend table's resident batch (src/cpu/cuda_backend.hpp).
#include "obliq/device_simulator.hpp"

#include <stdexcept>

#include "cpu/cuda_backend.hpp"
#include "sim/pd_call.hpp"

namespace obliq {

template <class T>
DeviceSimulator<T>::DeviceSimulator(Simulator<T>& host)
    : host_(&host),
      resident_(cpu::cuda_backend().resident(host.arrays(HostArray<const T>{host.u.data(), host.nv(), 1}),
                                             host.options.cuda_scratch_bytes)) {}

template <class T> DeviceSimulator<T>::~DeviceSimulator() = default;
template <class T> DeviceSimulator<T>::DeviceSimulator(DeviceSimulator&&) noexcept = default;
template <class T> DeviceSimulator<T>& DeviceSimulator<T>::operator=(DeviceSimulator&&) noexcept = default;

template <class T> std::size_t DeviceSimulator<T>::count() const { return host_->count(); }

template <class T> void DeviceSimulator<T>::step(T dt, int steps) {
  resident_->step(host_->step_params(), dt, steps);
}

template <class T>
void DeviceSimulator<T>::step_pd(T dt, int frame_skip, const PdTracking& pd, cuda::DeviceArray<const T> target,
                                 cuda::DeviceArray<const std::uint8_t> hold, cuda::DeviceArray<T> effort) {
  const sim::PdArrays<T> a =
      sim::pd_call_arrays<T>(pd, frame_skip, host_->count(), host_->nq(), host_->nv(), target, hold, effort);
  resident_->step_pd(host_->step_params(), a, dt, frame_skip);
}

template <class T> void DeviceSimulator<T>::upload() {
  resident_->upload(host_->arrays(HostArray<const T>{host_->u.data(), host_->nv(), 1}));
}

template <class T> void DeviceSimulator<T>::download() {
  resident_->download(host_->arrays(HostArray<const T>{host_->u.data(), host_->nv(), 1}));
}

template <class T> const sim::BatchArrays<T>& DeviceSimulator<T>::arrays() const { return resident_->arrays(); }
template <class T> int DeviceSimulator<T>::dlpack_device_type() const { return resident_->dlpack_device_type; }
template <class T> int DeviceSimulator<T>::device_id() const { return resident_->device_id; }

template class DeviceSimulator<double>;
template class DeviceSimulator<float>;

}  // namespace obliq

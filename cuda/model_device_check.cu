// cuda/model_device_check.cu: the multibody model layer's per-state algorithms instantiated in
// device code, double and float, so that a host-only construct in include/obliq/model fails the
// build in CI (which has nvcc but no GPU), as the kernels of obliq_cuda do for the solver core.
// The kernel is never launched.
#include "obliq/model/contact_rows.hpp"
#include "obliq/model/crba.hpp"
#include "obliq/model/joint_impulses.hpp"
#include "obliq/model/kinematics.hpp"
#include "obliq/model/momentum.hpp"
#include "obliq/model/rnea.hpp"

namespace obliq::cuda::detail {

using namespace obliq::model;

template <class T>
__global__ void check_model(ModelView<T> model, DataView<T> data, VecView<const T> q, VecView<const T> qdot, MatView<T> M,
                            VecView<T> h, MatView<T> A, VecView<T> phi, VecView<T> Adot_qdot, VecView<const T> dqdot,
                            VecView<const T> lambda, MatView<T> impulses, T* com, T* momentum, T* energy, int* status) {
  *status = static_cast<int>(forward_kinematics(model, data, q, qdot));
  mass_matrix(model, data, M);
  bias_forces(model, data, h);
  contact_rows(model, data, A, phi, Adot_qdot);
  centroidal_momentum(model, data, com, momentum);
  energy[0] = kinetic_energy(model, data);
  energy[1] = potential_energy(model, data);
  joint_impulses(model, data, dqdot, lambda, impulses);
}

#define OBLIQ_CHECK_MODEL(T)                                                                                        \
  template __global__ void check_model<T>(ModelView<T>, DataView<T>, VecView<const T>, VecView<const T>, MatView<T>, \
                                          VecView<T>, MatView<T>, VecView<T>, VecView<T>, VecView<const T>,           \
                                          VecView<const T>, MatView<T>, T*, T*, T*, int*);
OBLIQ_CHECK_MODEL(double)
OBLIQ_CHECK_MODEL(float)
#undef OBLIQ_CHECK_MODEL

}  // namespace obliq::cuda::detail

// bench/ptxas/contact_law_parts.cu: the frictionless core's impact() and dynamics() as their three
// parts (include/obliq/core/mechanics: impact_prepare / dynamics_prepare, the law's solve
// solve_contact_law(in, ContactLawCall, arena), impact_conclude / dynamics_conclude), each alone
// in a kernel with its ContactLawCall in global memory, for ptxas -v at sm_90: the registers,
// stack and spills of each part with nothing of the others live across it (docs/cuda.md "The
// contact law apart"; bench/results/ptxas-contact-law-apart-2026-12-07.md). Nothing launches
// these kernels: CI compiles the file (cuda/CMakeLists.txt) so that it keeps compiling.
#include "obliq/core/mechanics/dynamics.hpp"
#include "obliq/core/mechanics/impact.hpp"

namespace obliq::bench {

template <class T> struct PartArgs {
  ScenarioView<T> in;
  ImpactView<T> impact;
  DynamicsView<T> dynamics;
  T* scratch = nullptr;
  std::size_t ws = 0;  // elements per scenario
  Status* status = nullptr;
  ContactLawCall<T>* call = nullptr;  // one per scenario
};

__device__ inline std::size_t scenario() { return std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; }
template <class T> __device__ Arena<T> arena_of(const PartArgs<T>& a) {
  Arena<T> arena;
  arena.base = a.scratch + scenario() * a.ws;
  arena.capacity = a.ws;
  return arena;
}

template <class T> __global__ void impact_prepare_kernel(const PartArgs<T>* a) {
  Arena<T> arena = arena_of(*a);
  a->status[scenario()] = detail::impact_prepare(a->in, a->impact, a->call[scenario()], arena);
}
template <class T> __global__ void dynamics_prepare_kernel(const PartArgs<T>* a) {
  Arena<T> arena = arena_of(*a);
  a->status[scenario()] = detail::dynamics_prepare(a->in, a->dynamics, a->call[scenario()], arena);
}
template <class T> __global__ void contact_law_kernel(const PartArgs<T>* a) {
  Arena<T> arena = arena_of(*a);
  const ContactLawCall<T>& call = a->call[scenario()];
  a->status[scenario()] = solve_contact_law(law_scenario(call), call, arena);
}
template <class T> __global__ void impact_conclude_kernel(const PartArgs<T>* a) {
  Arena<T> arena = arena_of(*a);
  a->status[scenario()] = detail::impact_conclude(a->in, a->impact, a->call[scenario()], arena);
}
template <class T> __global__ void dynamics_conclude_kernel(const PartArgs<T>* a) {
  Arena<T> arena = arena_of(*a);
  a->status[scenario()] = detail::dynamics_conclude(a->in, a->dynamics, a->call[scenario()], arena);
}

#define OBLIQ_CONTACT_LAW_PARTS(T)                                         \
  template __global__ void impact_prepare_kernel<T>(const PartArgs<T>*);   \
  template __global__ void dynamics_prepare_kernel<T>(const PartArgs<T>*); \
  template __global__ void contact_law_kernel<T>(const PartArgs<T>*);      \
  template __global__ void impact_conclude_kernel<T>(const PartArgs<T>*);  \
  template __global__ void dynamics_conclude_kernel<T>(const PartArgs<T>*);
OBLIQ_CONTACT_LAW_PARTS(double)
OBLIQ_CONTACT_LAW_PARTS(float)
#undef OBLIQ_CONTACT_LAW_PARTS

}  // namespace obliq::bench

// obliq/core/config.hpp: the host/device macros and the scalar traits of the core.
//
// Every per-scenario function in include/obliq/core is marked OBLIQ_HD so that the same
// source compiles with g++ (CPU backend) and with nvcc inside kernels (CUDA backend).
// OBLIQ_NOINLINE keeps a function out of line in device code only (a register-allocation
// boundary for ptxas: docs/cuda.md "Registers, stack and spills at sm_90"); the host build and
// every answer are unchanged.
#pragma once

#if defined(__CUDACC__)
#define OBLIQ_HD __host__ __device__
#define OBLIQ_FORCEINLINE __forceinline__
#else
#define OBLIQ_HD
#define OBLIQ_FORCEINLINE inline
#endif
#if defined(__CUDA_ARCH__)
#define OBLIQ_NOINLINE __noinline__
#else
#define OBLIQ_NOINLINE
#endif

namespace obliq {

// Scalar traits: machine epsilon and the tolerances that scale with it.
template <class T> struct scalar_traits;

template <> struct scalar_traits<double> {
  static constexpr double eps = 2.220446049250313e-16;  // 2^-52
  // Relative tolerance of the energy-consistency test (docs/math.md section 6, docs/format.md).
  static constexpr double energy_tol = 1e-9;
  // Relative slack under which an inequality row counts as binding.
  static constexpr double binding_tol = 1e-9;
  // Complementarity law: targets that every x misses by at most this much of each row's own
  // scale are feasible (docs/certificate.md, "Infeasibility").
  static constexpr double feasibility_tol = 1e-9;
};

template <> struct scalar_traits<float> {
  static constexpr float eps = 1.1920929e-07f;  // 2^-23
  // 1e-9 is below float's resolution; 1e-4 is about 1000 ulps of lambda_max.
  static constexpr float energy_tol = 1e-4f;
  static constexpr float binding_tol = 1e-4f;
  static constexpr float feasibility_tol = 1e-4f;
};

template <class T> OBLIQ_HD OBLIQ_FORCEINLINE T abs_(T x) { return x < T(0) ? -x : x; }
template <class T> OBLIQ_HD OBLIQ_FORCEINLINE T max_(T a, T b) { return a < b ? b : a; }
template <class T> OBLIQ_HD OBLIQ_FORCEINLINE T min_(T a, T b) { return b < a ? b : a; }
template <class T> OBLIQ_HD OBLIQ_FORCEINLINE void swap_(T& a, T& b) { T t = a; a = b; b = t; }

// The rounding floor of a computed vector, as a fraction of its largest entry and divided by the
// relative tolerance `tol` it is judged with (docs/certificate.md, "Rounding floor"): 1024 ulps,
// but never more than tol / 16, so that the floor never swamps the tolerance (in float, 1024 ulps
// = 1.2e-4 would exceed the LCP's tol of 1e-4). Double: 2.3e-13 / tol; float: 1 / 16.
template <class T> OBLIQ_HD OBLIQ_FORCEINLINE T rounding_floor_over_tol(T tol) {
  return min_(T(1024) * scalar_traits<T>::eps, tol / T(16)) / tol;
}

}  // namespace obliq

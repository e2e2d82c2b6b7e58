// cuda/backend_table.cpp: the entry points the host library finds with dlopen/dlsym
// (src/cpu/cuda_backend.hpp). Only this symbol is looked up; everything else stays C++.
#include "cpu/cuda_backend.hpp"
#include "obliq/cuda.hpp"
#include "friction_glue.hpp"
#include "sim_launch.hpp"

namespace {

template <class T> void impact(const obliq::Batch<T>& in, obliq::ImpactResults<T>& out, const obliq::RunOptions& opt) {
  obliq::cuda::solve_impact(in, out, opt);
}
template <class T> void dynamics(const obliq::Batch<T>& in, obliq::DynamicsResults<T>& out, const obliq::RunOptions& opt) {
  obliq::cuda::solve_dynamics(in, out, opt);
}
std::vector<obliq::LcpSolution> lcp(const std::vector<obliq::LcpProblem>& problems, const obliq::LcpOptions& options) {
  return obliq::cuda::solve_lcp_batch(problems, options);
}

const obliq::cpu::CudaBackend kTable{obliq::cpu::kCudaBackendAbi,
                                     &obliq::cuda::device_available,
                                     &impact<double>,
                                     &impact<float>,
                                     &dynamics<double>,
                                     &dynamics<float>,
                                     &lcp,
                                     &obliq::cuda::detail::simulate<double>,
                                     &obliq::cuda::detail::simulate<float>,
                                     &obliq::cuda::detail::simulate_pd<double>,
                                     &obliq::cuda::detail::simulate_pd<float>,
                                     &obliq::cuda::detail::make_resident<double>,
                                     &obliq::cuda::detail::make_resident<float>,
                                     &obliq::cuda::detail::solve_friction<double, obliq::ImpactResult>,
                                     &obliq::cuda::detail::solve_friction<float, obliq::ImpactResult>,
                                     &obliq::cuda::detail::solve_friction<double, obliq::DynamicsResult>,
                                     &obliq::cuda::detail::solve_friction<float, obliq::DynamicsResult>};

}  // namespace

extern "C" __attribute__((visibility("default"))) const obliq::cpu::CudaBackend* obliq_cuda_backend_v1() { return &kTable; }

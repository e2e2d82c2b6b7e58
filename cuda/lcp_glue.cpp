// cuda/lcp_glue.cpp: obliq::cuda::solve_lcp_batch, the GPU twin of obliq::solve_lcp_batch.
// Problems are grouped by size; each group is packed, uploaded, solved by lcp_kernels.cu and
// unpacked in input order. Problems with a bad shape get Status::bad_shape, as on the CPU.
#include <cuda_runtime.h>

#include <map>
#include <stdexcept>
#include <string>

#include "lcp_launch.hpp"
#include "obliq/cuda.hpp"

namespace obliq::cuda {

namespace {
void check(cudaError_t err, const char* what) {
  if (err != cudaSuccess) throw std::runtime_error(std::string("obliq cuda: lcp: ") + what + ": " + cudaGetErrorString(err));
}
template <class U> U* dev(DeviceMemory& mem) { return static_cast<U*>(mem.get()); }
}  // namespace

std::vector<LcpSolution> solve_lcp_batch(const std::vector<LcpProblem>& problems, const LcpOptions& options,
                                         const Options& opt) {
  std::string why;
  if (!device_available(&why)) throw std::runtime_error("backend cuda: " + why);
  std::vector<LcpSolution> out(problems.size());
  std::map<int, std::vector<std::size_t>> groups;  // m -> problem indices
  for (std::size_t i = 0; i < problems.size(); ++i) {
    const LcpProblem& p = problems[i];
    const LcpSolver solver = p.solver.value_or(options.solver);
    out[i].solver = solver == LcpSolver::automatic ? LcpSolver::lemke : solver;
    if (p.m < 0 || p.M.size() != std::size_t(p.m) * std::size_t(p.m) || p.q.size() != std::size_t(p.m)) {
      out[i].status = Status::bad_shape;
      continue;
    }
    groups[p.m].push_back(i);
  }
  for (const auto& [m, idx] : groups) {
    const std::size_t c = idx.size(), mm = std::size_t(m) * m;
    std::vector<double> M(c * mm), q(c * m);
    std::vector<int> solver(c);
    for (std::size_t k = 0; k < c; ++k) {
      const LcpProblem& p = problems[idx[k]];
      std::copy(p.M.begin(), p.M.end(), M.begin() + k * mm);
      std::copy(p.q.begin(), p.q.end(), q.begin() + k * m);
      solver[k] = static_cast<int>(p.solver.value_or(options.solver));
    }
    DeviceMemory dM(M.size() * sizeof(double) + 8), dq(q.size() * sizeof(double) + 8), ds(c * sizeof(int)),
        dz(q.size() * sizeof(double) + 8), dw(q.size() * sizeof(double) + 8), dst(c * sizeof(int)), dit(c * sizeof(int)),
        dres(c * sizeof(double)), dused(c * sizeof(int));
    check(cudaMemcpy(dM.get(), M.data(), M.size() * sizeof(double), cudaMemcpyHostToDevice), "upload M");
    check(cudaMemcpy(dq.get(), q.data(), q.size() * sizeof(double), cudaMemcpyHostToDevice), "upload q");
    check(cudaMemcpy(ds.get(), solver.data(), c * sizeof(int), cudaMemcpyHostToDevice), "upload solver");
    detail::LcpArrays<double> a;
    a.m = m;
    a.count = c;
    a.M = dev<double>(dM);
    a.q = dev<double>(dq);
    a.solver = dev<int>(ds);
    a.z = dev<double>(dz);
    a.w = dev<double>(dw);
    a.status = dev<int>(dst);
    a.iterations = dev<int>(dit);
    a.residual = dev<double>(dres);
    a.used = dev<int>(dused);
    a.max_iterations = options.max_iterations;
    a.omega = options.omega;
    const std::size_t per = detail::lcp_scratch<double>(m) * sizeof(double);
    const std::size_t bytes = std::max(per, std::min(per * c, opt.scratch_bytes));
    DeviceMemory scratch(bytes);
    detail::Launch l;
    l.block_size = opt.block_size;
    l.interleaved_scratch = opt.scratch_layout == Layout::interleaved;
    l.scratch = scratch.get();
    l.scratch_bytes = bytes;
    detail::fused_lcp(a, l);
    check(cudaDeviceSynchronize(), "lcp kernel");
    std::vector<double> z(c * m), w(c * m), res(c);
    std::vector<int> st(c), it(c), used(c);
    check(cudaMemcpy(z.data(), a.z, z.size() * sizeof(double), cudaMemcpyDeviceToHost), "download z");
    check(cudaMemcpy(w.data(), a.w, w.size() * sizeof(double), cudaMemcpyDeviceToHost), "download w");
    check(cudaMemcpy(res.data(), a.residual, c * sizeof(double), cudaMemcpyDeviceToHost), "download residual");
    check(cudaMemcpy(st.data(), a.status, c * sizeof(int), cudaMemcpyDeviceToHost), "download status");
    check(cudaMemcpy(it.data(), a.iterations, c * sizeof(int), cudaMemcpyDeviceToHost), "download iterations");
    check(cudaMemcpy(used.data(), a.used, c * sizeof(int), cudaMemcpyDeviceToHost), "download solver");
    for (std::size_t k = 0; k < c; ++k) {
      LcpSolution& s = out[idx[k]];
      s.status = static_cast<Status>(st[k]);
      s.z.assign(z.begin() + k * m, z.begin() + (k + 1) * m);
      s.w.assign(w.begin() + k * m, w.begin() + (k + 1) * m);
      s.iterations = it[k];
      s.residual = res[k];
      s.solver = static_cast<LcpSolver>(used[k]);
    }
  }
  return out;
}

}  // namespace obliq::cuda

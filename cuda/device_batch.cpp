// cuda/device_batch.cpp: the host side of the CUDA backend (compiled by the host compiler).
//
// Device memory, explicit upload/download between the host Batch (scenario-contiguous) and a
// DeviceBatch (interleaved or contiguous), and the entry points that pick fused kernels or the
// library path. The kernels themselves (*.cu) see only the plain structs of launch.hpp.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include "fused_body.hpp"
#include "host_layout.hpp"
#include "batch_checks.hpp"
#include "launch.hpp"
#include "obliq/cuda.hpp"

namespace obliq::cuda {

namespace {

void check(cudaError_t err, const char* what) {
  if (err != cudaSuccess) throw std::runtime_error(std::string("obliq cuda: ") + what + ": " + cudaGetErrorString(err));
}

template <class T> detail::Strided<const T> cin(const DeviceArray<T>& a) { return {a.data, a.scenario_stride, a.element_stride}; }
template <class T> detail::Strided<T> out(const DeviceArray<T>& a) { return {a.data, a.scenario_stride, a.element_stride}; }

// Host (count x block, scenario-contiguous) -> device array in `layout`.
template <class U> void put(const DeviceArray<U>& dst, const std::vector<U>& src, Layout layout, std::size_t count,
                            std::size_t block, const char* name) {
  if (block == 0 || count == 0) return;
  if (src.size() != count * block) throw std::runtime_error(std::string("obliq cuda: upload: host buffer ") + name + " has the wrong size");
  const DeviceArray<U> want = strided<U>(dst.data, layout, count, block);
  if (!dst.data || dst.scenario_stride != want.scenario_stride || dst.element_stride != want.element_stride)
    throw std::runtime_error(std::string("obliq cuda: upload: device array ") + name + " is not allocated in the batch's layout");
  if (layout == Layout::contiguous || block == 1) {
    check(cudaMemcpy(dst.data, src.data(), src.size() * sizeof(U), cudaMemcpyHostToDevice), name);
    return;
  }
  const std::vector<U> staged = detail::to_interleaved(src, count, block);  // scenario index fastest
  check(cudaMemcpy(dst.data, staged.data(), staged.size() * sizeof(U), cudaMemcpyHostToDevice), name);
}

// Device array -> host (count x block, scenario-contiguous), any strides.
template <class U> void get(std::vector<U>& dst, const DeviceArray<U>& src, std::size_t count, std::size_t block, const char* name) {
  dst.assign(count * block, U{});
  if (block == 0 || count == 0) return;
  if (!src.data) throw std::runtime_error(std::string("obliq cuda: download: ") + name + " was never computed");
  if (src.element_stride == 1 && src.scenario_stride == std::ptrdiff_t(block)) {
    check(cudaMemcpy(dst.data(), src.data, dst.size() * sizeof(U), cudaMemcpyDeviceToHost), name);
    return;
  }
  if (src.scenario_stride == 1 && src.element_stride == std::ptrdiff_t(count)) {
    std::vector<U> staged(count * block);
    check(cudaMemcpy(staged.data(), src.data, staged.size() * sizeof(U), cudaMemcpyDeviceToHost), name);
    dst = detail::from_interleaved(staged, count, block);
    return;
  }
  throw std::runtime_error(std::string("obliq cuda: download: ") + name + " has strides other than interleaved or contiguous");
}

template <class T> detail::Inputs<T> inputs_of(const DeviceBatch<T>& b, lcp::Solver lcp_solver) {
  detail::Inputs<T> in;
  in.lcp_solver = lcp_solver;
  in.n = b.shape.n;
  in.m_b = b.shape.m_b;
  in.m_u = b.shape.m_u;
  in.count = b.count;
  in.M = cin(b.M);
  in.qdot = cin(b.qdot);
  in.h = cin(b.h);
  in.u = cin(b.u);
  in.i_u = cin(b.i_u);
  in.A_b = cin(b.A_b);
  in.A_u = cin(b.A_u);
  in.phi_u = cin(b.phi_u);
  in.Adot_qdot = cin(b.Adot_qdot);
  in.e = cin(b.e);
  in.law = cin(b.law);
  in.gap_tol = cin(b.gap_tol);
  in.vel_tol = cin(b.vel_tol);
  return in;
}

bool env_is(const char* var, const char* value) {
  const char* v = std::getenv(var);
  return v && std::strcmp(v, value) == 0;
}

// Whether the device can read p: device or managed memory, or registered host memory (or any
// host memory on a system where the device reads pageable memory).
bool device_readable(const void* p) {
  int device = 0, pageable = 0;
  if (cudaGetDevice(&device) == cudaSuccess &&
      cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, device) == cudaSuccess && pageable)
    return true;
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged ||
         (a.type == cudaMemoryTypeHost && a.devicePointer != nullptr);
}

// The host-side checks of cuda/batch_checks.hpp plus where the input arrays live; throws.
template <class T> void check_batch(const detail::Inputs<T>& in, const detail::ImpactOutputs<T>* io,
                                    const detail::DynamicsOutputs<T>* dout, int block, int max_block) {
  const char* what = io ? "obliq cuda: impact: " : "obliq cuda: dynamics: ";
  std::string err = detail::check_inputs(in, io != nullptr);
  if (err.empty()) err = detail::check_outputs(io, dout, in.n, in.m_b + in.m_u, in.m_u);
  if (err.empty()) err = detail::check_block_size(block, max_block);
  if (!err.empty()) throw std::runtime_error(what + err);
  const std::pair<const char*, const void*> arrays[] = {
      {"M", in.M.data}, {"qdot", in.qdot.data}, {"h", in.h.data}, {"u", in.u.data}, {"i_u", in.i_u.data},
      {"A_b", in.A_b.data}, {"A_u", in.A_u.data}, {"phi_u", in.phi_u.data}, {"Adot_qdot", in.Adot_qdot.data},
      {"e", in.e.data}, {"law", in.law.data}, {"gap_tol", in.gap_tol.data}, {"vel_tol", in.vel_tol.data}};
  for (const auto& [name, p] : arrays)
    if (p && !device_readable(p))
      throw std::runtime_error(std::string(what) + "input array " + name + " is not device memory");
}

}  // namespace

bool device_available(std::string* reason) {
  int n = 0;
  const cudaError_t err = cudaGetDeviceCount(&n);
  if (err != cudaSuccess) {
    if (reason) *reason = std::string("no CUDA device found: ") + cudaGetErrorString(err);
    cudaGetLastError();  // clear the sticky-free error state
    return false;
  }
  if (n == 0) {
    if (reason) *reason = "no CUDA device found: cudaGetDeviceCount returned 0";
    return false;
  }
  if (reason) reason->clear();
  return true;
}


Layout layout_from_environment() {
  return env_is("OBLIQ_CUDA_LAYOUT", "contiguous") ? Layout::contiguous : Layout::interleaved;
}

Options options_from_environment() {
  Options o;
  if (env_is("OBLIQ_CUDA_METHOD", "library")) o.method = Method::library;
  if (env_is("OBLIQ_CUDA_METHOD", "warp")) o.method = Method::warp;
  o.scratch_layout = layout_from_environment();
  return o;
}

// --- DeviceMemory -----------------------------------------------------------------------------

DeviceMemory::DeviceMemory(std::size_t bytes) : bytes_(bytes) {
  if (bytes == 0) return;
  check(cudaMalloc(&ptr_, bytes), "cudaMalloc");
}
DeviceMemory::~DeviceMemory() {
  if (ptr_) cudaFree(ptr_);
}
DeviceMemory::DeviceMemory(DeviceMemory&& o) noexcept : ptr_(o.ptr_), bytes_(o.bytes_) {
  o.ptr_ = nullptr;
  o.bytes_ = 0;
}
DeviceMemory& DeviceMemory::operator=(DeviceMemory&& o) noexcept {
  if (this != &o) {
    if (ptr_) cudaFree(ptr_);
    ptr_ = o.ptr_;
    bytes_ = o.bytes_;
    o.ptr_ = nullptr;
    o.bytes_ = 0;
  }
  return *this;
}

// --- DeviceBatch ------------------------------------------------------------------------------

template <class T>
template <class U>
DeviceArray<U> DeviceBatch<T>::allocate_(std::size_t block) {
  if (block == 0 || count == 0) return strided<U>(nullptr, layout, count, block);
  auto mem = std::make_shared<DeviceMemory>(count * block * sizeof(U));
  check(cudaMemset(mem->get(), 0, mem->bytes()), "cudaMemset");
  storage_.push_back(mem);
  return strided<U>(static_cast<U*>(mem->get()), layout, count, block);
}

template <class T> DeviceBatch<T>::DeviceBatch(Shape s, std::size_t c, Layout l) : shape(s), count(c), layout(l) {
  const std::size_t n = s.n, mb = s.m_b, mu = s.m_u;
  M = allocate_<T>(n * n);
  qdot = allocate_<T>(n);
  h = allocate_<T>(n);
  u = allocate_<T>(n);
  i_u = allocate_<T>(n);
  A_b = allocate_<T>(mb * n);
  A_u = allocate_<T>(mu * n);
  phi_u = allocate_<T>(mu);
  Adot_qdot = allocate_<T>(mb + mu);
  e = allocate_<T>(mu);
  law = allocate_<std::uint8_t>(1);
  gap_tol = allocate_<T>(1);
  vel_tol = allocate_<T>(1);
}

template <class T> DeviceBatch<T> DeviceBatch<T>::wrap(Shape s, std::size_t c, Layout l) {
  DeviceBatch<T> b;
  b.shape = s;
  b.count = c;
  b.layout = l;
  return b;
}

template <class T> void DeviceBatch<T>::upload(const Batch<T>& in) {
  if (in.count != count || !(in.shape == shape)) throw std::runtime_error("obliq cuda: upload: batch shape or count differs");
  const std::size_t n = shape.n, mb = shape.m_b, mu = shape.m_u;
  put(M, in.M, layout, count, n * n, "M");
  put(qdot, in.qdot, layout, count, n, "qdot");
  put(h, in.h, layout, count, n, "h");
  put(u, in.u, layout, count, n, "u");
  put(i_u, in.i_u, layout, count, n, "i_u");
  put(A_b, in.A_b, layout, count, mb * n, "A_b");
  put(A_u, in.A_u, layout, count, mu * n, "A_u");
  put(phi_u, in.phi_u, layout, count, mu, "phi_u");
  put(Adot_qdot, in.Adot_qdot, layout, count, mb + mu, "Adot_qdot");
  put(e, in.e, layout, count, mu, "e");
  put(law, in.law, layout, count, 1, "law");
  put(gap_tol, in.gap_tol, layout, count, 1, "gap_tol");
  put(vel_tol, in.vel_tol, layout, count, 1, "vel_tol");
}

template <class T> void DeviceBatch<T>::ensure_impact_outputs() {
  const std::size_t n = shape.n, m = shape.m_b + shape.m_u, mu = shape.m_u;
  if (!qdot_plus.data) qdot_plus = allocate_<T>(n);
  if (!impulse.data) impulse = allocate_<T>(n);
  if (!lambda.data) lambda = allocate_<T>(m);
  if (!active.data) active = allocate_<std::uint8_t>(mu);
  if (!kinetic_energy_pre.data) kinetic_energy_pre = allocate_<T>(1);
  if (!kinetic_energy_post.data) kinetic_energy_post = allocate_<T>(1);
  if (!energy_consistent.data) energy_consistent = allocate_<std::uint8_t>(1);
  if (!status.data) status = allocate_<int>(1);
}

template <class T> void DeviceBatch<T>::ensure_dynamics_outputs() {
  const std::size_t n = shape.n, m = shape.m_b + shape.m_u, mu = shape.m_u;
  if (!qddot.data) qddot = allocate_<T>(n);
  if (!lambda.data) lambda = allocate_<T>(m);
  if (!active.data) active = allocate_<std::uint8_t>(mu);
  if (!status.data) status = allocate_<int>(1);
}

template <class T> void* DeviceBatch<T>::scratch(std::size_t bytes) {
  if (!scratch_ || scratch_->bytes() < bytes) {
    scratch_.reset();  // free first: the old and new buffers need not coexist
    scratch_ = std::make_shared<DeviceMemory>(bytes);
  }
  return scratch_->get();
}

template <class T> void DeviceBatch<T>::download(ImpactResults<T>& r) const {
  const std::size_t n = shape.n, m = shape.m_b + shape.m_u, mu = shape.m_u;
  r.shape = shape;
  r.count = count;
  get(r.qdot_plus, qdot_plus, count, n, "qdot_plus");
  get(r.impulse, impulse, count, n, "impulse");
  get(r.lambda, lambda, count, m, "lambda");
  get(r.active, active, count, mu, "active");
  get(r.kinetic_energy_pre, kinetic_energy_pre, count, 1, "kinetic_energy_pre");
  get(r.kinetic_energy_post, kinetic_energy_post, count, 1, "kinetic_energy_post");
  get(r.energy_consistent, energy_consistent, count, 1, "energy_consistent");
  std::vector<int> st;
  get(st, status, count, 1, "status");
  r.status.resize(count);
  for (std::size_t s = 0; s < count; ++s) r.status[s] = static_cast<Status>(st[s]);
}

template <class T> void DeviceBatch<T>::download(DynamicsResults<T>& r) const {
  const std::size_t n = shape.n, m = shape.m_b + shape.m_u, mu = shape.m_u;
  r.shape = shape;
  r.count = count;
  get(r.qddot, qddot, count, n, "qddot");
  get(r.lambda, lambda, count, m, "lambda");
  get(r.active, active, count, mu, "active");
  std::vector<int> st;
  get(st, status, count, 1, "status");
  r.status.resize(count);
  for (std::size_t s = 0; s < count; ++s) r.status[s] = static_cast<Status>(st[s]);
}

template <class T> void replicate(const DeviceBatch<T>& pool, DeviceBatch<T>& dst, void* stream) {
  if (!(pool.shape == dst.shape)) throw std::runtime_error("obliq cuda: replicate: shapes differ");
  const std::size_t n = dst.shape.n, mb = dst.shape.m_b, mu = dst.shape.m_u, c = dst.count, p = pool.count;
  auto t = [&](auto& d, const auto& s, std::size_t block) { detail::tile(out(d), cin(s), c, p, block, stream); };
  t(dst.M, pool.M, n * n);
  t(dst.qdot, pool.qdot, n);
  t(dst.h, pool.h, n);
  t(dst.u, pool.u, n);
  t(dst.i_u, pool.i_u, n);
  t(dst.A_b, pool.A_b, mb * n);
  t(dst.A_u, pool.A_u, mu * n);
  t(dst.phi_u, pool.phi_u, mu);
  t(dst.Adot_qdot, pool.Adot_qdot, mb + mu);
  t(dst.e, pool.e, mu);
  t(dst.law, pool.law, 1);
  t(dst.gap_tol, pool.gap_tol, 1);
  t(dst.vel_tol, pool.vel_tol, 1);
  if (!stream) check(cudaDeviceSynchronize(), "replicate");
}

// --- running ----------------------------------------------------------------------------------

namespace {

// Scratch for one call: the fused kernel's arena for as many scenarios as fit under the cap
// (the kernels run in chunks), plus a per-scenario mask for the warp and library paths and, where
// they run (hand_back), the buffer of its compaction (cuda/compaction.hpp: 16 bytes a scenario).
template <class T>
detail::Launch launch_for(DeviceBatch<T>& b, const Options& opt, std::size_t per_scenario, bool hand_back) {
  detail::Launch l;
  l.block_size = opt.block_size;
  l.interleaved_scratch = opt.scratch_layout == Layout::interleaved;
  l.stream = opt.stream;
  const std::size_t want = per_scenario * std::max<std::size_t>(b.count, 1);
  // + 64 KiB: room for the library path's alignment padding when the batch is small.
  const std::size_t arena = std::max(std::min(want, opt.scratch_bytes), per_scenario) + (std::size_t(64) << 10);
  const std::size_t mask = (b.count + 255) / 256 * 256;
  const std::size_t select =
      hand_back ? (detail::selection_buffer_size(b.count) * sizeof(std::size_t) + 255) / 256 * 256 : 0;
  char* base = static_cast<char*>(b.scratch(mask + select + arena));
  l.mask_buffer = reinterpret_cast<std::uint8_t*>(base);
  l.select_buffer = hand_back ? reinterpret_cast<std::size_t*>(base + mask) : nullptr;
  l.scratch = base + mask + select;
  l.scratch_bytes = arena;
  return l;
}

template <class T> void finish(const Options& opt) {
  if (!opt.stream) check(cudaDeviceSynchronize(), "kernel");
}

}  // namespace

template <class T> void impact(DeviceBatch<T>& b, const Options& opt) {
  b.ensure_impact_outputs();
  if (b.count == 0) return;
  const detail::Inputs<T> in = inputs_of(b, opt.lcp_solver);
  detail::ImpactOutputs<T> o;
  o.qdot_plus = out(b.qdot_plus);
  o.impulse = out(b.impulse);
  o.lambda = out(b.lambda);
  o.active = out(b.active);
  o.kinetic_energy_pre = out(b.kinetic_energy_pre);
  o.kinetic_energy_post = out(b.kinetic_energy_post);
  o.energy_consistent = out(b.energy_consistent);
  o.status = out(b.status);
  const int n = b.shape.n, mb = b.shape.m_b, mu = b.shape.m_u;
  const bool library = opt.method == Method::library;
  check_batch<T>(in, &o, nullptr, opt.block_size,
                 library ? detail::library_max_block_size<T>() : detail::fused_max_block_size<T>());
  if (library) {
    const std::size_t per = std::max(detail::library_scratch_per_scenario<T>(n, mb, mu),
                                     detail::fused_impact_scratch<T>(n, mb, mu) * sizeof(T));
    detail::library_impact(in, o, launch_for(b, opt, per, true));
  } else if (opt.method == Method::warp) {
    detail::warp_impact_batch(in, o, launch_for(b, opt, detail::fused_impact_scratch<T>(n, mb, mu) * sizeof(T), true));
  } else {
    detail::fused_impact(in, o, launch_for(b, opt, detail::fused_impact_scratch<T>(n, mb, mu) * sizeof(T), false));
  }
  finish<T>(opt);
}

template <class T> void dynamics(DeviceBatch<T>& b, const Options& opt) {
  b.ensure_dynamics_outputs();
  if (b.count == 0) return;
  const detail::Inputs<T> in = inputs_of(b, opt.lcp_solver);
  detail::DynamicsOutputs<T> o;
  o.qddot = out(b.qddot);
  o.lambda = out(b.lambda);
  o.active = out(b.active);
  o.status = out(b.status);
  const int n = b.shape.n, mb = b.shape.m_b, mu = b.shape.m_u;
  const bool library = opt.method == Method::library;
  check_batch<T>(in, nullptr, &o, opt.block_size,
                 library ? detail::library_max_block_size<T>() : detail::fused_max_block_size<T>());
  if (library) {
    const std::size_t per = std::max(detail::library_scratch_per_scenario<T>(n, mb, mu),
                                     detail::fused_dynamics_scratch<T>(n, mb, mu) * sizeof(T));
    detail::library_dynamics(in, o, launch_for(b, opt, per, true));
  } else {
    detail::fused_dynamics(in, o, launch_for(b, opt, detail::fused_dynamics_scratch<T>(n, mb, mu) * sizeof(T), false));
  }
  finish<T>(opt);
}

namespace {
void require_device() {
  std::string why;
  if (!device_available(&why)) throw std::runtime_error("backend cuda: " + why);
}
}  // namespace

template <class T>
void solve_impact(const Batch<T>& in, ImpactResults<T>& r, const Options& opt, Layout layout) {
  require_device();
  DeviceBatch<T> b(in.shape, in.count, layout);
  b.upload(in);
  Options o = opt;
  o.stream = nullptr;
  impact(b, o);
  b.download(r);
}

template <class T>
void solve_dynamics(const Batch<T>& in, DynamicsResults<T>& r, const Options& opt, Layout layout) {
  require_device();
  DeviceBatch<T> b(in.shape, in.count, layout);
  b.upload(in);
  Options o = opt;
  o.stream = nullptr;
  dynamics(b, o);
  b.download(r);
}

// RunOptions -> Options: lcp_solver is honoured, threads (the cpu backend's) refused.
Options options_for(const RunOptions& run) {
  if (run.threads != 0)
    throw std::runtime_error("backend cuda: threads = " + std::to_string(run.threads) +
                             " applies to the cpu backend only (leave it 0 with the cuda backend)");
  Options o = options_from_environment();
  o.lcp_solver = run.lcp_solver;
  return o;
}

template <class T> void solve_impact(const Batch<T>& in, ImpactResults<T>& r, const RunOptions& run) {
  solve_impact(in, r, options_for(run), layout_from_environment());
}
template <class T> void solve_dynamics(const Batch<T>& in, DynamicsResults<T>& r, const RunOptions& run) {
  solve_dynamics(in, r, options_for(run), layout_from_environment());
}

#define OBLIQ_INSTANTIATE(T)                                                                           \
  template class DeviceBatch<T>;                                                                       \
  template void replicate<T>(const DeviceBatch<T>&, DeviceBatch<T>&, void*);                           \
  template void impact<T>(DeviceBatch<T>&, const Options&);                                            \
  template void dynamics<T>(DeviceBatch<T>&, const Options&);                                          \
  template void solve_impact<T>(const Batch<T>&, ImpactResults<T>&, const RunOptions&);                \
  template void solve_dynamics<T>(const Batch<T>&, DynamicsResults<T>&, const RunOptions&);            \
  template void solve_impact<T>(const Batch<T>&, ImpactResults<T>&, const Options&, Layout);          \
  template void solve_dynamics<T>(const Batch<T>&, DynamicsResults<T>&, const Options&, Layout);
OBLIQ_INSTANTIATE(double)
OBLIQ_INSTANTIATE(float)
#undef OBLIQ_INSTANTIATE

}  // namespace obliq::cuda

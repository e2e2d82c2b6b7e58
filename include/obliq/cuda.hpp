// obliq/cuda.hpp: the host API of the CUDA backend.
//
// Two ways in:
//  - obliq::cuda::solve_impact / solve_dynamics on a host Batch: upload, run, download. The host
//    batch dispatch (obliq::solve_impact with Backend::cuda) calls these.
//  - DeviceBatch<T>: inputs and outputs that live in device memory. Upload and download are
//    explicit; the arrays can also wrap caller-owned device pointers with any strides (a
//    training loop that already holds its data on the GPU copies nothing). impact() and
//    dynamics() then run on device-resident data only.
//
// Memory layout (docs/cuda.md). Every quantity is one array holding all scenarios; entry k of
// scenario s lives at data[s * scenario_stride + k * element_stride]:
//   Layout::interleaved  scenario_stride = 1, element_stride = count  (scenario index fastest:
//                        thread s and thread s+1 read neighbouring addresses, coalesced)
//   Layout::contiguous   scenario_stride = block, element_stride = 1  (the host Batch's layout)
// Matrices are row-major within a scenario (entry (i, j) is k = i * cols + j).
//
// Methods: Method::fused runs the per-scenario core (include/obliq/core) in one thread per
// scenario; Method::library runs the projection law through cuBLAS/cuSOLVER batched routines
// (Cholesky of M and of the Delassus matrix, triangular solves, strided GEMMs, Jacobi
// eigenvalues for the energy test) and hands every scenario it cannot take (complementarity
// law, rank-deficient rows, bad input) to the fused kernel, so both methods give the same
// statuses and the same results up to rounding. Method::warp (impact; dynamics runs fused)
// solves the projection law with one warp per scenario and its matrices in shared memory
// (cuda/warp_impact.hpp) and hands the rest to the fused kernel in the same way; it reads the
// inputs best in Layout::contiguous (a warp reads one scenario's consecutive entries).
//
// This header needs no CUDA header: it compiles with g++ in a build with or without CUDA, but
// its functions are defined only when the library was built with CUDA (OBLIQ_HAVE_CUDA).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "obliq/batch.hpp"
#include "obliq/lcp.hpp"

namespace obliq::cuda {

// True when the CUDA runtime sees at least one device. Otherwise false, and *reason (when
// given) says why ("no CUDA device found: ..." with the runtime's message).
bool device_available(std::string* reason = nullptr);

enum class Layout { interleaved, contiguous };
enum class Method { fused, library, warp };

inline const char* layout_name(Layout l) { return l == Layout::interleaved ? "interleaved" : "contiguous"; }
inline const char* method_name(Method m) {
  return m == Method::fused ? "fused" : m == Method::library ? "library" : "warp";
}

struct Options {
  Method method = Method::fused;
  Layout scratch_layout = Layout::interleaved;  // layout of the per-scenario scratch arena
  int block_size = 128;                         // threads per block of the fused kernels
  std::size_t scratch_bytes = std::size_t(2) << 30;  // cap on scratch; larger batches run in chunks
  void* stream = nullptr;                       // cudaStream_t; nullptr = the default stream
  lcp::Solver lcp_solver = lcp::Solver::lemke;  // LCP method of the complementarity law
};

// Options for the host-batch entry points, read from the environment so that the command line
// (`obliq impact --backend cuda`) can select them without new flags:
//   OBLIQ_CUDA_METHOD = fused | library | warp      OBLIQ_CUDA_LAYOUT = interleaved | contiguous
Options options_from_environment();
Layout layout_from_environment();

// --- device memory ------------------------------------------------------------------------

// One owned device allocation (cudaMalloc / cudaFree), move-only.
class DeviceMemory {
 public:
  DeviceMemory() = default;
  explicit DeviceMemory(std::size_t bytes);
  ~DeviceMemory();
  DeviceMemory(DeviceMemory&& o) noexcept;
  DeviceMemory& operator=(DeviceMemory&& o) noexcept;
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;
  void* get() const { return ptr_; }
  std::size_t bytes() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

// A strided device array of all scenarios' values of one quantity (see the layout note above).
// A stride of 0 broadcasts: e with element_stride 0 is one coefficient per scenario, with both
// strides 0 one global coefficient.
template <class T> struct DeviceArray {
  T* data = nullptr;
  std::ptrdiff_t scenario_stride = 0;
  std::ptrdiff_t element_stride = 1;
};

// Strides of a quantity with `block` entries per scenario in a batch of `count` scenarios.
template <class T> DeviceArray<T> strided(T* data, Layout layout, std::size_t count, std::size_t block) {
  if (layout == Layout::interleaved) return {data, 1, std::ptrdiff_t(count)};
  return {data, std::ptrdiff_t(block), 1};
}

// Inputs and outputs of one batch in device memory.
template <class T> class DeviceBatch {
 public:
  Shape shape;
  std::size_t count = 0;
  Layout layout = Layout::interleaved;  // layout used by allocate(), upload() and download()

  // Inputs.
  DeviceArray<T> M;          // (count x n x n)
  DeviceArray<T> qdot;       // (count x n)
  DeviceArray<T> h;          // (count x n)
  DeviceArray<T> u;          // (count x n)
  DeviceArray<T> i_u;        // (count x n)
  DeviceArray<T> A_b;        // (count x m_b x n)
  DeviceArray<T> A_u;        // (count x m_u x n)
  DeviceArray<T> phi_u;      // (count x m_u)
  DeviceArray<T> Adot_qdot;  // (count x (m_b + m_u))
  DeviceArray<T> e;          // (count x m_u)
  DeviceArray<std::uint8_t> law;  // (count), Law
  DeviceArray<T> gap_tol;    // (count)
  DeviceArray<T> vel_tol;    // (count)

  // Outputs (allocated on first use unless the caller set them).
  DeviceArray<T> qdot_plus;            // (count x n)           impact
  DeviceArray<T> impulse;              // (count x n)           impact
  DeviceArray<T> kinetic_energy_pre;   // (count)               impact
  DeviceArray<T> kinetic_energy_post;  // (count)               impact
  DeviceArray<std::uint8_t> energy_consistent;  // (count)      impact
  DeviceArray<T> qddot;                // (count x n)           dynamics
  DeviceArray<T> lambda;               // (count x (m_b + m_u)) both
  DeviceArray<std::uint8_t> active;    // (count x m_u)         both
  DeviceArray<int> status;             // (count), Status       both

  DeviceBatch() = default;
  // Allocates every input in device memory (zero-filled) in the given layout.
  DeviceBatch(Shape s, std::size_t count, Layout layout = Layout::interleaved);
  // No allocation: the caller points the input (and optionally output) arrays at its own
  // device memory, with any strides.
  static DeviceBatch wrap(Shape s, std::size_t count, Layout layout = Layout::interleaved);

  // Host batch -> device (sizes must match: in.count == count, in.shape == shape). Needs
  // arrays allocated by the constructor or wrapped with this->layout's strides.
  void upload(const Batch<T>& in);
  void download(ImpactResults<T>& out) const;
  void download(DynamicsResults<T>& out) const;

  // Allocate any output still unset (in this->layout); called by impact() and dynamics().
  void ensure_impact_outputs();
  void ensure_dynamics_outputs();
  // Device scratch, grown on demand and kept between calls.
  void* scratch(std::size_t bytes);

 private:
  std::vector<std::shared_ptr<DeviceMemory>> storage_;
  std::shared_ptr<DeviceMemory> scratch_;
  template <class U> DeviceArray<U> allocate_(std::size_t block);
};

// Fill dst's inputs with copies of pool's: scenario s of dst is scenario s % pool.count of
// pool (device to device, any layouts on either side). Many copies of one robot's state, or a
// large benchmark batch from a small pool of drawn scenarios.
template <class T> void replicate(const DeviceBatch<T>& pool, DeviceBatch<T>& dst, void* stream = nullptr);

// Run on device-resident data. Outputs go to the batch's output arrays; one status per
// scenario. Synchronous with respect to the host unless opt.stream is set (then it is
// enqueued on that stream and returns; statuses are valid once the stream is synchronized).
template <class T> void impact(DeviceBatch<T>& batch, const Options& opt = {});
template <class T> void dynamics(DeviceBatch<T>& batch, const Options& opt = {});

// Host batches: upload (layout_from_environment()), run, download. Throws std::runtime_error
// when no device is usable. Of RunOptions, lcp_solver is honoured; threads (host threads of the
// cpu backend) must be 0, anything else is refused with an error.
//
// Every call checks its batch on the host first and throws std::runtime_error, before any
// kernel runs, when an input array the kernels read is null or not device memory, a stride is
// negative, an output would be written with a broadcasting stride, or Options::block_size is
// outside what the kernels can launch with on this device.
template <class T> void solve_impact(const Batch<T>& in, ImpactResults<T>& out, const RunOptions& opt);
template <class T> void solve_dynamics(const Batch<T>& in, DynamicsResults<T>& out, const RunOptions& opt);
template <class T>
void solve_impact(const Batch<T>& in, ImpactResults<T>& out, const Options& opt, Layout layout);
template <class T>
void solve_dynamics(const Batch<T>& in, DynamicsResults<T>& out, const Options& opt, Layout layout);

// LCPs on the device: the same problems, solvers and answers as obliq::solve_lcp_batch
// (include/obliq/lcp.hpp), one GPU thread per problem, problems grouped by size. Throws
// std::runtime_error when no device is usable.
std::vector<LcpSolution> solve_lcp_batch(const std::vector<LcpProblem>& problems, const LcpOptions& options = {},
                                         const Options& opt = {});

}  // namespace obliq::cuda

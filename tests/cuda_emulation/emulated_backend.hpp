// tests/cuda_emulation/emulated_backend.hpp: an emulated CUDA backend for the whole
// obliq_cuda_emulation_tests program. emulated_backend.cpp defines the backend table's symbol
// itself (obliq_cuda_backend_v1, exported: ENABLE_EXPORTS), which the host library's loader
// takes before it tries dlopen (src/cpu/cuda_backend.cpp), so Backend::cuda here runs, on the
// host, the glue and kernel bodies the device runs: the fused impact kernel's body over
// interleaved host arrays (host_glue.hpp), cuda/friction_glue.hpp's sequence with
// friction_body, cuda/sim_glue.hpp's sequence with the Simulator's kernel bodies
// (sim_emulation.hpp: the Moreau-Jean phases, or the event-driven step), cuda/sim_pd.hpp's
// with pd_actuate_body before them, each in several chunks, and cuda/sim_resident.hpp's
// resident batch (EmulatedResident: host memory, which it says is DLPack CPU memory). What is not emulated is the real
// table's upload / method choice / launch (cuda/device_batch.cpp, cuda/sim_kernels.cuh) and the
// device. Without the CUDA backend in the build the loader never looks for the symbol: the
// tests that need it skip (emulated_backend_loaded()).
#pragma once

#include <atomic>

namespace obliq::emulation {

// false: the emulated device is gone (device_available says "no CUDA device found: ...").
extern std::atomic<bool> g_device;
// Calls that reached the table, per entry.
extern std::atomic<long> g_impact_calls, g_friction_calls, g_sim_calls, g_sim_pd_calls, g_resident_calls;

// The emulated table is the loaded backend (false: the build has no CUDA backend).
bool emulated_backend_loaded();

}  // namespace obliq::emulation

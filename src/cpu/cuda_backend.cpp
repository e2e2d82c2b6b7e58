// src/cpu/cuda_backend.cpp: finds and opens libobliq_cuda.so on first use (dlopen), so that
// only runs that ask for the cuda backend load the CUDA runtime.
//
// Where it looks, first hit wins: $OBLIQ_CUDA_LIBRARY; a copy already in the process (a program
// linked with obliq::cuda); beside the program or library holding this code, and in ../lib from
// there (the installed layout bin/ + lib/); the build tree's and the install prefix's path
// recorded at configure time; then the dynamic loader's own search (LD_LIBRARY_PATH, ...).
#include "cpu/cuda_backend.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace obliq::cpu {
namespace {

using TableFn = const CudaBackend* (*)();

struct Loaded {
  const CudaBackend* table = nullptr;
  std::string error;
};

#if defined(OBLIQ_CUDA_LIBRARY_NAME)
std::vector<std::string> candidates() {
  std::vector<std::string> paths;
  if (const char* env = std::getenv("OBLIQ_CUDA_LIBRARY"); env && *env) paths.emplace_back(env);
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&cuda_backend), &info) && info.dli_fname) {
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::canonical(info.dli_fname, ec);
    if (!ec) {
      paths.push_back((self.parent_path() / OBLIQ_CUDA_LIBRARY_NAME).string());
      paths.push_back((self.parent_path() / ".." / "lib" / OBLIQ_CUDA_LIBRARY_NAME).string());
#if defined(OBLIQ_CUDA_INSTALL_RELATIVE)
      paths.push_back((self.parent_path() / ".." / OBLIQ_CUDA_INSTALL_RELATIVE).string());
#endif
    }
  }
#if defined(OBLIQ_CUDA_BUILD_PATH)
  paths.emplace_back(OBLIQ_CUDA_BUILD_PATH);
#endif
#if defined(OBLIQ_CUDA_INSTALL_PATH)
  paths.emplace_back(OBLIQ_CUDA_INSTALL_PATH);
#endif
  paths.emplace_back(OBLIQ_CUDA_LIBRARY_NAME);  // the dynamic loader's search path
  return paths;
}

Loaded load() {
  Loaded r;
  auto take = [&](void* symbol) {
    const CudaBackend* t = reinterpret_cast<TableFn>(symbol)();
    if (t && t->abi == kCudaBackendAbi) r.table = t;
    else r.error = "backend cuda: the CUDA backend library does not match this obliq (interface version)";
  };
  if (void* linked = dlsym(RTLD_DEFAULT, kCudaBackendSymbol)) {
    take(linked);
    return r;
  }
  std::string tried, last;
  for (const std::string& path : candidates()) {
    const bool plain = path.find('/') == std::string::npos;
    if (!plain && !std::filesystem::exists(path)) continue;
    tried += (tried.empty() ? "" : ", ") + path;
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      last = dlerror();
      continue;
    }
    if (void* symbol = dlsym(handle, kCudaBackendSymbol)) {
      take(symbol);
      return r;
    }
    last = path + " has no symbol " + kCudaBackendSymbol;
  }
  r.error = std::string("backend cuda: cannot load the CUDA backend library ") + OBLIQ_CUDA_LIBRARY_NAME +
            " (tried " + tried + (last.empty() ? "" : "; " + last) +
            "); set OBLIQ_CUDA_LIBRARY to its path, or use --backend cpu";
  return r;
}
#else
Loaded load() {
  Loaded r;
#if defined(OBLIQ_CUDA_NOT_FOUND)
  r.error = "backend cuda: this build of obliq has no CUDA backend (OBLIQ_ENABLE_CUDA was ON but CMake found no CUDA compiler)";
#else
  r.error = "backend cuda: this build of obliq has no CUDA backend (it was configured with OBLIQ_ENABLE_CUDA=OFF)";
#endif
  return r;
}
#endif

}  // namespace

const CudaBackend& cuda_backend() {
  static const Loaded loaded = load();
  if (!loaded.table) throw std::runtime_error(loaded.error);
  std::string why;
  if (!loaded.table->device_available(&why)) throw std::runtime_error("backend cuda: " + why);
  return *loaded.table;
}

}  // namespace obliq::cpu

namespace obliq {

std::vector<LcpSolution> solve_lcp_batch_cuda(const std::vector<LcpProblem>& problems, const LcpOptions& options) {
  return cpu::cuda_backend().lcp(problems, options);
}

}  // namespace obliq

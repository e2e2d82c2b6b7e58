// cuda/batch_checks.hpp: host-side checks of a batch before any kernel reads it. A wrapped
// DeviceBatch (caller-owned pointers) that omits an array the kernels read, has a negative
// stride, or writes an output with a broadcasting stride would otherwise become an illegal
// address or a data race on the device (a sticky context error that kills the process's CUDA
// state). Plain host code on the launch structs, so the CPU emulation tests it too.
#pragma once

#include <string>

#include "launch.hpp"

namespace obliq::cuda::detail {

// "" when the arrays of `in` can be read for `count` scenarios of its shape by the impact
// (impact = true) or the dynamics kernels, else the first problem found.
template <class T> std::string check_inputs(const Inputs<T>& in, bool impact) {
  if (in.n < 1 || in.m_b < 0 || in.m_u < 0)
    return "shape (n " + std::to_string(in.n) + ", m_b " + std::to_string(in.m_b) + ", m_u " + std::to_string(in.m_u) +
           ") is not a batch shape (n >= 1, m_b >= 0, m_u >= 0)";
  const int m = in.m_b + in.m_u;
  std::string err;
  auto need = [&](const char* name, auto a, bool used) {
    if (!err.empty() || !used) return;
    if (!a.data) err = std::string("input array ") + name + " is missing (null data)";
    else if (a.ss < 0 || a.es < 0) err = std::string("input array ") + name + " has a negative stride";
  };
  need("M", in.M, true);
  need("qdot", in.qdot, true);
  need("i_u", in.i_u, impact);
  need("h", in.h, !impact);
  need("u", in.u, !impact);
  need("A_b", in.A_b, in.m_b > 0);
  need("A_u", in.A_u, in.m_u > 0);
  need("phi_u", in.phi_u, in.m_u > 0);
  need("e", in.e, impact && in.m_u > 0);
  need("Adot_qdot", in.Adot_qdot, !impact && m > 0);
  need("law", in.law, true);
  need("gap_tol", in.gap_tol, true);
  need("vel_tol", in.vel_tol, true);
  return err;
}

// "" when every output array the kernels write is set and gives each scenario its own entries
// (no negative or broadcasting strides: two threads writing one address is a race).
template <class T> std::string check_outputs(const ImpactOutputs<T>* io, const DynamicsOutputs<T>* dout, int n, int m, int m_u) {
  std::string err;
  auto need = [&](const char* name, auto a, int block) {
    if (!err.empty() || block == 0) return;
    if (!a.data) err = std::string("output array ") + name + " is missing (null data)";
    else if (a.ss <= 0 || a.es < 0 || (block > 1 && a.es == 0))
      err = std::string("output array ") + name + " needs positive strides (it would be written by several threads at one address)";
  };
  if (io) {
    need("qdot_plus", io->qdot_plus, n);
    need("impulse", io->impulse, n);
    need("lambda", io->lambda, m);
    need("active", io->active, m_u);
    need("kinetic_energy_pre", io->kinetic_energy_pre, 1);
    need("kinetic_energy_post", io->kinetic_energy_post, 1);
    need("energy_consistent", io->energy_consistent, 1);
    need("status", io->status, 1);
  }
  if (dout) {
    need("qddot", dout->qddot, n);
    need("lambda", dout->lambda, m);
    need("active", dout->active, m_u);
    need("status", dout->status, 1);
  }
  return err;
}

// "" when `block` threads per block can launch every kernel of the call (max_block: the
// smallest cudaFuncAttributes::maxThreadsPerBlock among them, which their registers decide).
inline std::string check_block_size(int block, int max_block) {
  if (block >= 1 && block <= max_block) return "";
  return "block_size " + std::to_string(block) + " is outside 1.." + std::to_string(max_block) +
         " (the most threads per block these kernels can launch with on this device)";
}

}  // namespace obliq::cuda::detail

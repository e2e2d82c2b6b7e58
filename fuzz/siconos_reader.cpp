// fuzz/siconos_reader.cpp: Siconos's LCP test-data reader on arbitrary bytes. It may throw
// std::runtime_error (a malformed file, exit 2 in the command); anything else is a finding.
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>

#include "obliq/lcp.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    const obliq::LcpProblem p = obliq::read_siconos_lcp(in);
    if (p.M.size() != std::size_t(p.m) * std::size_t(p.m) || p.q.size() != std::size_t(p.m)) __builtin_trap();
  } catch (const std::runtime_error&) {
  }
  return 0;
}

// fuzz/urdf.cpp: the URDF loader (bounds, inertial checks, urdfdom, the tree walk) on arbitrary
// bytes. It may throw std::runtime_error / std::invalid_argument (a bad model, exit 2 in the
// command); anything else is a finding.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "obliq/model/host.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string xml(reinterpret_cast<const char*>(data), size);
  for (bool free_base : {false, true}) {
    try {
      const obliq::model::Model m = obliq::model::load_urdf_string(xml, free_base, "fuzz");
      if (m.nbodies() < 0 || m.nv < 0) __builtin_trap();
    } catch (const std::runtime_error&) {
    } catch (const std::invalid_argument&) {
    }
  }
  return 0;
}

// fuzz/json_line.cpp: the shared line reader (io/json_line.hpp: depth scan, non-finite
// markers, id recovery) that `obliq model --state` lines go through, on arbitrary bytes.
#include <cstdint>
#include <string_view>

#include "io/json_line.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  const auto l = obliq::io::parse_json_line<nlohmann::ordered_json>(line, 1);
  (void)l.id.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (l.error.empty() && !l.blank)
    (void)l.value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return 0;
}

// fuzz/lcp_line.cpp: the JSON Lines reader of `obliq lcp`, and for a problem it accepts (small
// m, to keep the rate high) the solver and the writer: no crash, no sanitizer report, no
// exception, and no null on an ok line.
#include <cstdint>
#include <string_view>

#include "obliq/io/lcp_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  const obliq::LcpLine l = obliq::parse_lcp_json_line(line, 1);
  if (!l.error.empty()) {
    (void)obliq::lcp_error_json(l.id, l.error).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return 0;
  }
  if (l.problem.m > 8) return 0;
  const obliq::LcpSolution s = obliq::solve_lcp(l.problem);
  nlohmann::json o = obliq::lcp_result_json(l.id, s);
  o.erase("id");  // an id is echoed as given (it may hold a null); the rest never does
  const std::string text = o.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (text.find("null") != std::string::npos) __builtin_trap();
  return 0;
}

// obliq lcp: placeholder until the LCP front end lands (issue 3).
#include "cli/commands.hpp"
namespace obliq::cli {
void register_lcp_command(CLI::App&, Action&) {}
}  // namespace obliq::cli

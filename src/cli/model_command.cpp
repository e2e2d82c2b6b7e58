// obliq model: placeholder until the model layer lands (issue 5).
#include "cli/commands.hpp"
namespace obliq::cli {
void register_model_command(CLI::App&, Action&) {}
}  // namespace obliq::cli

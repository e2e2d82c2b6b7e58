// obliq: the command-line tool (docs/format.md). Subcommands live in their own files.
#include <exception>
#include <iostream>
#include <string>

#include "cli/commands.hpp"
#include "obliq/version.hpp"

int main(int argc, char** argv) {
  CLI::App app{"obliq: batched multi-contact solver (projection-based impacts, constrained dynamics, contact LCPs)"};
  app.set_version_flag("--version", std::string("obliq ") + obliq::version_string);
  app.require_subcommand(1);
  obliq::cli::Action run;
  obliq::cli::register_solve_commands(app, run);
  obliq::cli::register_bench_command(app, run);
  obliq::cli::register_lcp_command(app, run);
  obliq::cli::register_model_command(app, run);
  obliq::cli::register_sweep_command(app, run);
  obliq::cli::register_simulate_command(app, run);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;  // --help exits 0; misuse exits 2 (docs/format.md)
  }
  try {
    return run ? run() : 2;
  } catch (const std::exception& e) {
    std::cerr << "obliq: " << e.what() << "\n";
    return 2;
  }
}

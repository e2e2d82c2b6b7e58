// src/cli/commands.hpp: each subcommand of `obliq` registers itself on the CLI11 app.
// One file per command (impact/dynamics, bench, lcp, model, simulate); main.cpp only wires them.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace obliq::cli {

// A command's register function adds its subcommand and stores the action to run in `run`.
// The action returns the process exit code (docs/format.md: 0 all ok, 3 some error line, 2 misuse).
using Action = std::function<int()>;

void register_solve_commands(CLI::App& app, Action& run);  // impact, dynamics (solve_command.cpp)
void register_bench_command(CLI::App& app, Action& run);   // bench (bench_command.cpp)
void register_lcp_command(CLI::App& app, Action& run);     // lcp (lcp_command.cpp)
void register_model_command(CLI::App& app, Action& run);   // model (model_command.cpp)
void register_sweep_command(CLI::App& app, Action& run);   // sweep (sweep_command.cpp)
void register_simulate_command(CLI::App& app, Action& run);  // simulate (simulate_command.cpp)

}  // namespace obliq::cli

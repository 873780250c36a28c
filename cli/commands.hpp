// tilesim-cli subcommands: each adds itself to the app and runs when selected.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace tilesim::cli {

// A subcommand's body; returns the process exit code. Throwing sim::InvalidField or
// scenario::ScenarioError is turned into a message and exit code 2 by main().
using Action = std::function<int()>;

Action add_map_command(CLI::App& app);
Action add_footprint_command(CLI::App& app);
Action add_trace_command(CLI::App& app);
Action add_warps_command(CLI::App& app);
Action add_run_command(CLI::App& app);
Action add_sweep_command(CLI::App& app);
Action add_variants_command(CLI::App& app);
Action add_machine_params_command(CLI::App& app);
Action add_check_command(CLI::App& app);

}  // namespace tilesim::cli

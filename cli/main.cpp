// tilesim-cli: the simulator from the command line (links sim/, scenario/ and the CUDA-free
// variant registry only).
#include <cstdio>
#include <exception>
#include <vector>

#include "cli/commands.hpp"
#include "scenario/scenario.hpp"
#include "sim/program/problem.hpp"
#include "sim/replay/replay_budget.hpp"
#include "triton/heap_reuse.hpp"

int main(int argc, char** argv) {
  using namespace tilesim;
  triton::keep_freed_heap_memory();
  CLI::App app{
      "tilesim-cli: replay tiled GPU kernels (copy, transpose, matmul) on a CPU simulator.\n"
      "Every subcommand but `variants` and `machine-params` takes a problem as --scenario FILE\n"
      "and/or flags; all take --json. `variants` lists the CUDA kernel variants: which ones the\n"
      "timed engine describes and which warp model mirrors each. `machine-params` prints the\n"
      "parameter table: every machine figure with its kind and evidence."};
  app.require_subcommand(1);
  std::vector<std::pair<CLI::App*, cli::Action>> commands;
  const auto add = [&](cli::Action (*adder)(CLI::App&)) {
    const auto before = app.get_subcommands({}).size();
    auto action = adder(app);
    commands.emplace_back(app.get_subcommands({})[before], std::move(action));
  };
  add(cli::add_map_command);
  add(cli::add_footprint_command);
  add(cli::add_trace_command);
  add(cli::add_run_command);
  add(cli::add_sweep_command);
  add(cli::add_warps_command);
  add(cli::add_variants_command);
  add(cli::add_machine_params_command);
  add(cli::add_check_command);
  try {
    // A numeric flag's own check throws InvalidField out of parse (scenario::integer_field).
    app.parse(argc, argv);
    for (auto& [cmd, action] : commands)
      if (cmd->parsed()) return action();
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0; every other parse error is bad input: exit 2, like a value
    // out of range (CLI11's message names the flag).
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  } catch (const std::exception& e) {
    // Bad input (a field out of range, a replay over budget, a bad file) is exit code 2 and
    // speaks for itself; anything else is a failure of the tool.
    const bool bad_input = dynamic_cast<const sim::InvalidField*>(&e) ||
                           dynamic_cast<const sim::BudgetExceeded*>(&e) ||
                           dynamic_cast<const scenario::ScenarioError*>(&e);
    std::fprintf(stderr, "tilesim-cli: %s%s\n", bad_input ? "" : "error: ", e.what());
    return bad_input ? 2 : 1;
  }
  return 0;
}

// Limits of the subcommands that walk every program (see problem_flags.hpp).
#include "cli/problem_flags.hpp"

namespace tilesim::cli {

void check_enumerable(const sim::Problem& p, const char* command) {
  if (p.programs() <= kMaxEnumeratedPrograms) return;
  throw sim::InvalidField("programs",
                          "this grid has " + std::to_string(p.programs()) + " programs (" +
                              std::to_string(p.tiles_m()) + " x " + std::to_string(p.tiles_n()) +
                              " tiles); `" + command + "` walks at most " +
                              std::to_string(kMaxEnumeratedPrograms) + ": use larger blocks");
}

ProblemCommand add_problem_command(CLI::App& app, const char* name, const char* description,
                                   bool with_machine) {
  ProblemCommand c{app.add_subcommand(name, description), std::make_shared<ProblemFlags>()};
  c.flags->add_to(*c.cmd, with_machine);
  return c;
}

sim::Problem enumerable_problem(const ProblemFlags& flags, const char* command) {
  sim::Problem p(flags.to_scenario().problem);
  check_enumerable(p, command);
  return p;
}

}  // namespace tilesim::cli

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

}  // namespace tilesim::cli

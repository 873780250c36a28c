// What tilesim-cli's subcommands share beyond the problem flags (scenario/problem_flags.hpp):
// the limit on grids a subcommand walks program by program.
#pragma once

#include <cstdint>

#include "scenario/problem_flags.hpp"
#include "sim/format.hpp"
#include "sim/problem.hpp"
#include "sim/warp_access.hpp"

namespace tilesim::cli {

using scenario::ProblemFlags;
using sim::format_bytes;

// Subcommands that walk every program (map, footprint, warps) refuse grids past this many
// programs with a message naming the count, instead of exhausting memory or time.
inline constexpr std::int64_t kMaxEnumeratedPrograms = sim::kMaxWarpPrograms;
void check_enumerable(const sim::Problem& p, const char* command);

}  // namespace tilesim::cli

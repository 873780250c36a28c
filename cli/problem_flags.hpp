// What tilesim-cli's subcommands share beyond the problem flags (scenario/problem_flags.hpp):
// the limit on grids a subcommand walks program by program.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "scenario/problem_flags.hpp"
#include "sim/base/format.hpp"
#include "sim/program/launch_order.hpp"
#include "sim/program/problem.hpp"
#include "sim/warps/warp_access.hpp"

namespace tilesim::cli {

using scenario::ProblemFlags;
using sim::format_bytes;

// Subcommands that walk every program (map, footprint, warps) refuse grids past this many
// programs with a message naming the count, instead of exhausting memory or time.
inline constexpr std::int64_t kMaxEnumeratedPrograms = sim::kMaxWarpPrograms;
void check_enumerable(const sim::Problem& p, const char* command);
// A subcommand that reads the problem flags: `name` added to `app`, the flags bound to it (and
// kept alive by the action that captures them).
struct ProblemCommand {
  CLI::App* cmd;
  std::shared_ptr<ProblemFlags> flags;
};
ProblemCommand add_problem_command(CLI::App& app, const char* name, const char* description,
                                   bool with_machine = false);
// The problem the flags describe, refused as above when `command` walks every program of it.
sim::Problem enumerable_problem(const ProblemFlags& flags, const char* command);

// With --triton: program `pid` of the kernel file evaluated from its source — the tile it
// computes and its top-level integer assignments in order ("line 31: pid_m = 5").
struct TritonPid {
  sim::TileCoord tile;
  std::vector<std::string> lines;
};
TritonPid explain_triton_pid(const ProblemFlags& flags, const sim::ProblemSpec& spec,
                             std::int64_t pid);

}  // namespace tilesim::cli

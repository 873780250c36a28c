// View model of the launch grid: one cell per output tile, labelled with the pid that computes
// it and coloured by group, wave or SM. Teaches that the launch order decides which tiles run
// together (seed 004's grouped order vs row-major).
#pragma once

#include <cstdint>
#include <vector>

#include "app/core/engine_session.hpp"
#include "sim/program/launch_order.hpp"

namespace tilesim::app {

enum class GridColoring { group, wave, sm };

struct GridCell {
  std::int64_t pid = 0;
  std::int64_t group = 0;  // the colour class under the chosen colouring
  bool done = false;       // the program has stored its tile
  bool resident = false;   // holds an SM slot now (the engine snapshot's resident programs)
  bool current = false;    // ran the event at the cursor
};

// Grids past this many programs are not drawn (a frame would allocate and walk every program:
// 65536^2 with 1 x 1 blocks is 4G); the launch grid says so instead.
inline constexpr std::int64_t kMaxGridPrograms = std::int64_t{1} << 18;

struct GridView {
  std::int64_t tiles_m = 0, tiles_n = 0;
  std::vector<GridCell> cells;  // row-major over (pid_m, pid_n)
  const GridCell& at(std::int64_t pid_m, std::int64_t pid_n) const {
    return cells[pid_m * tiles_n + pid_n];
  }
  // A thick line goes between two neighbours of different launch groups (grouped orders) —
  // independent of the colouring chosen.
  std::vector<std::int64_t> launch_group;  // per cell, sim::launch_group_of
};

// From the engine frame at the cursor (null while the timeline builds: nothing done or resident).
// slots = SMs x programs per SM: wave colouring is pid / slots, SM colouring slot % sms.
GridView make_grid_view(const sim::Problem& p, const EngineFrame* frame, GridColoring coloring,
                        std::int64_t sms, std::int64_t slots);

}  // namespace tilesim::app

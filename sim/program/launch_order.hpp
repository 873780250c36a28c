// Launch orders: which output tile (pid_m, pid_n) program `pid` computes.
// Teaches: the grid is launched in pid order, so the mapping decides which tiles run together,
// and so which input tiles are shared in L2 (Triton's "super-grouping", seed 004).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sim/program/problem.hpp"

namespace tilesim::sim {

struct TileCoord {
  std::int64_t pid_m = 0, pid_n = 0;
  bool operator==(const TileCoord&) const = default;
};

// The grid the formulas see: num_pid_m x num_pid_n tiles, GROUP_SIZE_M.
struct GridShape {
  std::int64_t tiles_m = 1, tiles_n = 1, group_size_m = 1;
  std::int64_t programs() const { return tiles_m * tiles_n; }
};
GridShape grid_of(const Problem& p);

// pid -> (pid_m, pid_n) for pid in [0, tiles_m * tiles_n).
TileCoord tile_of(LaunchOrder order, const GridShape& g, std::int64_t pid);
inline TileCoord tile_of(const Problem& p, std::int64_t pid) {
  return tile_of(p.order(), grid_of(p), pid);
}
// The launch group of a pid: the block of GROUP_SIZE_M rows (grouped orders), the row
// (row-major) or the column (column-major) that the order walks through before moving on.
std::int64_t launch_group_of(LaunchOrder order, const GridShape& g, std::int64_t pid);
inline std::int64_t launch_group_of(const Problem& p, std::int64_t pid) {
  return launch_group_of(p.order(), grid_of(p), pid);
}
// The whole table, indexed by pid.
std::vector<TileCoord> launch_mapping(LaunchOrder order, const GridShape& g);
// The inverse: pid_of[pid_m * tiles_n + pid_n] = pid (valid only for a bijective order).
std::vector<std::int64_t> pid_grid(LaunchOrder order, const GridShape& g);

// Does a mapping cover every tile exactly once? Lists what goes wrong otherwise.
struct Coverage {
  bool bijective = true;
  std::vector<TileCoord> duplicates;  // tiles computed more than once (each listed once)
  std::vector<TileCoord> misses;      // tiles nobody computes
  std::vector<TileCoord> out_of_range;
};
Coverage check_coverage(const GridShape& g, std::span<const TileCoord> mapping);

// The formula evaluated step by step for one pid, as lines such as
// "group_id = pid // num_pid_in_group = 29 // 27 = 1" (hover tooltip and `tilesim-cli map --pid`).
std::vector<std::string> explain_tile_of(LaunchOrder order, const GridShape& g, std::int64_t pid);

}  // namespace tilesim::sim

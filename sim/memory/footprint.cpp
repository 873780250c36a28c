// Distinct input tiles of the first P programs, from the launch mapping alone.
#include "sim/memory/footprint.hpp"

#include <algorithm>
#include <vector>

#include "sim/program/launch_order.hpp"

namespace tilesim::sim {
namespace {

// In-range extent of tile `t` of size `block` along a dimension of length `dim`.
std::int64_t extent(std::int64_t t, int block, std::int64_t dim) {
  return std::clamp<std::int64_t>(dim - t * block, 0, block);
}

}  // namespace

Footprint footprint(const Problem& p, std::int64_t programs) {
  programs = std::clamp<std::int64_t>(programs, 0, p.programs());
  const auto g = grid_of(p);
  std::vector<char> rows_seen(static_cast<std::size_t>(g.tiles_m), 0);
  std::vector<char> cols_seen(static_cast<std::size_t>(g.tiles_n), 0);
  Footprint f;
  const std::int64_t e = p.elem_bytes();
  if (p.kernel() != Kernel::matmul) {
    // Each program reads its own input tile; launch orders are bijections, so these are distinct
    // unless the order is broken, which the coverage check reports.
    std::vector<char> seen(static_cast<std::size_t>(g.programs()), 0);
    for (std::int64_t pid = 0; pid < programs; ++pid) {
      const auto t = tile_of(p, pid);
      char& s = seen[t.pid_m * g.tiles_n + t.pid_n];
      if (s) continue;
      s = 1;
      ++f.a_tiles;
      f.bytes += extent(t.pid_m, p.block_m(), p.m()) * extent(t.pid_n, p.block_n(), p.n()) * e;
    }
    f.tiles = f.a_tiles;
    return f;
  }
  // Matmul: program (pid_m, pid_n) reads A tiles (pid_m, 0..k_tiles-1) and B tiles
  // (0..k_tiles-1, pid_n): a whole row band of A and column band of B.
  for (std::int64_t pid = 0; pid < programs; ++pid) {
    const auto t = tile_of(p, pid);
    if (!rows_seen[t.pid_m]) {
      rows_seen[t.pid_m] = 1;
      f.a_tiles += p.k_tiles();
      f.bytes += extent(t.pid_m, p.block_m(), p.m()) * p.k() * e;
    }
    if (!cols_seen[t.pid_n]) {
      cols_seen[t.pid_n] = 1;
      f.b_tiles += p.k_tiles();
      f.bytes += extent(t.pid_n, p.block_n(), p.n()) * p.k() * e;
    }
  }
  f.tiles = f.a_tiles + f.b_tiles;
  return f;
}

}  // namespace tilesim::sim

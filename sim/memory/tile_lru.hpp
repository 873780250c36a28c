// TileLru: the fully associative L2Cache's results for a replay whose accesses are whole tiles:
// every access_rows call of a tile covers the same lines with the same sector masks, no line
// belongs to two tiles, and a tile is only loaded or only stored. Then each tile's resident
// lines are always a suffix of its lines in access order (LRU evicts its oldest first, a touch
// appends them all in order), so the LRU list is a list of tiles, each with the index of its
// first resident line, and a touch costs O(1) plus the tiles it evicts entirely, instead of one
// step per line (135 M line steps at 8192^3 with 128x128x64 blocks: ~2/3 of the timed replay).
// touch() returns false for an access that does not fit these rules; the caller then moves the
// state into an L2Cache (save() -> L2Cache::restore) and goes on line by line, with the same
// results (tests/sim/tile_lru_test.cpp compares the two access by access).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "sim/memory/l2_cache.hpp"

namespace tilesim::sim {

class TileLru {
 public:
  // The address space and capacity as L2Cache's (fully associative only).
  TileLru(std::uint64_t address_space_bytes, std::int64_t capacity_bytes);

  // L2Cache::access_rows for one tile; false (and nothing changed) when it breaks the rules.
  bool touch(std::uint64_t first, std::uint64_t row_stride, std::int64_t rows,
             std::uint64_t run_bytes, bool write, AccessResult* r);

  std::int64_t flush();                   // L2Cache::flush(); touch() refuses afterwards
  std::vector<L2LineState> save() const;  // L2Cache::save(): resident lines, LRU first
  std::int64_t resident_lines() const { return m_resident; }

 private:
  static constexpr int kMaxLinesPerRow = 4;
  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;
  struct Tile {
    std::uint64_t first_line = 0, stride = 0;  // lines
    std::int64_t rows = 0;
    int per_row = 0;                  // lines per row
    std::int64_t lines = 0;           // rows * per_row
    std::int64_t first_resident = 0;  // lines [first_resident, lines) are resident
    bool store = false;
    std::uint8_t masks[kMaxLinesPerRow] = {};    // sector mask of each row's line j
    std::uint32_t older = kNone, newer = kNone;  // the LRU list of tiles with resident lines
  };
  // Sectors of lines [begin, end) of tile t (line i has masks[i % per_row]).
  std::int64_t sectors(const Tile& t, std::int64_t begin, std::int64_t end) const;
  // Evicts the k oldest lines of tile `victim` (its front); unlinks it when none is left.
  void evict_front(std::uint32_t victim, std::int64_t k, AccessResult* r);
  void unlink(std::uint32_t t);
  void link_newest(std::uint32_t t);

  std::int64_t m_capacity = 0, m_resident = 0;
  bool m_flushed = false;
  std::vector<Tile> m_tiles;
  std::unordered_map<std::uint64_t, std::uint32_t> m_tile_of_first;  // first line -> tile
  std::vector<std::uint32_t> m_owner;  // per line of the address space: its tile, or kNone
  std::uint32_t m_oldest = kNone, m_newest = kNone;
};

}  // namespace tilesim::sim

// TileLru gives L2Cache's results, access by access, on whole-tile accesses (tile_lru.hpp).
#include "sim/memory/tile_lru.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "sim/timing/timed_engine.hpp"

using tilesim::sim::AccessResult;
using tilesim::sim::L2Cache;
using tilesim::sim::TileLru;

namespace {

// A fixed pseudo-random sequence (the same on every machine).
struct Rng {
  std::uint64_t seed = 7;
  std::uint64_t next(std::uint64_t n) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return (seed >> 33) % n;
  }
};

void expect_same(std::int64_t capacity_bytes, int accesses) {
  const std::uint64_t space = 1 << 18;
  L2Cache lines(space, capacity_bytes);
  TileLru tiles(space, capacity_bytes);
  // Random tiles of a 64 x 2048-byte matrix, loaded: 8 x 4 tiles of 8 rows x 512 bytes (4 lines
  // per row; the last row of tiles 5 rows, the last column 300 bytes), and of a 32 x 256-byte
  // matrix at 131072, stored: 4 x 2 tiles of 8 rows x 128 bytes (1 line per row).
  Rng g;
  for (int i = 0; i < accesses; ++i) {
    AccessResult a, b;
    if (g.next(3) > 0) {
      const std::uint64_t tr = g.next(8), tc = g.next(4);
      const std::uint64_t rows = tr == 7 ? 5 : 8, run = tc == 3 ? 300 : 512;  // edge tiles
      const std::uint64_t first = tr * 8 * 2048 + tc * 512;
      lines.access_rows(first, 2048, rows, run, false, &a);
      ASSERT_TRUE(tiles.touch(first, 2048, rows, run, false, &b));
    } else {
      const std::uint64_t tr = g.next(4), tc = g.next(2);
      const std::uint64_t first = 131072 + tr * 8 * 256 + tc * 128;
      lines.access_rows(first, 256, 8, 128, true, &a);
      ASSERT_TRUE(tiles.touch(first, 256, 8, 128, true, &b));
    }
    ASSERT_EQ(a, b) << "access " << i;
    ASSERT_EQ(lines.resident_lines(), tiles.resident_lines()) << "access " << i;
    if (i % 97 == 0) {
      ASSERT_EQ(lines.save(), tiles.save()) << "access " << i;
    }
  }
  EXPECT_EQ(lines.flush(), tiles.flush());
  EXPECT_EQ(lines.save(), tiles.save());
}

}  // namespace

TEST(TileLru, GivesTheLineModelsResultsAccessByAccess) {
  // Capacities from one tile (self-eviction all the time) to most of the tiles.
  for (const std::int64_t capacity : {32 * 128, 40 * 128, 100 * 128, 300 * 128, 1000 * 128})
    expect_same(capacity, 4000);
}

TEST(TileLru, RefusesAccessesThatAreNotWholeTiles) {
  TileLru t(1 << 18, 64 * 128);
  AccessResult r;
  EXPECT_TRUE(t.touch(0, 2048, 8, 512, false, &r));
  r = AccessResult{};
  EXPECT_FALSE(t.touch(0, 2048, 4, 512, false, &r));    // the same tile, other rows
  EXPECT_FALSE(t.touch(0, 2048, 8, 512, true, &r));     // stored after loaded
  EXPECT_FALSE(t.touch(128, 2048, 8, 512, false, &r));  // overlaps the first
  EXPECT_FALSE(t.touch(64, 2048, 8, 128, false, &r));   // not line-aligned
  EXPECT_EQ(r, AccessResult{});
}

// Whole replays: the tile model (counters-only replays) against the line model (a timed run
// with after_event keeps it), on problems that stay whole tiles and on ones that leave the tile
// model part way (a wrapped boundary's edge tiles) or at once (rows not line-aligned).
TEST(TileLru, ReplaysGiveTheLineModelsCountersAndTimes) {
  using namespace tilesim::sim;
  const Machine m = *find_machine("h100");
  struct Case {
    std::int64_t mnk;
    int block;
    Boundary boundary;
  };
  // 1088 = 8.5 blocks of 128: the edge tiles wrap (rows of 17 lines, so the interior is tiles).
  for (const Case c : {Case{1024, 64, Boundary::mask}, Case{1088, 128, Boundary::wrap},
                       Case{1088, 128, Boundary::mask}, Case{1000, 64, Boundary::mask}}) {
    ProblemSpec s;
    s.m = s.n = s.k = c.mnk;
    s.block_m = s.block_n = c.block, s.block_k = 32;
    s.group_size_m = 4;
    s.order = LaunchOrder::grouped;
    s.boundary = c.boundary;
    const Problem p(s);
    Machine small = m;
    small.l2_bytes = 2 << 20;  // evictions at this size
    const Occupancy occ = occupancy(p, small);
    TimedOptions lines;
    lines.after_event = [](const Engine&) {};
    const TimedResult a = run_timed(p, small, occ);
    const TimedResult b = run_timed(p, small, occ, lines);
    EXPECT_EQ(a.counters, b.counters) << c.mnk;
    EXPECT_EQ(a.timing.kernel_ps, b.timing.kernel_ps) << c.mnk;
    EXPECT_EQ(a.a_reuse, b.a_reuse) << c.mnk;
    EXPECT_EQ(a.b_reuse, b.b_reuse) << c.mnk;
    EXPECT_GT(a.counters.l2_evicted_lines, 0) << c.mnk;
  }
}

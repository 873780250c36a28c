// L2 cache model on caches small enough to count by hand.
#include "sim/memory/l2_cache.hpp"

#include <gtest/gtest.h>

using tilesim::sim::AccessResult;
using tilesim::sim::L2Cache;

namespace {
AccessResult load(L2Cache& c, std::uint64_t b, std::uint64_t e) {
  AccessResult r;
  c.access(b, e, false, &r);
  return r;
}
AccessResult store(L2Cache& c, std::uint64_t b, std::uint64_t e) {
  AccessResult r;
  c.access(b, e, true, &r);
  return r;
}
}  // namespace

// A 2-line (256-byte) fully associative cache over a 1 KiB address space (lines 0..7).
TEST(L2Cache, CountsSectorsHitMissedEvictedAndWrittenBackByHand) {
  L2Cache c(1024, 256);
  // line 0, sector 0: cold miss.
  EXPECT_EQ(load(c, 0, 32), (AccessResult{0, 1, 0, 0, 0}));
  // line 0, sectors 0-3: sector 0 hits, 1-3 miss (a line fills sector by sector).
  EXPECT_EQ(load(c, 0, 128), (AccessResult{1, 3, 0, 0, 0}));
  // line 1, sector 0: miss; the cache is now full (lines 0, 1).
  EXPECT_EQ(load(c, 128, 160), (AccessResult{0, 1, 0, 0, 0}));
  // line 2: miss; LRU is line 0 (4 clean sectors) -> evicted, nothing written back.
  EXPECT_EQ(load(c, 256, 288), (AccessResult{0, 1, 1, 4, 0}));
  // store to line 1, bytes 150..180 (offsets 22..51) = sectors 0 and 1: sector 0 resident (hit), 1
  // not (a store miss allocates without fetching); both become dirty. Recency now: line 2 < line 1.
  EXPECT_EQ(store(c, 150, 180), (AccessResult{1, 1, 0, 0, 0}));
  EXPECT_EQ(c.dirty_mask(1), 0b0011);
  // line 0 again: miss; LRU is line 2 (1 clean sector).
  EXPECT_EQ(load(c, 0, 32), (AccessResult{0, 1, 1, 1, 0}));
  // line 4: miss; LRU is line 1 with 2 valid, 2 dirty sectors -> 2 sectors written back.
  EXPECT_EQ(load(c, 512, 544), (AccessResult{0, 1, 1, 2, 2}));
  EXPECT_EQ(c.resident_lines(), 2);
  EXPECT_EQ(c.flush(), 0);  // the only dirty line is gone
}

TEST(L2Cache, FlushWritesEveryDirtySectorOnce) {
  L2Cache c(4096, 1024);
  AccessResult r;
  c.access_rows(0, 256, 4, 64, true, &r);  // 4 rows x 2 sectors, stored
  EXPECT_EQ(r.miss_sectors, 8);
  EXPECT_EQ(c.flush(), 8);
  EXPECT_EQ(c.flush(), 0);
  EXPECT_EQ(c.valid_mask(0), 0b0011);  // still resident, now clean
}

TEST(L2Cache, AccessRowsMatchesOneAccessPerRow) {
  L2Cache a(1 << 16, 2048), b(1 << 16, 2048);
  AccessResult ra, rb;
  for (int rep = 0; rep < 3; ++rep) {
    a.access_rows(96 + rep * 4096, 1024, 40, 200, rep == 1, &ra);
    for (int i = 0; i < 40; ++i) {
      const std::uint64_t s = 96 + rep * 4096 + i * 1024;
      b.access(s, s + 200, rep == 1, &rb);
    }
  }
  EXPECT_EQ(ra, rb);
  EXPECT_EQ(a.save(), b.save());
}

// access_rows has its own loop for the fully associative cache (1, 2 or more lines per row); it
// must leave the same records and the same LRU order as one access() per row, through evictions
// and queue compactions (a 16-line cache: every few calls evicts, every few dozen compacts).
TEST(L2Cache, AccessRowsMatchesOneAccessPerRowForEveryRowShape) {
  for (int ways : {0, 4}) {
    L2Cache a(1 << 16, 16 * 128, ways), b(1 << 16, 16 * 128, ways);
    std::uint64_t seed = 12345;
    const auto next = [&seed](std::uint64_t n) {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      return (seed >> 33) % n;
    };
    for (int call = 0; call < 2000; ++call) {
      const std::uint64_t stride = 128 * (1 + next(8));  // whole lines: access_rows' fast path
      const std::uint64_t run = 1 + next(3 * 128);       // 1 to 4 lines per row
      const std::int64_t rows = 1 + static_cast<std::int64_t>(next(20));
      const std::uint64_t first = next(20000);
      const bool write = next(4) == 0;
      AccessResult ra, rb;
      a.access_rows(first, stride, rows, run, write, &ra);
      for (std::int64_t i = 0; i < rows; ++i)
        b.access(first + i * stride, first + i * stride + run, write, &rb);
      ASSERT_EQ(ra, rb) << "call " << call;
      ASSERT_EQ(a.save(), b.save()) << "call " << call;
    }
    EXPECT_EQ(a.flush(), b.flush());
  }
}

TEST(L2Cache, EvictsLeastRecentlyUsedLineAfterManyHits) {
  // 4 lines; touching lines 0..3 then re-touching 0, 1, 2 many times leaves line 3 as LRU
  // (exercises the stale entries of the LRU queue and its compaction).
  L2Cache c(1 << 12, 512);
  for (int l = 0; l < 4; ++l) load(c, l * 128, l * 128 + 128);
  for (int rep = 0; rep < 10000; ++rep)
    for (int l = 0; l < 3; ++l) EXPECT_EQ(load(c, l * 128, l * 128 + 32).hit_sectors, 1);
  load(c, 4 * 128, 4 * 128 + 32);
  EXPECT_EQ(c.valid_mask(3), 0);
  for (int l = 0; l < 3; ++l) EXPECT_NE(c.valid_mask(l), 0);
}

TEST(L2Cache, SetAssociativeEvictsWithinTheSet) {
  // 1 set of 2 ways (2 lines): behaves as a 2-line fully associative cache.
  L2Cache c(1024, 256, 2);
  load(c, 0, 128);
  load(c, 128, 256);
  load(c, 0, 32);  // line 0 most recent
  const auto r = load(c, 256, 288);
  EXPECT_EQ(r.evicted_lines, 1);
  EXPECT_EQ(c.valid_mask(1), 0);
  EXPECT_EQ(c.valid_mask(0), 0xF);
}

TEST(L2Cache, RestoreGivesTheSameFutureAsTheSavedCache) {
  for (int ways : {0, 4}) {
    L2Cache a(1 << 16, 4096, ways);
    AccessResult r;
    for (int i = 0; i < 200; ++i)
      a.access((i * 7919) % 60000, (i * 7919) % 60000 + 100, i % 3 == 0, &r);
    const auto saved = a.save();
    L2Cache b(1 << 16, 4096, ways);
    b.restore(saved);
    EXPECT_EQ(b.save(), saved);
    AccessResult ra, rb;
    for (int i = 0; i < 300; ++i) {
      const std::uint64_t s = (i * 104729) % 60000;
      a.access(s, s + 64, i % 5 == 0, &ra);
      b.access(s, s + 64, i % 5 == 0, &rb);
    }
    EXPECT_EQ(ra, rb);
    EXPECT_EQ(a.save(), b.save());
  }
}

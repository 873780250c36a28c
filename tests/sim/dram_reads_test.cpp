// DramReads: the read bytes that load rounds keep in flight and the reads' share of the recent
// DRAM traffic (sim/memory/dram_reads.hpp). Cases checked by hand.
#include "sim/memory/dram_reads.hpp"

#include <gtest/gtest.h>

using tilesim::sim::DramReads;

TEST(DramReads, CountsTheRoundsInFlightWhenOneGoesOutPerSm) {
  DramReads d(10, 1000);                    // 10 SMs
  EXPECT_DOUBLE_EQ(d.issue(0, 1000), 100);  // 1,000 bytes over 10 SMs
  d.back_at(10, 1000);
  EXPECT_DOUBLE_EQ(d.issue(5, 500), 150);  // both in flight
  d.back_at(20, 500);
  // At 10 the first is back (a round ending as another goes out is out of the count).
  EXPECT_DOUBLE_EQ(d.issue(10, 200), 70);
  d.back_at(30, 200);
  EXPECT_DOUBLE_EQ(d.issue(30, 0), 0);
}

TEST(DramReads, TheReadShareFollowsTheTrafficWeightedByItsSizeOverTheWindow) {
  DramReads d(1, 1000);
  EXPECT_DOUBLE_EQ(d.read_share(), 0.5);  // the launch before left its writes to evict
  d.traffic(100, 0);                      // a tenth of the window, all reads: 0.5 + 0.1 x (1 - 0.5)
  EXPECT_DOUBLE_EQ(d.read_share(), 0.55);
  d.traffic(0, 100);  // 0.55 + 0.1 x (0 - 0.55) = 0.495: reads never get under half
  EXPECT_DOUBLE_EQ(d.read_share(), 0.5);
  d.traffic(0, 5000);  // a window of writes alone leaves no debt: the next reads count at once
  d.traffic(100, 0);
  EXPECT_DOUBLE_EQ(d.read_share(), 0.55);
  d.traffic(0, 0);  // nothing reached DRAM: no change
  EXPECT_DOUBLE_EQ(d.read_share(), 0.55);
  d.traffic(5000, 0);  // more than a window of reads alone: they get the whole DRAM
  EXPECT_DOUBLE_EQ(d.read_share(), 1.0);
  d.traffic(250, 250);  // half the window, half reads: 1 + 0.5 x (0.5 - 1)
  EXPECT_DOUBLE_EQ(d.read_share(), 0.75);
}

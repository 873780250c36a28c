// The element loops' load rounds, by hand: a round takes the DRAM's latency (varied per round)
// plus one shared-memory read per warp of each transpose reading on its SM; once the last is
// back the load ends after its slowest warp, or when the rest of the load arrives if that is
// later, and its wait is split between the transposes' reads and the latency.
#include "sim/timing/load_rounds.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "sim/base/fixed_random.hpp"

using namespace tilesim::sim;

namespace {

// An unloaded DRAM (no peak rate given: a round takes the latency, 1,000 ps); 50 ps per
// transpose's read turn; the slowest warp half a round's latency behind the mean.
StepCosts costs() {
  StepCosts c;
  c.dram_latency_ps = 1000;
  c.load_round_bytes = 4096;
  c.smem_turn_ps = 50;
  c.round_slowest_warp = 0.5;
  return c;
}

}  // namespace

TEST(RoundEnd, IsTheDramLatencyPlusOneReadTurnPerTransposeReading) {
  const StepCosts c = costs();
  DramReads reads(1, 1 << 20);
  LoadRounds r;
  EXPECT_EQ(round_end(c, 0.0, &reads, 2, 7, 300, &r), 300 + 1000 + 2 * 50);
  EXPECT_EQ(r.queued, 100);
  EXPECT_EQ(r.slowest, 500);
  r.done = 1;
  EXPECT_EQ(round_end(c, 0.0, &reads, 0, 7, 1400, &r), 1400 + 1000);
  EXPECT_EQ(r.queued, 100);
  EXPECT_EQ(r.slowest, 1000);
}

TEST(RoundEnd, VariesEachRoundsLatencyByTheFixedNoiseOfPidAndRound) {
  const StepCosts c = costs();
  DramReads reads(1, 1 << 20);
  LoadRounds r;
  r.done = 3;
  const double factor = 1 + 0.2 * fixed_noise(7, 3);
  EXPECT_EQ(round_end(c, 0.2, &reads, 0, 7, 0, &r), std::llround(1000 * factor));
}

TEST(RoundsDone, EndAfterTheSlowestWarpAndWaitOnLatencyWhenTheRoundsComeLast) {
  LoadRounds r;
  r.slowest = 100, r.other_end = 900, r.queued = 300;
  // Back at 1,000, the slowest warp at 1,100; waited since 200: 900 ps, 300 of them behind
  // transposes' reads (not the most of it: the load's cause is the latency).
  const RoundsDone d = rounds_done(r, 1000, 200, TimeCause::bank_conflict);
  EXPECT_EQ(d.end, 1100);
  EXPECT_EQ(d.cause, TimeCause::latency);
  EXPECT_EQ(d.queued, 300);
  EXPECT_EQ(d.rest, 600);
  EXPECT_EQ(d.rest_cause, TimeCause::latency);
}

TEST(RoundsDone, GoToTheTransposesReadsWhenTheyHeldTheRoundsMost) {
  LoadRounds r;
  r.queued = 700;
  const RoundsDone d = rounds_done(r, 1000, 0, TimeCause::smem);
  EXPECT_EQ(d.cause, TimeCause::smem);  // 700 of 1,000 ps
  EXPECT_EQ(d.queued, 700);
  EXPECT_EQ(d.rest, 300);
}

TEST(RoundsDone, EndWithTheRestOfTheLoadAndItsCauseWhenThatComesLast) {
  LoadRounds r;
  r.slowest = 100, r.other_end = 2000, r.other_cause = TimeCause::dram, r.queued = 500;
  const RoundsDone d = rounds_done(r, 1000, 0, TimeCause::smem);
  EXPECT_EQ(d.end, 2000);
  EXPECT_EQ(d.cause, TimeCause::dram);
  EXPECT_EQ(d.queued, 0);  // the rounds did not decide the end
  EXPECT_EQ(d.rest, 2000);
  EXPECT_EQ(d.rest_cause, TimeCause::dram);
}

// The timed engine's memory path, by hand: a load arrives after its latency unless DRAM, the L2
// or its SM's fill path held it back longer (that pipe is then its cause); a load that hits a
// tile still on its way from DRAM waits for it; a store leaves the SM through its fill path and
// its write-backs queue on DRAM; misses and write-backs share the DRAM's time.
#include "sim/timing/memory_path.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace tilesim::sim;

namespace {

// 1 ps a byte on DRAM, 0.5 on the L2, 2 on the fill path; L2 hits in 100 ps, DRAM in 500.
StepCosts costs() {
  StepCosts c;
  c.dram_ps_per_byte = 1, c.l2_ps_per_byte = 0.5, c.fill_ps_per_byte = 2;
  c.l2_hit_latency_ps = 100, c.dram_latency_ps = 500;
  c.load_a_smem_ps = 70, c.load_a_smem_free_ps = 30;
  c.load_b_smem_ps = 90, c.load_b_smem_free_ps = 90;
  return c;
}

AccessResult access(int hit, int miss, int writeback = 0) {
  AccessResult r;
  r.hit_sectors = hit, r.miss_sectors = miss, r.writeback_sectors = writeback;
  return r;
}

}  // namespace

TEST(MemoryPath, ASmallMissArrivesAfterTheDramLatency) {
  const StepCosts c = costs();
  MemoryPath mem(c, 1, 1 << 20);
  Pipe fill;
  Arrival filled;
  // 4 sectors (128 B): DRAM 128 + 100, L2 64, fill 256 ps: all under 500.
  const Arrival a = mem.load(access(0, 4), 0, &fill, &filled);
  EXPECT_EQ(a.at, 500);
  EXPECT_EQ(a.cause, TimeCause::latency);
  EXPECT_EQ(filled.at, 500);  // the tile's DRAM fill is in L2 then
  EXPECT_EQ(mem.dram().busy, 128);
  EXPECT_EQ(mem.l2().busy, 64);
  EXPECT_EQ(fill.busy, 256);
}

// A tile that misses is complete when its slowest warp's copies are: the slowest-warp share of
// the DRAM latency comes after the mean, for the load that misses and for a load that hits its
// sectors on their way (it waits for the same fill); an L2 hit without a fill in flight does not
// wait for it, and a load that the DRAM's queue holds back waits for the queue alone.
TEST(MemoryPath, AMissWaitsForItsSlowestWarp) {
  StepCosts c = costs();
  c.tile_slowest_warp_ps = 220;
  c.fill_ps_per_byte = 0.25;  // (the fill path out of the way: 32 ps for 128 B)
  MemoryPath mem(c, 1, 1 << 20);
  Pipe fill, other_sm;
  Arrival filled;
  const Arrival a = mem.load(access(0, 4), 0, &fill, &filled);
  EXPECT_EQ(a.at, 720);
  EXPECT_EQ(a.cause, TimeCause::latency);
  EXPECT_EQ(filled.at, 720);
  // Another SM's hit on those sectors waits for the same fill, for the fill's own cause: it met
  // no queue, so the wait is latency (a lone program's tiles are not "DRAM bound").
  const Arrival b = mem.load(access(4, 0), 10, &other_sm, &filled);
  EXPECT_EQ(b.at, 720);
  EXPECT_EQ(b.cause, TimeCause::latency);
  // On a fresh path: a hit with nothing in flight, after the L2's latency alone.
  MemoryPath fresh(c, 1, 1 << 20);
  Pipe third_sm;
  Arrival nothing_in_flight;
  EXPECT_EQ(fresh.load(access(4, 0), 10, &third_sm, &nothing_in_flight).at, 110);
  // 64 sectors (2,048 B): the DRAM's queue, 2,048 + 100, is later than 500 + 220.
  MemoryPath queued(c, 1, 1 << 20);
  Pipe fourth_sm;
  Arrival big;
  const Arrival d = queued.load(access(0, 64), 0, &fourth_sm, &big);
  EXPECT_EQ(d.at, 2048 + 100);
  EXPECT_EQ(d.cause, TimeCause::dram);
}

TEST(MemoryPath, ALoadBehindAnotherWaitsForTheSlowestPipe) {
  const StepCosts c = costs();
  MemoryPath mem(c, 1, 1 << 20);
  Pipe fill;
  Arrival first, second;
  mem.load(access(0, 4), 0, &fill, &first);
  // 32 sectors (1,024 B) at 0: DRAM 128 .. 1,152 (+100 = 1,252), L2 64 .. 576, fill 256 .. 2,304.
  const Arrival a = mem.load(access(0, 32), 0, &fill, &second);
  EXPECT_EQ(a.at, 2304);
  EXPECT_EQ(a.cause, TimeCause::sm_load);
  // Another SM's hit on these sectors waits for this fill, which a queue held back: DRAM, not
  // this SM's fill path.
  EXPECT_EQ(second.at, 2304);
  EXPECT_EQ(second.cause, TimeCause::dram);
  // On a fresh SM's fill path the same load waits on DRAM instead.
  Pipe other_sm;
  Arrival third;
  const Arrival b = mem.load(access(0, 32), 0, &other_sm, &third);
  EXPECT_EQ(b.at, 1152 + 1024 + 100);  // behind the second load's DRAM time
  EXPECT_EQ(b.cause, TimeCause::dram);
}

// A load's weight scales its bytes on the L2's output alone (a tile staged through registers:
// StepCosts::l2_weight_a): 16 hit and 16 missed sectors (1,024 B) at weight 3 hold the L2
// 3 x 512 ps; DRAM (512 ps of misses), the L2's write side (the fills: 512 x 0.25) and the fill
// path (1,024 x 0.25) see the bytes as they are.
TEST(MemoryPath, ALoadsWeightScalesItsTimeOnTheL2Alone) {
  StepCosts c = costs();
  c.fill_ps_per_byte = 0.25;
  c.l2_write_ps_per_byte = 0.25;
  MemoryPath mem(c, 1, 1 << 20);
  Pipe fill;
  Arrival filled;
  const Arrival a = mem.load(access(16, 16), 0, &fill, &filled, 3.0);
  EXPECT_EQ(mem.l2().busy, 3 * 512);
  EXPECT_EQ(mem.dram().busy, 512);
  EXPECT_EQ(mem.l2_write().busy, 128);
  EXPECT_EQ(fill.busy, 256);
  EXPECT_EQ(a.at, 3 * 512);
  EXPECT_EQ(a.cause, TimeCause::l2);
  // Each load step takes its own operand's weight; a copy's or transpose's tile, the third.
  c.l2_weight_a = 1.5, c.l2_weight_b = 2, c.l2_weight_load = 3;
  EXPECT_EQ(l2_load_weight(c, StepOp::load_a), 1.5);
  EXPECT_EQ(l2_load_weight(c, StepOp::load_b), 2.0);
  EXPECT_EQ(l2_load_weight(c, StepOp::load), 3.0);
}

TEST(MemoryPath, AHitOnATileStillOnItsWayWaitsForItsDramFill) {
  const StepCosts c = costs();
  MemoryPath mem(c, 1, 1 << 20);
  Pipe fill;
  Arrival filled{3000, TimeCause::dram};  // a fill the DRAM's queue held back
  const Arrival a = mem.load(access(4, 0), 0, &fill, &filled);
  EXPECT_EQ(a.at, 3000);
  EXPECT_EQ(a.cause, TimeCause::dram);
  EXPECT_EQ(filled.at, 3000);  // a hit does not move it
  EXPECT_EQ(mem.dram().busy, 0);
  // A fill that met no queue makes the wait on it latency.
  Arrival unqueued{3000, TimeCause::latency};
  EXPECT_EQ(mem.load(access(4, 0), 0, &fill, &unqueued).cause, TimeCause::latency);
}

TEST(MemoryPath, MissesAndTheWriteBacksTheyCauseShareTheDramTime) {
  const StepCosts c = costs();
  MemoryPath mem(c, 1, 1 << 20);
  Pipe fill;
  Arrival filled;
  mem.load(access(0, 1, 3), 0, &fill, &filled);  // 32 B read, 96 B written back
  EXPECT_EQ(mem.dram().busy, 128);
}

TEST(MemoryPath, AStoreLeavesThroughTheFillPathAndReachesTheL2) {
  const StepCosts c = costs();
  MemoryPath mem(c, 1, 1 << 20);
  Pipe fill;
  // 4 sectors: out of the SM at 256; in L2 at max(256, 64) + 100.
  const StoreDone s = mem.store(access(4, 0), 0, &fill);
  EXPECT_EQ(s.out, 256);
  EXPECT_EQ(s.done, 356);
  EXPECT_EQ(s.cause, TimeCause::sm_load);
}

TEST(MemoryPath, AStoreWhoseWriteBacksTakeLongerEndsOnDram) {
  const StepCosts c = costs();
  MemoryPath mem(c, 1, 1 << 20);
  Pipe fill;
  EXPECT_EQ(mem.store(access(4, 0, 8), 0, &fill).done, 356);  // 256 B of DRAM: 256 < 356
  Pipe fill2;
  MemoryPath mem2(c, 1, 1 << 20);
  const StoreDone s = mem2.store(access(4, 0, 16), 0, &fill2);  // 512 B: DRAM until 512
  EXPECT_EQ(s.done, 512);
  EXPECT_EQ(s.cause, TimeCause::dram);
  EXPECT_EQ(s.out, 256);
}

// The L2's write side (StepCosts::l2_write_ps_per_byte): the SMs' stores and DRAM's fills share
// it, so a store behind a fill waits for it and then leaves the SM no sooner than the write side
// has taken its bytes; a store of rows that start mid-sector weighs its partial sectors more.
TEST(MemoryPath, StoresAndFillsShareTheL2sWriteSide) {
  StepCosts c = costs();
  c.l2_write_ps_per_byte = 4;  // slower than the fill path (2 ps a byte): the write side decides
  MemoryPath mem(c, 1, 1 << 20);
  Pipe fill, other_sm;
  Arrival filled;
  // A 4-sector miss: written into the L2 at 0 .. 512, after its 500 ps of latency: 512.
  const Arrival a = mem.load(access(0, 4), 0, &fill, &filled);
  EXPECT_EQ(a.at, 512);
  EXPECT_EQ(a.cause, TimeCause::l2);
  EXPECT_EQ(mem.l2_write().busy, 512);
  // A 4-sector store from another SM at 0: behind the fill, 512 .. 1,024.
  const StoreDone s = mem.store(access(4, 0), 0, &other_sm);
  EXPECT_EQ(s.out, 1024);
  EXPECT_EQ(s.cause, TimeCause::l2);
  EXPECT_EQ(s.done, 1024 + 100);
  // A hit does not write the L2.
  Pipe third_sm;
  mem.load(access(4, 0), 0, &third_sm, &filled);
  EXPECT_EQ(mem.l2_write().busy, 1024);
  // Partial sectors: the same store at 1.5 bytes a byte holds the write side 768 ps.
  c.store_sector_weight = 1.5;
  MemoryPath partial(c, 1, 1 << 20);
  Pipe fourth_sm;
  EXPECT_EQ(partial.store(access(4, 0), 0, &fourth_sm).out, 768);
  // Without the limit (0), the store leaves through its fill path alone: 256.
  c.l2_write_ps_per_byte = 0;
  MemoryPath unlimited(c, 1, 1 << 20);
  Pipe fifth_sm;
  EXPECT_EQ(unlimited.store(access(4, 0), 0, &fifth_sm).out, 256);
}

TEST(SmemWrite, IsTheMatmulTilesWavefrontsAndNothingForACopysTile) {
  const StepCosts c = costs();
  EXPECT_EQ(smem_write_ps(c, StepOp::load_a), 70);
  EXPECT_EQ(smem_write_free_ps(c, StepOp::load_a), 30);
  EXPECT_EQ(smem_write_ps(c, StepOp::load_b), 90);
  EXPECT_EQ(smem_write_free_ps(c, StepOp::load_b), 90);
  EXPECT_EQ(smem_write_ps(c, StepOp::load), 0);
}

TEST(Pipe, StartsARequestWhenBothItAndThePipeAreReady) {
  Pipe p;
  EXPECT_EQ(p.hold(100, 50), 150);
  EXPECT_EQ(p.hold(120, 50), 200);  // waits for the pipe
  EXPECT_EQ(p.hold(500, 10), 510);  // the pipe waits for it
  EXPECT_EQ(p.busy, 110);
}

// The L2 and the fill path run on the SM clock (StepCosts::clock_rate): at twice the rate a
// transfer holds each pipe half as long; DRAM keeps its own clock.
TEST(MemoryPath, TheL2AndTheFillPathFollowTheClockAndDramDoesNot) {
  StepCosts c = costs();
  c.start_fraction = 2, c.sustained_fraction = 2;  // twice the preset's rate throughout
  MemoryPath mem(c, 1, 1 << 20);
  Pipe fill;
  Arrival filled;
  // 64 sectors (2048 B), all hits: L2 1024 / 2 = 512 ps, fill 4096 / 2 = 2048 ps.
  const Arrival a = mem.load(access(64, 0), 0, &fill, &filled);
  EXPECT_EQ(fill.busy, 2048);
  EXPECT_EQ(a.at, 2048);
  EXPECT_EQ(a.cause, TimeCause::sm_load);
  // 64 misses: DRAM at 1 ps a byte whatever the clock, 2048 + 100.
  MemoryPath mem2(c, 1, 1 << 20);
  Pipe fill2;
  filled = Arrival{};
  EXPECT_EQ(mem2.load(access(0, 64), 0, &fill2, &filled).at, 2148);
}

// The clock's curve: the start rate, held for `after`, then an exponential fall to the
// sustained rate; all 1 (or no time constant) is no curve.
TEST(MemoryPath, TheClockStartsHighAndFallsToItsSustainedRate) {
  StepCosts c;
  EXPECT_EQ(c.clock_rate(0), 1.0);
  EXPECT_EQ(c.clock_rate(1'000'000'000), 1.0);
  c.start_fraction = 1.125, c.sustained_fraction = 0.78;
  c.throttle_after_ps = 0, c.throttle_tau_ps = 230'000'000;  // 0.23 ms
  EXPECT_DOUBLE_EQ(c.clock_rate(0), 1.125);
  EXPECT_NEAR(c.clock_rate(230'000'000), 0.78 + 0.345 / std::exp(1.0), 1e-12);
  EXPECT_NEAR(c.clock_rate(20'000'000'000), 0.78, 1e-12);
  for (std::int64_t t = 0; t < 2'000'000'000; t += 100'000'000)
    EXPECT_GE(c.clock_rate(t), c.clock_rate(t + 100'000'000)) << t;
}

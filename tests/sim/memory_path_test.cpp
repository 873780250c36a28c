// The timed engine's memory path, by hand: a load arrives after its latency unless DRAM, the L2
// or its SM's fill path held it back longer (that pipe is then its cause); a load that hits a
// tile still on its way from DRAM waits for it; a store leaves the SM through its fill path and
// its write-backs queue on DRAM; misses and write-backs share the DRAM's time.
#include "sim/timing/memory_path.hpp"

#include <gtest/gtest.h>

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
  std::int64_t filled = 0;
  // 4 sectors (128 B): DRAM 128 + 100, L2 64, fill 256 ps: all under 500.
  const Arrival a = mem.load(access(0, 4), 0, &fill, &filled);
  EXPECT_EQ(a.at, 500);
  EXPECT_EQ(a.cause, TimeCause::latency);
  EXPECT_EQ(filled, 500);  // the tile's DRAM fill is in L2 then
  EXPECT_EQ(mem.dram().busy, 128);
  EXPECT_EQ(mem.l2().busy, 64);
  EXPECT_EQ(fill.busy, 256);
}

TEST(MemoryPath, ALoadBehindAnotherWaitsForTheSlowestPipe) {
  const StepCosts c = costs();
  MemoryPath mem(c, 1, 1 << 20);
  Pipe fill;
  std::int64_t first = 0, second = 0;
  mem.load(access(0, 4), 0, &fill, &first);
  // 32 sectors (1,024 B) at 0: DRAM 128 .. 1,152 (+100 = 1,252), L2 64 .. 576, fill 256 .. 2,304.
  const Arrival a = mem.load(access(0, 32), 0, &fill, &second);
  EXPECT_EQ(a.at, 2304);
  EXPECT_EQ(a.cause, TimeCause::sm_load);
  // On a fresh SM's fill path the same load waits on DRAM instead.
  Pipe other_sm;
  std::int64_t third = 0;
  const Arrival b = mem.load(access(0, 32), 0, &other_sm, &third);
  EXPECT_EQ(b.at, 1152 + 1024 + 100);  // behind the second load's DRAM time
  EXPECT_EQ(b.cause, TimeCause::dram);
}

TEST(MemoryPath, AHitOnATileStillOnItsWayWaitsForItsDramFill) {
  const StepCosts c = costs();
  MemoryPath mem(c, 1, 1 << 20);
  Pipe fill;
  std::int64_t filled = 3000;
  const Arrival a = mem.load(access(4, 0), 0, &fill, &filled);
  EXPECT_EQ(a.at, 3000);
  EXPECT_EQ(a.cause, TimeCause::dram);
  EXPECT_EQ(filled, 3000);  // a hit does not move it
  EXPECT_EQ(mem.dram().busy, 0);
}

TEST(MemoryPath, MissesAndTheWriteBacksTheyCauseShareTheDramTime) {
  const StepCosts c = costs();
  MemoryPath mem(c, 1, 1 << 20);
  Pipe fill;
  std::int64_t filled = 0;
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

// Engine: the wave schedule, and DRAM traffic derived by hand.
#include "sim/replay/engine.hpp"

#include <gtest/gtest.h>

#include "tests/sim/fixtures.hpp"

using namespace tilesim::sim;
using namespace tilesim::sim_test;

namespace {

ReplayResult run(const ProblemSpec& s, const Machine& m, std::optional<int> pps = {}) {
  const Problem p(s);
  return replay_rounds(p, m, occupancy(p, m, pps));
}

}  // namespace

TEST(Engine, StepOpMatchesTheProgramTrace) {
  for (auto kernel : {Kernel::copy, Kernel::transpose, Kernel::matmul}) {
    ProblemSpec s = square_matmul(200, 64, LaunchOrder::grouped, 3);
    s.kernel = kernel;
    const Problem p(s);
    for (std::int64_t t = 0; t < steps_per_program(p); ++t) {
      std::int64_t k = -1;
      const auto step = program_step(p, 0, t);
      EXPECT_EQ(step_op(p, t, &k), step.op);
      EXPECT_EQ(k, step.k);
    }
  }
}

TEST(Engine, WavesRunRoundsOfOneStepPerResidentProgram) {
  // 81 programs (9x9 tiles), 8 SMs x 2 per SM = 16 slots -> waves of 16, the last of 1.
  const Problem p(square_matmul(574, 64, LaunchOrder::grouped, 3));
  Engine e(p, small_machine(), 2);
  EXPECT_EQ(e.waves(), 6);
  const std::int64_t T = steps_per_program(p);  // 2 + 3 * 9 = 29
  EXPECT_EQ(T, 29);
  auto i = e.event_info(17);  // wave 0, round 1 (load_a, k = 0), slot 1
  EXPECT_EQ(i.wave, 0);
  EXPECT_EQ(i.step, 1);
  EXPECT_EQ(i.pid, 1);
  EXPECT_EQ(i.op, StepOp::load_a);
  i = e.event_info(16 * T + 3);  // wave 1, round 0, slot 3 -> pid 19 on SM 3
  EXPECT_EQ(i.wave, 1);
  EXPECT_EQ(i.pid, 19);
  EXPECT_EQ(i.sm, 3);
  i = e.event_info(e.wave_begin(5) + 5);  // last wave holds pid 80 alone: round 5
  EXPECT_EQ(i.pid, 80);
  EXPECT_EQ(i.step, 5);
  EXPECT_EQ(e.total_events(), 81 * T);
}

TEST(Engine, InputsThatFitInL2AreReadFromDramExactlyOnce) {
  // 256^3 fp16: A and B are 128 KiB each, far below H100's 50 MiB L2. Every input byte comes
  // from DRAM once; C (128 KiB) is written once, at the final flush.
  for (auto order : {LaunchOrder::row_major, LaunchOrder::grouped, LaunchOrder::column_major}) {
    const auto r = run(square_matmul(256, 64, order, 2), *find_machine("h100"));
    EXPECT_EQ(r.counters.dram_read_bytes, 2 * 256 * 256 * 2);
    EXPECT_EQ(r.counters.dram_write_bytes, 256 * 256 * 2);
    EXPECT_EQ(r.counters.valid_store_lanes, 256 * 256);
    EXPECT_DOUBLE_EQ(r.counters.flops, 2.0 * 256 * 256 * 256);
  }
}

TEST(Engine, GroupedOrderReadsTwoThirdsOfRowMajorWhenBDoesNotFitInL2) {
  // 512^3 fp16, 64x64x64 blocks: 8x8 programs, 8 K-iterations; a tile is 64 rows x 128 B = 8 KiB.
  // A and B are 512 KiB each; the L2 holds 256 KiB; 8 SMs x 1 program = waves of 8 programs,
  // which advance in lockstep (one step each in turn), so within a K-iteration every tile a wave
  // needs is fetched once and then hit.
  //  row-major: a wave is one row of C: per K-iteration 1 A tile + 8 B tiles = 72 KiB.
  //  grouped, GROUP_SIZE_M = 4: a wave is 4 rows x 2 columns: 4 A + 2 B tiles = 48 KiB.
  // Nothing survives from one wave to the next: between two uses of the same K-panel lie the
  // other 7 K-iterations (7 x 48 KiB = 336 KiB at least) and the C stores (64 KiB), more than
  // the 256 KiB L2. So DRAM reads = 8 waves x 8 K-iterations x tiles x 8 KiB:
  //  row-major 8 * 8 * 9 * 8 KiB = 4608 KiB, grouped 8 * 8 * 6 * 8 KiB = 3072 KiB: ratio 3/2.
  const Machine m = small_machine();
  const auto rm = run(square_matmul(512, 64, LaunchOrder::row_major), m, 1);
  const auto gr = run(square_matmul(512, 64, LaunchOrder::grouped, 4), m, 1);
  EXPECT_EQ(rm.counters.dram_read_bytes, 4608 * 1024);
  EXPECT_EQ(gr.counters.dram_read_bytes, 3072 * 1024);
  EXPECT_EQ(rm.waves, 8);
  // Both write C once (512 KiB): written back on eviction or at the flush.
  EXPECT_EQ(rm.counters.dram_write_bytes, 512 * 1024);
  EXPECT_EQ(gr.counters.dram_write_bytes, 512 * 1024);
}

TEST(Engine, CopyAndTransposeMoveEachByteOnceAndMaskTheBoundary) {
  for (auto kernel : {Kernel::copy, Kernel::transpose}) {
    ProblemSpec s;
    s.kernel = kernel;
    s.m = 100;
    s.n = 300;
    s.block_m = s.block_n = 64;
    const auto r = run(s, *find_machine("t4"));
    EXPECT_EQ(r.counters.valid_store_lanes, 100 * 300);
    EXPECT_EQ(r.counters.load_lane_bytes, 100 * 300 * 2);
    EXPECT_EQ(r.counters.store_lane_bytes, 100 * 300 * 2);
    EXPECT_DOUBLE_EQ(r.counters.flops, 0);
  }
}

TEST(Engine, ReplayIsDeterministicAndCheckpointsReproduceIt) {
  const Problem p(square_matmul(574, 64, LaunchOrder::grouped_legacy, 3));
  const Machine m = small_machine();
  Engine a(p, m, 2);
  a.run(1000);
  const auto cp = a.save();
  a.run(a.total_events());
  Engine b(p, m, 2);
  b.restore(cp);
  b.run(b.total_events());
  EXPECT_EQ(a.counters(), b.counters());
  EXPECT_EQ(a.a_reuse(), b.a_reuse());
  EXPECT_EQ(a.counters(), replay_rounds(p, m, occupancy(p, m, 2)).counters);
}

TEST(Counters, DifferenceOfTwoPointsIsWhatHappenedInBetween) {
  Counters a, b;
  a.dram_read_bytes = 100;
  a.flops = 10;
  b = a;
  b.dram_read_bytes = 164;
  b.flops = 30;
  b.l2_load_sectors = 4;
  b.l2_load_hit_sectors = 3;
  const Counters d = b - a;
  EXPECT_EQ(d.dram_read_bytes, 64);
  EXPECT_DOUBLE_EQ(d.flops, 20);
  EXPECT_DOUBLE_EQ(d.l2_hit_rate(), 0.75);
  Counters s = a;
  s += d;
  EXPECT_EQ(s, b);
}

TEST(Counters, EveryStoreSectorCountsAsAHitLoadsOnlyWhenResident) {
  Counters c;
  count_l2_sectors(c, /*write=*/false, 3, 5);  // a load: 3 sectors resident, 5 from DRAM
  count_l2_sectors(c, /*write=*/true, 1, 7);   // a store allocates all 8 without a fetch
  EXPECT_EQ(c.l2_load_sectors, 8);
  EXPECT_EQ(c.l2_load_hit_sectors, 3);
  EXPECT_EQ(c.l2_store_sectors, 8);
  EXPECT_EQ(c.l2_store_hit_sectors, 1);
  EXPECT_DOUBLE_EQ(c.l2_hit_rate(), (3.0 + 8.0) / 16.0);
  EXPECT_DOUBLE_EQ(c.l2_load_hit_rate(), 3.0 / 8.0);
  c.dram_read_bytes = 5 * 32;
  c.dram_write_bytes = 64;
  EXPECT_EQ(c.dram_bytes(), 224);
}

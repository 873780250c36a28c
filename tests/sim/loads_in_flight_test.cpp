// Loads in flight: a copy or transpose whose threads wait for one load before the next comes in
// round trips, each as long as the DRAM's latency under the reads in flight (Little's law with
// the saturation curve of kernels/probes/bytes_in_flight.cu). Cases checked by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/program/occupancy.hpp"
#include "sim/timing/step_costs.hpp"
#include "sim/timing/timed_engine.hpp"

using namespace tilesim::sim;

namespace {

Machine h200() {
  return *find_machine("h200");
}

ProblemSpec copy_64x64(std::int64_t m, std::int64_t n) {
  ProblemSpec s;
  s.kernel = Kernel::copy;
  s.m = m, s.n = n;
  s.block_m = s.block_n = 64;
  s.dtype = DType::fp32;
  s.num_warps = 8;  // 256 threads, 16 elements each
  s.order = LaunchOrder::row_major;
  return s;
}

TimingOptions in_flight(int loads, int bytes = 0) {
  TimingOptions t;
  t.loads_in_flight = loads;
  t.load_bytes = bytes;
  return t;
}

}  // namespace

TEST(LoadsInFlight, ARoundAtLightLoadTakesTheUnloadedLatency) {
  const StepCosts c = step_costs(Problem(copy_64x64(4096, 4096)), h200(), in_flight(1));
  // 16 bytes per SM: the DRAM is idle, the round is the unloaded latency (within 0.2 %: the
  // curve's first-order term is N / (2 Xp L0) = 0.13 % here).
  EXPECT_NEAR(static_cast<double>(loaded_round_ps(c, 16)), static_cast<double>(c.dram_latency_ps),
              0.002 * static_cast<double>(c.dram_latency_ps));
}

TEST(LoadsInFlight, ARoundAtHeavyLoadTakesTheDramQueue) {
  const StepCosts c = step_costs(Problem(copy_64x64(4096, 4096)), h200(), in_flight(1));
  // 1 MiB per SM: the round is the time the DRAM takes to serve it, N / Xp (within 0.5 %).
  const double n = 1 << 20, queue = n / (c.dram_bytes_per_ps_per_sm / 2);
  EXPECT_NEAR(static_cast<double>(loaded_round_ps(c, n)), queue, 0.005 * queue);
}

TEST(LoadsInFlight, AtTheKneeTheRoundIsTheLatencyOverOneMinusOneOverE) {
  const StepCosts c = step_costs(Problem(copy_64x64(4096, 4096)), h200(), in_flight(1));
  // N = Xp L0: throughput Xp (1 - 1/e), so a round takes N / X = L0 / (1 - 1/e) = 1.582 L0.
  const double l0 = static_cast<double>(c.dram_latency_ps);
  const double n = c.dram_bytes_per_ps_per_sm / 2 * l0;
  EXPECT_NEAR(static_cast<double>(loaded_round_ps(c, n)), l0 / (1 - std::exp(-1.0)), 1.0);
}

TEST(LoadsInFlight, OneElementPerThreadMakesSixteenRoundsOfAKibibyte) {
  const Machine m = h200();
  // 64 x 64 fp32 over 256 threads: 16 loads each, one at a time, 256 x 4 bytes per round.
  const StepCosts one = step_costs(Problem(copy_64x64(4096, 4096)), m, in_flight(1));
  EXPECT_EQ(one.load_rounds, 16);
  EXPECT_EQ(one.load_round_bytes, 1024);
  // Four 16-byte loads cover a thread's 64 bytes at once: one round of 16 KiB, which also takes
  // the DRAM's latency under the reads in flight.
  const StepCosts vec = step_costs(Problem(copy_64x64(4096, 4096)), m, in_flight(4, 16));
  EXPECT_EQ(vec.load_rounds, 1);
  EXPECT_EQ(vec.load_round_bytes, 16384);
  // The whole tile at once (a Triton tl.load): no rounds either.
  EXPECT_EQ(step_costs(Problem(copy_64x64(4096, 4096)), m).load_rounds, 0);
}

TEST(LoadsInFlight, AProgramAloneWaitsForEachRoundInTurn) {
  Machine m = h200();
  m.load_round_cv = 0;  // every round the same (Machine::load_round_cv varies them)
  m.warp_load_cv = 0;   // every warp's rounds back at once (AProgramWaitsForItsSlowestWarp)
  const Problem p(copy_64x64(64, 64));  // one program, one tile
  TimedOptions opt;
  opt.timing = in_flight(1);
  std::vector<TimedEvent> ev;
  opt.events = &ev;
  const TimedResult r = run_timed(p, m, occupancy(p, m, std::nullopt, opt.timing), opt);
  ASSERT_EQ(ev.size(), 3u);  // map, load, store
  const StepCosts& c = r.timing.costs;
  // 1 KiB in flight on the whole GPU: 1024 / SMs bytes per SM, the same for all 16 rounds.
  const std::int64_t round = loaded_round_ps(c, 1024.0 / m.sms);
  // (Its 16 KiB of reads lift the reads' share of the recent DRAM traffic a hair over the half
  // the round takes here: within 1 ps a round.)
  EXPECT_NEAR(ev[1].end_ps - ev[1].start_ps, 16 * round, 16);
  EXPECT_EQ(ev[1].cause, TimeCause::latency);
}

TEST(LoadsInFlight, ACopyWithOneLoadPerThreadIsLatencyBoundAndSlower) {
  const Machine m = h200();
  const Problem p(copy_64x64(4096, 4096));
  const auto run = [&](const TimingOptions& t) {
    TimedOptions opt;
    opt.timing = t;
    return run_timed(p, m, occupancy(p, m, std::nullopt, t), opt).timing;
  };
  const TimingSummary whole = run({}), one = run(in_flight(1));
  EXPECT_GT(one.kernel_ps, whole.kernel_ps * 5 / 4);  // 8 KiB per SM in flight: ~72 % of peak
  EXPECT_EQ(one.breakdown.bound(), TimeCause::latency);
  // With its whole tile in flight the copy is bound by bandwidth: the L2's write side, which its
  // fills and stores share (Machine::l2_write_share_of_dram), a little before the DRAM.
  EXPECT_EQ(whole.breakdown.bound(), TimeCause::l2);
}

TEST(LoadsInFlight, AnElementLoopHoldsOnlyItsLoadsInRegisters) {
  const Machine m = h200();
  const Problem p(copy_64x64(4096, 4096));
  // A Triton program holds its whole 64 x 64 tile: 4,096 + 32 x 256 registers, 5 per SM.
  EXPECT_EQ(occupancy(p, m).registers_per_program, 4096 + 32 * 256);
  // One element in flight per thread: (24 + 1) x 256; threads then limit it to 8 per SM.
  const Occupancy loop = occupancy(p, m, std::nullopt, in_flight(1));
  EXPECT_EQ(loop.registers_per_program, 25 * 256);
  EXPECT_EQ(loop.programs_per_sm, 8);
  EXPECT_EQ(loop.limit, OccupancyLimit::threads);
}

TEST(LoadsInFlight, SlowestWarpShiftIsTheExpectedMaximumOfItsWarps) {
  // One warp: nothing to wait for. Two: E[max of 2 standard normals] = 1 / sqrt(pi).
  EXPECT_EQ(slowest_warp_shift(1, 0.31), 0.0);
  EXPECT_NEAR(slowest_warp_shift(2, 1.0), 1 / std::sqrt(std::acos(-1.0)), 1e-4);
  // Eight warps at the measured 0.31: 1.4236 x 0.31.
  EXPECT_NEAR(slowest_warp_shift(8, 0.31), 0.4413, 1e-4);
  EXPECT_EQ(slowest_warp_shift(8, 0), 0.0);
}

TEST(LoadsInFlight, AProgramWaitsForItsSlowestWarp) {
  Machine m = h200();
  m.load_round_cv = 0;
  m.warp_load_cv = 0.31;
  const Problem p(copy_64x64(64, 64));  // one program, 16 rounds of 1 KiB
  TimedOptions opt;
  opt.timing = in_flight(1);
  std::vector<TimedEvent> ev;
  opt.events = &ev;
  const TimedResult r = run_timed(p, m, occupancy(p, m, std::nullopt, opt.timing), opt);
  ASSERT_EQ(ev.size(), 3u);
  const StepCosts& c = r.timing.costs;
  // Its 8 warps' sums of 16 rounds spread by 0.31 x sqrt(16) of a round; the slowest comes
  // 1.4236 sds after the mean: 0.4413 / 4 of a round more for each round.
  EXPECT_NEAR(c.round_slowest_warp, 0.4413 / 4, 1e-4);
  const std::int64_t round = loaded_round_ps(c, 1024.0 / m.sms);
  const std::int64_t slowest = std::llround(static_cast<double>(round) * c.round_slowest_warp);
  EXPECT_NEAR(ev[1].end_ps - ev[1].start_ps, 16 * (round + slowest), 32);  // 1 ps a round each
}

TEST(LoadsInFlight, AnElementLoopsInstructionStreamRunsInSeriesWithItsLoads) {
  Machine m = h200();
  TimingOptions t = in_flight(1);
  t.program_warp_instructions = 54;  // copy_tiled's (kernels/variants.cpp)
  t.load_warp_instructions = 28;
  const Problem p(copy_64x64(64, 64));
  const StepCosts c = step_costs(p, m, t);
  // (54 + 28 x 16 loads) x 5.15 cycles at the FMA clock: 2,585.3 cycles.
  const double cycles = (54 + 28 * 16) * m.stream_issue_cycles;
  EXPECT_NEAR(static_cast<double>(c.stream_ps), cycles / m.fma_clock_hz * 1e12, 1.0);
  // The program's map step is its launch and its stream; its load is issued after both.
  TimedOptions opt;
  opt.timing = t;
  std::vector<TimedEvent> ev;
  opt.events = &ev;
  run_timed(p, m, occupancy(p, m, std::nullopt, t), opt);
  ASSERT_EQ(ev.size(), 3u);
  EXPECT_EQ(ev[0].end_ps - ev[0].start_ps, c.launch_ps + c.stream_ps);
  EXPECT_EQ(ev[0].cause, TimeCause::issue);
  EXPECT_EQ(ev[1].start_ps, ev[0].end_ps);
}

TEST(LoadsInFlight, AOneWaveCopyReadsAtTheWholeRateUntilItsWritesReachDram) {
  // copy_vectorized's 256 x 256 tiles at 8192^2: 1,024 programs, one and a half waves. Each
  // stores its tile after its last round, so the first wave's writes sit in L2 while it reads:
  // its reads get the whole DRAM (the engine's read share), not the half a copy in flow gets.
  // Read at half the rate, then written, it would take ~1.3x the DRAM's time for its bytes.
  const Machine m = h200();
  ProblemSpec s = copy_64x64(8192, 8192);
  s.block_m = s.block_n = 256;
  const Problem p(s);
  TimingOptions t = in_flight(4, 16);
  TimedOptions opt;
  opt.timing = t;
  const TimingSummary r = run_timed(p, m, occupancy(p, m, std::nullopt, t), opt).timing;
  const double dram_ps = 2.0 * 8192 * 8192 * 4 * r.costs.dram_ps_per_byte;
  EXPECT_LT(static_cast<double>(r.kernel_ps), 1.12 * dram_ps);
}

TEST(LoadsInFlight, EachProgramOnASlotWaitsForItsOwnSlowestWarpOnly) {
  // Two programs, one after the other on the one slot of a one-SM machine: the second's load
  // takes what the first's did (its slowest-warp wait is its own, not added to the first's).
  Machine m = h200();
  m.sms = 1;
  m.load_round_cv = 0;
  const Problem p(copy_64x64(64, 128));
  TimedOptions opt;
  opt.timing = in_flight(1);
  std::vector<TimedEvent> ev;
  opt.events = &ev;
  run_timed(p, m, occupancy(p, m, 1, opt.timing), opt);
  std::int64_t load[2] = {-1, -1};
  for (const TimedEvent& e : ev)
    if (e.step == 1) load[e.pid] = e.end_ps - e.start_ps;
  ASSERT_GT(load[0], 0);
  EXPECT_NEAR(load[1], load[0], 16);  // 1 ps a round: the reads' share moves a hair
}

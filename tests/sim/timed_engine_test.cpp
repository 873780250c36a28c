// Timed engine: hand-checkable cases (one program alone, a DRAM-bound copy, bank conflicts scale
// shared-memory time), determinism, and the curriculum's timing lessons (seed 003, seed 001).
#include "sim/timing/timed_engine.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <tuple>

using namespace tilesim::sim;

namespace {

Machine preset(const char* key) {
  return *find_machine(key);
}

// The same machine with every program at the same speed: durations are then hand-checkable.
Machine steady(const char* key) {
  Machine m = preset(key);
  m.dot_time_diffusion_s = m.dot_time_diffusion_miss_s = 0;
  m.load_round_cv = 0;
  return m;
}

ProblemSpec matmul(std::int64_t m, std::int64_t n, std::int64_t k, int bm, int bn, int bk) {
  ProblemSpec s;
  s.m = m, s.n = n, s.k = k;
  s.block_m = bm, s.block_n = bn, s.block_k = bk;
  s.order = LaunchOrder::row_major;
  return s;
}

TimedResult timed(const ProblemSpec& s, const Machine& m, std::vector<TimedEvent>* events = {}) {
  const Problem p(s);
  TimedOptions opt;
  // The engine's mechanics, without Triton's compiler choices (tests/sim/triton_timing_test.cpp).
  opt.timing.triton = false;
  opt.events = events;
  return run_timed(p, m, occupancy(p, m), opt);
}

double tflops(const ProblemSpec& s, const Machine& m) {
  return Problem(s).useful_flops() / timed(s, m).time_s() / 1e12;
}

}  // namespace

TEST(TimedEngine, OneProgramAloneTakesTheSumOfItsSteps) {
  ProblemSpec s = matmul(64, 64, 128, 64, 64, 64);
  s.stages = 1;
  std::vector<TimedEvent> ev;
  const Machine m = steady("h100");
  const TimedResult r = timed(s, m, &ev);
  ASSERT_EQ(ev.size(), 8u);  // map, (load_a, load_b, dot) x 2, store
  const StepCosts& c = r.timing.costs;
  EXPECT_EQ(ev[0].end_ps, c.launch_ps);
  EXPECT_EQ(ev[1].start_ps, ev[0].end_ps);  // loads go out once the program has started
  EXPECT_EQ(ev[3].start_ps, std::max(ev[1].end_ps, ev[2].end_ps));  // dot 0 waits for both
  EXPECT_EQ(ev[3].end_ps - ev[3].start_ps,
            std::max(c.dot_math_ps, c.dot_smem_ps) + c.dot_overhead_ps + c.dot_spill_ps);
  EXPECT_EQ(ev[4].start_ps, ev[3].end_ps);  // stages = 1: the next slab only after the dot
  EXPECT_EQ(ev[6].start_ps, std::max(ev[4].end_ps, ev[5].end_ps));
  EXPECT_EQ(ev[7].start_ps, ev[6].end_ps);  // the store follows the last dot
  EXPECT_EQ(r.timing.kernel_ps, ev[7].end_ps + c.l2_hit_latency_ps);
  // Every load missed (nothing was in L2): at least the DRAM latency each.
  EXPECT_GE(ev[1].end_ps - ev[1].start_ps, c.dram_latency_ps);
  EXPECT_NEAR(r.timing.breakdown.total(), r.time_s(), 1e-12);
}

// An mma.sync dot waits for its warp's own ldmatrix: operand reads and math add up; wgmma reads
// shared memory itself and overlaps them (the larger sets the pace).
TEST(TimedEngine, AnMmaSyncDotTakesItsOperandReadsPlusItsMath) {
  ProblemSpec s = matmul(64, 64, 128, 64, 64, 64);
  s.stages = 1;
  const Machine m = steady("h100");
  const Problem p(s);
  for (const MathPath path : {MathPath::mma_sync, MathPath::wgmma}) {
    std::vector<TimedEvent> ev;
    TimedOptions opt;
    opt.timing.path = path;
    opt.timing.triton = false;  // one stage: Triton would stage the tiles through registers
    opt.events = &ev;
    const StepCosts& c = run_timed(p, m, occupancy(p, m), opt).timing.costs;
    ASSERT_EQ(ev.size(), 8u);
    ASSERT_GT(c.dot_smem_ps, 0);
    const std::int64_t core = path == MathPath::mma_sync ? c.dot_math_ps + c.dot_smem_ps
                                                         : std::max(c.dot_math_ps, c.dot_smem_ps);
    EXPECT_EQ(ev[3].end_ps - ev[3].start_ps, core + c.dot_overhead_ps + c.dot_spill_ps)
        << to_string(path);
  }
}

// The schedulers are shared by the programs an SM holds now, not by the occupancy limit: alone
// on its SM a program's issue-bound dot takes the time of 2 warps a scheduler (0.73 a cycle at
// the preset's interval); with a second program resident, that of 4 (the 0.8 ceiling).
TEST(TimedEngine, ADotIssuesAtTheRateOfTheProgramsOnItsSmNow) {
  Machine m = steady("h100");
  m.sms = 1;
  TimedOptions opt;
  opt.timing.path = MathPath::fma;
  opt.timing.warp_instructions = 20000;
  for (const int programs : {1, 2}) {
    ProblemSpec s = matmul(64 * programs, 64, 128, 64, 64, 64);
    s.dtype = DType::fp32;
    s.stages = 1;
    const Problem p(s);
    std::vector<TimedEvent> ev;
    opt.events = &ev;
    const Occupancy occ = occupancy(p, m, 2);
    const TimedResult r = run_timed(p, m, occ, opt);
    const StepCosts& c = r.timing.costs;
    ASSERT_EQ(c.dot_issue_ps_by_residents.size(), 2u);
    EXPECT_LT(c.issue_ps(2), 2 * c.issue_ps(1));  // two share faster than one runs alone
    const auto first_dot = std::find_if(ev.begin(), ev.end(), [](const TimedEvent& e) {
      return e.cause == TimeCause::issue;  // only an issue-bound dot has this cause
    });
    ASSERT_NE(first_dot, ev.end());
    EXPECT_EQ(first_dot->end_ps - first_dot->start_ps, c.issue_ps(programs) + c.dot_spill_ps)
        << programs;
  }
}

// A program whose loop issues more instructions than its math takes: the dot lasts as long as
// its warps take to issue them, and the breakdown names instruction issue as the bound.
TEST(TimedEngine, ADotIsNoFasterThanItsWarpsIssueItsInstructions) {
  ProblemSpec s = matmul(64, 64, 128, 64, 64, 64);
  s.dtype = DType::fp32;
  s.stages = 1;
  const Machine m = steady("h100");
  const Problem p(s);
  std::vector<TimedEvent> ev;
  TimedOptions opt;
  opt.timing.path = MathPath::fma;
  opt.timing.warp_instructions = 20000;
  opt.events = &ev;
  const TimedResult r = run_timed(p, m, occupancy(p, m), opt);
  const StepCosts& c = r.timing.costs;
  ASSERT_EQ(ev.size(), 8u);
  // One program: alone on its SM, its dots issue at the one-program rate.
  ASSERT_GT(c.issue_ps(1), std::max(c.dot_math_ps, c.dot_smem_ps) + c.dot_overhead_ps);
  EXPECT_EQ(ev[3].end_ps - ev[3].start_ps, c.issue_ps(1) + c.dot_spill_ps);
  EXPECT_EQ(ev[3].cause, TimeCause::issue);
  // (One program on one SM: the others idle, so the tail is the bound; of the SM's own time,
  // issue is all of the dots.)
  EXPECT_GT(r.timing.breakdown[TimeCause::issue], 0);
  ASSERT_EQ(c.dot_spill_ps, 0);
  EXPECT_EQ(r.timing.breakdown[TimeCause::math], 0);
  EXPECT_NEAR(r.timing.breakdown.total(), r.time_s(), 1e-12);
}

// Two programs share one SM's dot pipe by age: with both always ready, the older (pid 0) gets
// older_program_share of the dots (0.6, measured on an H200: MODEL_HISTORY.md), so of 60 K steps
// each it is done when 60 + 40 of the 120 are, 5/6 of the way; with a share of 1 the older runs
// as if alone (1/2), with 0.5 the two alternate and finish together. This uneven share is what
// makes row-major waves drift apart and re-read B (docs/MODEL.md).
TEST(TimedEngine, TheOlderProgramGetsItsShareOfTheDotPipe) {
  ProblemSpec pair = matmul(128, 64, 60 * 64, 64, 64, 64);  // pids 0 and 1, same SM
  pair.stages = 4;  // the loads hide behind the dots: the SM's pipes are what the two share
  const Problem p(pair);
  for (const auto& [share, older_done] :
       {std::pair{0.6, 100.0 / 120}, std::pair{1.0, 60.0 / 120}, std::pair{0.5, 1.0}}) {
    Machine one_sm = steady("h100");
    one_sm.sms = 1;
    one_sm.older_program_share = share;
    // (Without their slowest warp's wait, 4 stages' misses stay behind the dots, as this needs.)
    one_sm.warp_load_cv = 0;
    TimedOptions engine_only;  // (no launch overhead: the ratio is of times from 0)
    engine_only.timing.triton = false;
    const TimedResult r = run_timed(p, one_sm, occupancy(p, one_sm, 2), engine_only);
    ASSERT_EQ(r.programs.size(), 2u);
    const double older = static_cast<double>(r.programs[0].end_ps);
    const double younger = static_cast<double>(r.programs[1].end_ps);
    // (Each program's first loads and last store are outside the shared part: 1-2 % here.)
    EXPECT_NEAR(older / younger, older_done, 0.03) << share;
  }
}

// With one stage a program waits for its tiles at every K step; a second program on the SM
// computes meanwhile, so the two finish within a quarter of one program's time alone (the engine
// once booked each tile's shared-memory write at its future arrival, which held back the other
// program's dots: the pair then took 1.9x, checked).
TEST(TimedEngine, TwoProgramsOnAnSmHideEachOthersLoadLatency) {
  Machine one_sm = steady("h100");
  one_sm.sms = 1;
  ProblemSpec alone = matmul(64, 64, 1024, 64, 64, 64);
  ProblemSpec pair = matmul(128, 64, 1024, 64, 64, 64);
  alone.stages = pair.stages = 1;
  const Problem p1(alone), p2(pair);
  const std::int64_t t1 = run_timed(p1, one_sm, occupancy(p1, one_sm, 2)).timing.kernel_ps;
  const std::int64_t t2 = run_timed(p2, one_sm, occupancy(p2, one_sm, 2)).timing.kernel_ps;
  EXPECT_LT(t2, t1 * 5 / 4);
}

TEST(TimedEngine, PipelineStagesOverlapLoadsWithTheDot) {
  ProblemSpec s = matmul(64, 64, 512, 64, 64, 64);
  std::vector<TimedEvent> one, two;
  s.stages = 1;
  const Machine m = steady("h100");
  const auto t1 = timed(s, m, &one).timing.kernel_ps;
  s.stages = 2;
  const auto t2 = timed(s, m, &two).timing.kernel_ps;
  EXPECT_LT(t2, t1);
  // With two stages, load_a(1) goes out before dot(0) ends.
  EXPECT_LT(two[4].start_ps, two[3].end_ps);
}

TEST(TimedEngine, DramBoundCopyReachesThePresetBandwidth) {
  ProblemSpec s;
  s.kernel = Kernel::copy;
  s.m = s.n = 8192;
  s.dtype = DType::fp32;
  s.block_m = s.block_n = 64;
  for (const char* key : {"h100", "h200", "a100"}) {
    const Machine m = preset(key);
    const TimedResult r = timed(s, m);
    const double bytes = static_cast<double>(r.counters.dram_read_bytes) +
                         static_cast<double>(r.counters.dram_write_bytes_in_kernel());
    const double sustained = m.dram_bytes_per_s * m.dram_efficiency;
    EXPECT_NEAR(bytes / r.time_s() / sustained, 1.0, 0.05) << key;
    // The H200's L2 write side (0.90 of its DRAM's rate, measured) carries the fills and the
    // stores just above the DRAM's sustained 0.87: either may be the last to finish.
    const TimeCause bound = r.timing.breakdown.bound();
    EXPECT_TRUE(bound == TimeCause::dram || (std::string(key) == "h200" && bound == TimeCause::l2))
        << key;
  }
}

TEST(TimedEngine, SharedMemoryTimeScalesWithTheBankConflictDegree) {
  // A 32 x 32 fp32 tile read by column: 32 lanes in one bank (degree 32); fp16 packs two
  // elements per word (degree 16). Each step's time is its conflict-free time x its degree.
  for (const DType dt : {DType::fp32, DType::fp16}) {
    ProblemSpec s;
    s.kernel = Kernel::transpose;
    s.m = s.n = 1024;
    s.dtype = dt;
    s.block_m = s.block_n = 32;
    TimingOptions cuda;  // a CUDA rung's plain tile (Triton's conversion tile is swizzled)
    cuda.triton = false;
    const StepCosts c = step_costs(Problem(s), preset("h100"), cuda);
    EXPECT_EQ(c.smem_load_degree, dt == DType::fp32 ? 32 : 16);
    EXPECT_NEAR(static_cast<double>(c.transpose_smem_ps) / c.transpose_smem_free_ps,
                c.smem_load_degree, 0.01);
  }
  // Twice the degree, twice the time: the same wavefronts at degree 32 vs 16.
  ProblemSpec s;
  s.kernel = Kernel::transpose;
  s.m = s.n = 1024;
  s.block_m = s.block_n = 32;
  s.dtype = DType::fp32;
  const StepCosts c32 = step_costs(Problem(s), preset("h100"));
  EXPECT_NEAR(static_cast<double>(c32.transpose_smem_ps) /
                  (2.0 * c32.transpose_smem_free_ps * (c32.smem_load_degree / 2)),
              1.0, 1e-4);
  TimingOptions swizzled;
  swizzled.layout = SmemLayout::swizzled;
  const StepCosts c1 = step_costs(Problem(s), preset("h100"), swizzled);
  EXPECT_EQ(c1.transpose_smem_ps, c1.transpose_smem_free_ps);
}

// Transposes on one SM share its shared-memory pipe equally (processor sharing): two tiles of
// W ps each, joining at tA <= tB, keep the pipe busy for 2W (the later ends at tA + 2W) and the
// earlier ends at tB + 2 (W - (tB - tA)); alone, a tile takes W: its write plus its column reads.
TEST(TimedEngine, TransposesOnOneSmShareItsSharedMemoryPipe) {
  Machine one_sm = steady("h100");
  one_sm.sms = 1;
  one_sm.program_dispatch_cycles = 0;  // both start at once (the next test spaces them)
  ProblemSpec s;
  s.kernel = Kernel::transpose;
  s.dtype = DType::fp32;
  s.block_m = s.block_n = 32;
  s.n = 32;
  const auto transposes = [&](std::int64_t m, StepCosts* c) {
    s.m = m;
    const Problem p(s);
    std::vector<TimedEvent> ev;
    TimedOptions opt;
    opt.events = &ev;
    const TimedResult r = run_timed(p, one_sm, occupancy(p, one_sm, 2), opt);
    *c = r.timing.costs;
    std::vector<TimedEvent> out;
    for (const TimedEvent& e : ev)
      if (e.step == 2) out.push_back(e);  // map, load, transpose, store
    std::sort(out.begin(), out.end(),
              [](const TimedEvent& a, const TimedEvent& b) { return a.start_ps < b.start_ps; });
    return out;
  };
  StepCosts c;
  const std::vector<TimedEvent> alone = transposes(32, &c);
  const std::int64_t w = c.load_a_smem_ps + c.transpose_smem_ps;
  ASSERT_EQ(alone.size(), 1u);
  EXPECT_EQ(alone[0].end_ps - alone[0].start_ps, w);
  const std::vector<TimedEvent> pair = transposes(64, &c);
  ASSERT_EQ(pair.size(), 2u);
  const std::int64_t ta = pair[0].start_ps, tb = pair[1].start_ps;
  ASSERT_LT(tb - ta, w);  // they overlap: the second's load arrived while the first read
  EXPECT_NEAR(static_cast<double>(pair[1].end_ps), static_cast<double>(ta + 2 * w), 2.0);
  EXPECT_NEAR(static_cast<double>(pair[0].end_ps), static_cast<double>(tb + 2 * (w - (tb - ta))),
              2.0);
}

// An SM takes one new program a dispatch interval, however many slots it has free (the block
// launch probe: 82 ns a block an SM with 8 slots, though a slot turns over in 0.23 us). 256
// copies of a 16 x 16 fp32 tile on one SM, 16 slots: their starts are at least the interval
// apart, so the copy takes at least 256 intervals, and longer than with no such limit.
TEST(TimedEngine, AnSmStartsOneProgramADispatchInterval) {
  Machine one_sm = steady("h100");
  one_sm.sms = 1;
  ProblemSpec s;
  s.kernel = Kernel::copy;
  s.dtype = DType::fp32;
  s.block_m = s.block_n = 16;
  s.m = s.n = 256;
  const Problem p(s);
  const auto run = [&](const Machine& m) { return run_timed(p, m, occupancy(p, m, 16)); };
  const TimedResult limited = run(one_sm);
  const std::int64_t interval = limited.timing.costs.dispatch_ps;
  ASSERT_GT(interval, 0);
  // A program's own start: its span starts when its slot came free, plus its wait for the SM.
  std::vector<std::int64_t> starts;
  for (const ProgramSpan& sp : limited.programs)
    starts.push_back(sp.start_ps + sp.time_by_cause[static_cast<std::size_t>(TimeCause::launch)] -
                     limited.timing.costs.launch_ps);
  std::sort(starts.begin(), starts.end());
  ASSERT_EQ(starts.size(), 256u);
  for (std::size_t i = 1; i < starts.size(); ++i)
    EXPECT_GE(starts[i] - starts[i - 1], interval - 1) << "program " << i;
  EXPECT_GE(limited.time_s() * 1e12, 255.0 * static_cast<double>(interval));
  Machine free_sm = one_sm;
  free_sm.program_dispatch_cycles = 0;
  EXPECT_LT(run(free_sm).time_s(), 0.8 * limited.time_s());
}

// A load round waits at the SM's load/store pipe behind one read instruction per warp of every
// transpose reading there: 32 x 32 fp32 tiles, 8 warps, 4 elements per thread: 8 reads of 32
// wavefronts each (column reads, degree 32) per program, 256 cycles; 8 of one wavefront padded.
TEST(TimedEngine, ALoadRoundWaitsOneTurnPerTransposeReadingOnItsSm) {
  ProblemSpec s;
  s.kernel = Kernel::transpose;
  s.m = s.n = 4096;
  s.dtype = DType::fp32;
  s.block_m = s.block_n = 32;
  s.num_warps = 8;
  TimingOptions cuda, padded;  // CUDA rungs' tiles: plain, and padded
  cuda.triton = padded.triton = false;
  padded.layout = SmemLayout::swizzled;
  const Machine m = steady("h100");
  const StepCosts tiled = step_costs(Problem(s), m, cuda), free = step_costs(Problem(s), m, padded);
  EXPECT_EQ(tiled.smem_turn_ps, tiled.transpose_smem_ps / 4);
  EXPECT_NEAR(static_cast<double>(tiled.smem_turn_ps) / free.smem_turn_ps, 32.0, 0.1);
  // Each reader adds its turn to a round; none: the DRAM's loaded latency alone.
  for (const double n : {0.0, 4096.0, 65536.0}) {
    const std::int64_t dram = loaded_round_ps(tiled, n);
    EXPECT_EQ(queued_round_ps(tiled, dram, 0), dram);
    EXPECT_EQ(queued_round_ps(tiled, dram, 3), dram + 3 * tiled.smem_turn_ps);
    EXPECT_EQ(queued_round_ps(free, loaded_round_ps(free, n), 3),
              loaded_round_ps(free, n) + 3 * free.smem_turn_ps);
  }
}

// In the engine: transposes on one SM, two at a time, whose loads vary (load_round_cv, per
// program and round: the same draws in both runs) so that one reads while the other's rounds go
// out. Each program's load takes a whole number of reading turns (256 cycles; 0 to 4 rounds, one
// reader each) longer with the plain layout than with the padded one (whose turn is 32 times
// shorter), and some load waits at least one.
TEST(TimedEngine, ATransposesLoadRoundsWaitForItsNeighboursReads) {
  Machine one_sm = steady("h100");
  one_sm.sms = 1;
  one_sm.load_round_cv = 0.3;
  ProblemSpec s;
  s.kernel = Kernel::transpose;
  s.dtype = DType::fp32;
  s.block_m = s.block_n = 32;
  s.num_warps = 8;
  s.m = 32 * 16;
  s.n = 32;
  const auto loads = [&](SmemLayout layout, StepCosts* c) {
    TimingOptions t;
    t.loads_in_flight = 1;
    t.layout = layout;
    const Problem p(s);
    std::vector<TimedEvent> ev;
    TimedOptions opt;
    opt.events = &ev;
    opt.timing = t;
    *c = run_timed(p, one_sm, occupancy(p, one_sm, 2, t), opt).timing.costs;
    std::vector<std::int64_t> d(static_cast<std::size_t>(p.programs()));
    for (const TimedEvent& e : ev)
      if (e.step == 1) d[static_cast<std::size_t>(e.pid)] = e.end_ps - e.start_ps;
    return d;
  };
  StepCosts plain, padded;
  const std::vector<std::int64_t> with = loads(SmemLayout::plain, &plain);
  const std::vector<std::int64_t> without = loads(SmemLayout::swizzled, &padded);
  ASSERT_EQ(plain.load_rounds, 4);
  long waited = 0;
  for (std::size_t i = 0; i < with.size(); ++i) {
    const double turns = static_cast<double>(with[i] - without[i]) / plain.smem_turn_ps;
    EXPECT_NEAR(turns, std::round(turns), 0.05) << "pid " << i;
    EXPECT_GE(std::lround(turns), 0) << "pid " << i;
    EXPECT_LE(std::lround(turns), 4) << "pid " << i;
    waited += std::lround(turns);
  }
  EXPECT_GE(waited, 1);
}

// A copy's or transpose's load rounds vary: each takes its loaded latency x (1 + cv x g), g of
// mean 0 and variance 1 per (pid, round), so a 4-round load varies by cv / 2. One program per
// SM (132 tiles of 32 x 32 FP32, 8 warps: 4 rounds each): noisy over quiet load durations have
// mean ~1 and sd ~0.19 / 2 (the estimate's own sd is about 6 %).
TEST(TimedEngine, ACopyOrTransposesLoadRoundsVaryByLoadRoundCv) {
  ProblemSpec s;
  s.kernel = Kernel::transpose;
  s.dtype = DType::fp32;
  s.block_m = s.block_n = 32;
  s.num_warps = 8;
  s.m = 32 * 132;
  s.n = 32;
  TimingOptions t;
  t.loads_in_flight = 1;
  Machine quiet = steady("h100"), noisy = quiet;
  noisy.load_round_cv = 0.19;
  const auto loads = [&](const Machine& m) {
    const Problem p(s);
    std::vector<TimedEvent> ev;
    TimedOptions opt;
    opt.events = &ev;
    opt.timing = t;
    EXPECT_EQ(run_timed(p, m, occupancy(p, m, 1, t), opt).timing.costs.load_rounds, 4);
    std::vector<double> d(static_cast<std::size_t>(p.programs()));
    for (const TimedEvent& e : ev)
      if (e.step == 1)
        d[static_cast<std::size_t>(e.pid)] = static_cast<double>(e.end_ps - e.start_ps);
    return d;
  };
  const std::vector<double> a = loads(quiet), b = loads(noisy);
  double sum = 0, sq = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    sum += b[i] / a[i], sq += (b[i] / a[i]) * (b[i] / a[i]);
  const double n = static_cast<double>(a.size()), mean = sum / n;
  EXPECT_NEAR(mean, 1.0, 0.03);
  EXPECT_NEAR(std::sqrt(sq / n - mean * mean), 0.095, 0.02);
}

// Programs' time spread: every K step of a latency-paced dot gets noise of variance D times its
// duration (mean 0), so a program's time varies by D times its length: a random walk. One wave
// of one FP16 program per SM (132 programs of 128 K steps), D = 1e-7 s and no miss term: dot by
// dot, noisy minus noiseless has mean ~0 and variance D x (the noiseless duration) (16,896 dots:
// the estimate's own sd is about 1 %).
TEST(TimedEngine, EveryLatencyPacedDotGetsNoiseOfVarianceDTimesItsDuration) {
  ProblemSpec s = matmul(128 * 12, 128 * 11, 128 * 64, 128, 128, 64);
  s.stages = 3;
  const Problem p(s);
  const Machine quiet = steady("h100");
  Machine noisy = quiet;
  noisy.dot_time_diffusion_s = 1e-7;
  std::vector<TimedEvent> e0, e1;
  TimedOptions opt;
  opt.events = &e0;
  run_timed(p, quiet, occupancy(p, quiet, 1), opt);
  opt.events = &e1;
  run_timed(p, noisy, occupancy(p, noisy, 1), opt);
  const auto key = [](const TimedEvent& e) { return std::pair{e.pid, e.step}; };
  const auto by_key = [&](const TimedEvent& a, const TimedEvent& b) { return key(a) < key(b); };
  std::sort(e0.begin(), e0.end(), by_key);
  std::sort(e1.begin(), e1.end(), by_key);
  ASSERT_EQ(e0.size(), e1.size());
  double n = 0, mean = 0, var = 0, rel = 0;
  for (std::size_t i = 0; i < e0.size(); ++i) {
    if (e0[i].cause != TimeCause::math && e0[i].cause != TimeCause::smem) continue;  // dots
    ASSERT_EQ(key(e0[i]), key(e1[i]));
    const double t = static_cast<double>(e0[i].end_ps - e0[i].start_ps) * 1e-12;
    const double d = static_cast<double>(e1[i].end_ps - e1[i].start_ps) * 1e-12 - t;
    n += 1, mean += d / t, var += d * d / (noisy.dot_time_diffusion_s * t);
    rel += d / std::sqrt(noisy.dot_time_diffusion_s * t);
  }
  ASSERT_EQ(n, 132 * 128);
  EXPECT_NEAR(rel / n, 0.0, 0.03);  // g's mean, in its sd
  EXPECT_NEAR(var / n, 1.0, 0.05);  // g's variance
}

// An issue-bound dot gets no noise: its SM fills a stalled warp's issue slots from the other
// warps (FP32 register_blocked on the GPU: its SMs' phases stay within ~32 us; MODEL_HISTORY.md).
TEST(TimedEngine, AnIssueBoundDotGetsNoTimeNoise) {
  ProblemSpec s = matmul(64, 64, 128, 64, 64, 64);
  s.dtype = DType::fp32;
  s.stages = 1;
  const Problem p(s);
  TimedOptions opt;
  opt.timing.path = MathPath::fma;
  opt.timing.warp_instructions = 20000;
  Machine quiet = steady("h100"), noisy = quiet;
  noisy.dot_time_diffusion_s = noisy.dot_time_diffusion_miss_s = 1e-6;
  EXPECT_EQ(run_timed(p, quiet, occupancy(p, quiet), opt).timing.kernel_ps,
            run_timed(p, noisy, occupancy(p, noisy), opt).timing.kernel_ps);
  ProblemSpec tensor = s;  // an FP16 tensor-core dot, not issue-bound: now it varies
  tensor.dtype = DType::fp16;
  tensor.stages = 3;  // (one stage: Triton stages the tiles through registers, issue-bound)
  const Problem q(tensor);
  EXPECT_NE(run_timed(q, quiet, occupancy(q, quiet)).timing.kernel_ps,
            run_timed(q, noisy, occupancy(q, noisy)).timing.kernel_ps);
}

TEST(TimedEngine, SameScenarioTwiceGivesIdenticalTimelines) {
  ProblemSpec s = matmul(1000, 777, 333, 64, 64, 32);
  s.order = LaunchOrder::grouped;
  s.group_size_m = 3;
  std::vector<TimedEvent> a, b;
  const Machine m = preset("h200");
  const TimedResult ra = timed(s, m, &a), rb = timed(s, m, &b);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i].pid, b[i].pid) << i;
    ASSERT_EQ(a[i].step, b[i].step) << i;
    ASSERT_EQ(a[i].start_ps, b[i].start_ps) << i;
    ASSERT_EQ(a[i].end_ps, b[i].end_ps) << i;
  }
  EXPECT_EQ(ra.timing.kernel_ps, rb.timing.kernel_ps);
  EXPECT_EQ(ra.counters, rb.counters);
}

TEST(TimedEngine, EventsOfAProgramStayInProgramOrder) {
  ProblemSpec s = matmul(512, 512, 512, 64, 64, 32);
  s.stages = 3;
  std::vector<TimedEvent> ev;
  timed(s, preset("h100"), &ev);
  std::vector<std::int32_t> next(64, 0);
  for (const auto& e : ev) {
    ASSERT_EQ(e.step, next[static_cast<std::size_t>(e.pid)]) << "pid " << e.pid;
    ++next[static_cast<std::size_t>(e.pid)];
  }
}

// Seed 003: B stored transposed and staged so that its shared-memory reads conflict. On the T4
// preset the seed measured 130.8 ms vs 261.9 ms for its 8192 x 6144 x 4096 product (X (M, N) @ Y
// (N, K) in the seed's names: here M = 8192, K = 6144 reduced, N = 4096 output columns); the model
// predicts 96 ms vs 181 ms there (1.88x; the seed: 2.00x, docs/MODEL_HISTORY.md).
TEST(TimedEngine, Seed003TransposedBNearlyDoublesTheTimeOnTheT4) {
  ProblemSpec s = matmul(8192, 4096, 6144, 32, 32, 32);
  s.dtype = DType::fp32;
  const Machine t4 = preset("t4");
  const double plain = timed(s, t4).time_s();
  s.b_layout = BLayout::transposed;
  const double conflicting = timed(s, t4).time_s();
  EXPECT_GE(conflicting / plain, 1.8);
  // Predictions (nothing here is fitted to the seed); docs/FIDELITY.md reports both rows.
  EXPECT_NEAR(plain / 130.8e-3, 1.0, 0.35);
  EXPECT_NEAR(conflicting / 261.9e-3, 1.0, 0.35);
}

// The same lesson on an H100 in FP32 FMA: the conflicting B^T layout more than doubles the time
// (the dot is shared-memory bound, and the conflicts multiply its wavefronts).
TEST(TimedEngine, Seed003TransposedBMoreThanDoublesTheFmaTimeOnTheH100) {
  ProblemSpec s = matmul(2048, 2048, 2048, 32, 32, 32);
  s.dtype = DType::fp32;
  const Machine h100 = preset("h100");
  const double plain = timed(s, h100).time_s();
  s.b_layout = BLayout::transposed;
  EXPECT_GE(timed(s, h100).time_s() / plain, 2.0);
}

// Seed 001's chart (fp16): TFLOP/s rises from 32 x 32 to 128 x 128 blocks and falls once a
// program's tiles no longer fit its registers (256 x 256 with 4 warps spills).
TEST(TimedEngine, Seed001ThroughputRisesWithBlockSizeThenFalls) {
  const Machine m = preset("h100");
  const auto at = [&](int bm, int bn, int bk) {
    ProblemSpec s = matmul(4096, 4096, 4096, bm, bn, bk);
    s.order = LaunchOrder::grouped;
    s.group_size_m = 8;
    s.stages = 2;
    return tflops(s, m);
  };
  const double t32 = at(32, 32, 32), t64 = at(64, 64, 32), t128 = at(128, 128, 32);
  const double t256 = at(256, 256, 64);
  EXPECT_LT(t32, t64);
  EXPECT_LT(t64, t128);
  EXPECT_LT(t256, t128);
}

// What Triton's compiler choices (sim/compiler) do to a Triton program's predicted time: a tile
// staged through registers leaves the loop unpipelined and costs instructions; a row-major B in
// tf32 is copied into a K-major tile 4 bytes at a time, with bank conflicts.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <tuple>
#include <vector>

#include "sim/sim.hpp"

namespace {

using namespace tilesim::sim;

ProblemSpec tutorial(std::int64_t m, std::int64_t n, std::int64_t k, DType d) {
  ProblemSpec s;
  s.m = m, s.n = n, s.k = k;
  s.dtype = d;
  s.block_m = s.block_n = 128;
  s.block_k = d == DType::fp32 ? 32 : 64;
  s.num_warps = 8;
  s.stages = 3;
  s.group_size_m = 8;
  s.boundary = Boundary::wrap;
  s.input_precision = InputPrecision::tf32;
  return s;
}

StepCosts costs(const ProblemSpec& s, bool triton = true) {
  const Problem p(s);
  const Machine m = *find_machine("h100");
  TimingOptions t;
  t.triton = triton;
  return step_costs(p, m, t, occupancy(p, m, std::nullopt, t).programs_per_sm);
}

double seconds(const ProblemSpec& s) {
  const Problem p(s);
  const Machine m = *find_machine("h100");
  return run_timed(p, m, occupancy(p, m)).time_s();
}

// One program's dot ends and A-load starts, by K step, from a timed run's events.
struct KSteps {
  std::map<std::int64_t, std::int64_t> dot_end, load_a_start;
};
KSteps k_steps(const Problem& p, const std::vector<TimedEvent>& events, int pid) {
  KSteps out;
  for (const TimedEvent& ev : events) {
    if (ev.pid != pid) continue;
    std::int64_t k = 0;
    const StepOp op = step_op(p, ev.step, &k);
    if (op == StepOp::dot) out.dot_end[k] = ev.end_ps;
    if (op == StepOp::load_a) out.load_a_start[k] = ev.start_ps;
  }
  return out;
}

TEST(TritonTiming, AnOperandStagedThroughRegistersLeavesTheLoopUnpipelined) {
  // K = 2052 is not a multiple of 16: A (stride K) is loaded 2 bytes at a time with ld.global.
  const StepCosts aligned = costs(tutorial(1024, 1024, 2048, DType::fp16));
  const StepCosts odd = costs(tutorial(1024, 1024, 2052, DType::fp16));
  EXPECT_EQ(aligned.pipeline_stages, 3);
  EXPECT_EQ(odd.pipeline_stages, 1);
  EXPECT_EQ(aligned.dot_warp_instructions, 0);  // a tensor-core dot: no issue limit
  EXPECT_EQ(aligned.staged_issue_ps, 0);
  // The staged K step's instructions, in series with the dot (not inside it): 44.6 + 4.05 x 32
  // (A's 128 x 64 tile in 2-byte loads over 8 warps) = 174.2 a warp; the program's 8 warps, two
  // a scheduler, each issuing once every 2.74 cycles: 477 cycles (at the pipes' clock).
  EXPECT_EQ(odd.dot_warp_instructions, 0);
  EXPECT_NEAR(static_cast<double>(odd.staged_issue_ps),
              (44.6 + 4.05 * 32) * 8 / (4 * 2 / 2.74) / odd.pipe_clock_hz * 1e12, 1.0);
  EXPECT_GT(odd.load_a_smem_ps, aligned.load_a_smem_ps);
  // Without Triton's choices (a CUDA rung's description) the odd size changes nothing.
  EXPECT_EQ(costs(tutorial(1024, 1024, 2052, DType::fp16), false).pipeline_stages, 3);
  EXPECT_GT(seconds(tutorial(1024, 1024, 2052, DType::fp16)),
            1.5 * seconds(tutorial(1024, 1024, 2048, DType::fp16)));
}

// The timed engine runs a staged loop's instructions between dot k - 1's end and load k's issue,
// and books that time as issue: one 128 x 128 program, A staged (K = 2052: 33 K steps).
TEST(TritonTiming, AStagedLoopIssuesItsInstructionsBetweenTheDotAndTheNextLoads) {
  const ProblemSpec s = tutorial(128, 128, 2052, DType::fp16);
  const Problem p(s);
  const Machine m = *find_machine("h100");
  const Occupancy occ = occupancy(p, m);
  const StepCosts c = step_costs(p, m, TimingOptions{}, occ.programs_per_sm);
  ASSERT_GT(c.staged_issue_ps, 0);
  std::vector<TimedEvent> events;
  TimedOptions opt;
  opt.events = &events;
  const TimedResult r = run_timed(p, m, occ, opt);
  auto [dot_end, load_a_start] = k_steps(p, events, 0);  // one program
  ASSERT_EQ(load_a_start.size(), 33u);
  for (std::int64_t k = 1; k < 33; ++k)
    EXPECT_EQ(load_a_start[k], dot_end[k - 1] + c.staged_issue_ps) << "K step " << k;
  // Each K step's wait for its tiles starts with the instructions' issue (the dot itself has no
  // issue limit here: a tensor-core dot).
  EXPECT_EQ(c.dot_warp_instructions, 0);
  EXPECT_EQ(r.programs.at(0).time_by_cause[static_cast<std::size_t>(TimeCause::issue)],
            33 * c.staged_issue_ps);
}

// Where the loop's local lines stay in the L1 the carveout leaves, kLocalL1ResidentHitShare of
// the reloads cost the L1's latency: 128 x 256 x 64 at 8 warps, 3001^3 on an H200 (one program
// an SM, 48 KiB of buffers: 64 KiB carved, 192 KiB of L1 for 31 KiB of reloaded lines and 48 KiB
// of a K step's tiles; ncu: 82.8 % of its local loads hit, assets/measured/ncu_spill_fit_h200.csv).
TEST(TritonTiming, SpilledOffsetsThatStayInTheL1AreReloadedAtItsLatency) {
  ProblemSpec s = tutorial(3001, 3001, 3001, DType::fp16);
  s.block_n = 256;
  const Problem p(s);
  const Machine m = *find_machine("h200");
  const TritonChoices t = triton_choices(p, m);
  ASSERT_EQ(t.a.path, LoadPath::ld_global);
  EXPECT_EQ(t.loop_local_loads, 31);
  const Occupancy occ = occupancy(p, m);
  ASSERT_EQ(occ.programs_per_sm, 1);
  EXPECT_EQ(occ.carveout_bytes, 64 << 10);
  const StepCosts c = step_costs(p, m, TimingOptions{}, occ.programs_per_sm);
  const double l1_ps = std::round(m.l1_hit_latency_cycles * 1e12 / m.sm_clock_hz);
  const double reload = kLocalL1ResidentHitShare * l1_ps +
                        (1 - kLocalL1ResidentHitShare) * static_cast<double>(c.l2_hit_latency_ps);
  EXPECT_NEAR(static_cast<double>(c.staged_reload_ps), 31.0 * reload / kSpillReloadsInFlight, 1.0);
  // Under a third of the L2 price.
  EXPECT_LT(3 * c.staged_reload_ps,
            std::llround(31.0 * static_cast<double>(c.l2_hit_latency_ps) / kSpillReloadsInFlight));
}

// Past 255 registers a staged wgmma loop reloads its loads' spilled offsets every K step
// (TritonChoices::loop_local_loads): one round trip each, kSpillReloadsInFlight at a time,
// after the instructions' issue and before load k goes out; the engine books the wait as
// latency. 128 x 128 x 64 at 4 warps, both operands 2-byte ld.global (K = 2052, N = 130): 128
// accumulator registers (two m64n128 fragments, both kept) and 64 accesses each of A and B a
// thread: 128 + 2 x 64 + 0.875 x 64 + 38 - 255 = 95 reloads, each an L2 round trip: two programs
// an SM, 32 KiB each, leave 124 KiB of L1 (132 carved), and their 95 KiB of reloaded lines with
// 64 KiB of a K step's tiles do not fit.
TEST(TritonTiming, SpilledOffsetsAreReloadedBeforeEachKStepsLoads) {
  ProblemSpec s = tutorial(128, 130, 2052, DType::fp16);
  s.num_warps = 4;
  const Problem p(s);
  const Machine m = *find_machine("h100");
  const TritonChoices t = triton_choices(p, m);
  ASSERT_EQ(t.b.path, LoadPath::ld_global);
  EXPECT_EQ(t.spilled_accumulators, 0);
  EXPECT_EQ(t.loop_local_loads, 95);
  const Occupancy occ = occupancy(p, m);
  const StepCosts c = step_costs(p, m, TimingOptions{}, occ.programs_per_sm);
  EXPECT_EQ(c.dot_spill_ps, 0);  // no fragment spills: the reloads are all the spills' time
  EXPECT_NEAR(static_cast<double>(c.staged_reload_ps),
              95.0 * static_cast<double>(c.l2_hit_latency_ps) / kSpillReloadsInFlight, 1.0);
  std::vector<TimedEvent> events;
  TimedOptions opt;
  opt.events = &events;
  const TimedResult r = run_timed(p, m, occ, opt);
  auto [dot_end, load_a_start] = k_steps(p, events, 0);  // program 0's
  ASSERT_EQ(load_a_start.size(), 33u);
  for (std::int64_t k = 1; k < 33; ++k)
    EXPECT_EQ(load_a_start[k], dot_end[k - 1] + c.staged_issue_ps + c.staged_reload_ps)
        << "K step " << k;
  // Booked once a K step (32 after the first), beside the first K step's own round trip and the
  // waits on tiles another program's fill brings in unqueued (latency too: 35.3 reloads' worth
  // in all).
  const std::int64_t latency =
      r.programs.at(0).time_by_cause[static_cast<std::size_t>(TimeCause::latency)];
  EXPECT_GE(latency, 32 * c.staged_reload_ps);
  EXPECT_LT(latency, 36 * c.staged_reload_ps);
  // At 8 warps the same tile fits (64 + 2 x 32 + 0.875 x 32 + 38 < 255): no reloads.
  s.num_warps = 8;
  EXPECT_EQ(triton_choices(Problem(s), m).loop_local_loads, 0);
  EXPECT_EQ(costs(s).staged_reload_ps, 0);
}

TEST(TritonTiming, ARowMajorBInTf32PaysItsBankConflicts) {
  ProblemSpec rm = tutorial(2048, 2048, 2048, DType::fp32), bt = rm;
  bt.b_layout = BLayout::transposed;
  const StepCosts r = costs(rm), t = costs(bt);
  // 128 4-byte copies of 16 wavefronts each against 32 16-byte copies of 4 (and the 4-byte
  // copies' L1 lookups: 4 lines each, 4 a cycle: 1/16 more).
  EXPECT_GE(r.load_b_smem_ps + 16, 16 * t.load_b_smem_ps);
  EXPECT_LE(r.load_b_smem_ps, 17 * t.load_b_smem_ps + 16);
  EXPECT_GT(seconds(rm), 2.0 * seconds(bt));
}

}  // namespace

TEST(TritonTiming, TheFmaDotsReadsMatchNsightsCountsForTheTutorial) {
  // ncu on an H100 (assets/measured/triton_h100.json), the tutorial at 128 x 128 x 32, 8 warps,
  // fp32 ieee: 160 ld.shared a warp per K step for either B layout; shared wavefronts 389 a warp
  // per K step with a row-major B (no conflicts) and 1,286 with B^T (896 conflicts). The dot's
  // reads are 384 and 1,280 of them: each A load, 32 lanes at one address, takes 2 (half a warp
  // a pass; ncu's SASS counters on an H200: assets/measured/ncu_fma_reads_source_h200.csv; the
  // tiles' 16-byte copies are not in that metric).
  ProblemSpec s = tutorial(4096, 4096, 4096, DType::fp32);
  s.input_precision = InputPrecision::ieee;
  const Machine m = *find_machine("h100");
  const FmaDotReads row = triton_choices(Problem(s), m).fma;
  EXPECT_EQ(row.rows_per_thread, 16);
  EXPECT_EQ(row.cols_per_thread, 4);
  EXPECT_DOUBLE_EQ(row.a_loads + row.b_loads, 160);
  EXPECT_DOUBLE_EQ(row.a_wavefronts, 2 * row.a_loads);
  EXPECT_DOUBLE_EQ(row.a_wavefronts + row.b_wavefronts, 384);
  EXPECT_FALSE(row.b_k_major);
  s.b_layout = BLayout::transposed;
  const FmaDotReads bt = triton_choices(Problem(s), m).fma;
  EXPECT_TRUE(bt.b_k_major);
  EXPECT_DOUBLE_EQ(bt.a_loads + bt.b_loads, 160);
  EXPECT_DOUBLE_EQ(bt.b_wavefronts, 32 * 32);
  EXPECT_DOUBLE_EQ(bt.a_wavefronts + bt.b_wavefronts, 1280);
  // A row-major B whose columns wrap at N = 4100: its lanes run across rows and its tile is
  // K-major (TTGIR #shared order [0, 1]); ncu counts 939 M conflicts at 4095^3, as for B^T.
  s.b_layout = BLayout::row_major;
  s.n = 4100;
  EXPECT_TRUE(triton_choices(Problem(s), m).fma.b_k_major);
}

TEST(TritonTiming, SpilledWgmmaAccumulatorsAreWholeFragmentsReloadedEveryKStep) {
  // 4 warps (one warpgroup) hold a 128 x 256 or 256 x 128 fp32 accumulator: 256 registers a
  // thread, past the 255 it may hold. 128 x 256 runs m64n256 (fragments of 128 registers): one
  // stays, one spills. 256 x 128 runs m64n128 (fragments of 64): three stay, one spills. At 8
  // warps the accumulator is 128 registers a thread: nothing spills (ptxas: 207 registers).
  const Machine m = *find_machine("h100");
  ProblemSpec s = tutorial(4096, 4096, 4096, DType::fp16);
  s.num_warps = 4;
  s.block_n = 256;
  const TritonChoices wide = triton_choices(Problem(s), m);
  EXPECT_EQ(wide.spilled_accumulators, 128);
  s.block_m = 256, s.block_n = 128;
  EXPECT_EQ(triton_choices(Problem(s), m).spilled_accumulators, 64);
  // The reload: 64 registers x 8 bytes (stored and loaded) x 128 threads a K step, at
  // kSpillReloadBytesPerWarpCycle per warp; the rest of the estimate's excess through the L1,
  // 128 bytes a cycle.
  const TritonChoices tall_choices = triton_choices(Problem(s), m);
  const int rest = tall_choices.spilled_registers - tall_choices.spilled_accumulators;
  EXPECT_GT(rest, 0);
  const StepCosts tall = costs(s);
  const double cycles = 64.0 * kSpillBytesPerRegister * 128 / (4 * kSpillReloadBytesPerWarpCycle) +
                        rest * kSpillBytesPerRegister * 128 / 128.0;
  EXPECT_NEAR(static_cast<double>(tall.dot_spill_ps), cycles / tall.pipe_clock_hz * 1e12, 2.0);
  s.block_m = 128, s.block_n = 256, s.num_warps = 8;
  EXPECT_EQ(triton_choices(Problem(s), m).spilled_registers, 0);
  EXPECT_EQ(costs(s).dot_spill_ps, 0);
}

// do_bench leaves the clock at its maximum before each run (Machine::tensor_start_fraction): a
// one-wave Triton matmul gets the whole start, its dots and its L2 transfers alike; a copy has
// no tensor-core dots and keeps the preset's clocks (its pace is DRAM's).
TEST(TritonTiming, AShortTensorKernelRunsAtTheStartClockAndACopyDoesNot) {
  const Machine h100 = *find_machine("h100");
  Machine flat = h100;
  flat.tensor_start_fraction = 1.0, flat.tensor_sustained_fraction = 1.0;
  EXPECT_GT(h100.tensor_start_fraction, 1.1);
  const auto time = [](const ProblemSpec& s, const Machine& m) {
    const Problem p(s);
    return run_timed(p, m, occupancy(p, m)).time_s();
  };
  const ProblemSpec one_wave = tutorial(2048, 2048, 2048, DType::fp16);
  EXPECT_LT(time(one_wave, h100), 0.97 * time(one_wave, flat));
  ProblemSpec copy;
  copy.kernel = Kernel::copy;
  copy.m = copy.n = 4096;
  copy.k = 0;
  copy.block_m = copy.block_n = 64;
  EXPECT_EQ(time(copy, h100), time(copy, flat));
}

// A tile staged through registers (ld.global) comes out of the L2 at l2_ld_global_bytes_per_s
// (7.38 TB/s from every SM of an H100, kernels/probes/l2_bandwidth.cu), a cp.async tile at
// l2_bytes_per_s: at K = 8190 (rows 16,380 bytes apart, not a multiple of 16) Triton loads A
// through registers while B's rows (N = 8192) still go by cp.async; a copy is all ld.global.
// A machine without the figure weighs both 1, and a CUDA rung (not Triton) is left alone.
TEST(TritonTiming, ATileStagedThroughRegistersWeighsMoreOnTheL2) {
  ProblemSpec mixed;
  mixed.m = mixed.n = 8192;
  mixed.k = 8190;
  mixed.block_m = mixed.block_n = 128;
  mixed.block_k = 64;
  mixed.num_warps = 8;
  mixed.stages = 3;
  const StepCosts c = costs(mixed);
  EXPECT_NEAR(c.l2_weight_a, 10e12 / 7.38e12, 1e-9);
  EXPECT_EQ(c.l2_weight_b, 1.0);
  ProblemSpec aligned = mixed;
  aligned.k = 8192;
  EXPECT_EQ(costs(aligned).l2_weight_a, 1.0);
  EXPECT_EQ(costs(mixed, false).l2_weight_a, 1.0);
  ProblemSpec copy;
  copy.kernel = Kernel::copy;
  copy.m = copy.n = 4096;
  copy.k = 0;
  copy.block_m = copy.block_n = 64;
  EXPECT_NEAR(costs(copy).l2_weight_load, 10e12 / 7.38e12, 1e-9);
  // One stage (ld.global through registers, 16-byte: no cp.async pipeline) at 4096^3, where
  // the L2 sets the pace (two programs an SM): the staged tiles' time on the L2 shows; 0 puts
  // them back at cp.async's rate.
  ProblemSpec one_stage = aligned;
  one_stage.m = one_stage.n = one_stage.k = 4096;
  one_stage.stages = 1;
  const Problem p(one_stage);
  Machine h100 = *find_machine("h100"), same = h100;
  same.l2_ld_global_bytes_per_s = 0;
  const auto time = [&](const Machine& m) { return run_timed(p, m, occupancy(p, m)).time_s(); };
  EXPECT_EQ(costs(one_stage).l2_weight_b, costs(mixed).l2_weight_a);
  EXPECT_GT(time(h100), 1.03 * time(same));
}

// A copy whose rows start mid-sector (N = 4095: Triton's 2-byte accesses, rows 8,190 bytes
// apart) stores partial sectors, which the L2's write side takes at partial_sector_store_cost
// whole ones, while the DRAM's fills share that side with the stores: the GPU runs it 1.47-1.57x
// as long as the aligned rows' (assets/measured/narrow_probe_h100.csv, do_bench and ncu). The
// same copy with 4,096-element rows weighs 1 a byte; without the write side's limit the odd
// rows change next to nothing.
TEST(TritonTiming, RowsThatStartMidSectorWeighMoreOnTheL2sWriteSide) {
  ProblemSpec copy;
  copy.kernel = Kernel::copy;
  copy.k = 0;
  copy.block_m = copy.block_n = 64;
  copy.dtype = DType::fp16;
  ProblemSpec odd = copy;
  copy.m = copy.n = 4096;
  odd.m = odd.n = 4095;
  EXPECT_EQ(costs(copy).store_sector_weight, 1.0);
  // Per byte the replay counts (4.94 sectors a 128-byte row): two 64-byte accesses of 1.06 whole
  // and 1.875 partial sectors each.
  EXPECT_NEAR(costs(odd).store_sector_weight, 2 * (1.0625 + 1.875 * 1.37) / 4.9375, 1e-9);
  const auto time = [](const ProblemSpec& s, const Machine& m) {
    const Problem p(s);
    return run_timed(p, m, occupancy(p, m)).time_s();
  };
  const Machine h100 = *find_machine("h100");
  // (The model gives about 1.27x of the GPU's 1.47-1.57x: docs/TRITON_FINDINGS.md says what the
  // write side's rate alone leaves out.)
  EXPECT_GT(time(odd, h100), 1.2 * time(copy, h100));
  Machine unlimited = h100;
  unlimited.l2_write_share_of_dram = 0;
  EXPECT_LT(time(odd, unlimited), 1.05 * time(copy, unlimited));
}

namespace {

// Triton's software pipeline issues stage k's copies in the loop iteration of dot k - s + 1,
// after that dot's tiles have been waited for (StepCosts::loads_in_program_order): at two
// stages no load of step k goes out before dot k - 1 has started, so one stage's round trip
// sets each K step, as ncu shows at 4096^3 (assets/measured/ncu_stages_h100.csv).
TEST(TritonTiming, TwoStagesKeepOneStageInFlightBehindTheDot) {
  ProblemSpec s = tutorial(1024, 1024, 1024, DType::fp16);
  s.block_k = 32;
  s.stages = 2;
  const Problem p(s);
  const Machine m = *find_machine("h100");
  const StepCosts c = costs(s);
  EXPECT_TRUE(c.loads_in_program_order);
  EXPECT_EQ(c.pipeline_stages, 2);
  EXPECT_FALSE(costs(s, false).loads_in_program_order);  // a CUDA rung's producer is not bound
  std::vector<TimedEvent> events;
  TimedOptions opt;
  opt.events = &events;
  run_timed(p, m, occupancy(p, m), opt);
  std::map<std::pair<int, std::int64_t>, std::int64_t> dot_start;  // (pid, k) -> start
  std::vector<std::tuple<int, std::int64_t, std::int64_t>> loads;  // pid, k, issue
  for (const TimedEvent& e : events) {
    std::int64_t k = -1;
    const StepOp op = step_op(p, e.step, &k);
    if (op == StepOp::dot) dot_start[{e.pid, k}] = e.start_ps;
    if (op == StepOp::load_a) loads.emplace_back(e.pid, k, e.start_ps);
  }
  int checked = 0;
  for (const auto& [pid, k, issue] : loads) {
    if (k < 1) continue;
    ASSERT_TRUE(dot_start.count({pid, k - 1}));
    EXPECT_GE(issue, dot_start.at({pid, k - 1})) << "pid " << pid << " k " << k;
    ++checked;
  }
  EXPECT_GT(checked, 64 * 30);
}

// Staged through registers (num_stages = 1), a tf32 B tile is transposed by its st.shared: each
// thread's 16-byte vector goes out as four element stores with the conflicts of the pipelined
// tile's 4-byte copies, so the tile's shared-memory writes cost what they cost at 3 stages (ncu
// at 7168^3, 128 x 128 x 32: 2,667 and 2,579 shared wavefronts a program a K step).
TEST(TritonTiming, AStagedTf32BIsTransposedElementByElement) {
  ProblemSpec s3 = tutorial(4096, 4096, 4096, DType::fp32), s1 = s3;
  s1.stages = 1;
  const StepCosts one = costs(s1), three = costs(s3);
  EXPECT_EQ(one.pipeline_stages, 1);
  EXPECT_NEAR(static_cast<double>(one.load_b_smem_ps), static_cast<double>(three.load_b_smem_ps),
              0.15 * static_cast<double>(three.load_b_smem_ps));
  const TritonChoices t = triton_choices(Problem(s1), *find_machine("h100"));
  EXPECT_EQ(t.b.path, LoadPath::ld_global);
  EXPECT_EQ(t.b.access_bytes, 16);
  EXPECT_DOUBLE_EQ(t.b.smem_wavefronts_per_access, 64);  // 4 element stores of 16 wavefronts
}

// tf32's K-major B: a 4-byte cp.async fills shared memory half a warp at a time, into NVMMA's
// layout (rows no wider than the 128-byte swizzle, a wider tile stored as column blocks). ncu
// counts 15-19 wavefronts a copy at BLOCK_N = 64 and 128 alike
// (assets/measured/ncu_tf32_b_staging_h100.csv) and about 16 for seed 003's 64 x 64 x 64 B
// (triton_h100.json); over the whole warp the BLOCK_N = 64 lanes, two K rows, would share 8.
TEST(TritonTiming, ATf32BCopyFillsSharedMemoryHalfAWarpAtATime) {
  const Machine h100 = *find_machine("h100");
  const auto b_wavefronts = [&](int bm, int bn, int bk, int warps) {
    ProblemSpec s = tutorial(4096, 4096, 4096, DType::fp32);
    s.block_m = bm, s.block_n = bn, s.block_k = bk, s.num_warps = warps;
    const TritonChoices t = triton_choices(Problem(s), h100);
    EXPECT_EQ(t.b.access_bytes, 4);
    EXPECT_TRUE(t.b.smem_transposed);
    return t.b.smem_wavefronts_per_access;
  };
  EXPECT_DOUBLE_EQ(b_wavefronts(64, 64, 32, 4), 16);
  EXPECT_DOUBLE_EQ(b_wavefronts(128, 64, 32, 8), 16);
  EXPECT_DOUBLE_EQ(b_wavefronts(128, 128, 32, 8), 16);
  EXPECT_DOUBLE_EQ(b_wavefronts(64, 64, 64, 4), 16);  // 256-byte K rows: two column blocks
}

// An element-wise cp.async from rows that start off a line (fp32 at 4100^3: rows start at the
// multiples of 16 bytes within a line, so a 128-byte K chunk touches 1.875 lines on average) holds
// the L1/shared pipe kMidSectorLineCycles a line beyond the aligned one (ncu: 54-72 % more L2
// requests than the same kernel on aligned rows, assets/measured/ncu_narrow_matmul_h200.csv).
// Lanes across rows touch a line each either way, and a tile staged through registers is costed
// by its instructions instead: neither pays it.
TEST(TritonTiming, ACopyFromRowsThatStartMidSectorHoldsThePipeForItsSecondLine) {
  const Machine h100 = *find_machine("h100");
  ProblemSpec s = tutorial(4100, 4100, 4100, DType::fp32);
  s.b_layout = BLayout::transposed;
  const TritonChoices t = triton_choices(Problem(s), h100);
  ASSERT_EQ(t.a.path, LoadPath::cp_async);
  ASSERT_EQ(t.a.access_bytes, 4);
  ASSERT_EQ(t.a.warp_accesses, 128);  // 128 x 32 fp32, a lane an element
  // Rows 16400 bytes apart start at the 8 multiples of 16 bytes within a line: 7 of 8 chunks
  // cross into a second line.
  EXPECT_DOUBLE_EQ(t.a.lines_per_access, 1.875);
  EXPECT_DOUBLE_EQ(extra_lines_per_access(t.a), 0.875);
  EXPECT_DOUBLE_EQ(extra_lines_per_access(t.b), 0.875);
  // 4104 apart: rows start on a sector, 32 bytes apart, and 3 of 4 chunks cross a line; 8190
  // apart: 8 bytes, 15 of 16.
  const auto extra_a = [&](std::int64_t k) {
    return extra_lines_per_access(
        triton_choices(Problem(tutorial(4096, 4096, k, DType::fp32)), h100).a);
  };
  EXPECT_DOUBLE_EQ(extra_a(4104), 0.75);
  EXPECT_DOUBLE_EQ(extra_a(8190), 0.9375);
  EXPECT_DOUBLE_EQ(extra_a(4096), 0);
  // The pipe's cycles for A's copy a K step, pinned: 128 accesses x (4 lanes-cycles + 1.875 / 4
  // lookups + 0.875 x 1.5 for the second line) = 740.
  const StepCosts c0 = costs(s);
  EXPECT_NEAR(static_cast<double>(c0.load_a_smem_free_ps) * c0.pipe_clock_hz * 1e-12, 740, 0.5);
  const StepCosts& c = c0;
  const auto pipe_ps = [&](double cycles) { return std::llround(cycles / c.pipe_clock_hz * 1e12); };
  const auto expected = [&](const OperandChoice& o, double per_line) {
    return pipe_ps(static_cast<double>(o.warp_accesses) *
                   (std::max(o.smem_wavefronts_per_access, 4.0) +
                    o.lines_per_access / kL1LinesPerCycle + extra_lines_per_access(o) * per_line));
  };
  EXPECT_NEAR(c.load_a_smem_free_ps, expected(t.a, kMidSectorLineCycles), 2);
  EXPECT_NEAR(c.load_b_smem_free_ps, expected(t.b, kMidSectorLineCycles), 2);
  EXPECT_GT(c.load_a_smem_free_ps, expected(t.a, 0) + 100);

  // Aligned rows: nothing extra.
  ProblemSpec even = tutorial(4096, 4096, 4096, DType::fp32);
  EXPECT_DOUBLE_EQ(extra_lines_per_access(triton_choices(Problem(even), h100).a), 0);
  // A row-major B at N = 4100: lanes across rows, a line each whatever the alignment.
  const TritonChoices rm = triton_choices(Problem(tutorial(4100, 4100, 4100, DType::fp32)), h100);
  ASSERT_FALSE(rm.b.lanes_along_contiguous);
  EXPECT_DOUBLE_EQ(extra_lines_per_access(rm.b), 0);
  // fp16 at 4095^3: 2-byte ld.global through registers, costed by their instructions.
  const ProblemSpec staged = tutorial(4095, 4095, 4095, DType::fp16);
  const TritonChoices st = triton_choices(Problem(staged), h100);
  ASSERT_EQ(st.a.path, LoadPath::ld_global);
  EXPECT_GT(extra_lines_per_access(st.a), 0);
  const StepCosts sc = costs(staged);
  EXPECT_NEAR(
      sc.load_a_smem_free_ps,
      std::llround(static_cast<double>(st.a.warp_accesses) *
                   (st.a.smem_wavefronts_per_access + st.a.lines_per_access / kL1LinesPerCycle) /
                   sc.pipe_clock_hz * 1e12),
      2);
}

// A row-major B whose lanes run across rows (N not a multiple of 16, columns wrapped): each lane
// reads one word of its own row, and the L1 reads the 32 words out of 32 lines in its data banks;
// words of rows N * 4 bytes apart land (N mod 32) words apart, so N = 4104 puts 8 on a bank and
// N = 4100 4 (ncu at 4104^3 against 4100^3: 4 more shared-pipe wavefronts a B access,
// assets/measured/ncu_narrow_matmul_pad_h200.csv), 8190 2, 4095 and 5003 none. Each way beyond
// the first holds the pipe a cycle: 4104 costs B's copy 128 x 4 cycles more than 4100 a K step.
// Beside an FMA dot, a copy holds the L1's data pipe by its data only: its line lookups and the
// extra L2 requests of rows off a line pass the tag and miss stages while the dot's own ld.shared
// fill the data stage (ncu at N = 4100: the copies draw under 1 % of the warps' stall samples,
// assets/measured/ncu_odd_n_source_h200.csv). The same copy beside a tf32 wgmma pays them all.
TEST(TritonTiming, BesideAnFmaDotACopyHoldsThePipeByItsDataOnly) {
  const Machine h100 = *find_machine("h100");
  ProblemSpec s = tutorial(4100, 4100, 4100, DType::fp32);
  s.input_precision = InputPrecision::ieee;
  const TritonChoices t = triton_choices(Problem(s), h100);
  ASSERT_EQ(t.dot, MathPath::fma);
  ASSERT_EQ(t.b.path, LoadPath::cp_async);
  ASSERT_FALSE(t.b.lanes_along_contiguous);  // lanes across rows: 32 lines an access
  ASSERT_EQ(t.b.l1_bank_ways, 4);
  // Pipe cycles at each run's own clock (the FMA and the tensor-core paths run at others).
  const auto cycles = [](const StepCosts& c, std::int64_t ps) {
    return static_cast<double>(ps) * c.pipe_clock_hz * 1e-12;
  };
  const StepCosts c = costs(s);
  // A: 128 accesses x 4 lane-cycles = 512 (no 1.875 / 4 lookups, no 0.875 x 1.5 second lines);
  // B: 128 x (32 wavefronts, each lane's word into the unswizzled K-major tile's column, 128
  // bytes from the next, + 3 bank passes) = 4,480 (no 32 / 4 lookups).
  EXPECT_NEAR(cycles(c, c.load_a_smem_free_ps), 512, 0.5);
  EXPECT_DOUBLE_EQ(t.b.smem_wavefronts_per_access, 32);
  EXPECT_NEAR(cycles(c, c.load_b_smem_free_ps), 4480, 0.5);
  // tf32 (wgmma): A's copy pays its lookups and second lines, 740 (the test above); B its 32
  // lines' lookups too: 128 x (4 + 32 / 4 + 3) = 1,920.
  s.input_precision = InputPrecision::tf32;
  const StepCosts w = costs(s);
  EXPECT_NEAR(cycles(w, w.load_a_smem_free_ps), 740, 0.5);
  EXPECT_NEAR(cycles(w, w.load_b_smem_free_ps), 1920, 0.5);
  // A copy through registers (ld.global: the T4 has no cp.async) keeps its lookups beside an
  // FMA dot: its data leaves the L1 for registers, not the pipe the rule is about.
  const Machine t4 = *find_machine("t4");
  s.input_precision = InputPrecision::ieee;
  const Problem p4(s);
  const TritonChoices t4c = triton_choices(p4, t4);
  ASSERT_EQ(t4c.dot, MathPath::fma);
  ASSERT_EQ(t4c.a.path, LoadPath::ld_global);
  TimingOptions o;
  const StepCosts c4 = step_costs(p4, t4, o, occupancy(p4, t4, std::nullopt, o).programs_per_sm);
  EXPECT_NEAR(cycles(c4, c4.load_a_smem_free_ps),
              static_cast<double>(t4c.a.warp_accesses) *
                  (t4c.a.smem_wavefronts_per_access + t4c.a.lines_per_access / kL1LinesPerCycle),
              0.5);
}

TEST(TritonTiming, LanesAcrossRowsPayTheirWordsBankConflictInTheL1) {
  const Machine h100 = *find_machine("h100");
  const auto ways = [&](std::int64_t n) {
    const TritonChoices t = triton_choices(Problem(tutorial(4096, n, 4096, DType::fp32)), h100);
    EXPECT_FALSE(t.b.lanes_along_contiguous) << n;
    return t.b.l1_bank_ways;
  };
  EXPECT_EQ(ways(4095), 1);
  EXPECT_EQ(ways(5003), 1);
  EXPECT_EQ(ways(8190), 2);
  EXPECT_EQ(ways(4100), 4);
  EXPECT_EQ(ways(4104), 8);
  // Lanes along the row: no such conflict.
  EXPECT_EQ(triton_choices(Problem(tutorial(4096, 4096, 4100, DType::fp32)), h100).a.l1_bank_ways,
            1);
  // BLOCK_K = 16: 16 rows, lanes 16-31 on the next column; at N = 4095 lane 17 (row 1, word
  // -1 + 1) meets lane 0 (row 0, word 0) in bank 0: 2 ways where 32 rows would give 1.
  ProblemSpec bk16 = tutorial(4096, 4095, 4096, DType::fp32);
  bk16.block_k = 16;
  const TritonChoices t16 = triton_choices(Problem(bk16), h100);
  ASSERT_EQ(t16.b.threads_along_rows, 16);
  EXPECT_EQ(t16.b.l1_bank_ways, 2);
  // Through registers (fp16: 2-byte ld.global) the ways are counted but not charged: B's pipe
  // cycles are its stores' wavefronts and its lines' lookups alone.
  const ProblemSpec h = tutorial(4100, 4100, 4100, DType::fp16);
  const TritonChoices th = triton_choices(Problem(h), h100);
  ASSERT_EQ(th.b.path, LoadPath::ld_global);
  ASSERT_GT(th.b.l1_bank_ways, 1);
  const StepCosts ch = costs(h);
  EXPECT_NEAR(
      static_cast<double>(ch.load_b_smem_free_ps),
      std::llround(static_cast<double>(th.b.warp_accesses) *
                   (th.b.smem_wavefronts_per_access + th.b.lines_per_access / kL1LinesPerCycle) /
                   ch.pipe_clock_hz * 1e12),
      2);
  // What a student reads (the app's compiler panel, tilesim-cli run): both costs named.
  const TritonChoices t4104 =
      triton_choices(Problem(tutorial(4104, 4104, 4104, DType::fp32)), h100);
  const auto has = [&](const std::string& text) {
    return std::any_of(t4104.notes.begin(), t4104.notes.end(),
                       [&](const std::string& n) { return n.find(text) != std::string::npos; });
  };
  EXPECT_TRUE(
      has("A: rows start off a 128-byte line: a warp access touches 1.75 lines on average "
          "where 1 would do (0.75 more L2 requests)"));
  EXPECT_TRUE(has("the L1 reads their 32 words 8 to a bank, 8 passes"));
  const StepCosts c4100 = costs(tutorial(4100, 4100, 4100, DType::fp32));
  const StepCosts c4104 = costs(tutorial(4104, 4104, 4104, DType::fp32));
  EXPECT_NEAR(static_cast<double>(c4104.load_b_smem_free_ps) * c4104.pipe_clock_hz * 1e-12 -
                  static_cast<double>(c4100.load_b_smem_free_ps) * c4100.pipe_clock_hz * 1e-12,
              128 * 4, 0.5);
}

}  // namespace

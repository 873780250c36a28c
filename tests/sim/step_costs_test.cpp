// Step costs of the FMA dot: a rung's shared-load wavefronts per K step come from its own warp
// model (what its threads reuse from registers, the LDS.128 ptxas makes), a generic problem's
// from the micro-tile formula. Counts are per program and K step, checked by hand.
#include "sim/timing/step_costs.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace tilesim::sim;

namespace {

Machine h200() {
  return *find_machine("h200");
}

// An FMA dot's pipelines (issue, shared memory) count cycles of the clock FMA kernels run at.
std::int64_t ps_of_cycles(double cycles, const Machine& m) {
  return std::llround(cycles * 1e12 / pipe_clock_hz(m, MathPath::fma));
}

ProblemSpec fp32_matmul(int bm, int bn, int bk, int warps) {
  ProblemSpec s;
  s.m = s.n = s.k = 256;
  s.block_m = bm, s.block_n = bn, s.block_k = bk;
  s.num_warps = warps;
  s.dtype = DType::fp32;
  return s;
}

// The generic formula's scalar shared loads (a Triton program reads a row-major B 4 floats at a
// time: IssueCosts.TritonsFmaDotReadsSixteenBytesALoadAndPaysAKMajorBsConflicts).
TimingOptions fma(SmemLayout layout, std::optional<ThreadVariant> variant) {
  TimingOptions t;
  t.triton = false;
  t.path = MathPath::fma;
  t.layout = layout;
  t.variant = variant;
  return t;
}

}  // namespace

TEST(FmaStepCosts, SmemTiledReadsBothOperandsFromSharedMemoryForEveryFma) {
  // 64 x 64 x 16, 256 threads of 16 outputs each and no register micro-tile: per K step a warp
  // issues 16 outputs x 16 kk x 2 loads, all conflict-free (A broadcast, B along a row): 8
  // warps x 512 = 4,096 wavefronts. The micro-tile formula would count 8 x 16 x (4 + 4) = 1,024.
  const Problem p(fp32_matmul(64, 64, 16, 8));
  const Machine m = h200();
  const StepCosts rung = step_costs(p, m, fma(SmemLayout::plain, ThreadVariant::matmul_smem_tiled));
  EXPECT_EQ(rung.dot_smem_free_ps, ps_of_cycles(4096, m));
  EXPECT_EQ(rung.dot_smem_ps, rung.dot_smem_free_ps);
  const StepCosts generic = step_costs(p, m, fma(SmemLayout::plain, std::nullopt));
  EXPECT_EQ(generic.dot_smem_free_ps, ps_of_cycles(1024, m));
}

TEST(FmaStepCosts, SeedThreesFourByFourMicroTileGivesTheFormulasFigure) {
  // Each thread loads 4 A and 4 B words per kk: 8 warps x 32 kk x 8 = 2,048 wavefronts a K step,
  // from the warp model and from the formula alike.
  const Machine m = h200();
  for (const auto v : {ThreadVariant::matmul_fma_b_rowmajor, ThreadVariant::matmul_fma_bt_padded}) {
    const Problem p(model_spec(v, fp32_matmul(64, 64, 32, 8)));
    const StepCosts rung = step_costs(p, m, fma(SmemLayout::swizzled, v));
    const StepCosts generic = step_costs(p, m, fma(SmemLayout::swizzled, std::nullopt));
    EXPECT_EQ(rung.dot_smem_free_ps, ps_of_cycles(2048, m)) << to_string(v);
    EXPECT_EQ(rung.dot_smem_ps, generic.dot_smem_ps) << to_string(v);
    EXPECT_EQ(rung.smem_load_degree, 1) << to_string(v);
  }
}

TEST(FmaStepCosts, TheConflictingRungPays32WavefrontsForEachLds128) {
  // Per K step a warp issues 128 A loads (LDS.32, one wavefront) and 32 B loads (LDS.128: 4
  // phases of 8 lanes in the same 4 banks, 8 wavefronts each): 8 x 160 = 1,280 instructions,
  // 8 x (128 + 32 x 32) = 9,216 wavefronts.
  const auto v = ThreadVariant::matmul_fma_bt_conflicting;
  const Problem p(model_spec(v, fp32_matmul(64, 64, 32, 8)));
  const Machine m = h200();
  const StepCosts c = step_costs(p, m, fma(SmemLayout::plain, v));
  EXPECT_DOUBLE_EQ(c.smem_load_degree, 9216.0 / 1280);
  EXPECT_EQ(c.dot_smem_free_ps, ps_of_cycles(1280, m));
  EXPECT_NEAR(c.dot_smem_ps, ps_of_cycles(9216, m), 1);
}

// Instruction issue: a scheduler issues at most issue_ceiling warp instructions per cycle (here
// 1), a warp one per warp_issue_cycles (its next instruction waits on a recent result).
TEST(IssueCosts, AWarpIssuesOncePerIntervalAndASchedulerOncePerCycle) {
  Machine m = h200();
  m.warp_issue_cycles = 5;
  m.issue_ceiling = 1;
  m.schedulers_per_sm = 4;
  // One program of 8 warps: 2 per scheduler, each issuing every 5 cycles (0.4 per scheduler-
  // cycle): 215 instructions a warp take 215 x 5 cycles.
  EXPECT_DOUBLE_EQ(issue_cycles(215, 8, 8, m), 1075);
  // Two such programs: 4 warps per scheduler, 0.8 per cycle; one program's share of the SM is
  // half of that, so the pair together still takes 1,075 cycles (latency-bound, interleaved).
  EXPECT_DOUBLE_EQ(issue_cycles(215, 8, 16, m), 537.5);
  // Four: 8 warps per scheduler is more than 5, so every scheduler issues every cycle.
  EXPECT_DOUBLE_EQ(issue_cycles(215, 8, 32, m), 8 * 215 / 4.0);
  // With the preset's ceiling (0.8, register_blocked's ncu rate), the same four issue 0.8 a
  // cycle; two programs' 4 warps a scheduler at the preset's 2.74-cycle interval reach it too.
  const Machine h = h200();
  EXPECT_DOUBLE_EQ(issue_cycles(215, 8, 32, h), 8 * 215 / (4 * 0.8));
  EXPECT_DOUBLE_EQ(issue_cycles(215, 8, 16, h), 8 * 215 / (4 * 0.8));
  // One program alone: 2 warps a scheduler issue 2 / 2.74 = 0.73 a cycle (register_blocked
  // alone on an H200 SM: 873 us for 1,024 K steps of 613 instructions at 1.97 GHz).
  EXPECT_DOUBLE_EQ(issue_cycles(215, 8, 8, h), 8 * 215 / (4 * (2 / 2.74)));
}

TEST(IssueCosts, TritonsFmaDotReadsSixteenBytesALoadAndPaysAKMajorBsConflicts) {
  const Machine m = h200();
  const Problem p(fp32_matmul(64, 64, 16, 8));
  // Triton's accumulator layout: 4 x 4 a thread, 16 lanes along N and 2 along M, 8 warps along
  // M. Per K step a warp issues 256 FFMA, 16 loads of A (4 rows x 4 k-vectors) and 16 of B
  // (16 k x one 4-float vector): 288 instructions, whichever B layout.
  TimingOptions triton = fma(SmemLayout::swizzled, std::nullopt);
  triton.triton = true;
  const StepCosts row = step_costs(p, m, triton);
  EXPECT_DOUBLE_EQ(row.dot_warp_instructions, 288);
  // Wavefronts, a 16-byte load served half a warp a pass (sm_80 and later): A's halves read one
  // row each (1 a pass, 2 a load); B's halves each read its 16 vectors, 256 contiguous bytes (2
  // a pass, 4 a load): 8 warps x (32 + 64), no bank conflicts.
  EXPECT_EQ(row.dot_smem_ps, ps_of_cycles(768, m));
  EXPECT_EQ(row.dot_smem_free_ps, ps_of_cycles(768, m));
  // B^T: its tile is K-major, each load one column's 4 k: a half's 16 columns are 256 bytes
  // apart, all in one bank group, 16 wavefronts a pass, 32 a load: 8 x (32 + 512).
  ProblemSpec bt = fp32_matmul(64, 64, 16, 8);
  bt.b_layout = BLayout::transposed;
  const StepCosts t = step_costs(Problem(bt), m, triton);
  EXPECT_DOUBLE_EQ(t.dot_warp_instructions, 288);
  EXPECT_EQ(t.dot_smem_ps, ps_of_cycles(4352, m));
  EXPECT_EQ(t.dot_smem_free_ps, ps_of_cycles(768, m));
}

TEST(IssueCosts, AGenericFmaDotIssuesItsFfmaAndSharedLoadsARungItsCountedLoop) {
  const Machine m = h200();
  const Problem p(fp32_matmul(64, 64, 16, 8));
  // 16 outputs a thread as a 4 x 4 micro-tile: per K step a warp issues 16 x 16 = 256 FFMA and
  // 16 x (4 + 4) = 128 shared loads.
  const StepCosts generic = step_costs(p, m, fma(SmemLayout::swizzled, std::nullopt));
  EXPECT_DOUBLE_EQ(generic.dot_warp_instructions, 384);
  EXPECT_EQ(generic.dot_issue_ps, ps_of_cycles(issue_cycles(384, 8, 8, m), m));
  // Two programs on the SM: each one's share of the schedulers.
  EXPECT_EQ(step_costs(p, m, fma(SmemLayout::swizzled, std::nullopt), 2).dot_issue_ps,
            ps_of_cycles(issue_cycles(384, 8, 16, m), m));
  TimingOptions counted = fma(SmemLayout::swizzled, std::nullopt);
  counted.warp_instructions = 2555;  // matmul_smem_tiled's loop, as ncu counts it
  EXPECT_EQ(step_costs(p, m, counted).dot_issue_ps, ps_of_cycles(issue_cycles(2555, 8, 8, m), m));
  // A tensor-core dot without a count has no issue limit (its compiled loop is not known).
  ProblemSpec half = fp32_matmul(64, 64, 16, 8);
  half.dtype = DType::fp16;
  EXPECT_EQ(step_costs(Problem(half), m).dot_issue_ps, 0);
}

// Pipelines run at the clock the math path's power allows (1.98 GHz for FP32 FMA, 1.76 GHz under
// tensor cores on the H200 preset); latencies stay at the nominal 1.83 GHz whatever the path.
TEST(PipeClock, PipelinesRunAtTheMathPathsClockLatenciesAtTheNominalOne) {
  Machine m = h200();
  ProblemSpec s = fp32_matmul(128, 128, 32, 8);
  s.dtype = DType::fp16;
  const Problem p(s);
  TimingOptions tensor;
  tensor.path = MathPath::mma_sync;
  const StepCosts f = step_costs(p, m, fma(SmemLayout::swizzled, std::nullopt));
  const StepCosts t = step_costs(p, m, tensor);
  EXPECT_EQ(f.dot_overhead_ps, std::llround(48 * 1e12 / 1.98e9));  // 24,242 ps
  EXPECT_EQ(t.dot_overhead_ps, std::llround(48 * 1e12 / 1.76e9));  // 27,273 ps
  EXPECT_EQ(f.dram_latency_ps, t.dram_latency_ps);
  EXPECT_EQ(t.dram_latency_ps, std::llround(m.dram_latency_cycles * 1e12 / 1.83e9));
  // A machine that gives no path clocks runs every pipeline at sm_clock_hz.
  m.fma_clock_hz = m.tensor_clock_hz = 0;
  EXPECT_EQ(step_costs(p, m, tensor).dot_overhead_ps, std::llround(48 * 1e12 / 1.83e9));
}

// A matmul's tile that misses waits for its slowest warp: E[max of its warps' round trips],
// 1.42 standard deviations of warp_load_cv at 8 warps, 1.03 at 4, of the DRAM latency; a copy's
// or transpose's tile gets none (an element loop counts its own per round: round_slowest_warp),
// and with no spread there is none.
TEST(StepCosts, AMatmulTileWaitsForItsSlowestWarpsShareOfTheDramLatency) {
  Machine m = h200();
  ProblemSpec s = fp32_matmul(128, 128, 32, 8);
  s.dtype = DType::fp16;
  const StepCosts eight = step_costs(Problem(s), m);
  EXPECT_NEAR(static_cast<double>(eight.tile_slowest_warp_ps),
              eight.dram_latency_ps * slowest_warp_shift(8, m.warp_load_cv), 0.5);
  EXPECT_NEAR(slowest_warp_shift(8, 0.31), 1.42 * 0.31, 0.01);
  s.num_warps = 4;
  const StepCosts four = step_costs(Problem(s), m);
  EXPECT_LT(four.tile_slowest_warp_ps, eight.tile_slowest_warp_ps);
  EXPECT_NEAR(slowest_warp_shift(4, 0.31), 1.03 * 0.31, 0.01);
  m.warp_load_cv = 0;
  EXPECT_EQ(step_costs(Problem(s), m).tile_slowest_warp_ps, 0);
  ProblemSpec copy = s;
  copy.kernel = Kernel::copy;
  copy.block_k = 1;
  EXPECT_EQ(step_costs(Problem(copy), h200()).tile_slowest_warp_ps, 0);
}

// A rung's counted figures (ncu's instructions, its issue interval, ptxas's registers) describe
// the code compiled for one tile and warp count; any other problem gets the model's estimates.
TEST(CountedFigures, HoldOnlyAtTheTileAndWarpsTheyWereCountedAt) {
  TimingOptions t = fma(SmemLayout::plain, ThreadVariant::matmul_smem_tiled);
  t.warp_instructions = 2555;
  t.warp_issue_cycles = 7.16;
  t.registers_per_thread = 86;
  t.counted_at = TimingOptions::CountedAt{64, 64, 16, 8, 2};
  ProblemSpec counted = fp32_matmul(64, 64, 16, 8);
  counted.stages = 2;
  const TimingOptions here = counted_for(t, Problem(counted));
  EXPECT_EQ(here, t);
  ProblemSpec three_stages = counted;
  three_stages.stages = 3;
  for (const ProblemSpec& other : {fp32_matmul(64, 64, 32, 8), fp32_matmul(64, 64, 16, 4),
                                   fp32_matmul(128, 64, 16, 8), three_stages}) {
    const TimingOptions there = counted_for(t, Problem(other));
    EXPECT_EQ(there.warp_instructions, 0);
    EXPECT_EQ(there.warp_issue_cycles, 0);
    EXPECT_EQ(there.registers_per_thread, 0);
    EXPECT_EQ(there.path, t.path);  // what the code is, not what it counted, stays
  }
  t.counted_at.reset();  // no tile named: the figures hold everywhere
  EXPECT_EQ(counted_for(t, Problem(fp32_matmul(64, 64, 32, 8))), t);
  // A kernel that takes its tile at run time (matmul_smem_tiled): at 64 x 64 x 32 with 8 warps a
  // warp does twice the FMAs per K step, so twice the instructions; registers and interval stay.
  t.counted_at = TimingOptions::CountedAt{64, 64, 16, 8, 1, true};
  const TimingOptions scaled = counted_for(t, Problem(fp32_matmul(64, 64, 32, 8)));
  EXPECT_DOUBLE_EQ(scaled.warp_instructions, 2 * 2555);
  EXPECT_EQ(scaled.warp_issue_cycles, 7.16);
  EXPECT_EQ(scaled.registers_per_thread, 86);
  // 128 x 128 x 16 on 16 warps: 4x the FMAs over 2x the warps.
  EXPECT_DOUBLE_EQ(counted_for(t, Problem(fp32_matmul(128, 128, 16, 16))).warp_instructions,
                   2 * 2555);
}

// A measured issue interval replaces the machine's: 2555 instructions from each of 8 warps, 16
// warps on the SM (4 a scheduler): 4 x min(0.8, 4 / 7.16) issues a cycle; at the machine's
// 2.74 the ceiling holds them to 4 x 0.8.
TEST(IssueCosts, ARungsMeasuredIntervalReplacesTheMachines) {
  const Machine m = h200();
  EXPECT_DOUBLE_EQ(issue_cycles(2555, 8, 16, m, 7.16), 2555.0 * 8 / (4 * (4 / 7.16)));
  EXPECT_DOUBLE_EQ(issue_cycles(2555, 8, 16, m), 2555.0 * 8 / (4 * 0.8));
}

TEST(MathShare, FewerWarpsThanTheMachinesSchedulersLeaveItsMathIdle) {
  // Every preset has 4 schedulers per SM: 2 warps get half of the SM's FMA rate.
  const Machine four = h200();
  ASSERT_EQ(four.schedulers_per_sm, 4);
  const double per_sm = fma_flops_per_s(four) / four.sms;
  const Problem two_warps(fp32_matmul(64, 64, 32, 2));
  const TimingOptions t = fma(SmemLayout::plain, std::nullopt);
  EXPECT_DOUBLE_EQ(step_costs(two_warps, four, t).program_flops_per_s, per_sm / 2);
  // A machine with 2 schedulers per SM keeps both busy with 2 warps.
  Machine two = four;
  two.schedulers_per_sm = 2;
  EXPECT_DOUBLE_EQ(step_costs(two_warps, two, t).program_flops_per_s, per_sm);
}

TEST(Throughput, IsUsefulFlopsForMatmulAndBytesReadAndWrittenForCopies) {
  ProblemSpec mm;
  mm.m = mm.n = mm.k = 1000;
  mm.block_m = mm.block_n = mm.block_k = 64;
  const Throughput t = throughput(Problem(mm), 1e-3);  // 2e9 FLOP in 1 ms
  EXPECT_DOUBLE_EQ(t.value, 2.0);
  EXPECT_EQ(t.unit, "TFLOP/s");
  ProblemSpec copy = mm;
  copy.kernel = Kernel::copy;
  copy.dtype = DType::fp32;  // 1000 x 1000 x 4 B read and written: 8e6 B in 1 ms
  const Throughput c = throughput(Problem(copy), 1e-3);
  EXPECT_DOUBLE_EQ(c.value, 8.0);
  EXPECT_EQ(c.unit, "GB/s");
  EXPECT_EQ(throughput(Problem(copy), 0).value, 0.0);
}

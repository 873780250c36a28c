// The seeds' kernels, pasted from the articles into assets/kernels/seed*.py, run through the
// front end: each is recognised as the built-in kernel sim replays for the same problem (the
// same ProblemSpec), every evaluated record matches sim's step, and a replay gives the built-in
// kernel's counters.
#include <gtest/gtest.h>

#include "scenario/scenario.hpp"
#include "sim/machine/machine.hpp"
#include "sim/program/occupancy.hpp"
#include "sim/replay/replay.hpp"
#include "tests/triton/fixtures.hpp"
#include "triton/bridge.hpp"

namespace tilesim::triton {
namespace {

using testing::asset_kernel;
using testing::load;

sim::ProblemSpec matmul_spec(std::int64_t m, std::int64_t n, std::int64_t k, int bm, int bn, int bk,
                             sim::DType dtype, sim::LaunchOrder order, sim::Boundary boundary) {
  sim::ProblemSpec s;
  s.kernel = sim::Kernel::matmul;
  s.m = m;
  s.n = n;
  s.k = k;
  s.block_m = bm;
  s.block_n = bn;
  s.block_k = bk;
  s.dtype = dtype;
  s.order = order;
  s.boundary = boundary;
  s.group_size_m = 1;
  s.stages = 2;
  s.num_warps = 4;
  return s;
}

sim::ProblemSpec infer(const std::string& file, const std::string& function = {}) {
  const auto l = load(asset_kernel(file), function);
  return infer_problem(*l.ev).spec;
}

TEST(SeedKernels, Seed000CopyIsTheBuiltInCopyInColumnMajorOrder) {
  // A 2-d grid launches axis 0 fastest: pid0 = pid % 9 is the tile row, so column-major.
  sim::ProblemSpec want;
  want.kernel = sim::Kernel::copy;
  want.m = want.n = 574;
  want.k = 1;
  want.block_m = want.block_n = 64;
  want.block_k = 1;
  want.group_size_m = 1;
  want.order = sim::LaunchOrder::column_major;
  want.boundary = sim::Boundary::mask;
  want.stages = 2;
  EXPECT_EQ(infer("seed000_copy.py"), want);
}

TEST(SeedKernels, Seed000TransposeIsTheBuiltInTransposeOfTheArticlesThreeByFour) {
  sim::ProblemSpec want;
  want.kernel = sim::Kernel::transpose;
  want.m = 3;
  want.n = 4;
  want.k = 1;
  want.dtype = sim::DType::fp32;
  want.block_m = want.block_n = 2;
  want.block_k = 1;
  want.group_size_m = 1;
  want.order = sim::LaunchOrder::column_major;
  want.boundary = sim::Boundary::mask;
  want.stages = 1;
  want.num_warps = 1;
  EXPECT_EQ(infer("seed000_transpose.py"), want);
}

TEST(SeedKernels, Seed000MatmulIsAMaskedColumnMajorFp32MatmulWithIeeeDots) {
  auto want = matmul_spec(512, 256, 384, 64, 64, 32, sim::DType::fp32,
                          sim::LaunchOrder::column_major, sim::Boundary::mask);
  want.input_precision = sim::InputPrecision::ieee;
  EXPECT_EQ(infer("seed000_matmul.py"), want);
}

TEST(SeedKernels, Seed001MatmulIsTheWrappedColumnMajorMatmul) {
  const auto want = matmul_spec(574, 574, 574, 64, 64, 64, sim::DType::fp16,
                                sim::LaunchOrder::column_major, sim::Boundary::wrap);
  EXPECT_EQ(infer("seed001_matmul.py"), want);
}

TEST(SeedKernels, Seed003BlockMatmulIsAMaskedColumnMajorTf32Matmul) {
  auto want = matmul_spec(512, 256, 384, 64, 64, 64, sim::DType::fp32,
                          sim::LaunchOrder::column_major, sim::Boundary::mask);
  want.input_precision = sim::InputPrecision::tf32;  // no input_precision: Triton's default
  EXPECT_EQ(infer("seed003_block_matmul.py"), want);
}

TEST(SeedKernels, Seed003CoalescedVariantReadsBTransposed) {
  auto want = matmul_spec(512, 256, 384, 64, 64, 64, sim::DType::fp32,
                          sim::LaunchOrder::column_major, sim::Boundary::mask);
  want.input_precision = sim::InputPrecision::tf32;
  want.b_layout = sim::BLayout::transposed;
  EXPECT_EQ(infer("seed003_coalesced_matmul.py"), want);
}

TEST(SeedKernels, Seed004IsTheWrappedGroupedMatmulOfTheTutorial) {
  // At 9 x 9 tiles and GROUP_SIZE_M = 3 the legacy formula and today's give the same table:
  // both match, the first listed (grouped) is taken and grouped-legacy is reported alongside.
  auto want = matmul_spec(574, 574, 574, 64, 64, 64, sim::DType::fp16, sim::LaunchOrder::grouped,
                          sim::Boundary::wrap);
  want.group_size_m = 3;
  const auto l = load(asset_kernel("seed004_grouped_matmul.py"));
  const Inference inf = infer_problem(*l.ev);
  EXPECT_EQ(inf.spec, want);
  ASSERT_EQ(inf.also_matching.size(), 1u);
  EXPECT_EQ(inf.also_matching[0], sim::LaunchOrder::grouped_legacy);
  EXPECT_EQ(inf.programs_checked, 81);
}

// The built-in scenario of the same problem (assets/scenarios/wrap_574_triton_tutorial.json) is
// the problem seed 004's file is recognised as, field for field.
TEST(SeedKernels, Seed004IsTheBuiltInWrapScenariosProblem) {
  const auto builtin = scenario::load_scenario(std::string(TILESIM_ASSETS_DIR) +
                                               "/scenarios/wrap_574_triton_tutorial.json");
  EXPECT_EQ(infer("seed004_grouped_matmul.py"), builtin.problem);
}

TEST(SeedKernels, Seed004Pid29ComputesTileFiveZero) {
  const auto l = load(asset_kernel("seed004_grouped_matmul.py"));
  const auto spec = infer_problem(*l.ev).spec;
  EXPECT_EQ(evaluated_tile(*l.ev, spec, 29), (sim::TileCoord{5, 0}));
}

TEST(SeedKernels, TutorialMatmulIsTheGroupedMatmulAtGroupSize4) {
  auto want = matmul_spec(1024, 768, 512, 128, 128, 64, sim::DType::fp16, sim::LaunchOrder::grouped,
                          sim::Boundary::mask);
  want.group_size_m = 4;
  want.stages = 3;
  // 1024 and 768 are multiples of 128: no tile wraps, so mask and wrap read the same lanes.
  EXPECT_EQ(infer("tutorial_matmul.py", "matmul_kernel"), want);
}

// Each seed file's run through the engine — its inferred spec and its own plan, the steps read
// from the file — gives the counters of the built-in kernel's run of the expected spec (whose
// plan is read from the built-in listing): tile loads and stores, L2 sectors and hits, DRAM bytes.
TEST(SeedKernels, EverySeedFilesReplayCountersEqualTheBuiltInKernels) {
  auto seed001 = matmul_spec(574, 574, 574, 64, 64, 64, sim::DType::fp16,
                             sim::LaunchOrder::column_major, sim::Boundary::wrap);
  auto seed003 = matmul_spec(512, 256, 384, 64, 64, 64, sim::DType::fp32,
                             sim::LaunchOrder::column_major, sim::Boundary::mask);
  seed003.input_precision = sim::InputPrecision::tf32;
  auto coalesced = seed003;
  coalesced.b_layout = sim::BLayout::transposed;
  auto seed004 = matmul_spec(574, 574, 574, 64, 64, 64, sim::DType::fp16, sim::LaunchOrder::grouped,
                             sim::Boundary::wrap);
  seed004.group_size_m = 3;  // tilesim's wrap_574_triton_tutorial scenario
  auto seed000 = matmul_spec(512, 256, 384, 64, 64, 32, sim::DType::fp32,
                             sim::LaunchOrder::column_major, sim::Boundary::mask);
  const std::pair<const char*, sim::ProblemSpec> cases[] = {
      {"seed000_matmul.py", seed000},
      {"seed001_matmul.py", seed001},
      {"seed003_block_matmul.py", seed003},
      {"seed003_coalesced_matmul.py", coalesced},
      {"seed004_grouped_matmul.py", seed004}};
  const sim::Machine m = *sim::find_machine("h100");
  for (const auto& [file, builtin] : cases) {
    SCOPED_TRACE(file);
    const auto l = load(asset_kernel(file));
    const Inference inf = infer_problem(*l.ev);
    const sim::Problem from_file(inf.spec, inf.plan);
    EXPECT_EQ(from_file.plan().source, l.source->file);
    const sim::Problem p(builtin);
    const auto a = sim::replay(from_file, m, sim::occupancy(from_file, m), {}).counters;
    const auto b = sim::replay(p, m, sim::occupancy(p, m), {}).counters;
    EXPECT_EQ(a.tile_loads, b.tile_loads);
    EXPECT_EQ(a.tile_stores, b.tile_stores);
    EXPECT_EQ(a.l2_load_sectors, b.l2_load_sectors);
    EXPECT_EQ(a.l2_load_hit_sectors, b.l2_load_hit_sectors);
    EXPECT_EQ(a.dram_read_bytes, b.dram_read_bytes);
    EXPECT_EQ(a.dram_write_bytes, b.dram_write_bytes);
  }
}

// The plan a file runs with is the file's own: each step's line is the file's line doing it, its
// pointer and mask lines the file's, its names the file's (seed 004 writes offs_am and strides the
// tutorial's way round), and copy and transpose step through the file's tl.trans.
TEST(SeedKernels, AFilesPlanPointsAtItsOwnLinesAndNames) {
  const auto l = load(asset_kernel("seed004_grouped_matmul.py"));
  const Inference inf = infer_problem(*l.ev);
  const auto& lines = l.source->lines;
  const auto text = [&](int line) {
    EXPECT_GE(line, 1);
    return line >= 1 ? lines[static_cast<std::size_t>(line - 1)] : std::string();
  };
  const sim::ProgramPlan& plan = *inf.plan;
  EXPECT_NE(text(plan.map_line).find("pid_n ="), std::string::npos);
  ASSERT_EQ(plan.body.size(), 3u);
  EXPECT_NE(text(plan.body[0].line).find("a = tl.load(a_ptrs"), std::string::npos);
  EXPECT_NE(text(plan.body[0].ptr_line).find("a_ptrs = a_ptr +"), std::string::npos);
  EXPECT_EQ(plan.body[0].mask_line, plan.body[0].line);  // the mask is written in the call
  EXPECT_EQ(plan.body[0].row.index_name, "offs_am");
  EXPECT_EQ(plan.body[0].col.index_name, "offs_k");
  EXPECT_EQ(plan.body[0].matrix_name, "A");
  EXPECT_NE(text(plan.body[2].line).find("tl.dot("), std::string::npos);
  ASSERT_EQ(plan.tail.size(), 1u);
  EXPECT_NE(text(plan.tail[0].mask_line).find("c_mask ="), std::string::npos);
  // "stride_cm * offs_cm[:, None]": the factors either way round.
  EXPECT_EQ(plan.tail[0].row.index_name, "offs_cm");
  EXPECT_EQ(plan.tail[0].row.stride_name, "stride_cm");
  const sim::Problem p(inf.spec, inf.plan);
  const sim::Step dot = sim::program_step(p, 29, 3);
  EXPECT_EQ(dot.op, sim::StepOp::dot);
  EXPECT_EQ(dot.line, plan.body[2].line);

  for (const char* file : {"seed000_copy.py", "seed000_transpose.py"}) {
    SCOPED_TRACE(file);
    const auto lc = load(asset_kernel(file));
    const Inference ic = infer_problem(*lc.ev);
    const sim::Problem pc(ic.spec, ic.plan);
    const sim::Problem builtin(ic.spec);
    ASSERT_EQ(sim::steps_per_program(pc), sim::steps_per_program(builtin));
    const sim::Machine m = *sim::find_machine("h100");
    const auto a = sim::replay(pc, m, sim::occupancy(pc, m), {}).counters;
    const auto b = sim::replay(builtin, m, sim::occupancy(builtin, m), {}).counters;
    EXPECT_EQ(a.tile_loads, b.tile_loads);
    EXPECT_EQ(a.tile_stores, b.tile_stores);
    EXPECT_EQ(a.l2_load_sectors, b.l2_load_sectors);
    EXPECT_EQ(a.dram_read_bytes, b.dram_read_bytes);
    EXPECT_EQ(a.dram_write_bytes, b.dram_write_bytes);
    const auto& src = lc.source->lines;
    for (std::int64_t pid : {std::int64_t{0}, pc.programs() - 1})
      for (std::int64_t step = 0; step < sim::steps_per_program(pc); ++step) {
        const sim::Step a = sim::program_step(pc, pid, step);
        const sim::Step b = sim::program_step(builtin, pid, step);
        EXPECT_EQ(a.op, b.op);
        EXPECT_EQ(a.bytes, b.bytes);
        ASSERT_EQ(a.span.has_value(), b.span.has_value());
        if (a.span) {
          EXPECT_EQ(a.span->row0, b.span->row0);
          EXPECT_EQ(a.span->col0, b.span->col0);
        }
        ASSERT_GE(a.line, 1);
        ASSERT_LE(a.line, static_cast<int>(src.size()));
        // seed 000's copy and transpose name no pid_n: their map is the pid's own line.
        EXPECT_NE(src[static_cast<std::size_t>(a.line - 1)].find(
                      a.op == sim::StepOp::transpose ? "tl.trans"
                      : a.op == sim::StepOp::map     ? "= tl.program_id"
                      : a.op == sim::StepOp::store   ? "tl.store"
                                                     : "tl.load"),
                  std::string::npos)
            << src[static_cast<std::size_t>(a.line - 1)];
      }
  }
}

}  // namespace
}  // namespace tilesim::triton

// The evaluator on tiles: broadcasting builds the offset matrix and mask of seed 000's 3 x 4
// transpose example lane by lane; loads, stores and dots leave records with their shapes.
#include <gtest/gtest.h>

#include "tests/triton/fixtures.hpp"

namespace tilesim::triton {
namespace {

using testing::asset_kernel;
using testing::load;

TEST(Evaluator, BroadcastingBuildsSeed000sOffsetsAndMask) {
  // rows = 3, cols = 4, BLOCK_SIZE = 2: pid 1 is program (1, 0): rows 2..3, cols 0..1.
  const auto k = load(asset_kernel("seed000_transpose.py"));
  const ProgramRun run = k.ev->run(1);
  EXPECT_EQ(run.pids, (std::array<std::int64_t, 3>{1, 0, 0}));
  std::vector<const Record*> mem;
  for (const auto& r : run.records)
    if (r.kind == RecordKind::load || r.kind == RecordKind::store) mem.push_back(&r);
  ASSERT_EQ(mem.size(), 2u);
  const AccessRecord& in = mem[0]->access;
  EXPECT_EQ(in.tensor_name, "input");
  EXPECT_EQ(in.offsets.shape, (Shape{2, 2}));
  EXPECT_EQ(in.offsets.ints, (std::vector<std::int64_t>{8, 9, 12, 13}));  // rows 2, 3 x stride 4
  EXPECT_EQ(in.mask.ints, (std::vector<std::int64_t>{1, 1, 0, 0}));       // row 3 is past rows
  const AccessRecord& out = mem[1]->access;
  EXPECT_EQ(out.offsets.ints, (std::vector<std::int64_t>{2, 3, 5, 6}));  // cols_ * 3 + rows_
  EXPECT_EQ(out.mask.ints, (std::vector<std::int64_t>{1, 0, 1, 0}));
  EXPECT_EQ(out.value_origin, 0);
  EXPECT_TRUE(out.value_transposed);
  EXPECT_EQ(mem[0]->pos.line, 41);
}

TEST(Evaluator, AMatmulRecordsTwoLoadsAndADotPerIterationThenOneStore) {
  const auto k = load(asset_kernel("seed001_matmul.py"));
  const ProgramRun run = k.ev->run(80);
  EXPECT_EQ(run.loop_iterations, 9);
  int loads = 0, dots = 0, stores = 0;
  for (const auto& r : run.records) {
    loads += r.kind == RecordKind::load;
    stores += r.kind == RecordKind::store;
    if (r.kind != RecordKind::dot) continue;
    ++dots;
    EXPECT_EQ(r.dot.a, (Shape{64, 64}));
    EXPECT_EQ(r.dot.a_elem, Elem::f16);
    EXPECT_EQ(r.dot.out_elem, Elem::f32);
  }
  EXPECT_EQ(loads, 18);
  EXPECT_EQ(dots, 9);
  EXPECT_EQ(stores, 1);
  // Program 80 is tile (8, 8): its A rows 512..575 wrap to 512..573, 0, 1 (offs_am % M).
  const AccessRecord& a = run.records[0].access;
  EXPECT_EQ(a.offsets.at(61 * 64) / 574, 573);
  EXPECT_EQ(a.offsets.at(62 * 64) / 574, 0);
}

TEST(Evaluator, TheSoftmaxTestKernelReducesRowsAndStoresAComputedTile) {
  const auto k = load(testing::test_kernel("softmax_rows.py"));
  const ProgramRun run = k.ev->run(7);
  ASSERT_EQ(run.records.size(), 2u);
  EXPECT_EQ(run.records[0].access.offsets.shape, (Shape{256}));
  EXPECT_EQ(run.records[0].access.offsets.at(0), 7 * 200);
  EXPECT_EQ(run.records[1].kind, RecordKind::store);
  EXPECT_EQ(run.records[1].access.value_origin, -1);  // computed, not the loaded tile
}

TEST(Evaluator, ScalarsAreRecordedOnRequestForMapsExplanation) {
  const auto k = load(asset_kernel("seed004_grouped_matmul.py"));
  EvalOptions opt;
  opt.scalars = true;
  std::vector<std::pair<std::string, std::int64_t>> seen;
  for (const auto& r : k.ev->run(29, opt).records)
    if (r.kind == RecordKind::scalar) seen.emplace_back(r.name, r.value);
  ASSERT_GE(seen.size(), 9u);
  EXPECT_EQ(seen[7], (std::pair<std::string, std::int64_t>{"pid_m", 5}));
  EXPECT_EQ(seen[8], (std::pair<std::string, std::int64_t>{"pid_n", 0}));
}

TEST(Evaluator, PythonIntegersFollowPythonsRulesAndTilesCs) {
  const auto k = load_kernel_text(R"(
@triton.jit
def k(M):
    a = (-7) // 2
    b = (-7) % 2
    c = (-1) ** 3
    d = 3 ** 39
    e = M // 2
    f = M % 2
)",
                                  "ints.py", {}, {"M=-7"});
  EvalOptions opt;
  opt.scalars = true;
  std::vector<std::int64_t> v;
  for (const auto& r : k.ev->run(0, opt).records) v.push_back(r.value);
  // constexpr arithmetic floors; the runtime argument M is an int32 tensor: C truncation.
  EXPECT_EQ(v, (std::vector<std::int64_t>{-4, 1, -1, 4052555153018976267ll, -3, -1}));
}

}  // namespace
}  // namespace tilesim::triton

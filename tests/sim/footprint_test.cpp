// Footprint: Triton's tutorial example (90 vs 54 input tiles for the first 9 programs).
#include "sim/memory/footprint.hpp"

#include <gtest/gtest.h>

#include "tests/sim/fixtures.hpp"

using namespace tilesim::sim;
using namespace tilesim::sim_test;

namespace {
Problem triton_example(LaunchOrder order, int block) {
  return Problem(square_matmul(9 * block, block, order, 3));
}
}  // namespace

TEST(Footprint, TritonExampleRowMajorFirstNineProgramsLoad90Tiles) {
  for (int block : {16, 32, 64}) {
    const auto f = footprint(triton_example(LaunchOrder::row_major, block), 9);
    EXPECT_EQ(f.a_tiles, 9);   // one row band of A: 9 K-tiles
    EXPECT_EQ(f.b_tiles, 81);  // nine column bands of B
    EXPECT_EQ(f.tiles, 90);
  }
}

TEST(Footprint, TritonExampleGroupedFirstNineProgramsLoad54Tiles) {
  const auto f = footprint(triton_example(LaunchOrder::grouped, 64), 9);
  EXPECT_EQ(f.a_tiles, 27);
  EXPECT_EQ(f.b_tiles, 27);
  EXPECT_EQ(f.tiles, 54);
  EXPECT_EQ(f.bytes, 54LL * 64 * 64 * 2);  // fp16, all tiles full
}

TEST(Footprint, AllProgramsTouchEachInputByteOnce) {
  ProblemSpec s;  // 574^3 fp16
  const Problem p(s);
  const auto f = footprint(p, p.programs());
  EXPECT_EQ(f.bytes, 2LL * 574 * 574 * 2);
  EXPECT_EQ(f.tiles, 2 * 81);
}

TEST(Footprint, CopyCountsInputTilesOnly) {
  ProblemSpec s;
  s.kernel = Kernel::copy;
  s.m = 100;
  s.n = 70;
  s.block_m = s.block_n = 32;
  const Problem p(s);
  const auto f = footprint(p, p.programs());
  EXPECT_EQ(f.b_tiles, 0);
  EXPECT_EQ(f.a_tiles, 4 * 3);
  EXPECT_EQ(f.bytes, 100LL * 70 * 2);
}

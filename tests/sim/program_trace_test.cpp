// Program traces: offsets built by broadcasting equal element-wise addresses; masks turn off
// exactly the out-of-range lanes; valid stores of a whole kernel add up to M x N.
#include "sim/program/program_trace.hpp"

#include <gtest/gtest.h>

using namespace tilesim::sim;

namespace {

ProblemSpec spec(Kernel k, std::int64_t M, std::int64_t N, std::int64_t K, int b, Boundary bd,
                 LaunchOrder o = LaunchOrder::grouped) {
  ProblemSpec s;
  s.kernel = k;
  s.m = M;
  s.n = N;
  s.k = K;
  s.block_m = s.block_n = s.block_k = b;
  s.boundary = bd;
  s.order = o;
  return s;
}

// Address of element (r, c) of an operand computed directly from its strides.
std::int64_t address(const Problem& p, Operand op, std::int64_t r, std::int64_t c) {
  const auto sh = p.shape(op);
  return r * sh.stride_row + c * sh.stride_col;
}

}  // namespace

TEST(Seed000Mask, RowsBelow3AndColsBelow5GiveTheArticlesMask) {
  // Seed 000: rows_ = [0,1,2,3] < 3 and cols_ = [4,5,6,7] < 5 -> only column 0 of rows 0..2.
  const Problem p(spec(Kernel::transpose, 3, 5, 1, 4, Boundary::mask, LaunchOrder::row_major));
  const auto a = tile_access(p, StepOp::load, TileCoord{0, 1}, -1);
  const char* expect[4] = {"TFFF", "TFFF", "TFFF", "FFFF"};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) EXPECT_EQ(a.valid(i, j), expect[i][j] == 'T') << i << "," << j;
}

TEST(Seed000Offsets, TwoByTwoBroadcastGivesZeroOneFourFive) {
  // Seed 000: [[0], [4]] + [[0, 1]] = [[0, 1], [4, 5]] for a row stride of 4.
  const Problem p(spec(Kernel::copy, 4, 4, 1, 2, Boundary::mask, LaunchOrder::row_major));
  const auto a = tile_access(p, StepOp::load, TileCoord{0, 0}, -1);
  EXPECT_EQ(a.offset(0, 0), 0);
  EXPECT_EQ(a.offset(0, 1), 1);
  EXPECT_EQ(a.offset(1, 0), 4);
  EXPECT_EQ(a.offset(1, 1), 5);
}

TEST(Offsets, EveryElementEqualsTheAddressFromStrides) {
  for (auto bl : {BLayout::row_major, BLayout::transposed})
    for (auto bd : {Boundary::mask, Boundary::wrap}) {
      auto s = spec(Kernel::matmul, 100, 70, 45, 32, bd);
      s.b_layout = bl;
      const Problem p(s);
      for (std::int64_t pid : {std::int64_t{0}, std::int64_t{5}, p.programs() - 1}) {
        for (std::int64_t step = 0; step < steps_per_program(p); ++step) {
          const auto st = program_step(p, pid, step);
          if (!st.span) continue;
          const auto a = tile_access(p, st.op, tile_of(p, pid), st.k);
          for (int i = 0; i < a.rows(); ++i)
            for (int j = 0; j < a.cols(); ++j)
              ASSERT_EQ(a.offset(i, j), address(p, a.span.operand, a.span.row(i), a.span.col(j)))
                  << "pid " << pid << " step " << step;
        }
      }
    }
}

TEST(Offsets, TransposeStoreWritesColumnsAsRows) {
  const Problem p(spec(Kernel::transpose, 6, 10, 1, 4, Boundary::mask, LaunchOrder::row_major));
  const auto a = tile_access(p, StepOp::store, TileCoord{1, 2}, -1);
  // out is (N, M) = (10, 6): lane (i, j) holds in[4 + j][8 + i] and sits at out row 8 + i.
  EXPECT_EQ(a.rows(), 4);
  EXPECT_EQ(a.offset(1, 0), (8 + 1) * 6 + 4);
  EXPECT_TRUE(a.valid(1, 1));   // out (9, 5): in range
  EXPECT_FALSE(a.valid(2, 0));  // out row 10 >= N
  EXPECT_FALSE(a.valid(0, 2));  // out col 6 >= M
}

TEST(Masks, BoundaryTileTurnsOffExactlyTheOutOfRangeLanes) {
  const Problem p(spec(Kernel::matmul, 574, 574, 574, 64, Boundary::mask));
  const TileCoord corner{8, 8};
  const auto a = tile_access(p, StepOp::load_a, corner, 8);  // rows 512..575, k 512..575
  std::int64_t on = 0;
  for (int i = 0; i < a.rows(); ++i)
    for (int j = 0; j < a.cols(); ++j) {
      const bool in_range = 512 + i < 574 && 512 + j < 574;
      EXPECT_EQ(a.valid(i, j), in_range);
      on += a.valid(i, j);
    }
  EXPECT_EQ(on, 62 * 62);
  EXPECT_EQ(a.span.lanes_on(), 62 * 62);
}

TEST(Masks, WrapModeMasksOnlyKOnLoads) {
  const Problem p(spec(Kernel::matmul, 574, 574, 574, 64, Boundary::wrap));
  const auto a = tile_access(p, StepOp::load_a, TileCoord{8, 0}, 8);
  EXPECT_EQ(a.row_index[63], (512 + 63) % 574);  // wrapped back to row 1
  EXPECT_TRUE(a.row_valid[63]);
  EXPECT_FALSE(a.col_valid[63]);  // k = 575 >= K
  EXPECT_EQ(a.span.lanes_on(), 64 * 62);
}

TEST(Stores, ValidStoreLanesOfWholeKernelAddUpToMTimesN) {
  for (auto k : {Kernel::copy, Kernel::transpose, Kernel::matmul})
    for (auto bd : {Boundary::mask, Boundary::wrap})
      for (auto o : {LaunchOrder::row_major, LaunchOrder::grouped_legacy}) {
        const Problem p(spec(k, 1000, 777, 333, 64, bd, o));
        std::int64_t valid = 0, lanes = 0;
        for (std::int64_t pid = 0; pid < p.programs(); ++pid) {
          const auto s = store_lanes(p, pid);
          valid += s.valid;
          lanes += s.lanes;
        }
        EXPECT_EQ(valid, 1000 * 777) << to_string(k) << " " << to_string(bd);
        EXPECT_EQ(lanes, p.programs() * 64 * 64);
      }
}

TEST(Trace, MatmulHasMapThenLoadALoadBDotPerKThenStore) {
  const Problem p(spec(Kernel::matmul, 128, 128, 192, 64, Boundary::mask));
  const auto t = program_trace(p, 3);
  ASSERT_EQ(t.size(), 2u + 3u * 3u);
  EXPECT_EQ(t[0].op, StepOp::map);
  EXPECT_EQ(t[1].op, StepOp::load_a);
  EXPECT_EQ(t[2].op, StepOp::load_b);
  EXPECT_EQ(t[3].op, StepOp::dot);
  EXPECT_EQ(t[7].k, 2);
  EXPECT_EQ(t.back().op, StepOp::store);
  EXPECT_EQ(t[1].bytes, 64 * 64 * 2);
  EXPECT_DOUBLE_EQ(t[3].flops, 2.0 * 64 * 64 * 64);
}

TEST(Trace, StepOutsideTheProgramIsRefused) {
  const Problem p(spec(Kernel::copy, 64, 64, 1, 32, Boundary::mask));
  EXPECT_THROW(program_step(p, 0, 3), std::out_of_range);
  EXPECT_THROW(program_step(p, 4, 0), std::out_of_range);
}

TEST(Stores, StoredTileOwnerInvertsWhereEveryProgramStoresItsTile) {
  for (const auto kernel : {Kernel::copy, Kernel::transpose, Kernel::matmul})
    for (const auto order : {LaunchOrder::row_major, LaunchOrder::grouped}) {
      ProblemSpec s;
      s.kernel = kernel;
      s.order = order;
      s.m = 300;
      s.n = 130;
      s.k = 64;
      s.block_m = 64;
      s.block_n = 32;
      const Problem p(s);
      for (std::int64_t pid = 0; pid < p.programs(); ++pid) {
        const TileCoord t = tile_of(p, pid);
        const TileSpan span = step_span(p, StepOp::store, t, -1);
        ASSERT_EQ(stored_tile_owner(p, span.row0 / span.rows, span.col0 / span.cols), t)
            << to_string(kernel) << " pid " << pid;
      }
    }
}

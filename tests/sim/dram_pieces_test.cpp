// The DRAM's rate for short row pieces (sim/memory/dram_pieces): the probe's points exactly,
// linear between them, the narrowest point's below it, whole rows from 128 bytes on.
#include "sim/memory/dram_pieces.hpp"

#include <gtest/gtest.h>

using namespace tilesim::sim;

TEST(DramPieces, TheProbesPointsHoldExactly) {
  EXPECT_DOUBLE_EQ(dram_piece_efficiency(16), 0.47);
  EXPECT_DOUBLE_EQ(dram_piece_efficiency(32), 0.75);
  EXPECT_DOUBLE_EQ(dram_piece_efficiency(64), 0.88);  // BLOCK_K = 32 of fp16
  EXPECT_DOUBLE_EQ(dram_piece_efficiency(128), 1.0);  // a whole L2 line
}

TEST(DramPieces, BetweenThePointsLinearOutsideThemTheEnds) {
  EXPECT_DOUBLE_EQ(dram_piece_efficiency(48), (0.75 + 0.88) / 2);  // 12 fp32
  EXPECT_DOUBLE_EQ(dram_piece_efficiency(96), (0.88 + 1.0) / 2);
  EXPECT_DOUBLE_EQ(dram_piece_efficiency(8), 0.47);
  EXPECT_DOUBLE_EQ(dram_piece_efficiency(0), 0.47);
  EXPECT_DOUBLE_EQ(dram_piece_efficiency(256), 1.0);
  EXPECT_DOUBLE_EQ(dram_piece_efficiency(1 << 20), 1.0);
}

// Never faster for a shorter piece.
TEST(DramPieces, AShorterPieceNeverReadsFaster) {
  for (std::int64_t b = 1; b < 300; ++b)
    EXPECT_LE(dram_piece_efficiency(b), dram_piece_efficiency(b + 1)) << b;
}

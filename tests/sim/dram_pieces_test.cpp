// The DRAM's rate for short row pieces (sim/memory/dram_pieces): the probe's points exactly,
// linear between them, the narrowest point's below it, whole rows from 8192 bytes on.
#include "sim/memory/dram_pieces.hpp"

#include <gtest/gtest.h>

using namespace tilesim::sim;

TEST(DramPieces, TheProbesPointsHoldExactly) {
  EXPECT_DOUBLE_EQ(dram_piece_efficiency(16), 0.57);
  EXPECT_DOUBLE_EQ(dram_piece_efficiency(32), 0.58);
  EXPECT_DOUBLE_EQ(dram_piece_efficiency(64), 0.59);   // BLOCK_K = 32 of fp16
  EXPECT_DOUBLE_EQ(dram_piece_efficiency(128), 0.90);  // BLOCK_K = 64 of fp16
  EXPECT_DOUBLE_EQ(dram_piece_efficiency(512), 0.99);
  EXPECT_DOUBLE_EQ(dram_piece_efficiency(8192), 1.0);
}

TEST(DramPieces, BetweenThePointsLinearOutsideThemTheEnds) {
  EXPECT_DOUBLE_EQ(dram_piece_efficiency(48), (0.58 + 0.59) / 2);  // 12 fp32
  EXPECT_DOUBLE_EQ(dram_piece_efficiency(96), (0.59 + 0.90) / 2);
  EXPECT_DOUBLE_EQ(dram_piece_efficiency(320), (0.90 + 0.99) / 2);
  EXPECT_DOUBLE_EQ(dram_piece_efficiency(8), 0.57);
  EXPECT_DOUBLE_EQ(dram_piece_efficiency(0), 0.57);
  EXPECT_DOUBLE_EQ(dram_piece_efficiency(1 << 20), 1.0);
}

// Never faster for a shorter piece.
TEST(DramPieces, AShorterPieceNeverReadsFaster) {
  for (std::int64_t b = 1; b < 9000; ++b)
    EXPECT_LE(dram_piece_efficiency(b), dram_piece_efficiency(b + 1)) << b;
}

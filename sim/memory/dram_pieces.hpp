// The DRAM's read rate against the contiguous bytes read of a row before the next row. A tiled
// matmul reads an operand stored along K a piece of BLOCK_K x elem bytes of each of its tile's
// rows every K step, the row's next piece a K step later, so at a time the GPU reads a narrow
// column strip: the DRAM serves short pieces of many rows slower than whole rows.
// Teaches: the same bytes, read in another order, take longer.
#pragma once

#include <cstdint>

namespace tilesim::sim {

// The measured points: a piece's bytes and the share of a whole-row read's rate it reads at
// (kernels/probes/dram_locality.cu on an H200, assets/measured/dram_locality_h200.csv: 1 GiB
// read once in 64-row blocks, strip by strip, at pitches of 8 and 24 KiB, whose ratios agree
// within 0.01; 128 bytes and wider read at 0.99-1.01). The H100's HBM3 is assumed the same.
inline constexpr double kDramPiece16Efficiency = 0.47;  // 0.467 and 0.477 at the two pitches
inline constexpr double kDramPiece32Efficiency = 0.75;  // 0.751, 0.744
inline constexpr double kDramPiece64Efficiency = 0.88;  // 0.882, 0.880
struct DramPiecePoint {
  std::int64_t bytes;
  double efficiency;
};
inline constexpr DramPiecePoint kDramPieceEfficiency[] = {{16, kDramPiece16Efficiency},
                                                          {32, kDramPiece32Efficiency},
                                                          {64, kDramPiece64Efficiency},
                                                          {128, 1.0}};

// The share of the streaming rate for pieces of `piece_bytes`: linear between the points, the
// first point's below 16 bytes, 1 from 128 on.
double dram_piece_efficiency(std::int64_t piece_bytes);

}  // namespace tilesim::sim

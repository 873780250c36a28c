// The DRAM's read rate against the contiguous bytes read of a row before the next row. A tiled
// matmul reads an operand stored along K a piece of BLOCK_K x elem bytes of each of its tile's
// rows every K step, the row's next piece a K step later, so at a time the GPU reads a narrow
// column strip: the DRAM serves short pieces of many rows slower than whole rows.
// Teaches: the same bytes, read in another order, take longer.
#pragma once

#include <cstdint>

namespace tilesim::sim {

// The measured points: a piece's bytes and the share of a whole-row read's rate it reads at,
// when the reads in flight span one narrow strip of many rows (kernels/probes/dram_locality.cu
// on an H200, 512 rows a block: assets/measured/dram_locality_h200.csv; docs/TRITON_SPLIT.md,
// version 12). Pieces under 128 bytes read alike (0.566, 0.583, 0.586): the DRAM opens a row
// for each. The H100's HBM3 is assumed to behave the same; the T4's and A100's too, unmeasured.
inline constexpr double kDramPiece16Efficiency = 0.57;
inline constexpr double kDramPiece32Efficiency = 0.58;
inline constexpr double kDramPiece64Efficiency = 0.59;
inline constexpr double kDramPiece128Efficiency = 0.90;
inline constexpr double kDramPiece512Efficiency = 0.99;
struct DramPiecePoint {
  std::int64_t bytes;
  double efficiency;
};
inline constexpr DramPiecePoint kDramPieceEfficiency[] = {
    {16, kDramPiece16Efficiency},   {32, kDramPiece32Efficiency},   {64, kDramPiece64Efficiency},
    {128, kDramPiece128Efficiency}, {512, kDramPiece512Efficiency}, {8192, 1.0}};

// The share of the streaming rate for pieces of `piece_bytes`: linear between the points, the
// first point's below 16 bytes, 1 from 8192 on.
double dram_piece_efficiency(std::int64_t piece_bytes);

}  // namespace tilesim::sim

#include "sim/memory/dram_pieces.hpp"

#include <iterator>

namespace tilesim::sim {

double dram_piece_efficiency(std::int64_t piece_bytes) {
  const auto* first = std::begin(kDramPieceEfficiency);
  if (piece_bytes <= first->bytes) return first->efficiency;
  for (const auto* p = first + 1; p != std::end(kDramPieceEfficiency); ++p) {
    if (piece_bytes > p->bytes) continue;
    const DramPiecePoint& a = *(p - 1);
    const double f =
        static_cast<double>(piece_bytes - a.bytes) / static_cast<double>(p->bytes - a.bytes);
    return a.efficiency + f * (p->efficiency - a.efficiency);
  }
  return std::prev(std::end(kDramPieceEfficiency))->efficiency;
}

}  // namespace tilesim::sim

// Recognising one evaluated tl.load / tl.store (the front end's AccessRecord) as sim's compact
// TileSpan: a rectangle of one tensor, each axis straight and masked at the tensor's edge, or
// wrapped with % extent.
#pragma once

#include <optional>
#include <string>

#include "sim/program/program_trace.hpp"
#include "triton/launch.hpp"
#include "triton/records.hpp"

namespace tilesim::sim {

// An access seen in the coordinates of the tensor it reads: lane (i, j) of the tile touches
// element (row0 + i, col0 + j) of the tensor (each % extent where wrapped), or (row0 + j,
// col0 + i) where `swapped` (the tile's first axis walks the tensor's columns).
struct TensorSpan {
  TileSpan span;  // operand left as a; rows x cols in the tensor's orientation
  bool swapped = false;
};
// The rectangle an access touches, or nullopt with *why saying what breaks the pattern (lanes
// that are no rectangle, a mask that is not the boundary's, masked-in lanes outside the tensor).
std::optional<TensorSpan> recognize_span(const triton::AccessRecord& a, const triton::TensorDesc& t,
                                         std::string* why);

}  // namespace tilesim::sim

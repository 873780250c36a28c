// Footprint: the distinct input tiles (and bytes) a set of programs touches.
// Teaches Triton's tutorial example: the first 9 programs of a 9x9-tile matmul touch 90 input
// tiles in row-major order but only 54 in grouped order (GROUP_SIZE_M = 3).
#pragma once

#include <cstdint>

#include "sim/program/problem.hpp"

namespace tilesim::sim {

struct Footprint {
  std::int64_t a_tiles = 0;  // distinct A tiles (matmul) or input tiles (copy, transpose)
  std::int64_t b_tiles = 0;  // distinct B tiles (0 for copy and transpose)
  std::int64_t tiles = 0;    // a_tiles + b_tiles
  std::int64_t bytes = 0;    // in-range bytes of those tiles (each element counted once)
};

// Footprint of pids 0 .. programs-1 in the problem's launch order.
Footprint footprint(const Problem& p, std::int64_t programs);

}  // namespace tilesim::sim

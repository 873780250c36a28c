// The memory panel's L2 figures beside the counters: how full the L2 is now, out of the L2 a
// replay uses (sim::effective_l2_bytes), so the fill reaches 100 % when the replay's cache is full.
#pragma once

#include <cstdint>
#include <string>

#include "sim/machine/machine.hpp"

namespace tilesim::app {

struct L2Fill {
  std::int64_t capacity_bytes = 0;  // the L2 a replay holds: sim::effective_l2_bytes
  double fraction = 0;              // resident lines / the lines that capacity holds, in [0, 1]
  // The L2 box's title and fill line, which say both sizes where they differ: "L2 cache, 50 MiB"
  // and "1.3 % of a 25 MiB half" (an H100's data sits in one of its two partitions), so the box
  // agrees with a lesson that names the datasheet's 50 MiB.
  std::string title, line;
};

// resident_lines: 128-byte lines resident now (sim::Snapshot::l2_resident_lines).
L2Fill l2_fill(const sim::Machine& m, std::int64_t resident_lines);

}  // namespace tilesim::app

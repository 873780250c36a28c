// The memory panel's L2 fill (see memory_view.hpp).
#include "app/core/memory_view.hpp"

#include <algorithm>

#include "sim/memory/l2_cache.hpp"

namespace tilesim::app {

L2Fill l2_fill(const sim::Machine& m, std::int64_t resident_lines) {
  L2Fill f;
  f.capacity_bytes = sim::effective_l2_bytes(m);
  const std::int64_t lines = std::max<std::int64_t>(1, f.capacity_bytes / sim::L2Cache::kLineBytes);
  f.fraction = static_cast<double>(resident_lines) / static_cast<double>(lines);
  return f;
}

}  // namespace tilesim::app

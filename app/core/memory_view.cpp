// The memory panel's L2 fill (see memory_view.hpp).
#include "app/core/memory_view.hpp"

#include <algorithm>
#include <cstdio>

#include "sim/memory/l2_cache.hpp"

namespace tilesim::app {

L2Fill l2_fill(const sim::Machine& m, std::int64_t resident_lines) {
  L2Fill f;
  f.capacity_bytes = sim::effective_l2_bytes(m);
  const std::int64_t lines = std::max<std::int64_t>(1, f.capacity_bytes / sim::L2Cache::kLineBytes);
  f.fraction = static_cast<double>(resident_lines) / static_cast<double>(lines);
  const auto mib = [](std::int64_t b) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f MiB", static_cast<double>(b) / (1 << 20));
    return std::string(buf);
  };
  char pct[32];
  std::snprintf(pct, sizeof pct, "%.1f\u00a0%%",
                100.0 * f.fraction);  // no-break: "1.3 %" never splits
  f.title = "L2 cache, " + mib(m.l2_bytes);
  const std::string part =
      m.l2_partitions == 2 ? "a " + mib(f.capacity_bytes) + " half" : mib(f.capacity_bytes);
  f.line = std::string(pct) + " of " + (m.l2_partitions > 2 ? "a part, " : "") + part;
  return f;
}

}  // namespace tilesim::app

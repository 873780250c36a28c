// Decimal byte counts: B, kB, MB, GB, TB with two decimals above bytes.
#include "sim/base/format.hpp"

#include <cstdio>

namespace tilesim::sim {

std::string format_bytes(double bytes) {
  const char* units[] = {"B", "kB", "MB", "GB", "TB"};
  int u = 0;
  while (bytes >= 1000.0 && u < 4) {
    bytes /= 1000.0;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.2f %s", bytes, units[u]);
  return buf;
}

}  // namespace tilesim::sim

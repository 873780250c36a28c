// Per-program spans as CSV (see program_spans.hpp).
#include "scenario/program_spans.hpp"

#include <cstdio>

#include "sim/program/launch_order.hpp"

namespace tilesim::scenario {

std::string program_spans_csv(const sim::Problem& p, const std::vector<sim::ProgramSpan>& spans) {
  std::string csv = "pid,pid_m,pid_n,sm,slot,start_ns,end_ns\n";
  char row[160];
  for (const sim::ProgramSpan& s : spans) {
    const sim::TileCoord t = sim::tile_of(p, s.pid);
    std::snprintf(row, sizeof row, "%lld,%lld,%lld,%d,%d,%.3f,%.3f\n",
                  static_cast<long long>(s.pid), static_cast<long long>(t.pid_m),
                  static_cast<long long>(t.pid_n), s.sm, s.slot, s.start_ps * 1e-3,
                  s.end_ps * 1e-3);
    csv += row;
  }
  return csv;
}

}  // namespace tilesim::scenario

// Estimates from the problem's shape alone (no replay), so they cost microseconds.
#include "sim/replay/replay_budget.hpp"

#include <cstdio>

#include "sim/program/occupancy.hpp"
#include "sim/program/program_trace.hpp"
#include "sim/replay/timeline.hpp"

namespace tilesim::sim {
namespace {

std::string gib(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f GiB", bytes / double(1ll << 30));
  return buf;
}

std::string secs(double s) {
  char buf[48];
  if (s < 120)
    std::snprintf(buf, sizeof buf, "%.0f s", s);
  else if (s < 7200)
    std::snprintf(buf, sizeof buf, "%.0f min", s / 60);
  else
    std::snprintf(buf, sizeof buf, "%.0f h", s / 3600);
  return buf;
}

}  // namespace

ReplayCost estimate_replay_cost(const Problem& p, const Machine& m) {
  ReplayCost c;
  const TimelineCost t = estimate_timeline_cost(p, m, occupancy(p, m));
  c.events = t.events;
  c.line_ops = t.line_ops;
  // L2 state: 4 bytes per 128-byte line of the whole address space (l2_cache.hpp), and the LRU
  // queue of 4-byte line numbers with its slack (up to 4x the resident lines); per-tile reuse
  // counters (matmul: k_tiles x (tiles_m + tiles_n)), 32 B each.
  const std::int64_t lines = static_cast<std::int64_t>(p.address_space_bytes() / 128);
  const std::int64_t tiles =
      p.kernel() == Kernel::matmul ? p.k_tiles() * (p.tiles_m() + p.tiles_n()) : p.programs();
  c.address_space_bytes = static_cast<std::int64_t>(p.address_space_bytes());
  c.memory_bytes = lines * 4 + 4 * (m.l2_bytes / 128) * 4 + tiles * 32;
  c.seconds = static_cast<double>(c.line_ops) / kLineOpsPerSecond;
  return c;
}

void check_replay_budget(const ReplayCost& c, const ReplayBudget& b) {
  if (c.memory_bytes > b.max_memory_bytes)
    throw BudgetExceeded(
        "this replay would need about " + gib(c.memory_bytes) +
        " of memory for the L2 model of a " + gib(static_cast<double>(c.address_space_bytes)) +
        " address space, over the budget of " + gib(b.max_memory_bytes) +
        ": use smaller matrices (tilesim-cli run --max-memory-gib raises the budget)");
  if (c.seconds > b.max_seconds)
    throw BudgetExceeded("this replay would take about " + secs(c.seconds) + " (" +
                         std::to_string(c.line_ops) + " L2 line look-ups at " +
                         std::to_string(static_cast<long long>(kLineOpsPerSecond)) +
                         "/s), over the budget of " + secs(b.max_seconds) +
                         ": use larger blocks or smaller matrices (tilesim-cli run --max-seconds "
                         "raises the budget)");
}

}  // namespace tilesim::sim

// Size budgets for a replay: what a problem would cost in time and memory before it runs, and a
// refusal with those figures when it is over budget. Teaches nothing; keeps a classroom laptop
// from hanging on a 65536^3 problem with 16 x 16 tiles.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "sim/machine/machine.hpp"
#include "sim/program/problem.hpp"

namespace tilesim::sim {

struct ReplayCost {
  std::int64_t events = 0;
  std::int64_t line_ops = 0;             // 128-byte line look-ups of the L2 model
  std::int64_t memory_bytes = 0;         // L2 state over the address space + per-tile counters
  std::int64_t address_space_bytes = 0;  // A, B and C (or in and out), 4 KiB aligned
  double seconds = 0;                    // at kLineOpsPerSecond on one core
};

struct ReplayBudget {
  std::int64_t max_memory_bytes = 4ll << 30;  // 4 GiB
  double max_seconds = 120;
};

// Line look-ups per second of the counters-only replay on one core of the 2-core reference
// machine (docs/PERFORMANCE.md: 135 M line operations in ~0.85 s), rounded down.
inline constexpr double kLineOpsPerSecond = 1.2e8;

ReplayCost estimate_replay_cost(const Problem& p, const Machine& m);

class BudgetExceeded : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// Throws BudgetExceeded naming the figures and what to change when `cost` is over `budget`.
void check_replay_budget(const ReplayCost& cost, const ReplayBudget& budget);

}  // namespace tilesim::sim

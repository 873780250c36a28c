// Sweep: the same problem replayed over lists of block sizes, GROUP_SIZE_M, launch orders and
// stages, one configuration per task, spread over CPU threads (each replay stays single-threaded,
// so results do not depend on the thread count).
// Teaches: block size and grouping trade DRAM traffic against occupancy.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/engine.hpp"

namespace tilesim::sim {

// Empty list: keep the base problem's value.
struct SweepAxes {
  std::vector<int> block_m, block_n, block_k, stages;
  std::vector<std::int64_t> group_size_m;
  std::vector<LaunchOrder> orders;
};

// The cartesian product in a fixed order (orders, group_size_m, block_m, block_n, block_k,
// stages; the last varies fastest).
std::vector<ProblemSpec> sweep_specs(const ProblemSpec& base, const SweepAxes& axes);

struct SweepRow {
  ProblemSpec spec;
  std::string error;  // non-empty: invalid problem or does not fit; the numbers are zero
  ReplayResult result;
};

// Replays every spec on `threads` threads (0: std::thread::hardware_concurrency()).
// progress(done, total) is called from the worker threads, serialised by a mutex.
std::vector<SweepRow> run_sweep(const std::vector<ProblemSpec>& specs, const Machine& m,
                                std::optional<int> programs_per_sm_override, int threads = 0,
                                const std::function<void(int, int)>& progress = {});

}  // namespace tilesim::sim

// Sweep: the same problem replayed over lists of block sizes, GROUP_SIZE_M, launch orders and
// stages, one configuration per task, spread over CPU threads (each replay stays single-threaded,
// so results do not depend on the thread count).
// Teaches: block size and grouping trade DRAM traffic against occupancy.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/replay/engine.hpp"
#include "sim/replay/replay_budget.hpp"
#include "sim/timing/step_costs.hpp"

namespace tilesim::sim {

// Empty list: keep the base problem's value.
struct SweepAxes {
  std::vector<int> block_m, block_n, block_k, stages;
  std::vector<std::int64_t> group_size_m;
  std::vector<LaunchOrder> orders;
};

// The cartesian product in a fixed order (orders, group_size_m, block_m, block_n, block_k,
// stages; the last varies fastest). Orders that ignore GROUP_SIZE_M (row- and column-major) take
// only its first value, so identical configurations are not replayed twice.
std::vector<ProblemSpec> sweep_specs(const ProblemSpec& base, const SweepAxes& axes);

struct SweepRow {
  ProblemSpec spec;
  std::string error;  // non-empty: invalid problem or does not fit; the numbers are zero
  ReplayResult result;
};

// Replays every spec on `threads` threads (0: std::thread::hardware_concurrency()), each timed
// with `timing` (a CUDA rung's math path and shared layout: tilesim-cli sweep --variant).
// progress(done, total) is called from the worker threads, serialised by a mutex. A set `cancel`
// stops the replays in flight and the ones not started; once the threads have joined, run_sweep
// throws std::runtime_error("cancelled").
std::vector<SweepRow> run_sweep(const std::vector<ProblemSpec>& specs, const Machine& m,
                                std::optional<int> programs_per_sm_override, int threads = 0,
                                const std::function<void(int, int)>& progress = {},
                                const std::atomic<bool>* cancel = nullptr,
                                const TimingOptions& timing = {});

// What run_sweep(specs, m, ..., threads) would cost, for check_replay_budget: the memory of its
// largest replay, and the line operations and seconds of all of them, the seconds spread over
// the threads that run them. Invalid specs cost nothing (run_sweep reports them on their row).
ReplayCost estimate_sweep_cost(const std::vector<ProblemSpec>& specs, const Machine& m,
                               int threads = 0);

}  // namespace tilesim::sim

// Sweep: a cancel flag stops the replays and throws; one cost estimate (the CLI's and the app's)
// takes the largest replay's memory and spreads the time over the worker threads.
#include "sim/replay/sweep.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>

using namespace tilesim::sim;

namespace {

std::vector<ProblemSpec> group_sizes() {
  SweepAxes axes;
  axes.group_size_m = {1, 2, 4, 8};
  return sweep_specs(ProblemSpec{}, axes);
}

}  // namespace

TEST(Sweep, RowsComeBackInSpecOrderWhateverTheThreadCount) {
  const Machine m = *find_machine("h100");
  const auto specs = group_sizes();
  const auto one = run_sweep(specs, m, std::nullopt, 1);
  const auto two = run_sweep(specs, m, std::nullopt, 2);
  ASSERT_EQ(one.size(), specs.size());
  for (std::size_t i = 0; i < specs.size(); ++i) {
    EXPECT_EQ(one[i].spec, specs[i]);
    EXPECT_EQ(one[i].result.counters, two[i].result.counters);
  }
}

TEST(Sweep, ASetCancelFlagStopsTheSweepAndThrows) {
  const Machine m = *find_machine("h100");
  std::atomic<bool> cancel{true};
  EXPECT_THROW(run_sweep(group_sizes(), m, std::nullopt, 2, {}, &cancel), std::runtime_error);
  // Set while the sweep runs (after its first replay): the rest is not replayed.
  cancel = false;
  int calls = 0;
  try {
    run_sweep(
        group_sizes(), m, std::nullopt, 1,
        [&](int, int) {
          ++calls;
          cancel = true;
        },
        &cancel);
    ADD_FAILURE() << "a cancelled sweep returned";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "cancelled");
  }
  EXPECT_EQ(calls, 1);
}

TEST(SweepCost, IsTheLargestReplaysMemoryAndEveryReplaysTimeSpreadOverTheThreads) {
  const Machine m = *find_machine("h100");
  auto specs = group_sizes();
  ProblemSpec big = specs[0];
  big.m = big.n = big.k = 4096;
  specs.push_back(big);
  ProblemSpec invalid = specs[0];
  invalid.block_m = 48;  // not a power of two: costs nothing, reported on its row
  specs.push_back(invalid);
  ReplayCost want;
  for (std::size_t i = 0; i + 1 < specs.size(); ++i) {
    const ReplayCost c = estimate_replay_cost(Problem(specs[i]), m);
    want.memory_bytes = std::max(want.memory_bytes, c.memory_bytes);
    want.line_ops += c.line_ops;
    want.seconds += c.seconds;
  }
  const ReplayCost one = estimate_sweep_cost(specs, m, 1);
  EXPECT_EQ(one.memory_bytes, want.memory_bytes);
  EXPECT_EQ(one.line_ops, want.line_ops);
  EXPECT_DOUBLE_EQ(one.seconds, want.seconds);
  EXPECT_DOUBLE_EQ(estimate_sweep_cost(specs, m, 3).seconds, want.seconds / 3);
  // No more threads than specs: 6 specs on 64 threads still take a sixth of the time.
  EXPECT_DOUBLE_EQ(estimate_sweep_cost(specs, m, 64).seconds, want.seconds / 6);
  EXPECT_EQ(estimate_sweep_cost({}, m, 2).line_ops, 0);
}

TEST(Sweep, RowMajorRowsAreNotRepeatedOncePerGroupSize) {
  SweepAxes axes;
  axes.group_size_m = {1, 2, 4};
  axes.orders = {LaunchOrder::row_major, LaunchOrder::grouped, LaunchOrder::column_major};
  const auto specs = sweep_specs(ProblemSpec{}, axes);
  // row-major once, grouped three times, column-major once.
  ASSERT_EQ(specs.size(), 5u);
  EXPECT_EQ(specs[0].order, LaunchOrder::row_major);
  EXPECT_EQ(specs[1].order, LaunchOrder::grouped);
  EXPECT_EQ(specs[3].group_size_m, 4);
  EXPECT_EQ(specs[4].order, LaunchOrder::column_major);
}

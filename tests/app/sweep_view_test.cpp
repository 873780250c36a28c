// The sweep's view model without a window: its cache key names every field of the problem and
// every field of the machine, so changing any of them never shows another setting's bars.
#include <gtest/gtest.h>

#include <optional>

#include "app/core/sweep.hpp"
#include "scenario/machine_json.hpp"

using namespace tilesim;
using namespace tilesim::app;

TEST(SweepKey, EveryProblemFieldTheCodecWritesChangesTheKey) {
  const sim::ProblemSpec base;
  const auto key = [](const sim::ProblemSpec& s) {
    return sweep_key(s, SweepAxis::group_size_m, *sim::find_machine("h100"), std::nullopt);
  };
  sim::ProblemSpec warps = base;
  warps.num_warps = 8;
  EXPECT_NE(key(base), key(warps));
  sim::ProblemSpec precision = base;
  precision.input_precision = sim::InputPrecision::tf32;
  EXPECT_NE(key(base), key(precision));
  EXPECT_EQ(key(base), key(sim::ProblemSpec{}));
}

TEST(SweepKey, EveryMachineFieldChangesTheKeyTimingFiguresOfACustomMachineToo) {
  const sim::ProblemSpec s;
  const sim::Machine h100 = *sim::find_machine("h100");
  const auto key = [&](const sim::Machine& m) {
    return sweep_key(s, SweepAxis::block_size, m, std::nullopt);
  };
  EXPECT_EQ(key(h100), key(*sim::find_machine("h100")));
  EXPECT_NE(key(h100), key(*sim::find_machine("h200")));
  // Custom machines keep the preset's key, L2 and SMs: only a timing figure differs.
  const sim::Machine slow_dram =
      scenario::parse_machine_json(R"({"base": "h100", "dram_latency_cycles": 900})");
  const sim::Machine fast_dram =
      scenario::parse_machine_json(R"({"base": "h100", "dram_latency_cycles": 400})");
  EXPECT_NE(key(slow_dram), key(fast_dram));
  const sim::Machine two_schedulers =
      scenario::parse_machine_json(R"({"base": "h100", "schedulers_per_sm": 2})");
  EXPECT_NE(key(two_schedulers), key(scenario::parse_machine_json(R"({"base": "h100"})")));
  EXPECT_NE(key(h100), key(scenario::parse_machine_json(R"({"base": "h100"})")));  // "custom"
}

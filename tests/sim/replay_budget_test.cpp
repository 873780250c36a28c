// Size budgets: huge problems are refused before they run, with the figures.
#include "sim/replay/replay_budget.hpp"

#include <gtest/gtest.h>

using namespace tilesim::sim;

TEST(ReplayBudget, SeedExampleIsCheapAndAccepted) {
  const Problem p{ProblemSpec{}};
  const auto c = estimate_replay_cost(p, *find_machine("h100"));
  EXPECT_LT(c.seconds, 0.1);
  EXPECT_NO_THROW(check_replay_budget(c, {}));
}

TEST(ReplayBudget, LargestSizesWithSmallTilesAreRefusedWithFigures) {
  ProblemSpec s;
  s.m = s.n = s.k = 65536;
  s.block_m = s.block_n = s.block_k = 16;
  s.dtype = DType::fp32;
  const Problem p(s);
  const auto c = estimate_replay_cost(p, *find_machine("h100"));
  try {
    check_replay_budget(c, {});
    FAIL() << "accepted";
  } catch (const BudgetExceeded& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("L2 line look-ups"), std::string::npos) << msg;
    EXPECT_NE(msg.find("over the budget of 2 min"), std::string::npos) << msg;
  }
}

TEST(ReplayBudget, MemoryOverBudgetIsRefusedWithTheAddressSpace) {
  ProblemSpec s;
  s.kernel = Kernel::copy;
  s.m = s.n = 65536;
  s.dtype = DType::fp32;
  const Problem p(s);
  const auto c = estimate_replay_cost(p, *find_machine("h100"));
  // in + out: 2 x 16 GiB of address space, 4 bytes per 128-byte line -> 1 GiB of state.
  EXPECT_GT(c.memory_bytes, 1ll << 30);
  ReplayBudget small;
  small.max_memory_bytes = 512ll << 20;
  try {
    check_replay_budget(c, small);
    FAIL() << "accepted";
  } catch (const BudgetExceeded& e) {
    EXPECT_NE(std::string(e.what()).find("32.00 GiB address space"), std::string::npos) << e.what();
  }
}

TEST(ReplayBudget, The8192CubeOfTheBenchmarkFitsTheDefaultBudget) {
  ProblemSpec s;
  s.m = s.n = s.k = 8192;
  s.block_m = s.block_n = 128;
  s.block_k = 64;
  const Problem p(s);
  const auto c = estimate_replay_cost(p, *find_machine("h100"));
  EXPECT_NO_THROW(check_replay_budget(c, {}));
  EXPECT_GT(c.line_ops, 100'000'000);
}

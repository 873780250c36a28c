// The memory figures the panels show beside the counters, without a window: they use the L2 a
// replay uses (sim::effective_l2_bytes: half of the A100's, H100's and H200's L2, whose two
// partitions each hold their own copy of shared data), not the datasheet's size.
#include "app/core/memory_view.hpp"

#include <gtest/gtest.h>

#include "app/core/sweep.hpp"
#include "sim/machine/machine.hpp"

using namespace tilesim;
using namespace tilesim::app;

namespace {

// fp16 matmul n^3: its inputs A and B take 2 n^2 x 2 B together.
sim::ProblemSpec matmul_inputs_of(std::int64_t n) {
  sim::ProblemSpec s;
  s.m = s.n = s.k = n;
  s.block_m = s.block_n = s.block_k = 64;
  return s;
}

}  // namespace

TEST(InputsFitInL2, ComparesWithTheL2AReplayUsesNotTheDatasheets) {
  const sim::Machine h100 = *sim::find_machine("h100");  // 50 MiB, 25 MiB effective
  ASSERT_EQ(sim::effective_l2_bytes(h100), h100.l2_bytes / 2);
  // 2 x 2560^2 x 2 B = 25 MiB: fits the 25 MiB a replay holds; 2 x 3072^2 x 2 B = 36 MiB does not,
  // though it is under the datasheet's 50 MiB.
  EXPECT_TRUE(inputs_fit_in_l2(matmul_inputs_of(2560), h100));
  EXPECT_FALSE(inputs_fit_in_l2(matmul_inputs_of(3072), h100));
}

TEST(L2Fill, IsFullWhenTheReplaysCacheIsFull) {
  for (const auto& m : sim::machine_presets()) {
    const std::int64_t lines = sim::effective_l2_bytes(m) / 128;
    const L2Fill full = l2_fill(m, lines);
    EXPECT_EQ(full.capacity_bytes, sim::effective_l2_bytes(m)) << m.key;
    EXPECT_DOUBLE_EQ(full.fraction, 1.0) << m.key;
    EXPECT_DOUBLE_EQ(l2_fill(m, lines / 2).fraction, 0.5) << m.key;
  }
}

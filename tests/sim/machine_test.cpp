// Machine presets and occupancy.
#include "sim/machine.hpp"

#include <gtest/gtest.h>

#include "sim/occupancy.hpp"

using namespace tilesim::sim;

TEST(MachinePresets, H200HasTheFiguresReadOffARealOne) {
  const auto m = find_machine("h200");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->sms, 132);
  EXPECT_EQ(m->l2_bytes, 60ll << 20);
  EXPECT_EQ(machine_names(), "t4 | a100 | h100 | h200");
  for (const auto& p : machine_presets()) EXPECT_NO_THROW(validate_machine(p)) << p.key;
  EXPECT_TRUE(find_machine("H100-SXM"));
  EXPECT_FALSE(find_machine("v100"));
}

TEST(Occupancy, ThreeStagesOf128x128x64Fp16AreLimitedBySharedMemoryOnH100) {
  ProblemSpec s;
  s.m = s.n = s.k = 1024;
  s.block_m = s.block_n = 128;
  s.block_k = 64;
  s.stages = 3;
  // (128*64 + 64*128) * 2 B * 3 stages = 96 KiB; 228 KiB / 96 KiB = 2 programs per SM.
  const auto o = occupancy(Problem(s), *find_machine("h100"));
  EXPECT_EQ(o.smem_per_program, 96 * 1024);
  EXPECT_EQ(o.programs_per_sm, 2);
  EXPECT_EQ(o.limit, OccupancyLimit::shared_memory);
  EXPECT_EQ(o.reason, "limited by shared memory: 2 × 96 KiB ≤ 228 KiB");
  const auto forced = occupancy(Problem(s), *find_machine("h100"), 5);
  EXPECT_EQ(forced.programs_per_sm, 5);
  EXPECT_EQ(forced.limit, OccupancyLimit::override_value);
}

TEST(Occupancy, RefusesAProgramLargerThanTheSharedMemoryLimit) {
  ProblemSpec s;
  s.m = s.n = s.k = 1024;
  s.block_m = s.block_n = 256;
  s.block_k = 128;
  s.stages = 4;  // (256*128*2) * 2 B * 4 = 512 KiB > 64 KiB on T4
  EXPECT_THROW(occupancy(Problem(s), *find_machine("t4")), InvalidField);
}

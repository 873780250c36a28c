// Machine presets and occupancy.
#include "sim/machine/machine.hpp"

#include <gtest/gtest.h>

#include "sim/program/occupancy.hpp"

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
  // (128*64 + 64*128) * 2 B * 3 stages = 96 KiB, + 1 KiB the driver keeps per program;
  // 228 KiB / 97 KiB = 2 programs per SM.
  const auto o = occupancy(Problem(s), *find_machine("h100"));
  EXPECT_EQ(o.smem_per_program, 96 * 1024);
  EXPECT_EQ(o.programs_per_sm, 2);
  EXPECT_EQ(o.limit, OccupancyLimit::shared_memory);
  EXPECT_EQ(o.reason, "limited by shared memory: 2 × (96 KiB + 1 KiB the driver keeps) ≤ 228 KiB");
  const auto forced = occupancy(Problem(s), *find_machine("h100"), 5);
  EXPECT_EQ(forced.programs_per_sm, 5);
  EXPECT_EQ(forced.limit, OccupancyLimit::override_value);
}

// The driver keeps 1 KiB of shared memory in every resident program since sm_80: four stages of
// 64 x 64 x 32 fp16 tiles (32 KiB, seed 001's smallest block) fit 6 to an H100 SM, not 7 (ncu's
// launch__occupancy_limit_shared_mem on an H200: 6). A T4 keeps none.
TEST(Occupancy, TheDriversReserveIsHeldByEveryProgram) {
  ProblemSpec s;
  s.m = s.n = s.k = 1024;
  s.block_m = s.block_n = 64;
  s.block_k = 32;
  s.stages = 4;
  const auto h100 = occupancy(Problem(s), *find_machine("h100"));
  EXPECT_EQ(h100.smem_per_program, 32 * 1024);
  EXPECT_EQ(h100.programs_per_sm, 6);
  EXPECT_EQ(h100.limit, OccupancyLimit::shared_memory);
  s.block_k = 64;  // one stage of 64 x 64 x 64 fp16 tiles: 16 KiB, 4 to a T4's 64 KiB
  s.stages = 1;
  const auto t4 = occupancy(Problem(s), *find_machine("t4"));
  EXPECT_EQ(t4.programs_per_sm, 4);
  EXPECT_EQ(t4.limit, OccupancyLimit::shared_memory);
}

TEST(Occupancy, RefusesAProgramLargerThanTheSharedMemoryLimit) {
  ProblemSpec s;
  s.m = s.n = s.k = 1024;
  s.block_m = s.block_n = 256;
  s.block_k = 128;
  s.stages = 4;  // (256*128*2) * 2 B * 4 = 512 KiB > 64 KiB on T4
  EXPECT_THROW(occupancy(Problem(s), *find_machine("t4")), InvalidField);
}

// The timed engine's measured figures refuse values outside their range by name, with the range.
TEST(MachineValidation, ClocksAndTheIssueLawNameTheFieldAndTheRange) {
  const Machine h100 = *find_machine("h100");
  const auto message = [&](auto set) {
    Machine m = h100;
    set(m);
    try {
      validate_machine(m);
    } catch (const InvalidField& e) {
      return e.field() + ": " + e.what();
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message([](Machine& m) { m.issue_ceiling = 0; }),
            "machine.issue_ceiling: machine.issue_ceiling = 0 is out of range: allowed 0.05..1 "
            "(instructions a cycle)");
  EXPECT_EQ(message([](Machine& m) { m.tensor_clock_hz = 1e20; }),
            "machine.tensor_clock_hz: machine.tensor_clock_hz = 1e+20 is out of range: allowed 0 "
            "(sm_clock_hz) or 1e8..1e10 Hz");
  EXPECT_EQ(message([](Machine& m) { m.fma_clock_hz = 0; }), "accepted");  // 0: sm_clock_hz
  EXPECT_EQ(message([](Machine& m) { m.dot_time_diffusion_miss_s = -1e-9; }),
            "machine.dot_time_diffusion_miss_s: machine.dot_time_diffusion_miss_s = -1e-09 is out "
            "of range: allowed 0..1e-5 (seconds)");
  EXPECT_EQ(message([](Machine& m) { m.dot_time_diffusion_s = 0; }), "accepted");
  EXPECT_EQ(message([](Machine& m) { m.warp_load_cv = 2; }),
            "machine.warp_load_cv: machine.warp_load_cv = 2 is out of range: allowed 0..1 (a "
            "warp's round-trip sd over its mean)");
  EXPECT_EQ(message([](Machine& m) { m.stream_issue_cycles = -1; }),
            "machine.stream_issue_cycles: machine.stream_issue_cycles = -1 is out of range: "
            "allowed 0..100 (cycles an instruction)");
  EXPECT_EQ(message([](Machine& m) { m.load_round_cv = 0.5; }),
            "machine.load_round_cv: machine.load_round_cv = 0.5 is out of range: allowed 0..0.3 "
            "(a round's sd over its mean; the noise reaches 3 sd)");
  EXPECT_EQ(
      message([](Machine& m) { m.schedulers_per_sm = 0; }),
      "machine.schedulers_per_sm: machine.schedulers_per_sm = 0 is out of range: allowed 1..16");
}

// The memory figures that bound each other: the largest legal program (227 KiB) and the driver's
// reserve must fit one 228 KiB SM together, and a tile staged through registers never comes out
// of the L2 faster than a cp.async one.
TEST(MachineValidation, TheDriversReserveAndTheLdGlobalRateNameTheirBound) {
  const auto message = [](auto set) {
    Machine m = *find_machine("h100");
    set(m);
    try {
      validate_machine(m);
    } catch (const InvalidField& e) {
      return e.field() + ": " + e.what();
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message([](Machine& m) { m.smem_reserved_per_program_bytes = 1024; }), "accepted");
  EXPECT_EQ(message([](Machine& m) { m.smem_reserved_per_program_bytes = 2048; }),
            "machine.smem_reserved_per_program_bytes: machine.smem_reserved_per_program_bytes = "
            "2048 is out of range: allowed 0 .. smem_per_sm_bytes - smem_per_block_bytes (1024 "
            "bytes here)");
  EXPECT_EQ(message([](Machine& m) { m.l2_ld_global_bytes_per_s = 0; }), "accepted");
  EXPECT_EQ(message([](Machine& m) { m.l2_ld_global_bytes_per_s = 2e13; }),
            "machine.l2_ld_global_bytes_per_s: machine.l2_ld_global_bytes_per_s = 2e+13 is out "
            "of range: allowed 0 (as l2_bytes_per_s) or 1e9..l2_bytes_per_s (1e+13 bytes/s here)");
}

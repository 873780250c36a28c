// The driver's carveout rule against every launch the probe measured, and what it means for a
// spilling loop's L1.
#include "sim/program/carveout.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/machine/machine.hpp"
#include "sim/program/occupancy.hpp"
#include "sim/program/problem.hpp"

namespace tilesim::sim {
namespace {

const Machine& h200() {
  static const Machine m = *find_machine("h200");
  return m;
}

// kernels/probes/carveout.cu under ncu on an H200: one row a launch (block size, registers,
// dynamic shared bytes, the occupancy limits, the carveout the driver chose).
TEST(Carveout, EveryProbeLaunchGetsTheCarveoutTheRuleGives) {
  std::ifstream in(std::string(TILESIM_ASSETS_DIR) + "/measured/carveout_probe_h200.csv");
  ASSERT_TRUE(in) << "assets/measured/carveout_probe_h200.csv";
  std::string line;
  int checked = 0, opted_in = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line.rfind("launch", 0) == 0 ||
        line.rfind("latency", 0) == 0)
      continue;
    std::vector<long long> v;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) v.push_back(std::stoll(cell));
    ASSERT_EQ(v.size(), 9u) << line;
    const long long dynamic = v[3];
    // Resident blocks as everything but shared memory allows: registers, warps, blocks.
    const int residents = static_cast<int>(std::min({v[4], v[5], v[6]}));
    EXPECT_EQ(driver_carveout_bytes(h200(), dynamic, residents), v[8])
        << "launch " << v[0] << ": " << dynamic << " bytes a block, " << residents << " an SM";
    ++checked;
    opted_in += dynamic > kDefaultDynamicSmemBytes;
  }
  EXPECT_EQ(checked, 208);
  EXPECT_EQ(opted_in, 39);
}

TEST(Carveout, OneProgramGetsTheSmallestThatHoldsItTwoGetRoomForFour) {
  const Machine& m = h200();
  EXPECT_EQ(driver_carveout_bytes(m, 24 << 10, 1), 32 << 10);   // 25 KiB -> 32
  EXPECT_EQ(driver_carveout_bytes(m, 48 << 10, 1), 64 << 10);   // 49 KiB -> 64
  EXPECT_EQ(driver_carveout_bytes(m, 16 << 10, 2), 100 << 10);  // room for 4 x 17 = 68 -> 100
  EXPECT_EQ(driver_carveout_bytes(m, 48 << 10, 2), 132 << 10);  // 98, at most 132 asked
  EXPECT_EQ(driver_carveout_bytes(m, 64 << 10, 1), 228 << 10);  // opted in: the most
  EXPECT_EQ(driver_carveout_bytes(m, 48 << 10, 5), 196 << 10);  // 4 fit, not 5
}

// Triton's 128 x 256 x 64 loop at 8 warps (48 KiB, one an SM) leaves the L1 192 KiB; 256 x 128 x
// 64 at 8 warps converts its 256 x 128 fp16 accumulator through 64 KiB of scratch, opts in and
// leaves 28 KiB (ncu, assets/measured/ncu_spill_fit_h200.csv: 64 KiB and 228 KiB carved).
TEST(Carveout, TritonsEpilogueScratchDecidesTheL1OfA256RowLoop) {
  const Machine& m = h200();
  const auto carved = [&](int bm, int bn) {
    ProblemSpec s;
    s.m = s.n = s.k = 3001;
    s.dtype = DType::fp16;
    s.block_m = bm, s.block_n = bn, s.block_k = 64;
    s.num_warps = 8;
    s.stages = 3;
    s.group_size_m = 8;
    s.boundary = Boundary::wrap;
    const Problem p(s);
    TimingOptions t;
    t.triton = true;
    return occupancy(p, m, std::nullopt, t).carveout_bytes;
  };
  EXPECT_EQ(carved(128, 256), 64 << 10);
  EXPECT_EQ(carved(256, 128), 228 << 10);
}

}  // namespace
}  // namespace tilesim::sim

// The registry's compiled-code figures against the measurement they come from
// (assets/measured/instructions_h100.csv, ncu on an H100): each rung's warp instructions per K
// step, split from its counts at 2048^3 and 8192^3 (count per warp = steps x per_step + per_warp),
// must predict its count at 4096^3; its registers per thread are ptxas's.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "kernels/variants.hpp"

namespace {

struct Count {
  double per_warp = 0;  // warp instructions per warp
  double steps = 0;     // K steps
  int registers = 0;
};

// (variant, size) -> its row: fp32 where the rung was measured in fp32 (matmul_smem_tiled runs
// both; its fp16 build is another compilation), else fp16.
std::map<std::pair<std::string, int>, Count> read_counts() {
  std::ifstream in(std::string(TILESIM_ASSETS_DIR) + "/measured/instructions_h100.csv");
  std::map<std::pair<std::string, int>, Count> out;
  std::string line;
  bool header = true;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (header) {  // variant,dtype,size,block_k,inst_executed,grid_size,block_size,registers,...
      header = false;
      continue;
    }
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, ',');) f.push_back(x);
    if (f.size() < 8 || f[1] == "bf16") continue;
    const int size = std::stoi(f[2]);
    const double warps = std::stod(f[5]) * std::stod(f[6]) / 32;
    const Count c{std::stod(f[4]) / warps, size / std::stod(f[3]), std::stoi(f[7])};
    if (f[1] == "fp32")
      out[{f[0], size}] = c;
    else
      out.try_emplace({f[0], size}, c);
  }
  return out;
}

}  // namespace

TEST(RungInstructions, TheRegistrysCountsAreTheMeasuredLoopBodies) {
  const auto counts = read_counts();
  ASSERT_FALSE(counts.empty()) << "assets/measured/instructions_h100.csv missing";
  int checked = 0;
  for (const auto& v : tilesim::kernels::variants()) {
    if (!v.timing || v.timing->warp_instructions <= 0) continue;
    const auto small = counts.find({v.name, 2048}), large = counts.find({v.name, 8192});
    const auto mid = counts.find({v.name, 4096});
    ASSERT_NE(mid, counts.end()) << v.name << " has a count but no measurement";
    EXPECT_EQ(v.timing->registers_per_thread, mid->second.registers) << v.name;
    if (small == counts.end() || large == counts.end()) continue;  // measured at one size only
    const double per_step = (large->second.per_warp - small->second.per_warp) /
                            (large->second.steps - small->second.steps);
    const double per_warp = small->second.per_warp - per_step * small->second.steps;
    EXPECT_NEAR(v.timing->warp_instructions, per_step, 0.5) << v.name;
    // The split predicts the third size to within an instruction per warp.
    EXPECT_NEAR(per_step * mid->second.steps + per_warp, mid->second.per_warp, 1.0) << v.name;
    ++checked;
  }
  EXPECT_GE(checked, 11);
}

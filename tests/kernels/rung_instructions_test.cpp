// The registry's compiled-code figures against the measurement they come from
// (assets/measured/instructions_h100.csv, ncu on an H100): each rung's warp instructions per K
// step, split from its counts at 2048^3 and 8192^3 (count per warp = steps x per_step + per_warp),
// must predict its count at 4096^3; its registers per thread are ptxas's (that file, or for copies
// and transposes assets/measured/warp_stalls_h100.csv); smem_tiled's issue interval is ncu's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "kernels/rung_timing.hpp"
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
    if (!v.timing || v.timing->options.warp_instructions <= 0) continue;
    const auto small = counts.find({v.name, 2048}), large = counts.find({v.name, 8192});
    const auto mid = counts.find({v.name, 4096});
    ASSERT_NE(mid, counts.end()) << v.name << " has a count but no measurement";
    EXPECT_EQ(v.timing->options.registers_per_thread, mid->second.registers) << v.name;
    if (small == counts.end() || large == counts.end()) continue;  // measured at one size only
    const double per_step = (large->second.per_warp - small->second.per_warp) /
                            (large->second.steps - small->second.steps);
    const double per_warp = small->second.per_warp - per_step * small->second.steps;
    EXPECT_NEAR(v.timing->options.warp_instructions, per_step, 0.5) << v.name;
    // The split predicts the third size to within an instruction per warp.
    EXPECT_NEAR(per_step * mid->second.steps + per_warp, mid->second.per_warp, 1.0) << v.name;
    ++checked;
  }
  EXPECT_GE(checked, 11);
}

// Every rung's registers per thread, ncu's launch__registers_per_thread: matmuls from the
// instruction counts, copies and transposes from the stall file (its `problem` column starts with
// the variant's name). copy_vectorized (48, ptxas -v on sm_90) has no ncu row yet.
TEST(RungInstructions, EveryRungsRegistersAreTheMeasuredOnes) {
  std::map<std::string, int> measured;
  for (const auto& [key, c] : read_counts()) measured[key.first] = c.registers;
  std::ifstream in(std::string(TILESIM_ASSETS_DIR) + "/measured/warp_stalls_h100.csv");
  std::string line;
  bool header = true;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (header) {  // id,problem,time_ns,sm_clock_hz,issue_active,warps_active,smem_wavefronts,...
      header = false;
      continue;
    }
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, ',');) f.push_back(x);
    ASSERT_GE(f.size(), 9u) << line;
    // "transpose_smem_tiled_8192^2_fp32_64x64": the variant is what precedes the first "_<digit>".
    std::size_t cut = 0;
    while ((cut = f[1].find('_', cut + 1)) != std::string::npos &&
           !std::isdigit(static_cast<unsigned char>(f[1][cut + 1]))) {
    }
    measured.try_emplace(f[1].substr(0, cut), std::stoi(f[8]));
  }
  int checked = 0;
  for (const auto& v : tilesim::kernels::variants()) {
    if (!v.timing || v.timing->options.registers_per_thread <= 0) continue;
    const auto it = measured.find(v.name);
    if (v.name == "copy_vectorized") continue;
    ASSERT_NE(it, measured.end()) << v.name << " has a register count but no measurement";
    EXPECT_EQ(v.timing->options.registers_per_thread, it->second) << v.name;
    ++checked;
  }
  EXPECT_GE(checked, 16);
}

// Every rung that carries an issue interval carries its measured one: warps per scheduler over
// issues per scheduler-cycle at 2048^3 (fp32 for the FMA rungs, fp16 for mma.sync), the size the
// time table does not report.
TEST(RungInstructions, RungsIssueAtTheirMeasuredInterval) {
  std::ifstream in(std::string(TILESIM_ASSETS_DIR) + "/measured/instructions_h100.csv");
  std::map<std::string, double> interval;
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, ',');) f.push_back(x);
    if (f.size() < 10 || f[2] != "2048") continue;
    const bool fma = f[0].find("mma") == std::string::npos;
    if (f[1] != (fma ? "fp32" : "fp16")) continue;
    interval[f[0]] = std::stod(f[9]) / 4 / std::stod(f[8]);  // warps_active / 4 / issue_active
  }
  int checked = 0;
  for (const auto& v : tilesim::kernels::variants()) {
    if (!v.timing || v.timing->options.warp_issue_cycles <= 0) continue;
    ASSERT_TRUE(interval.count(v.name)) << v.name << " has an interval but no measurement";
    EXPECT_NEAR(v.timing->options.warp_issue_cycles, interval[v.name], 0.01) << v.name;
    ++checked;
  }
  EXPECT_EQ(checked, 5);  // smem_tiled and its B^T twin; mma_sync_128x256, _warp64, _swizzled
}

// Copies' and transposes' instruction streams: per program + per load of a thread x its loads
// (kernels/variants.cpp's split of ncu's counts at 8192^2 FP32, H100) against every launch in
// assets/measured/element_loops_h100.csv, whose ids are "<variant>_<BM>x<BN>", with the block's
// threads by the launchers' rule (element_loop_threads). copy_vectorized at 32x32 is left out: its
// one 16-byte load per thread takes the kernel's masked path, 190 instructions where the split,
// made on its unmasked 4-load rounds, gives 87; no bench row runs it.
TEST(RungInstructions, ElementLoopsSplitTheirCountsIntoAProgramAndALoadPart) {
  std::ifstream in(std::string(TILESIM_ASSETS_DIR) + "/measured/element_loops_h100.csv");
  ASSERT_TRUE(in) << "element_loops_h100.csv";
  std::string line;
  int checked = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line.rfind("id,", 0) == 0) continue;
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, ',');) f.push_back(x);
    ASSERT_GE(f.size(), 12u) << line;
    const std::string& id = f[0];
    const auto us = id.rfind('_'), x = id.rfind('x');
    const std::string name = id.substr(0, us);
    const int bm = std::stoi(id.substr(us + 1, x - us - 1)), bn = std::stoi(id.substr(x + 1));
    if (name == "copy_vectorized" && bm * bn <= 1024) continue;
    const auto* v = tilesim::kernels::find_variant(name);
    ASSERT_TRUE(v && v->timing) << name;
    const auto& o = v->timing->options;
    const int width = o.load_bytes > 0 ? o.load_bytes : 4;
    const int accesses = bm * bn * 4 / width;
    tilesim::sim::ProblemSpec spec;
    spec.kernel = v->kernel;
    spec.m = spec.n = 8192;
    spec.block_m = bm, spec.block_n = bn;
    spec.dtype = tilesim::sim::DType::fp32;
    const int threads = 32 * tilesim::kernels::rung_timing(*v, spec)->spec.num_warps;
    EXPECT_EQ(threads, std::stoi(f[11])) << id << ": the launchers' thread count";
    const double loads = std::max(1.0, static_cast<double>(accesses) / threads);
    const double model = o.program_warp_instructions + o.load_warp_instructions * loads;
    EXPECT_NEAR(model, std::stod(f[2]), 0.02 * std::stod(f[2])) << id;
    ++checked;
  }
  EXPECT_EQ(checked, 16);
}

// "Is this the same problem?": one function for measured files, bench reports and caches.
#include "scenario/problem_identity.hpp"

#include <gtest/gtest.h>

#include "scenario/measured.hpp"
#include "scenario/scenario.hpp"

using namespace tilesim;

TEST(SameConfiguration, BLayoutTellsSeed003sBTransposedFromTheRowMajorKernel) {
  sim::ProblemSpec row_major;
  sim::ProblemSpec b_t = row_major;
  b_t.b_layout = sim::BLayout::transposed;
  EXPECT_FALSE(scenario::same_configuration(row_major, b_t));
  EXPECT_FALSE(scenario::same_configuration(row_major, b_t, scenario::Blocks::ignored));
}

TEST(SameConfiguration, FieldsTheKernelIgnoresAreNotCompared) {
  sim::ProblemSpec a;
  a.kernel = sim::Kernel::copy;
  sim::ProblemSpec b = a;
  b.k = 7;
  b.block_k = 1;
  b.b_layout = sim::BLayout::transposed;
  b.stages = 4;
  b.boundary = sim::Boundary::wrap;
  b.group_size_m = 9;  // the default order is grouped: GROUP_SIZE_M counts
  EXPECT_FALSE(scenario::same_configuration(a, b));
  b.group_size_m = a.group_size_m;
  EXPECT_TRUE(scenario::same_configuration(a, b));
  a.order = b.order = sim::LaunchOrder::row_major;
  b.group_size_m = 9;
  EXPECT_TRUE(scenario::same_configuration(a, b));
}

TEST(SameConfiguration, FixedTileVariantsMatchWithTheirOwnBlocks) {
  sim::ProblemSpec asked;
  sim::ProblemSpec ran = asked;
  ran.block_m = ran.block_n = 128;
  EXPECT_FALSE(scenario::same_configuration(ran, asked));
  EXPECT_TRUE(scenario::same_configuration(ran, asked, scenario::Blocks::ignored));
}

TEST(ProblemKey, EqualOnlyForEqualSpecs) {
  sim::ProblemSpec a, b;
  EXPECT_EQ(scenario::problem_key(a), scenario::problem_key(b));
  b.stages = 3;
  EXPECT_NE(scenario::problem_key(a), scenario::problem_key(b));
}

TEST(FindMeasured, Seed003sBTransposedScenarioGetsNoRowMajorMeasurements) {
  // The row-major kernel measured on seed 003's sizes and blocks.
  const auto set = scenario::parse_measured_json(R"({"device": "NVIDIA H200", "records": [
      {"id": "rm", "variant": "matmul_smem_tiled", "problem": {"kernel": "matmul",
       "m": "512", "n": "512", "k": "512", "dtype": "fp16", "block_m": "64", "block_n": "64",
       "block_k": "32", "group_m": "4", "order": "grouped", "b_layout": "row-major"}}]})");
  const std::vector<scenario::MeasuredSet> sets{set};
  const auto seed003 = scenario::load_scenario(std::string(TILESIM_ASSETS_DIR) +
                                               "/scenarios/seed003_b_transposed.json");
  sim::ProblemSpec row_major = seed003.problem;
  row_major.b_layout = sim::BLayout::row_major;
  EXPECT_EQ(scenario::find_measured(sets, row_major, "h200").size(), 1u);
  EXPECT_TRUE(scenario::find_measured(sets, seed003.problem, "h200").empty());
}

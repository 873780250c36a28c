// Rungs under sustained load (assets/measured/power_ladder_GPU.csv), read strictly.
#include "scenario/sustained_runs.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

using namespace tilesim;

namespace {
const char* kFile =
    "# gpu: Test GPU\n"
    "# date: 2026-11-27\n"
    "# how it ran\n"
    "variant,problem,dtype,order,median_ms,sm_mhz_median,sm_mhz_min,sm_mhz_max,power_w_median,"
    "samples,window_s,mcycles,clean\n"
    "cublas_gemmex,4096x4096x4096,fp16,row-major,0.2021,1605.0,1380.0,1980.0,427.3,413,1.09,0.32,"
    "0\n"
    "matmul_wgmma_persistent,4096x4096x4096,fp16,grouped,0.2114,1545.0,1500.0,1560.0,688.1,391,"
    "1.04,0.33,1\n";
}  // namespace

TEST(SustainedRuns, ReadsTheCleanRowsWithTheirGpuAndDate) {
  const auto r = scenario::parse_sustained_runs(kFile, "t.csv");
  EXPECT_EQ(r.gpu, "Test GPU");
  EXPECT_EQ(r.date, "2026-11-27");
  ASSERT_EQ(r.runs.size(), 1u);  // the first row shares its window with the set-up: left out
  EXPECT_EQ(r.runs[0].variant, "matmul_wgmma_persistent");
  EXPECT_EQ(r.runs[0].order, sim::LaunchOrder::grouped);
  EXPECT_DOUBLE_EQ(r.runs[0].median_ms, 0.2114);
  EXPECT_DOUBLE_EQ(r.runs[0].sm_mhz, 1545.0);
  EXPECT_DOUBLE_EQ(r.runs[0].power_w, 688.1);
  sim::ProblemSpec p;
  p.m = p.n = p.k = 4096;
  p.dtype = sim::DType::fp16;
  p.order = sim::LaunchOrder::grouped;
  p.group_size_m = 8;
  EXPECT_NE(scenario::find_sustained(r, "matmul_wgmma_persistent", p), nullptr);
  p.group_size_m = 4;  // the ladder's grouping is 8
  EXPECT_EQ(scenario::find_sustained(r, "matmul_wgmma_persistent", p), nullptr);
  p.group_size_m = 8;
  p.dtype = sim::DType::bf16;
  EXPECT_EQ(scenario::find_sustained(r, "matmul_wgmma_persistent", p), nullptr);
}

TEST(SustainedRuns, AMalformedFileIsRefusedNamingTheLineAndField) {
  const auto refused = [](const std::string& text, const std::string& needle) {
    try {
      (void)scenario::parse_sustained_runs(text, "t.csv");
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
      return;
    }
    ADD_FAILURE() << "accepted: " << needle;
  };
  std::string bad = kFile;
  refused(bad.replace(bad.find("0.2114"), 6, "-1"), "t.csv:6.median_ms");
  bad = kFile;
  refused(bad.replace(bad.find("grouped"), 7, "sideways"), "t.csv:6.order");
  bad = kFile;
  refused(bad.replace(bad.find("4096x4096x4096,fp16,grouped"), 14, "4096x4096"), "t.csv:6.problem");
  refused("variant,problem\nx,y\n", "no column dtype");
  refused(std::string(kFile).substr(std::string(kFile).find("variant")), "no \"# gpu:\" line");
  bad = kFile;
  refused(bad + "matmul_x,1x1x1,fp16\n", "t.csv:7: 3 fields");
}

TEST(SustainedRuns, TheBundledFilesReadOnBothChips) {
  for (const char* key : {"h100", "h200"}) {
    const auto* r = scenario::bundled_sustained_runs(key);
    ASSERT_NE(r, nullptr) << key;
    EXPECT_FALSE(r->runs.empty()) << key;
    for (const auto& run : r->runs) {
      EXPECT_GT(run.power_w, 300) << key << " " << run.variant;
      EXPECT_LE(run.power_w, 720) << key << " " << run.variant;  // the cap, 700 W
    }
  }
  EXPECT_EQ(scenario::bundled_sustained_runs("t4"), nullptr);
}

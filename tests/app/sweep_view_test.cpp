// The sweep's view model without a window: its cache key names every field of the problem and
// every field of the machine, so changing any of them never shows another setting's bars.
#include <gtest/gtest.h>

#include <optional>

#include "app/core/sweep.hpp"
#include "kernels/matmul_mma_sync_tiles.hpp"
#include "kernels/rung_timing.hpp"
#include "scenario/bench_report.hpp"
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

namespace {

scenario::BenchRecord timed(const std::string& variant, const sim::ProblemSpec& p, double rate,
                            const char* sweep) {
  scenario::BenchRecord b;
  b.sweep = sweep;
  b.result.variant = variant;
  b.result.problem = kernels::as_run_by(*kernels::find_variant(variant), p);
  b.result.ok = true;
  b.result.timed_runs = 20;
  b.result.median_ms = 1;
  b.result.throughput = rate;
  b.result.throughput_unit = "TFLOP/s";
  b.baseline = "cublas_gemmex";
  return b;
}

sim::ProblemSpec fp16_cube(std::int64_t s) {
  sim::ProblemSpec p;
  p.m = p.n = p.k = s;
  p.dtype = sim::DType::fp16;
  p.order = sim::LaunchOrder::grouped;
  p.group_size_m = 8;
  return p;
}

SweepBar bar(const sim::ProblemSpec& p) {
  SweepBar b;
  b.spec = p;
  b.rate_unit = "TFLOP/s";
  return b;
}

}  // namespace

TEST(SweepSettings, AMatmulBlockSweepIsSeedOnesFiveConfigsThenTheTemplatedRungsOthers) {
  const auto s = sweep_settings(fp16_cube(4096), SweepAxis::block_size);
  ASSERT_EQ(s.size(), std::size(kernels::mma_sync_tiles::kConfigs));
  const char* seed[] = {"32x32x32", "64x64x32", "128x128x32", "128x256x64", "256x256x64"};
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(sweep_label(s[i], SweepAxis::block_size), seed[i]);
    EXPECT_EQ(s[i].num_warps, 4);
  }
  // The others name what differs from the seed's num_warps = 4 and num_stages.
  EXPECT_EQ(sweep_label(kernels::mma_sync_tiles::with_config(fp16_cube(4096), {128, 128, 32, 8, 4}),
                        SweepAxis::block_size),
            "128x128x32 w8");
  EXPECT_EQ(sweep_label(kernels::mma_sync_tiles::with_config(fp16_cube(4096), {128, 128, 32, 4, 5}),
                        SweepAxis::block_size),
            "128x128x32 s5");
}

TEST(MeasuredRate, TheTemplatedRungMatchesABarAtItsWarpsAndStagesToo) {
  namespace tiles = kernels::mma_sync_tiles;
  const auto w4 = tiles::with_config(fp16_cube(4096), {128, 128, 32, 4, 4});
  const auto w8 = tiles::with_config(fp16_cube(4096), {128, 128, 32, 8, 4});
  scenario::BenchReport rep;
  rep.records = {timed("matmul_mma_sync_tiles", w4, 304.2, "blocks"),
                 timed("matmul_mma_sync_tiles", w8, 303.0, "blocks")};
  EXPECT_DOUBLE_EQ(measured_rate(bar(w4), rep), 304.2);
  EXPECT_DOUBLE_EQ(measured_rate(bar(w8), rep), 303.0);
  EXPECT_EQ(measured_variant(bar(w8), rep), "matmul_mma_sync_tiles");
  EXPECT_EQ(measured_rate(bar(tiles::with_config(fp16_cube(4096), {128, 128, 32, 4, 3})), rep), 0);
  sim::ProblemSpec other_size = w4;
  other_size.m = other_size.n = other_size.k = 8192;
  EXPECT_EQ(measured_rate(bar(other_size), rep), 0);
  // A correctness-only record (not timed) or a failed run is no measurement.
  rep.records[0].result.timed_runs = 0;
  rep.records[1].result.ok = false;
  EXPECT_EQ(measured_rate(bar(w4), rep), 0);
  EXPECT_EQ(measured_rate(bar(w8), rep), 0);
}

TEST(MeasuredRate, AGroupSweepPointMatchesItsGroupSizeMAndRowMajorItsOrder) {
  scenario::BenchReport rep;
  sim::ProblemSpec g8 = fp16_cube(8192), g4 = g8, rm = g8;
  g4.group_size_m = 4;
  rm.order = sim::LaunchOrder::row_major;
  rep.records = {timed("matmul_wgmma_tma_store", g8, 726.4, "group"),
                 timed("matmul_wgmma_tma_store", rm, 677.8, "group")};
  EXPECT_DOUBLE_EQ(measured_rate(bar(g8), rep), 726.4);  // a fixed-tile rung: any open blocks
  EXPECT_DOUBLE_EQ(measured_rate(bar(rm), rep), 677.8);
  EXPECT_EQ(measured_rate(bar(g4), rep), 0);
}

TEST(MeasuredSweepAxis, TheTabOpensOnTheGroupSweepWhereOneWasMeasuredElseTheBlocks) {
  scenario::BenchReport rep;
  rep.records = {timed("matmul_mma_sync_tiles", fp16_cube(4096), 300, "blocks"),
                 timed("matmul_mma_sync_tiles", fp16_cube(8192), 320, "blocks"),
                 timed("matmul_wgmma_tma_store", fp16_cube(8192), 726, "group")};
  EXPECT_EQ(measured_sweep_axis(fp16_cube(4096), rep), SweepAxis::block_size);
  EXPECT_EQ(measured_sweep_axis(fp16_cube(8192), rep), SweepAxis::group_size_m);
  EXPECT_EQ(measured_sweep_axis(fp16_cube(2048), rep), std::nullopt);
  sim::ProblemSpec fp32 = fp16_cube(4096);
  fp32.dtype = sim::DType::fp32;
  EXPECT_EQ(measured_sweep_axis(fp32, rep), std::nullopt);
}

TEST(MeasuredLegend, NamesTheGpuAndTheDay) {
  scenario::BenchReport rep;
  rep.device.name = "NVIDIA H100 80GB HBM3";
  rep.date = "2026-11-27T05:51:11Z";
  EXPECT_EQ(measured_legend(rep), "measured (NVIDIA H100 80GB HBM3, 2026-11-27)");
}

TEST(MeasuredRate, TheBundledH100SweepHasAPointForEverySeedConfigAt4096) {
  const auto* rep = scenario::bundled_sweep_report("h100");
  ASSERT_NE(rep, nullptr);
  const auto s = sweep_settings(fp16_cube(4096), SweepAxis::block_size);
  for (const auto& spec : s)
    EXPECT_GT(measured_rate(bar(spec), *rep), 0) << sweep_label(spec, SweepAxis::block_size);
}

// Bench reports (tilesim-bench --json) read and written through the one ProblemSpec codec.
#include "scenario/bench_report.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <utility>

using namespace tilesim;

TEST(BenchReport, RoundTripsThroughJson) {
  scenario::BenchReport rep;
  rep.date = "2026-11-22T10:00:00Z";
  rep.commit = "abc1234";
  rep.device.available = true;
  rep.device.name = "NVIDIA H100 80GB HBM3";
  rep.device.cc_major = 9;
  rep.device.sm_count = 132;
  scenario::BenchRecord b;
  b.result.variant = "matmul_mma_sync";
  b.result.problem.m = 4096;
  b.result.problem.order = sim::LaunchOrder::grouped_legacy;
  b.result.problem.b_layout = sim::BLayout::transposed;
  b.result.problem.stages = 4;  // written since the codec: older reports dropped it
  b.result.ok = true;
  b.result.median_ms = 0.5;
  b.result.throughput = 275.0;
  b.result.throughput_unit = "TFLOP/s";
  b.baseline = "cublas_gemmex";
  b.baseline_ms = 0.25;
  b.pct_of_baseline = 50;
  rep.records.push_back(b);
  const auto back = scenario::parse_bench_json(scenario::to_json(rep));
  EXPECT_EQ(back.device.name, rep.device.name);
  EXPECT_EQ(back.device.cc_major, 9);
  EXPECT_EQ(back.commit, "abc1234");
  ASSERT_EQ(back.records.size(), 1u);
  EXPECT_EQ(back.records[0].result.problem, b.result.problem);
  EXPECT_DOUBLE_EQ(back.records[0].result.throughput, 275.0);
  EXPECT_EQ(back.records[0].baseline, "cublas_gemmex");
  EXPECT_EQ(back.records[0].result.device, rep.device.name);
}

// A record merged in from a later run (scripts/merge_bench.py) keeps that run's date and commit;
// the others fall back to the report's.
TEST(BenchReport, AMergedRecordKeepsItsOwnRunsDateAndCommit) {
  scenario::BenchReport rep;
  rep.date = "2026-11-23T15:51:38Z";
  rep.commit = "d7d0ccf";
  rep.device.name = "NVIDIA H100 80GB HBM3";
  scenario::BenchRecord old_run, merged;
  old_run.result.variant = "matmul_wgmma_tma";
  merged.result.variant = "matmul_wgmma_persistent";
  merged.run_date = "2026-11-27T18:01:32Z";
  merged.run_commit = "1647e3c";
  rep.records = {old_run, merged};
  const auto back = scenario::parse_bench_json(scenario::to_json(rep));
  ASSERT_EQ(back.records.size(), 2u);
  EXPECT_EQ(scenario::record_date(back, back.records[0]), "2026-11-23T15:51:38Z");
  EXPECT_EQ(scenario::record_commit(back, back.records[0]), "d7d0ccf");
  EXPECT_EQ(scenario::record_date(back, back.records[1]), "2026-11-27T18:01:32Z");
  EXPECT_EQ(scenario::record_commit(back, back.records[1]), "1647e3c");
  // The record written without them carries none (the file stays as it was).
  EXPECT_EQ(scenario::to_json(rep).find("run_date"), scenario::to_json(rep).rfind("run_date"));
}

// The bundled ladders hold the rungs measured after the full ladder, dated by their own run.
TEST(BenchReport, TheBundledLaddersDateTheirMergedRungsByTheirOwnRun) {
  for (const char* gpu : {"h100", "h200"}) {
    const auto rep = scenario::load_bench_file(std::string(TILESIM_ASSETS_DIR) +
                                               "/measured/bench_" + gpu + ".json");
    int merged = 0;
    for (const auto& r : rep.records)
      if (r.result.variant == "matmul_wgmma_persistent") {
        EXPECT_EQ(scenario::record_date(rep, r).substr(0, 10), "2026-11-27") << gpu;
        ++merged;
      }
    EXPECT_GT(merged, 0) << gpu;
    EXPECT_EQ(rep.date.substr(0, 10), "2026-11-23") << gpu;
  }
}

TEST(BenchReport, RejectsAFileThatIsNotAReport) {
  EXPECT_THROW(scenario::parse_bench_json("{\"records\": 3}"), std::runtime_error);
  EXPECT_THROW(scenario::parse_bench_json("not json"), std::runtime_error);
}

TEST(BenchReport, ProblemWithAnUnknownFieldIsRefusedNamingTheRecord) {
  const auto text = R"({"format_version": 1, "device": {}, "records": [
      {"variant": "copy_tiled", "ok": true, "median_ms": 1, "throughput": 1,
       "problem": {"kernel": "copy", "colour": "red"}}]})";
  try {
    scenario::parse_bench_json(text);
    FAIL() << "accepted an unknown problem field";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("records[0].problem"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("colour"), std::string::npos) << e.what();
  }
}

// tilesim-bench --sweep rows: which sweep, and what the configuration's kernel holds.
TEST(BenchReport, SweepRowsRoundTripWithTheirKernelResources) {
  scenario::BenchReport rep;
  rep.device.name = "NVIDIA H100 80GB HBM3";
  scenario::BenchRecord fits;
  fits.sweep = "blocks";
  fits.result.variant = "matmul_mma_sync_tiles";
  fits.result.problem.block_m = fits.result.problem.block_n = 256;
  fits.result.problem.block_k = 64;
  fits.result.problem.stages = 3;
  fits.result.ok = true;
  fits.result.median_ms = 7.27;
  fits.result.throughput = 18.9;
  kernels::KernelResources big;
  big.fits = true;
  big.registers = 255;
  big.spill_bytes = 4192;
  big.shared_bytes = 211968;
  big.shared_limit_bytes = 232448;
  big.threads = 128;
  big.programs_per_sm = 1;
  fits.resources = big;
  scenario::BenchRecord too_big = fits;
  too_big.result.ok = false;
  too_big.result.problem.stages = 4;
  too_big.result.error = "out of resource: shared memory, Required: 282624, Hardware limit: 232448";
  kernels::KernelResources refused;
  refused.error = too_big.result.error;
  refused.shared_bytes = 282624;
  refused.shared_limit_bytes = 232448;
  refused.threads = 128;
  too_big.resources = refused;
  scenario::BenchRecord group;
  group.sweep = "group";
  group.result.variant = "matmul_wgmma_tma_store";
  group.result.problem.group_size_m = 16;
  rep.records = {fits, too_big, group};
  const auto back = scenario::parse_bench_json(scenario::to_json(rep));
  ASSERT_EQ(back.records.size(), 3u);
  EXPECT_EQ(back.records[0].sweep, "blocks");
  ASSERT_TRUE(back.records[0].resources);
  EXPECT_EQ(back.records[0].resources->registers, 255);
  EXPECT_EQ(back.records[0].resources->spill_bytes, 4192);
  EXPECT_EQ(back.records[0].resources->shared_bytes, 211968);
  EXPECT_EQ(back.records[0].resources->programs_per_sm, 1);
  EXPECT_TRUE(back.records[0].resources->fits);
  EXPECT_FALSE(back.records[1].resources->fits);
  EXPECT_EQ(back.records[1].resources->error, too_big.result.error);
  EXPECT_EQ(back.records[1].result.problem.stages, 4);
  EXPECT_EQ(back.records[2].sweep, "group");
  EXPECT_FALSE(back.records[2].resources);
  EXPECT_EQ(back.records[2].result.problem.group_size_m, 16);
}

TEST(BenchReport, AFileWrittenBeforeSweepsLoadsAsLadderRecords) {
  const auto text = R"({"format_version": 1, "device": {"name": "NVIDIA H200"}, "records": [
      {"variant": "matmul_mma_sync", "ok": true, "median_ms": 0.44, "throughput": 310.5,
       "problem": {"kernel": "matmul", "m": 4096, "n": 4096, "k": 4096, "dtype": "fp16"}}]})";
  const auto rep = scenario::parse_bench_json(text);
  ASSERT_EQ(rep.records.size(), 1u);
  EXPECT_EQ(rep.records[0].sweep, "");
  EXPECT_FALSE(rep.records[0].resources);
}

TEST(BenchReport, AnUnknownSweepOrAFractionalRegisterCountIsRefusedNamingTheRecord) {
  const std::string head = R"({"format_version": 1, "device": {}, "records": [
      {"variant": "matmul_mma_sync_tiles", "ok": true, "median_ms": 1, "throughput": 1,
       "problem": {"kernel": "matmul"}, )";
  for (const auto& [tail, field] :
       {std::pair{R"("sweep": "colours"}]})", "records[0].sweep"},
        std::pair{R"("sweep": "blocks", "resources": {"registers": 25.5}}]})",
                  "records[0].resources: registers"},
        std::pair{R"("sweep": "blocks", "resources": 3}]})", "records[0].resources"}}) {
    try {
      scenario::parse_bench_json(head + tail);
      FAIL() << "accepted " << tail;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
    }
  }
}

TEST(BenchReport, TheBundledSweepFilesHaveBothSweepsAndTheirResources) {
  for (const char* gpu : {"h100", "h200"}) {
    const auto* rep = scenario::bundled_sweep_report(gpu);
    ASSERT_NE(rep, nullptr) << "assets/measured/bench_sweep_" << gpu << ".json";
    int blocks = 0, group = 0, does_not_fit = 0;
    for (const auto& b : rep->records) {
      blocks += b.sweep == "blocks" && b.result.timed_runs > 0;
      group += b.sweep == "group" && b.result.timed_runs > 0;
      does_not_fit += b.resources && !b.resources->fits;
      if (b.result.timed_runs > 0) {
        EXPECT_TRUE(b.result.ok) << b.result.variant;
      }
    }
    EXPECT_GE(blocks, 10) << gpu;
    EXPECT_GE(group, 12) << gpu;
    EXPECT_GE(does_not_fit, 1) << gpu;  // 256 x 256 x 64 in 4 stages
    EXPECT_FALSE(rep->commit.empty());
    EXPECT_FALSE(rep->device.name.empty());
  }
}

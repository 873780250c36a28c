// Bench reports (tilesim-bench --json) read and written through the one ProblemSpec codec.
#include "scenario/bench_report.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

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

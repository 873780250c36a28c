// The plain C++ API without a GPU: the variant list, the "not built"/"no device" answers, and the
// bench report's JSON round trip the app relies on.
#include <gtest/gtest.h>

#include <set>

#include "kernels/bench_report.hpp"
#include "kernels/kernels.hpp"

using namespace tilesim;

TEST(VariantList, HasEveryRungOfTheIssueWithUniqueNames) {
  std::set<std::string> names;
  for (const auto& v : kernels::variants()) EXPECT_TRUE(names.insert(v.name).second) << v.name;
  for (const char* n :
       {"copy_tiled", "copy_vectorized", "copy_memcpy_d2d", "transpose_naive",
        "transpose_smem_tiled", "transpose_smem_padded", "matmul_naive", "matmul_smem_tiled",
        "matmul_smem_tiled_b_transposed", "matmul_register_blocked", "matmul_mma_sync",
        "matmul_wgmma_tma", "cublas_sgemm", "cublas_tf32", "cublas_gemmex"})
    EXPECT_TRUE(names.count(n)) << n;
}

TEST(VariantList, EveryRungNamesABaselineForEachDtype) {
  for (const auto& v : kernels::variants()) {
    if (v.kind == kernels::VariantKind::baseline && v.name != "cublas_tf32") continue;
    for (auto d : v.dtypes) {
      const std::string b = kernels::baseline_for(v, d);
      ASSERT_NE(kernels::find_variant(b), nullptr) << v.name << " -> '" << b << "'";
    }
  }
}

TEST(RunWithoutDevice, FailsWithAReasonInsteadOfThrowing) {
  if (kernels::query_device().available) GTEST_SKIP() << "a device is present";
  const auto r = kernels::run(sim::Problem(sim::ProblemSpec{}), "matmul_smem_tiled");
  EXPECT_FALSE(r.ok);
  EXPECT_FALSE(r.error.empty());
}

TEST(RunUnknownVariant, SaysSo) {
  const auto r = kernels::run(sim::Problem(sim::ProblemSpec{}), "matmul_fastest");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("unknown variant"), std::string::npos);
}

TEST(BenchReport, RoundTripsThroughJson) {
  kernels::BenchReport rep;
  rep.date = "2026-11-22T10:00:00Z";
  rep.commit = "abc1234";
  rep.device.available = true;
  rep.device.name = "NVIDIA H100 80GB HBM3";
  rep.device.cc_major = 9;
  rep.device.sm_count = 132;
  kernels::BenchRecord b;
  b.result.variant = "matmul_mma_sync";
  b.result.problem.m = 4096;
  b.result.problem.order = sim::LaunchOrder::grouped_legacy;
  b.result.problem.b_layout = sim::BLayout::transposed;
  b.result.ok = true;
  b.result.median_ms = 0.5;
  b.result.throughput = 275.0;
  b.result.throughput_unit = "TFLOP/s";
  b.baseline = "cublas_gemmex";
  b.baseline_ms = 0.25;
  b.pct_of_baseline = 50;
  rep.records.push_back(b);
  const auto back = kernels::parse_bench_json(kernels::to_json(rep));
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
  EXPECT_THROW(kernels::parse_bench_json("{\"records\": 3}"), std::runtime_error);
  EXPECT_THROW(kernels::parse_bench_json("not json"), std::runtime_error);
}

// The GPU panel's Triton-beside-CUDA view model (app/core/triton_vs_rung): which measured rung
// Triton's kernel is set beside, and the sentence saying how far apart they are and why, on the
// shipped H100 files and on made-up times.
#include "app/core/triton_vs_rung.hpp"

#include <gtest/gtest.h>

#include <string>

#include "app/core/gpu_view.hpp"
#include "scenario/bench_report.hpp"
#include "scenario/triton_measured.hpp"

namespace {

using namespace tilesim;
using namespace tilesim::app;

// Triton's tutorial at 4096^3 fp16, its own settings: in triton_h100.json and bench_h100.json.
sim::ProblemSpec tutorial_4096() {
  sim::ProblemSpec s;
  s.m = s.n = s.k = 4096;
  s.block_m = s.block_n = 128, s.block_k = 64;
  s.group_size_m = 8, s.order = sim::LaunchOrder::grouped;
  s.boundary = sim::Boundary::wrap;
  s.num_warps = 8, s.stages = 3;
  return s;
}

const scenario::BenchReport& bench_h100() {
  static const auto r =
      scenario::load_bench_file(std::string(TILESIM_ASSETS_DIR) + "/measured/bench_h100.json");
  return r;
}

kernels::RungTiming rung_of(const scenario::BenchRecord& rec) {
  return *kernels::rung_timing(*kernels::find_variant(rec.result.variant), rec.result.problem);
}

// Of the rungs that ran the problem, the one that ran it with Triton's own tile and B layout,
// though matmul_wgmma_tma (128x256, B transposed) was faster; cuBLAS never.
TEST(TritonVsRung, RungBesideTritonRanTheProblemsOwnTile) {
  const auto matches = bench_matches(bench_h100(), tutorial_4096());
  ASSERT_GT(matches.size(), 2u);
  const auto* rung = rung_beside_triton(matches, tutorial_4096());
  ASSERT_NE(rung, nullptr);
  EXPECT_EQ(rung->result.variant, "matmul_mma_sync_bk64");
  EXPECT_EQ(rung->result.problem.block_k, 64);
  for (const auto* m : matches) {  // the fastest record of that tile
    if (m->result.variant == rung->result.variant) {
      EXPECT_LE(rung->result.median_ms, m->result.median_ms);
    }
  }
  std::vector<const scenario::BenchRecord*> baselines;
  for (const auto* m : matches)
    if (m->result.variant.rfind("cublas", 0) == 0) baselines.push_back(m);
  EXPECT_EQ(rung_beside_triton(baselines, tutorial_4096()), nullptr);
}

// The shipped files end to end: Triton's measured kernel against the rung, with the dot
// instruction as the reason (wgmma against mma.sync).
TEST(TritonVsRung, TritonsWgmmaIsWhyItIsFasterOnTheH100) {
  const auto* set = scenario::bundled_triton_measurements("h100");
  ASSERT_NE(set, nullptr);
  const auto l = scenario::find_triton_measurement(*set, tutorial_4096());
  ASSERT_NE(l.exact, nullptr);
  const auto* rung =
      rung_beside_triton(bench_matches(bench_h100(), tutorial_4096()), tutorial_4096());
  ASSERT_NE(rung, nullptr);
  const sim::Problem p(tutorial_4096());
  const sim::Machine m = *sim::find_machine("h100");
  const std::string s = triton_rung_sentence(p, m, rung->result.variant, rung_of(*rung),
                                             {l.exact->median_ms * 1e-3, 0.2345e-3},
                                             {rung->result.median_ms * 1e-3, 0.5316e-3}, "H100");
  EXPECT_EQ(s,
            "Measured on the H100, Triton's kernel is 2.10x faster than matmul_mma_sync_bk64 "
            "(predicted: 2.27x faster): Triton issues wgmma.m64n128k16.f32.f16.f16, the rung "
            "mma.sync.");
}

TEST(TritonVsRung, WithinTenPercentSaysNothing) {
  const sim::Problem p(tutorial_4096());
  const sim::Machine m = *sim::find_machine("h100");
  const auto* rung =
      rung_beside_triton(bench_matches(bench_h100(), tutorial_4096()), tutorial_4096());
  ASSERT_NE(rung, nullptr);
  EXPECT_EQ(triton_rung_sentence(p, m, "x", rung_of(*rung), {1.00e-3, 0}, {1.09e-3, 0}, "H100"),
            "");
  EXPECT_NE(triton_rung_sentence(p, m, "x", rung_of(*rung), {1.00e-3, 0}, {0.89e-3, 0}, "H100"),
            "");
}

// N = 4100 is not a multiple of 16: Triton's B loads fall to 2 bytes and leave the pipeline, and
// that is the reason a slower Triton is given (the compiler's note), after the dot's.
TEST(TritonVsRung, SlowerTritonNamesTheCompilersNote) {
  auto spec = tutorial_4096();
  spec.n = 4100;
  const sim::Problem p(spec);
  const sim::Machine m = *sim::find_machine("h100");
  const auto* rung =
      rung_beside_triton(bench_matches(bench_h100(), tutorial_4096()), tutorial_4096());
  ASSERT_NE(rung, nullptr);
  const auto reasons = triton_rung_reasons(p, m, rung_of(*rung), false);
  ASSERT_FALSE(reasons.empty());
  EXPECT_NE(reasons[0].find("is not a multiple of 16"), std::string::npos) << reasons[0];
  // Faster, the same choices explain nothing: the dot does.
  const auto faster = triton_rung_reasons(p, m, rung_of(*rung), true);
  EXPECT_NE(faster[0].find("wgmma"), std::string::npos) << faster[0];
}

}  // namespace

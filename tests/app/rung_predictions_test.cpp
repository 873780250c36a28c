// The GPU panel's per-rung predictions: each measured row gets its own rung's prediction (so two
// rungs on one problem get two times), rows the registry does not describe say so.
#include "app/core/rung_predictions.hpp"

#include <gtest/gtest.h>

#include <atomic>

#include "sim/machine/machine.hpp"

using namespace tilesim;
using namespace tilesim::app;

TEST(RungPredictions, EachRungOnTheSameProblemGetsItsOwnPrediction) {
  sim::ProblemSpec spec;  // fp16 matmul
  spec.m = spec.n = spec.k = 1024;
  const std::vector<RungRow> rows{{"matmul_mma_sync", spec},
                                  {"matmul_mma_sync_warp64", spec},
                                  {"matmul_wgmma_tma", spec},
                                  {"cublas_gemmex", spec}};
  std::atomic<double> progress{0};
  const auto p = predict_rungs(rows, *sim::find_machine("h100"), std::stop_token{}, progress);
  ASSERT_EQ(p.size(), rows.size());
  EXPECT_DOUBLE_EQ(progress, 1.0);
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(p[i].modelled) << rows[i].variant;
    EXPECT_TRUE(p[i].error.empty()) << p[i].error;
    EXPECT_GT(p[i].timing.kernel_ps, 0) << rows[i].variant;
  }
  // Their own warps, tile and path: the warp64 rung runs 4 warps, wgmma its 128x256 tile.
  EXPECT_EQ(p[1].timed.num_warps, 4);
  EXPECT_EQ(p[2].timed.block_n, 256);
  EXPECT_EQ(p[2].timing.costs.path, sim::MathPath::wgmma);
  EXPECT_NE(p[0].timing.kernel_ps, p[1].timing.kernel_ps);
  EXPECT_NE(p[0].timing.kernel_ps, p[2].timing.kernel_ps);
  EXPECT_FALSE(p[3].modelled);  // cuBLAS: not our code
  EXPECT_EQ(find_prediction(p, rows[2]), &p[2]);
  EXPECT_EQ(find_prediction(p, {"matmul_mma_sync", sim::ProblemSpec{}}), nullptr);
}

TEST(RungPredictions, TheKeyNamesEveryRowAndTheMachine) {
  const std::vector<RungRow> a{{"matmul_mma_sync", {}}};
  const std::vector<RungRow> b{{"matmul_mma_sync_bk64", {}}};
  EXPECT_NE(rung_predictions_key(a, "h100"), rung_predictions_key(b, "h100"));
  EXPECT_NE(rung_predictions_key(a, "h100"), rung_predictions_key(a, "h200"));
  EXPECT_EQ(rung_predictions_key(a, "h100"), rung_predictions_key(a, "h100"));
}

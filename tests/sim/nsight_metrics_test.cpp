// Nsight metrics: what each measured figure means in the model's units, and which counter it is
// compared with (docs/MODEL.md).
#include "sim/warps/nsight_metrics.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "scenario/measured.hpp"
#include "sim/warps/warp_access.hpp"

using namespace tilesim::sim;

TEST(NsightMetrics, ConflictsAreSassWavefrontsMinusSharedInstructions) {
  const NcuMetrics m{
      {"sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 3200},
      {"sm__sass_inst_executed_op_shared_ld.sum", 100},
      {"sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum", 100},
      {"sm__sass_inst_executed_op_shared_st.sum", 100},
      // Also counts arbitration with global traffic: ignored while the SASS metrics exist.
      {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 4000},
      {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", 70},
  };
  const MeasuredWarps w = measured_warps(m);
  EXPECT_EQ(w.shared_ld_conflicts, 3100);  // 32-way: 31 conflicts per instruction
  EXPECT_EQ(w.shared_st_conflicts, 0);
}

TEST(NsightMetrics, WithoutSassMetricsConflictsFallBackToTheBankConflictCounter) {
  const NcuMetrics m{{"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 4000}};
  const MeasuredWarps w = measured_warps(m);
  EXPECT_EQ(w.shared_ld_conflicts, 4000);
  EXPECT_EQ(w.shared_st_conflicts, 0);
}

TEST(NsightMetrics, SectorsPerRequestAreSectorsOverRequestsAndZeroWithoutRequests) {
  const NcuMetrics m{
      {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 400},
      {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 100},
      {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 3200},
  };
  const MeasuredWarps w = measured_warps(m);
  EXPECT_EQ(w.ld_sectors_per_request, 4);
  EXPECT_EQ(w.st_sectors_per_request, 0);
}

TEST(NsightMetrics, MeasuredWritesAreComparedWithTheWritesBeforeTheFinalFlush) {
  const NcuMetrics m{{"dram__bytes_read.sum", 2e6},
                     {"dram__bytes_write.sum", 0},
                     {"lts__t_sector_hit_rate.pct", 62.5}};
  const MemoryFigures measured = measured_memory(m);
  EXPECT_EQ(measured.dram_read_bytes, 2e6);
  EXPECT_EQ(measured.dram_write_bytes, 0);
  EXPECT_DOUBLE_EQ(measured.l2_hit_rate, 0.625);
  Counters c;
  c.dram_read_bytes = 2'200'000;
  c.dram_write_bytes = 1'000'000;
  c.dram_flush_bytes = 1'000'000;  // the output stayed in L2 until the kernel ended
  c.l2_load_sectors = 10;
  c.l2_load_hit_sectors = 5;
  c.l2_store_sectors = 6;
  const MemoryFigures predicted = predicted_memory(c);
  EXPECT_EQ(predicted.dram_read_bytes, 2.2e6);
  EXPECT_EQ(predicted.dram_write_bytes, 0);
  EXPECT_DOUBLE_EQ(predicted.l2_hit_rate, c.l2_hit_rate());
  EXPECT_DOUBLE_EQ(relative_error(predicted.dram_read_bytes, measured.dram_read_bytes), 0.1);
  EXPECT_DOUBLE_EQ(relative_error(512, 0), 512);  // finite where nothing was measured
}

namespace {

// Every record of the measured sets bundled in assets/measured (one per GPU).
std::vector<tilesim::scenario::MeasuredRecord> bundled_records() {
  std::vector<tilesim::scenario::MeasuredRecord> out;
  for (auto& set :
       tilesim::scenario::load_measured_dir(std::string(TILESIM_ASSETS_DIR) + "/measured"))
    for (auto& r : set.records) out.push_back(std::move(r));
  return out;
}

}  // namespace

TEST(NsightMetrics, BundledTransposeMeasurementsConflictAsTheWarpModelPredicts) {
  // docs/FIDELITY.md: bank conflicts of the transpose tiles match exactly.
  int checked = 0;
  for (const auto& r : bundled_records()) {
    const auto v = parse_thread_variant(r.variant);
    if (!v ||
        (*v != ThreadVariant::transpose_smem_tiled && *v != ThreadVariant::transpose_smem_padded) ||
        r.metric("sm__sass_inst_executed_op_shared_ld.sum") < 0)
      continue;
    const MeasuredWarps w = measured_warps(r.measured);
    const WarpAccessCounters c = warp_access(Problem(r.spec), *v);
    EXPECT_EQ(w.shared_ld_conflicts, double(c.shared_ld_conflicts())) << r.id;
    EXPECT_EQ(w.shared_st_conflicts, double(c.shared_st_conflicts())) << r.id;
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "no transpose measurement with SASS metrics bundled";
}

TEST(NsightMetrics, BundledMatmulMeasurementsIssueTheSharedLoadsTheWarpModelPredicts) {
  // MODEL_HISTORY.md: seed 003's conflicting rung issues 83,886,080 shared-load instructions and
  // 603,979,776 wavefronts at 2048^3 (ptxas merges its B reads into LDS.128); matmul_smem_tiled
  // two per FMA, conflict-free. Instructions and wavefronts, exactly.
  int checked = 0;
  for (const auto& r : bundled_records()) {
    const auto v = parse_thread_variant(r.variant);
    const double instructions = r.metric("sm__sass_inst_executed_op_shared_ld.sum");
    const double wavefronts =
        r.metric("sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum");
    if (!v || !variant_fits(*v, Kernel::matmul) || instructions < 0 || wavefronts < 0) continue;
    const WarpAccessCounters c = warp_access(Problem(r.spec), *v);
    EXPECT_EQ(instructions, double(c.shared_ld_requests)) << r.id;
    EXPECT_EQ(wavefronts, double(c.shared_ld_wavefronts)) << r.id;
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "no matmul measurement with SASS metrics bundled";
}

// Unit tests of the view models: broadcast inspector lanes, launch grid cells, matrix spans,
// zoom/pan maths and the engine sweep.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "app/core/broadcast_view.hpp"
#include "app/core/gpu_view.hpp"
#include "app/core/grid_view.hpp"
#include "app/core/matrix_view.hpp"
#include "app/core/sweep.hpp"
#include "app/core/warps_view.hpp"
#include "scenario/measured.hpp"
#include "scenario/scenario.hpp"
#include "sim/program/occupancy.hpp"

using namespace tilesim;
using namespace tilesim::app;

// How long a wait for the engine may take before it counts as a hang (seconds): minutes, since
// sanitizer builds on a shared machine are 5-15x slower; no test here times the engine.
constexpr double kHangGuardS = 300;

TEST(ShownLanes, SmallAxesShowEveryLaneBigOnesACornerAndTheTail) {
  EXPECT_EQ(shown_lanes(4, 8), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(shown_lanes(64, 8), (std::vector<int>{0, 1, 2, 3, 4, -1, 62, 63}));
}

TEST(BroadcastView, CopyOf5x5With4x4BlocksKeepsOneLaneInTheCornerProgram) {
  sim::ProblemSpec s;
  s.kernel = sim::Kernel::copy;
  s.m = s.n = 5;
  s.block_m = s.block_n = 4;
  s.order = sim::LaunchOrder::row_major;
  const sim::Problem p(s);
  const auto v = make_broadcast_view(p, {3, 1});
  ASSERT_TRUE(v.available);
  EXPECT_EQ(v.lanes, 16);
  EXPECT_EQ(v.lanes_on, 1);
  EXPECT_EQ(cell_text(v, 0, 0, true), "T");
  EXPECT_EQ(cell_text(v, 1, 0, true), "F");
  EXPECT_EQ(cell_text(v, 0, 0, false), "24");  // row 4 * 5 + col 4
  EXPECT_EQ(v.mask_header, "mask");
}

TEST(BroadcastView, MapAndDotStepsInspectANeighbouringLoad) {
  const sim::Problem p{sim::ProblemSpec{}};
  EXPECT_EQ(make_broadcast_view(p, {29, 0}).op, sim::StepOp::load_a);
  EXPECT_EQ(make_broadcast_view(p, {29, 3}).op, sim::StepOp::load_b);
  const auto v = make_broadcast_view(p, {29, 1});
  EXPECT_EQ(v.access.row_index[0], 5 * 64);  // pid 29 -> pid_m = 5
  EXPECT_EQ(v.lanes_on, 64 * 64);            // an interior tile: every lane on
}

namespace {
// A frame of `p` on `machine` at `position` (or just after pid's first step).
std::shared_ptr<const EngineFrame> frame_at(const sim::Problem& p, const std::string& machine,
                                            std::int64_t position,
                                            std::optional<std::int64_t> pid = {}) {
  EngineSession s;
  const auto m = *sim::find_machine(machine);
  s.open(p, m, sim::occupancy(p, m, 1),
         sim::EventOrderKind::lockstep);  // positions of the round order
  if (pid)
    s.seek_pid(*pid);
  else
    s.seek(position);
  EXPECT_TRUE(s.wait_settled(kHangGuardS));
  return s.frame();
}
}  // namespace

TEST(GridView, Seed004Pid29SitsInRow5Column0) {
  const sim::Problem p{sim::ProblemSpec{}};
  const auto f = frame_at(p, "h100", 0, 29);
  const auto g = make_grid_view(p, f.get(), GridColoring::group, 132, 132);
  EXPECT_EQ(g.at(5, 0).pid, 29);
  EXPECT_TRUE(g.at(5, 0).current);
  EXPECT_TRUE(g.at(0, 0).resident);  // one wave holds all 81 programs
  EXPECT_FALSE(g.at(0, 0).done);
  EXPECT_EQ(g.at(5, 0).group, 1);  // rows 3..5 are launch group 1
  EXPECT_EQ(g.launch_group[2 * 9], 0);
}

TEST(GridView, ResidentProgramsAndDoneTilesComeFromTheEngineSnapshot) {
  const sim::Problem p{sim::ProblemSpec{}};
  const std::int64_t sms = sim::find_machine("t4")->sms, T = 29;
  const auto f = frame_at(p, "t4", sms * T);  // the start of wave 1
  ASSERT_TRUE(f);
  EXPECT_EQ(f->slots, sms);
  const auto g = make_grid_view(p, f.get(), GridColoring::wave, sms, sms);
  for (std::int64_t pid = 0; pid < p.programs(); ++pid) {
    const auto t = sim::tile_of(p, pid);
    const auto& c = g.at(t.pid_m, t.pid_n);
    EXPECT_EQ(c.done, pid < sms) << pid;
    EXPECT_EQ(c.resident, pid >= sms && pid < 2 * sms) << pid;
    EXPECT_EQ(c.group, pid / sms) << pid;
  }
}

TEST(SpanPieces, MaskedBoundaryTileIsClippedAndFlagged) {
  const sim::Problem p{sim::ProblemSpec{}};
  const auto span = sim::step_span(p, sim::StepOp::load_a, {8, 0}, 8);
  const auto s = span_pieces(span);
  EXPECT_EQ(s.tile, (ElemRect{512, 512, 576, 576}));
  ASSERT_EQ(s.on.size(), 1u);
  EXPECT_EQ(s.on[0], (ElemRect{512, 512, 574, 574}));
  EXPECT_TRUE(s.has_off_lanes);
}

TEST(SpanPieces, WrappedRowsSplitIntoTwoPieces) {
  sim::ProblemSpec spec;
  spec.boundary = sim::Boundary::wrap;
  const sim::Problem p(spec);
  const auto s = span_pieces(sim::step_span(p, sim::StepOp::load_a, {8, 0}, 0));
  ASSERT_EQ(s.on.size(), 2u);
  EXPECT_EQ(s.on[0].r0, 512);
  EXPECT_EQ(s.on[0].r1, 574);
  EXPECT_EQ(s.on[1].r0, 0);
  EXPECT_EQ(s.on[1].r1, 2);
}

TEST(MatrixModels, MatmulShowsABCAndTheCurrentLoadOnA) {
  const sim::Problem p{sim::ProblemSpec{}};
  const auto ms = make_matrix_models(p, {29, 4});  // k = 1 load_a
  ASSERT_EQ(ms.size(), 3u);
  ASSERT_TRUE(ms[0].current.has_value());
  EXPECT_FALSE(ms[1].current.has_value());
  EXPECT_EQ(ms[0].current->tile.r0, 320);
  EXPECT_EQ(ms[0].current->tile.c0, 64);
  EXPECT_NEAR(ms[2].acc_fraction, 1.0 / 9.0, 1e-9);
}

TEST(Viewport, ZoomKeepsThePointUnderTheMouseFixed) {
  Viewport v;
  const Rect canvas{10, 20, 400, 300};
  const auto before = view_xform(v, canvas, 574, 574);
  const double px = 150, py = 140;
  const double r = before.row_at(py), c = before.col_at(px);
  zoom_at(v, canvas, 574, 574, px, py, 3.0);
  const auto after = view_xform(v, canvas, 574, 574);
  EXPECT_NEAR(after.row_at(py), r, 1e-9);
  EXPECT_NEAR(after.col_at(px), c, 1e-9);
  EXPECT_NEAR(after.scale, before.scale * 3, 1e-9);
  pan_by(v, canvas, 574, 574, 30, 0);
  EXPECT_NEAR(view_xform(v, canvas, 574, 574).col_at(px + 30), c, 1e-9);
}

TEST(Viewport, DetailAndVisibleRangeLimitWhatIsDrawn) {
  EXPECT_EQ(detail_for(0.05, 40), Detail::tiles);  // 8192 elements in 400 px
  EXPECT_EQ(detail_for(12, 40), Detail::cells);
  EXPECT_EQ(detail_for(60, 40), Detail::values);
  const auto r = visible_range(-1000, 2.0, 0, 400, 8192);
  EXPECT_EQ(r.first, 500);
  EXPECT_EQ(r.last, 700);
}

TEST(Sweep, GroupSizeSweepStartsWithRowMajorAndIncludesTheOpenSetting) {
  const sim::ProblemSpec base;
  std::atomic<double> progress{0};
  const auto bars = sweep_bars(base, SweepAxis::group_size_m, *sim::find_machine("h100"),
                               std::nullopt, {}, progress);
  ASSERT_GE(bars.size(), 5u);
  EXPECT_EQ(bars[0].label, "row-major");
  int current = 0;
  for (const auto& b : bars) {
    EXPECT_TRUE(b.error.empty()) << b.error;
    EXPECT_GE(b.dram_read_bytes, sim::Problem(b.spec).compulsory_bytes() / 2);
    current += b.is_current;
  }
  EXPECT_EQ(current, 1);
  EXPECT_DOUBLE_EQ(progress.load(), 1.0);
}

TEST(Sweep, AStopRequestCancelsTheReplaysAndGivesNoBars) {
  std::stop_source stop;
  stop.request_stop();
  std::atomic<double> progress{0};
  EXPECT_TRUE(sweep_bars(sim::ProblemSpec{}, SweepAxis::block_size, *sim::find_machine("h100"),
                         std::nullopt, stop.get_token(), progress)
                  .empty());
}

TEST(GpuView, WithoutADeviceOneSentenceSaysWhyAndNamesTheWayOut) {
  const auto d = kernels::query_device();
  if (d.available) GTEST_SKIP() << "a CUDA device is present: " << d.name;
  const std::string s = no_device_sentence(d);
  EXPECT_NE(s.find(d.reason), std::string::npos) << s;
  EXPECT_NE(s.find("tilesim-bench --json"), std::string::npos) << s;
  EXPECT_EQ(s.find(". "), std::string::npos) << "one sentence: " << s;
  const sim::Problem p{sim::ProblemSpec{}};
  const auto run = run_on_gpu(p, gpu_variants(p).front()->name);
  EXPECT_FALSE(run.result.ok);
  EXPECT_FALSE(run.result.error.empty());
}

TEST(GpuView, VariantsFollowTheKernelAndDtype) {
  sim::ProblemSpec s;
  s.kernel = sim::Kernel::transpose;
  s.dtype = sim::DType::fp32;
  for (const auto* v : gpu_variants(sim::Problem(s))) {
    EXPECT_EQ(v->kernel, sim::Kernel::transpose) << v->name;
    EXPECT_TRUE(v->implemented) << v->name;
  }
  EXPECT_FALSE(gpu_variants(sim::Problem(s)).empty());
}

TEST(GpuView, LoadsABenchFileAndFindsTheRecordsOfThisProblem) {
  // A report as tilesim-bench --json writes it (test fixture, not a measurement).
  scenario::BenchReport rep;
  rep.date = "2026-01-02T03:04:05Z";
  rep.commit = "abc1234";
  rep.device.name = "Test GPU";
  scenario::BenchRecord rec;
  rec.result.ok = true;
  rec.result.variant = "matmul_smem_tiled";
  rec.result.device = "Test GPU";
  rec.result.problem = sim::ProblemSpec{};
  rec.result.median_ms = 0.5;
  rec.result.timed_runs = 20;
  rec.result.throughput = 0.75;
  rec.result.throughput_unit = "TFLOP/s";
  rec.pct_of_baseline = 40;
  rep.records.push_back(rec);
  rec.result.problem.m = 1000;  // another problem
  rep.records.push_back(rec);
  rec.result.problem.m = 574;  // this problem, but only checked (the ladder's correctness sweep)
  rec.result.timed_runs = 0;
  rep.records.push_back(rec);
  const auto path = std::filesystem::temp_directory_path() / "tilesim_bench_fixture.json";
  { std::ofstream(path) << scenario::to_json(rep); }
  const auto loaded = scenario::load_bench_file(path.string());
  const auto hits = bench_matches(loaded, sim::ProblemSpec{});
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_DOUBLE_EQ(hits[0]->result.median_ms, 0.5);
  EXPECT_EQ(bench_label(loaded), "Test GPU, 2026-01-02T03:04:05Z, commit abc1234");
  EXPECT_EQ(bench_source(loaded, path.string(), false, hits[0]),
            "Test GPU, 2026-01-02, " + path.string());
  {  // a record merged in from a later run is sourced and counted by its own run's date
    auto later = loaded;
    later.records[0].run_date = "2026-02-03T00:00:00Z";
    EXPECT_EQ(bench_source(later, path.string(), false, &later.records[0]),
              "Test GPU, 2026-02-03, " + path.string());
    EXPECT_EQ(bench_label(later),
              "Test GPU, 2026-01-02T03:04:05Z, commit abc1234; 1 record "
              "from later runs, up to 2026-02-03");
  }
  // A rung with its own tile and B layout (wgmma: 128x256x64, K-major B) ran the open problem
  // whatever its blocks and B layout; a rung on the problem's blocks ran only those.
  sim::ProblemSpec big;
  big.m = big.n = big.k = 4096;
  scenario::BenchReport fixed;
  rec.result.timed_runs = 20;
  rec.result.variant = "matmul_wgmma_tma";
  rec.result.problem = big;
  rec.result.problem.block_m = 128;
  rec.result.problem.block_n = 256;
  rec.result.problem.b_layout = sim::BLayout::transposed;
  fixed.records.push_back(rec);
  rec.result.variant = "matmul_smem_tiled";
  fixed.records.push_back(rec);
  EXPECT_EQ(bench_matches(fixed, big).size(), 1u);
  { std::ofstream(path) << "{ not json"; }
  EXPECT_THROW(scenario::load_bench_file(path.string()), std::exception);
}

TEST(WarpsView, TransposeTileColumnsConflictUnlessPadded) {
  EXPECT_EQ(column_read_banks(32).wavefronts, 32);
  EXPECT_EQ(column_read_banks(33).wavefronts, 1);
  EXPECT_EQ(column_read_banks(32, 5).bank_of_lane[31], 5);
  sim::ProblemSpec s;
  s.kernel = sim::Kernel::transpose;
  s.dtype = sim::DType::fp32;
  s.m = s.n = 256;
  s.block_m = s.block_n = 32;
  const auto rows = warp_rows(sim::Problem(s));
  ASSERT_EQ(rows.size(), 3u);  // naive, smem tiled, smem padded
  EXPECT_GT(rows[1].counters.shared_ld_conflicts() + rows[1].counters.shared_st_conflicts(), 0);
  EXPECT_EQ(rows[2].counters.shared_ld_conflicts() + rows[2].counters.shared_st_conflicts(), 0);
  EXPECT_GT(rows[0].counters.st_sectors_per_request(), rows[0].counters.ld_sectors_per_request());
}

TEST(Measured, EachChipsFileMatchesItsOwnConfigurationsOnlyOnThatChip) {
  const auto sets = scenario::load_measured_dir(std::string(TILESIM_ASSETS_DIR) + "/measured");
  std::vector<std::string> keys;
  for (const auto& s : sets) keys.push_back(s.machine_key);
  EXPECT_EQ(keys, (std::vector<std::string>{"h100", "h200"}));  // file order: h100.json, h200.json
  const auto sc = scenario::load_scenario(std::string(TILESIM_ASSETS_DIR) +
                                          "/scenarios/measured_h200_matmul_4096_fp16.json");
  for (const char* chip : {"h100", "h200"}) {
    const auto hits = scenario::find_measured(sets, sc.problem, chip);
    ASSERT_EQ(hits.size(), 1u) << chip;
    EXPECT_EQ(hits[0].set->machine_key, chip);
    EXPECT_EQ(hits[0].record->id, "mm16_4096_grp");
    EXPECT_GT(hits[0].record->metric("dram__bytes_read.sum"), 0);
  }
  EXPECT_TRUE(scenario::find_measured(sets, sc.problem, "a100").empty());
  EXPECT_TRUE(scenario::find_measured(sets, sim::ProblemSpec{}, "h200").empty());
}

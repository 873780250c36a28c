// The app's kernel files (File -> Open kernel, --triton, a scenario's "triton_file"): a good file
// becomes the open problem with its own source, a broken one is refused with its line and
// column while what was open stays, a saved edit reloads, and the broadcast inspector shows the
// evaluator's own offsets with the file's names.
#include "scenario/kernel_file.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/core/broadcast_view.hpp"
#include "app/core/commands.hpp"
#include "app/core/options.hpp"
#include "scenario/file_io.hpp"
#include "scenario/lesson.hpp"

using namespace tilesim;
using namespace tilesim::app;

namespace {

constexpr double kHangGuardS = 300;

std::filesystem::path seed004() {
  return std::filesystem::path(TILESIM_ASSETS_DIR) / "kernels" / "seed004_grouped_matmul.py";
}

std::filesystem::path temp_dir(const std::string& name) {
  const auto d = std::filesystem::temp_directory_path() / ("tilesim_kernel_file_" + name);
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// Writes `text` and moves the file's time on by `seconds`, so a save within the clock's
// resolution still reads as a new version.
void save(const std::filesystem::path& p, const std::string& text, int seconds) {
  const auto before = std::filesystem::exists(p) ? std::filesystem::last_write_time(p)
                                                 : std::filesystem::file_time_type::clock::now();
  std::ofstream(p, std::ios::binary) << text;
  std::filesystem::last_write_time(p, before + std::chrono::seconds(seconds));
}

// Seed 004's file with a construct outside the subset on its first line of code.
std::string broken_seed004() {
  return replaced(scenario::read_file(seed004()), "    pid = tl.program_id(axis=0)\n",
                  "    pid = tl.program_id(axis=0)\n    tl.atomic_add(c_ptr, 1)\n");
}

// Applies an OpenKernel or ReloadKernel and lands the worker's read, as the frames after it do.
void apply_and_land(AppModel& m, const Command& c) {
  apply_command(m, c);
  finish_kernel_open(m, kHangGuardS);
}

}  // namespace

TEST(KernelFile, OpeningAGoodFileMakesItsProblemAndListsItsSource) {
  AppModel m = make_model(default_scenario());
  apply_and_land(m, OpenKernel{seed004(), {}, {}});
  ASSERT_TRUE(m.kernel_file) << m.status;
  EXPECT_FALSE(m.status_is_error) << m.status;
  // Seed 004: 574^3 with 64^3 blocks, GROUP_SIZE_M = 3, recognised as sim's grouped matmul.
  const auto& spec = m.problem.spec();
  EXPECT_EQ(spec.kernel, sim::Kernel::matmul);
  EXPECT_EQ(spec.m, 574);
  EXPECT_EQ(spec.block_m, 64);
  EXPECT_EQ(spec.group_size_m, 3);
  EXPECT_EQ(m.problem.programs(), 81);
  EXPECT_EQ(m.scenario.name, "seed004_grouped_matmul");
  EXPECT_EQ(m.scenario.triton_path, seed004());
  // The listing is the file itself, and each of sim's steps of pid 29 points at its own line.
  const auto& lines = m.kernel_file->lines();
  ASSERT_GT(lines.size(), 45u);
  EXPECT_NE(lines[14].find("def matmul_kernel"), std::string::npos);
  const auto& steps = m.kernel_file->steps(spec, 29);
  ASSERT_EQ(steps.size(), 29u);  // map, 9 x (load_a, load_b, dot), store
  EXPECT_NE(lines[steps[0].line - 1].find("pid_n ="), std::string::npos);
  EXPECT_NE(lines[steps[1].line - 1].find("a = tl.load(a_ptrs"), std::string::npos);
  EXPECT_NE(lines[steps[2].line - 1].find("b = tl.load(b_ptrs"), std::string::npos);
  EXPECT_NE(lines[steps[3].line - 1].find("tl.dot"), std::string::npos);
  EXPECT_NE(lines[steps[28].line - 1].find("tl.store"), std::string::npos);
  // Its load's pointers and mask are built on the lines that assign them.
  EXPECT_NE(lines[m.kernel_file->access_source(steps[1]).ptr_line - 1].find("a_ptrs = a_ptr"),
            std::string::npos);
  EXPECT_EQ(m.kernel_file->access_source(steps[1]).mask_line,
            steps[1].line);  // mask=... written in place
  ASSERT_TRUE(m.engine->wait_settled(kHangGuardS));
  EXPECT_EQ(m.events(), 81 * 29);
}

TEST(KernelFile, ABrokenFileIsRefusedWithItsLineAndTheOpenScenarioStays) {
  const auto dir = temp_dir("broken");
  const auto bad = dir / "broken.py";
  save(bad, broken_seed004(), 0);
  AppModel m = make_model(default_scenario());
  const auto before = m.scenario;
  apply_and_land(m, OpenKernel{bad, {}, {}});
  EXPECT_FALSE(m.kernel_file);
  EXPECT_TRUE(m.status_is_error);
  EXPECT_NE(m.status.find("broken.py:25:5: tl.atomic_add is not supported"), std::string::npos)
      << m.status;
  EXPECT_EQ(m.scenario, before);
  ASSERT_TRUE(m.engine);
  // A file that is no kernel file at all is refused the same way.
  apply_and_land(m, OpenKernel{dir / "missing.py", {}, {}});
  EXPECT_TRUE(m.status_is_error);
  EXPECT_EQ(m.scenario, before);
}

TEST(KernelFile, ASavedEditReloadsAndABrokenSaveKeepsTheLastGoodVersion) {
  const auto dir = temp_dir("reload");
  const auto file = dir / "grouped.py";
  const std::string good = scenario::read_file(seed004());
  save(file, good, 0);
  AppModel m = make_model(default_scenario());
  apply_and_land(m, OpenKernel{file, {}, {}});
  ASSERT_TRUE(m.kernel_file) << m.status;
  EXPECT_FALSE(kernel_file_changed(*m.kernel_file));
  ASSERT_TRUE(m.engine->wait_settled(kHangGuardS));
  apply_command(m, Seek{100});

  // The teacher halves the blocks in the launch comment and saves.
  const std::string edited =
      replaced(good, "BLOCK_SIZE_M=64 BLOCK_SIZE_N=64 BLOCK_SIZE_K=64 GROUP_SIZE_M=3 grid=81",
               "BLOCK_SIZE_M=32 BLOCK_SIZE_N=32 BLOCK_SIZE_K=32 GROUP_SIZE_M=3 grid=324");
  save(file, edited, 2);
  ASSERT_TRUE(kernel_file_changed(*m.kernel_file));
  apply_and_land(m, ReloadKernel{});
  ASSERT_TRUE(m.kernel_file);
  EXPECT_TRUE(m.kernel_file->error.empty()) << m.kernel_file->error;
  EXPECT_EQ(m.problem.spec().block_m, 32);
  EXPECT_EQ(m.problem.programs(), 18 * 18);
  EXPECT_FALSE(kernel_file_changed(*m.kernel_file));
  ASSERT_TRUE(m.engine->wait_settled(kHangGuardS));
  EXPECT_EQ(m.position(), 100);  // the position is kept

  // A save that breaks the file: said, with its line, and the last good version stays open.
  save(file, broken_seed004(), 4);
  ASSERT_TRUE(kernel_file_changed(*m.kernel_file));
  apply_and_land(m, ReloadKernel{});
  ASSERT_TRUE(m.kernel_file);
  EXPECT_NE(m.kernel_file->error.find("grouped.py:25:5: tl.atomic_add"), std::string::npos)
      << m.kernel_file->error;
  EXPECT_TRUE(m.status_is_error);
  EXPECT_EQ(m.problem.spec().block_m, 32);
  const auto& kept = m.kernel_file->lines();
  EXPECT_TRUE(std::any_of(kept.begin(), kept.end(), [](const std::string& l) {
    return l.find("BLOCK_SIZE_M=32") != std::string::npos;
  }));
  EXPECT_TRUE(std::none_of(kept.begin(), kept.end(), [](const std::string& l) {
    return l.find("atomic_add") != std::string::npos;
  }));
  // Not read again until the next save; the fix is read and the error goes.
  EXPECT_FALSE(kernel_file_changed(*m.kernel_file));
  save(file, good, 6);
  apply_and_land(m, ReloadKernel{});
  ASSERT_TRUE(m.kernel_file);
  EXPECT_TRUE(m.kernel_file->error.empty());
  EXPECT_EQ(m.problem.spec().block_m, 64);
}

TEST(KernelFile, EditingTheProblemLeavesTheFileForTheBuiltInListing) {
  AppModel m = make_model(default_scenario());
  apply_and_land(m, OpenKernel{seed004(), {}, {}});
  ASSERT_TRUE(m.kernel_file);
  sim::ProblemSpec spec = m.problem.spec();
  apply_command(m, SetSpec{spec, "m"});  // the same problem: still the file's
  EXPECT_TRUE(m.kernel_file);
  spec.m = 600;
  apply_command(m, SetSpec{spec, "m"});
  EXPECT_FALSE(m.kernel_file);
  EXPECT_TRUE(m.scenario.triton_file.empty());
  EXPECT_EQ(m.problem.spec().m, 600);
}

TEST(KernelFile, AScenarioNamesAKernelFileUnderTheAssetsOrBesideIt) {
  const auto s = scenario::parse_scenario(
      R"({"title": "Seed 004 from its file", "machine": "h100",
          "triton_file": "assets/kernels/seed004_grouped_matmul.py"})");
  const auto file = scenario::open_kernel_file(seed004().string()).scenario;
  EXPECT_EQ(s.problem, file.problem);
  EXPECT_EQ(s.title, "Seed 004 from its file");
  EXPECT_EQ(s.name, "seed004_grouped_matmul");
  EXPECT_EQ(std::filesystem::canonical(s.triton_path), std::filesystem::canonical(seed004()));
  AppModel m = make_model(s);
  ASSERT_TRUE(m.kernel_file);
  EXPECT_EQ(m.kernel_file->kernel->source->fn.name, "matmul_kernel");
  // Saved as the file (not its fields) and read back the same.
  const auto again = scenario::parse_scenario(scenario::to_json(s));
  EXPECT_EQ(again.problem, s.problem);
  EXPECT_EQ(again.triton_file, s.triton_file);
  // Beside the scenario, with launch words over the file's comments.
  const auto dir = temp_dir("beside");
  std::filesystem::copy_file(seed004(), dir / "mine.py");
  scenario::write_file_atomic(dir / "mine.json",
                              R"({"triton_file": "mine.py", "triton_args": ["GROUP_SIZE_M=9"]})");
  const auto beside = scenario::load_scenario(dir / "mine.json");
  EXPECT_EQ(beside.problem.group_size_m, 9);
  EXPECT_EQ(beside.triton_path, dir / "mine.py");
  // A problem field beside the file, or a file that is not there, is refused by name.
  EXPECT_THROW(scenario::parse_scenario(R"({"triton_file": "seed004_grouped_matmul.py", "m": 8})"),
               scenario::ScenarioError);
  try {
    scenario::parse_scenario(R"({"triton_file": "no_such_kernel.py"})");
    ADD_FAILURE() << "a missing kernel file was accepted";
  } catch (const scenario::ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("no_such_kernel.py"), std::string::npos) << e.what();
  }
}

TEST(KernelFile, BroadcastInspectorShowsTheEvaluatorsOffsetsWithTheFilesNames) {
  AppModel m = make_model(default_scenario());
  apply_and_land(m, OpenKernel{seed004(), {}, {}});
  ASSERT_TRUE(m.kernel_file);
  // pid 29 = tile (5, 0); step 1 = its load of A at k = 0: rows 320..383 (wrapped % 574).
  const BroadcastView v = make_broadcast_view(m.problem, CursorPos{29, 1}, 8, 8, &*m.kernel_file);
  const BroadcastView builtin = make_broadcast_view(m.problem, CursorPos{29, 1}, 8, 8);
  ASSERT_TRUE(v.from_file);
  EXPECT_FALSE(builtin.from_file);
  EXPECT_EQ(v.offset(0, 0), 320 * 574);
  EXPECT_EQ(v.offset(63, 63), 383 * 574 + 63);
  for (int i = 0; i < v.access.rows(); ++i)
    for (int j = 0; j < v.access.cols(); ++j) {
      ASSERT_EQ(v.offset(i, j), builtin.offset(i, j)) << i << ", " << j;
      ASSERT_EQ(v.valid(i, j), builtin.valid(i, j)) << i << ", " << j;
    }
  EXPECT_EQ(v.access.row_expr, "offs_am");
  EXPECT_EQ(v.access.col_expr, "offs_k");
  EXPECT_EQ(v.sum_header.rfind("a_ptrs - a_ptr = offs_am[:, None] * stride_am", 0), 0u)
      << v.sum_header;
  EXPECT_NE(v.mask_header.find("offs_k[None, :] < K - k * BLOCK_SIZE_K"), std::string::npos)
      << v.mask_header;
  EXPECT_NE(v.step_label.find("a = tl.load(a_ptrs"), std::string::npos) << v.step_label;
  EXPECT_EQ(v.file_line, "seed004_grouped_matmul.py:42");
}

TEST(KernelFile, TheGpuPanelFindsTheFilesMeasuredRunOnItsGpu) {
  AppModel m = make_model(default_scenario());
  apply_and_land(m, OpenKernel{seed004(), {}, {}});
  ASSERT_TRUE(m.kernel_file);
  const auto* run = m.kernel_file->measured_run("h100");
  ASSERT_TRUE(run);
  EXPECT_EQ(run->file, "seed004_grouped_matmul.py");
  EXPECT_GT(run->median_ms, 0);
  EXPECT_FALSE(m.kernel_file->measured_run("t4"));  // no runs on that preset's GPU
  // Another launch of the same file is not the run measured.
  apply_and_land(m, OpenKernel{seed004(), {}, {"GROUP_SIZE_M=9"}});
  ASSERT_TRUE(m.kernel_file);
  EXPECT_FALSE(m.kernel_file->measured_run("h100"));
}

TEST(Options, TritonFlagsOpenAKernelFileLikeTheCli) {
  const auto r = parse_options(
      {"--triton", "k.py", "--function", "matmul_kernel", "--arg", "M=300", "--grid", "9"});
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.options.triton, std::filesystem::path("k.py"));
  EXPECT_EQ(r.options.triton_function, "matmul_kernel");
  EXPECT_EQ(r.options.triton_args, (std::vector<std::string>{"M=300", "grid=9"}));
  EXPECT_FALSE(parse_options({"--arg", "M=300"}).error.empty());
  EXPECT_FALSE(parse_options({"--triton", "k.py", "--scenario", "s.json"}).error.empty());
}

TEST(KernelFile, ALessonNamesAKernelFileThroughItsScenario) {
  // By a scenario file that names it, or inline; its code lines are then the file's.
  const auto by_name =
      scenario::parse_lesson(R"({"title": "t", "scenario": "seed004_kernel_file.json",
    "steps": [{"view": "launch_grid", "position": {"pid": 29, "step": 1},
               "highlight": {"code_lines": [42]}, "narration": "the file's own load of A"}]})");
  EXPECT_EQ(by_name.scenario.triton_file, "assets/kernels/seed004_grouped_matmul.py");
  const auto inline_ = scenario::parse_lesson(R"({"title": "t",
    "scenario": {"triton_file": "kernels/seed004_grouped_matmul.py"},
    "steps": [{"view": "launch_grid", "position": {"pid": 29, "step": 1}, "narration": "x"}]})");
  EXPECT_EQ(inline_.scenario.problem, by_name.scenario.problem);
  AppModel m = make_model(by_name.scenario);
  ASSERT_TRUE(m.kernel_file);
  EXPECT_NE(m.kernel_file->lines()[41].find("a = tl.load(a_ptrs"), std::string::npos);
}

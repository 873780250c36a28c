// Opening a kernel file off the UI thread (File -> Open kernel, --triton, a save): the read runs
// on the model's kernel job and changes nothing until it lands between frames; it lands the same
// scenario as reading the file directly; a refusal keeps what was open; a newer save supersedes
// a reload in flight; a reload never supersedes a file being opened; Cancel and quitting leave
// no thread behind. The clock only guards against a hang.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "app/core/commands.hpp"
#include "scenario/file_io.hpp"
#include "scenario/kernel_file.hpp"

using namespace tilesim;
using namespace tilesim::app;

namespace {

constexpr double kHangGuardS = 300;

std::filesystem::path kernel(const std::string& name) {
  return std::filesystem::path(TILESIM_ASSETS_DIR) / "kernels" / name;
}

std::filesystem::path temp_dir(const std::string& name) {
  const auto d = std::filesystem::temp_directory_path() / ("tilesim_kernel_open_" + name);
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

// Writes `text` with the file's time `seconds` past `base`, so saves within the clock's
// resolution still read as new versions.
void save(const std::filesystem::path& p, const std::string& text,
          std::filesystem::file_time_type base, int seconds) {
  std::ofstream(p, std::ios::binary) << text;
  std::filesystem::last_write_time(p, base + std::chrono::seconds(seconds));
}

// Seed 004's file with its blocks (and the grid that goes with them) replaced.
std::string seed004_with_blocks(int block) {
  std::string text = scenario::read_file(kernel("seed004_grouped_matmul.py"));
  const std::string from = "BLOCK_SIZE_M=64 BLOCK_SIZE_N=64 BLOCK_SIZE_K=64 GROUP_SIZE_M=3 grid=81";
  const auto tiles = (574 + block - 1) / block;
  const std::string b = std::to_string(block);
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos);
  if (at != std::string::npos)
    text.replace(at, from.size(),
                 "BLOCK_SIZE_M=" + b + " BLOCK_SIZE_N=" + b + " BLOCK_SIZE_K=" + b +
                     " GROUP_SIZE_M=3 grid=" + std::to_string(tiles * tiles));
  return text;
}

// Seed 004 at 8192^3: a read the front end takes a while over (it evaluates programs to
// recognise the problem), so a Cancel pressed at once finds it still running.
const std::vector<std::string> kBig = {"a_ptr=8192x8192:fp16",
                                       "b_ptr=8192x8192:fp16",
                                       "c_ptr=8192x8192:fp16",
                                       "M=8192",
                                       "N=8192",
                                       "K=8192",
                                       "stride_am=8192",
                                       "stride_bk=8192",
                                       "stride_cm=8192",
                                       "grid=16384"};

}  // namespace

TEST(KernelOpen, TheReadRunsOnAWorkerAndLandsTheScenarioTheFileReadsAs) {
  AppModel m = make_model(default_scenario());
  const auto before = m.scenario;
  apply_command(m, OpenKernel{kernel("seed004_grouped_matmul.py"), {}, {}});
  // Nothing changes until the read lands: the frame that asked keeps drawing what was open.
  EXPECT_EQ(m.scenario, before);
  EXPECT_FALSE(m.kernel_file);
  EXPECT_EQ(m.jobs->kernel.threads(), 1u);
  const KernelLanding landed = finish_kernel_open(m, kHangGuardS);
  ASSERT_TRUE(landed.landed);
  EXPECT_TRUE(landed.error.empty()) << landed.error;
  ASSERT_TRUE(m.kernel_file) << m.status;
  EXPECT_FALSE(m.status_is_error) << m.status;
  EXPECT_EQ(m.status, "Opened kernel " + kernel("seed004_grouped_matmul.py").string());
  // What reading it on the UI thread made: the front end's scenario, naming the file.
  const auto direct = scenario::open_kernel_file(kernel("seed004_grouped_matmul.py").string());
  EXPECT_EQ(m.scenario.problem, direct.scenario.problem);
  EXPECT_EQ(m.scenario.name, direct.scenario.name);
  EXPECT_EQ(m.scenario.title, direct.scenario.title);
  EXPECT_EQ(m.scenario.description, direct.scenario.description);
  EXPECT_EQ(m.scenario.triton_path, kernel("seed004_grouped_matmul.py"));
  EXPECT_EQ(m.scenario.triton_file,
            std::filesystem::absolute(kernel("seed004_grouped_matmul.py")).lexically_normal());
  EXPECT_EQ(m.kernel_file->lines(), direct.kernel->source->lines);
  EXPECT_FALSE(kernel_file_changed(*m.kernel_file));
  // Handed over once: the next frame finds nothing more to land.
  EXPECT_FALSE(land_kernel_open(m).landed);
  ASSERT_TRUE(m.engine->wait_settled(kHangGuardS));
  EXPECT_EQ(m.events(), 81 * 29);
}

TEST(KernelOpen, ARefusedFileKeepsThePreviousKernelAndSaysFileLineColumn) {
  const auto dir = temp_dir("refused");
  const auto bad = dir / "refused.py";
  std::ofstream(bad) << "import triton\nimport triton.language as tl\n\n@triton.jit\n"
                        "def k(x_ptr):\n    tl.atomic_add(x_ptr, 1)\n";
  AppModel m = make_model(default_scenario());
  apply_command(m, OpenKernel{kernel("tutorial_matmul.py"), "matmul_kernel", {}});
  ASSERT_TRUE(finish_kernel_open(m, kHangGuardS).error.empty()) << m.status;
  ASSERT_TRUE(m.kernel_file);
  const auto good = m.scenario;
  apply_command(m, OpenKernel{bad, {}, {}});
  const KernelLanding landed = finish_kernel_open(m, kHangGuardS);
  ASSERT_TRUE(landed.landed);
  EXPECT_NE(landed.error.find("refused.py:6:5: tl.atomic_add is not supported"), std::string::npos)
      << landed.error;
  EXPECT_TRUE(m.status_is_error);
  EXPECT_NE(m.status.find("refused.py:6:5:"), std::string::npos) << m.status;
  EXPECT_NE(m.status.find("the last version that read stays open"), std::string::npos);
  EXPECT_EQ(m.scenario, good);
  ASSERT_TRUE(m.kernel_file);
  EXPECT_EQ(m.kernel_file->path, kernel("tutorial_matmul.py"));
  EXPECT_TRUE(m.kernel_file->error.empty());  // the open file itself still reads
  // A path that is no file at all is refused the same way, by name.
  apply_command(m, OpenKernel{dir / "missing.py", {}, {}});
  const KernelLanding missing = finish_kernel_open(m, kHangGuardS);
  EXPECT_NE(missing.error.find("missing.py"), std::string::npos) << missing.error;
  EXPECT_EQ(m.scenario, good);
}

TEST(KernelOpen, ASaveDuringAReloadIsReadAndTheOlderVersionNeverLandsLast) {
  const auto dir = temp_dir("resave");
  const auto file = dir / "grouped.py";
  const auto base = std::filesystem::file_time_type::clock::now();
  save(file, seed004_with_blocks(64), base, 0);
  AppModel m = make_model(default_scenario());
  apply_command(m, OpenKernel{file, {}, {}});
  ASSERT_TRUE(finish_kernel_open(m, kHangGuardS).error.empty()) << m.status;
  ASSERT_EQ(m.problem.spec().block_m, 64);
  // Two saves in quick succession, each seen by the twice-a-second look. Whichever way the
  // first read and the second save interleave, the last version is the one that lands last: a
  // first read still running is superseded (its result dropped); one that finished lands before
  // the second starts; one that saw the second save's time needs no second read.
  save(file, seed004_with_blocks(32), base, 2);
  apply_command(m, ReloadKernel{});
  save(file, seed004_with_blocks(16), base, 4);
  apply_command(m, ReloadKernel{});
  finish_kernel_open(m, kHangGuardS);
  ASSERT_TRUE(m.kernel_file);
  EXPECT_TRUE(m.kernel_file->error.empty()) << m.kernel_file->error;
  EXPECT_EQ(m.problem.spec().block_m, 16);
  EXPECT_FALSE(kernel_file_changed(*m.kernel_file));
  // Asked again with nothing saved since: no read starts.
  apply_command(m, ReloadKernel{});
  EXPECT_FALSE(m.jobs->kernel.pending());
}

TEST(KernelOpen, AReloadNeverSupersedesAFileBeingOpened) {
  const auto dir = temp_dir("reload_vs_open");
  const auto file = dir / "grouped.py";
  const auto base = std::filesystem::file_time_type::clock::now();
  save(file, seed004_with_blocks(64), base, 0);
  AppModel m = make_model(default_scenario());
  apply_command(m, OpenKernel{file, {}, {}});
  ASSERT_TRUE(finish_kernel_open(m, kHangGuardS).error.empty()) << m.status;
  // The open file is saved while another is being opened: the look for saves asks for a reload.
  save(file, seed004_with_blocks(32), base, 2);
  apply_command(m, OpenKernel{kernel("tutorial_matmul.py"), "matmul_kernel", {}});
  apply_command(m, ReloadKernel{});
  EXPECT_FALSE(m.jobs->kernel_request.reload);
  finish_kernel_open(m, kHangGuardS);
  ASSERT_TRUE(m.kernel_file);
  EXPECT_EQ(m.kernel_file->path, kernel("tutorial_matmul.py"));
  EXPECT_EQ(m.scenario.triton_path, kernel("tutorial_matmul.py"));
  EXPECT_FALSE(m.jobs->kernel.pending());
}

TEST(KernelOpen, CancelKeepsWhatIsOpenAndQuittingJoinsTheRead) {
  AppModel m = make_model(default_scenario());
  const auto before = m.scenario;
  apply_command(m, OpenKernel{kernel("seed004_grouped_matmul.py"), {}, kBig});
  if (!m.jobs->kernel.pending()) GTEST_SKIP() << "the 8192^3 read finished before Cancel";
  apply_command(m, CancelKernelOpen{});
  EXPECT_FALSE(m.jobs->kernel.pending());
  EXPECT_FALSE(m.status_is_error);
  EXPECT_EQ(m.status.rfind("Stopped opening ", 0), 0u) << m.status;
  // The stopped read runs to its end (the front end has no stop token) and is dropped.
  finish_kernel_open(m, kHangGuardS);
  m.jobs->kernel.stop_and_join();
  EXPECT_FALSE(land_kernel_open(m).landed);
  EXPECT_EQ(m.scenario, before);
  EXPECT_FALSE(m.kernel_file);
  // Quitting with a read in flight joins it.
  apply_command(m, OpenKernel{kernel("seed004_grouped_matmul.py"), {}, kBig});
  shut_down(m);
  EXPECT_EQ(m.jobs->kernel.threads(), 0u);
}

TEST(KernelOpen, OpeningAScenarioDropsAKernelReadInFlight) {
  AppModel m = make_model(default_scenario());
  apply_command(m, OpenKernel{kernel("seed004_grouped_matmul.py"), {}, {}});
  const auto path = std::filesystem::path(TILESIM_ASSETS_DIR) / "scenarios" / "big_8192_fp16.json";
  apply_command(m, LoadScenario{path});
  ASSERT_FALSE(m.status_is_error) << m.status;
  const auto loaded = m.scenario;
  finish_kernel_open(m, kHangGuardS);
  m.jobs->kernel.stop_and_join();
  EXPECT_FALSE(land_kernel_open(m).landed);
  EXPECT_EQ(m.scenario, loaded);
  EXPECT_FALSE(m.kernel_file);
}

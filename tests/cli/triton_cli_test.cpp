// tilesim-cli on a Triton file: `run --triton` prints the built-in kernel's counters for the
// seed's problem, `map --pid 29` on seed 004 evaluates (5, 0) from the source, and a refusal
// prints file:line:col and exits 2.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/cli/run_cli.hpp"

namespace {

std::string kernel(const char* name) {
  return std::string(TILESIM_ASSETS_DIR) + "/kernels/" + name;
}

TEST(TritonCli, RunOnSeed004PrintsTheBuiltInKernelsReport) {
  const auto file = tilesim::test::run_cli("run --triton " + kernel("seed004_grouped_matmul.py"),
                                           tilesim::test::Stderr::drop);
  const auto builtin = tilesim::test::run_cli("run --scenario " + std::string(TILESIM_ASSETS_DIR) +
                                                  "/scenarios/wrap_574_triton_tutorial.json",
                                              tilesim::test::Stderr::drop);
  ASSERT_EQ(file.code, 0) << file.out;
  ASSERT_EQ(builtin.code, 0);
  // The file's report is the built-in one after its "Triton kernel ..." line and a blank line.
  const auto body = file.out.substr(file.out.find("\n\n") + 2);
  EXPECT_EQ(body, builtin.out);
  EXPECT_NE(file.out.find("81 of 81 programs evaluated"), std::string::npos);
}

TEST(TritonCli, MapPid29OnSeed004IsFiveZero) {
  const auto r = tilesim::test::run_cli(
      "map --triton " + kernel("seed004_grouped_matmul.py") +
      " --arg M=574 --arg N=574 --arg K=574 --arg BLOCK_SIZE_M=64 --arg BLOCK_SIZE_N=64"
      " --arg BLOCK_SIZE_K=64 --arg GROUP_SIZE_M=3 --pid 29");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("-> (pid_m, pid_n) = (5, 0)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("line 31: pid_m = 5"), std::string::npos) << r.out;
}

TEST(TritonCli, ARefusalPrintsFileLineColumnAndExits2) {
  const auto r = tilesim::test::run_cli("run --triton " + std::string(TILESIM_ASSETS_DIR) +
                                        "/../tests/triton/kernels/split_k_matmul.py");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "tilesim-cli: split_k_matmul.py:27:5: tl.atomic_add is not supported yet\n");
}

TEST(TritonCli, ProblemFlagsCannotOverrideTheFile) {
  const auto r = tilesim::test::run_cli("run --triton " + kernel("seed001_matmul.py") + " --m 64");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("--m cannot be combined with --triton"), std::string::npos) << r.out;
}

TEST(TritonCli, CheckReportsLanesOutsideTheirTensorWithPidAndLine) {
  // C declared 500 rows while the kernel's masks use M = 574: the last rows of tiles write past.
  const auto bad = tilesim::test::run_cli("check --triton " + kernel("seed001_matmul.py") +
                                          " --arg c_ptr=500x574:fp16");
  EXPECT_EQ(bad.code, 3);
  EXPECT_NE(bad.out.find("pid 80, line 73: 3844 lanes of c_ptr written outside it (the mask "
                         "leaves them on)"),
            std::string::npos)
      << bad.out;
  const auto good = tilesim::test::run_cli("check --triton " + kernel("seed001_matmul.py"));
  EXPECT_EQ(good.code, 0) << good.out;
}

// Hints, not errors (exit 0): a mask that no program ever turns off at this launch, and loads
// narrower than 16 bytes where a leading dimension is not a multiple of 16 elements.
TEST(TritonCli, CheckHintsAtMasksAlwaysTrueAndNarrowLoads) {
  // The tutorial's own launch: 1024 x 768 x 512, all multiples of its 128 x 128 x 64 blocks.
  const auto whole = tilesim::test::run_cli(
      "check --json --triton " + kernel("tutorial_matmul.py") + " --function matmul_kernel");
  ASSERT_EQ(whole.code, 0) << whole.out;
  const auto j = nlohmann::json::parse(whole.out);
  std::vector<int> lines;
  for (const auto& h : j["hints"])
    if (h["text"].get<std::string>().find("is true for every lane of all 48 programs") !=
        std::string::npos)
      lines.push_back(h["line"].get<int>());
  EXPECT_EQ(lines, (std::vector<int>{100, 101, 119}));  // the loads of A and B, the store of C
  for (const auto& h : j["hints"])
    EXPECT_EQ(h["text"].get<std::string>().find("bytes at a time"), std::string::npos) << h;
  // K = 500: the last K step masks lanes off (no hint for the loads); 500 and 760 are not
  // multiples of 16, so A, B and C move 2 bytes an access.
  const auto odd = tilesim::test::run_cli(
      "check --triton " + kernel("tutorial_matmul.py") +
      " --function matmul_kernel --arg a_ptr=1000x500:fp16 --arg b_ptr=500x760:fp16"
      " --arg c_ptr=1000x760:fp16 --arg M=1000 --arg N=760 --arg K=500 --arg stride_am=500"
      " --arg stride_bk=760 --arg stride_cm=760 --grid 48");
  ASSERT_EQ(odd.code, 0) << odd.out;
  EXPECT_EQ(odd.out.find("is true for every lane"), std::string::npos) << odd.out;
  EXPECT_NE(odd.out.find("A is loaded 2 bytes at a time: its leading dimension 500 is not a "
                         "multiple of 16 elements"),
            std::string::npos)
      << odd.out;
  EXPECT_NE(odd.out.find("B is loaded 2 bytes at a time: its leading dimension 760"),
            std::string::npos)
      << odd.out;
}

TEST(TritonCli, TraceShowsTheFilesOwnLines) {
  const auto r =
      tilesim::test::run_cli("trace --triton " + kernel("seed000_transpose.py") + " --pid 1");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("step    1  line 41  load"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("step    3  line 42  store"), std::string::npos) << r.out;
  // --offsets names the file's own pointers, the line that builds them and its mask as written.
  const auto o = tilesim::test::run_cli("trace --triton " + kernel("seed004_grouped_matmul.py") +
                                        " --pid 80 --step 25 --offsets");
  ASSERT_EQ(o.code, 0) << o.out;
  EXPECT_NE(o.out.find("offsets of a_ptrs (element offsets into a_ptr), built on line 37: a_ptrs "
                       "= a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)"),
            std::string::npos)
      << o.out;
  EXPECT_NE(o.out.find("mask = offs_k[None, :] < K - k * BLOCK_SIZE_K"), std::string::npos)
      << o.out;
  EXPECT_EQ(o.out.find("offs_m[:, None] * stride_am"), std::string::npos) << o.out;
}

}  // namespace

namespace {

TEST(TritonCli, RunShowsTheSameFileMeasuredAtTheSameLaunchOnThePresetsGpu) {
  // assets/measured/triton_files_h100.json: seed 004's file run with real Triton at its own
  // launch (scripts/triton/run_file.py). Another GROUP_SIZE_M is another launch: not measured.
  const std::string file = kernel("seed004_grouped_matmul.py");
  const auto r = tilesim::test::run_cli("run --triton " + file, tilesim::test::Stderr::drop);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("measured        19.8 us on NVIDIA H100 80GB HBM3 (2026-11-27, Triton "
                       "3.6.0, do_bench median: scripts/triton/run_file.py, correct against "
                       "float64)"),
            std::string::npos)
      << r.out;
  const auto other = tilesim::test::run_cli("run --triton " + file + " --arg GROUP_SIZE_M=4",
                                            tilesim::test::Stderr::drop);
  EXPECT_NE(other.out.find("measured        not at this launch on H100-SXM"), std::string::npos)
      << other.out;
  // --json: the measurement, the recognition ("triton_file") and the compiler's choices
  // ("triton") side by side.
  const auto j = nlohmann::json::parse(
      tilesim::test::run_cli("run --json --triton " + file, tilesim::test::Stderr::drop).out,
      nullptr, false);
  ASSERT_TRUE(j.is_object());
  EXPECT_NEAR(j["measured"]["median_s"].get<double>(), 19.8e-6, 0.1e-6);
  EXPECT_TRUE(j["measured"]["correct"].get<bool>());
  EXPECT_TRUE(j["triton_file"].is_string());
  EXPECT_TRUE(j["triton"].is_object());
}

}  // namespace

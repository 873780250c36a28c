// tilesim-cli end to end: the curriculum's numbers on stdout, bad input refused with exit 2.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli/run_cli.hpp"

namespace {

using tilesim::test::run_cli;

const std::string kTriton = "--m 576 --n 576 --k 576 --block-m 64 --block-n 64 --block-k 64 ";

}  // namespace

TEST(CliFootprint, TritonExamplePrints90RowMajorAnd54Grouped) {
  const auto row = run_cli("footprint " + kTriton + "--order row-major --programs 9 --json");
  ASSERT_EQ(row.code, 0) << row.out;
  EXPECT_EQ(nlohmann::json::parse(row.out)["tiles"], 90);
  const auto grp =
      run_cli("footprint " + kTriton + "--order grouped --group-m 3 --programs 9 --json");
  ASSERT_EQ(grp.code, 0) << grp.out;
  EXPECT_EQ(nlohmann::json::parse(grp.out)["tiles"], 54);
  EXPECT_EQ(nlohmann::json::parse(grp.out)["a_tiles"], 27);
}

TEST(CliMap, Seed004Pid29MapsTo5And0AndBothGroupedOrdersAreBijective) {
  const auto r = run_cli("map --m 574 --n 574 --k 574 --group-m 3 --order grouped --json");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["programs"], 81);
  EXPECT_EQ(j["mapping"][29], nlohmann::json::array({5, 0}));
  EXPECT_TRUE(j["bijective"]);
  EXPECT_TRUE(j["orders"]["grouped"]["bijective"]);
  EXPECT_TRUE(j["orders"]["grouped-legacy"]["bijective"]);
  const auto text = run_cli("map --pid 29");
  EXPECT_NE(text.out.find("29 -> (5, 0)"), std::string::npos);
  EXPECT_NE(text.out.find("grouped-legacy  bijective"), std::string::npos);
}

TEST(CliTrace, JsonHasStepsWithOffsetsMasksAndStoreLanes) {
  const auto r = run_cli("trace --pid 80 --json");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["pid_m"], 8);
  EXPECT_EQ(j["pid_n"], 8);
  EXPECT_EQ(j["steps"].size(), 29u);
  EXPECT_EQ(j["steps"][1]["op"], "load_a");
  EXPECT_EQ(j["steps"][1]["offsets"].size(), 64u);
  EXPECT_EQ(j["valid_store_lanes"], 62 * 62);
  EXPECT_GT(j["steps"][1]["line"].get<int>(), 0);
}

TEST(CliErrors, BadValuesAreRefusedWithTheFieldAndExitCode2) {
  const struct {
    const char* args;
    const char* message;
  } cases[] = {
      {"map --block-m 48", "block_m = 48 is not allowed: a power of two in 1..256"},
      {"map --m 0", "m = 0 is out of range: allowed 1..65536"},
      {"map --n -3", "n = -3 is out of range"},
      {"map --k 1099511627776", "k = 1099511627776 is out of range"},
      {"map --kernel gemm", "kernel = \"gemm\" is unknown: allowed copy | transpose | matmul"},
      {"map --order zigzag", "order = \"zigzag\" is unknown"},
      {"map --group-m 0", "group_size_m = 0 is out of range"},
      {"map --m 10 --block-m 64", "larger than the matrix"},
      {"map --scenario /nonexistent.json", "no such scenario file"},
      {"trace --pid 81", "pid = 81 is out of range: allowed 0..80"},
      {"footprint --programs 0", "programs = 0 is out of range"},
      {"map --kernel copy --m 65536 --n 65536 --block-m 1 --block-n 1",
       "this grid has 4294967296 programs"},
      {"map --pid -1", "pid = -1 is out of range: allowed 0..4294967296"},
      {"trace --pid 0 --step -1", "step = -1 is out of range"},
      {"map --foo", "The following argument was not expected: --foo"},
      {"map --m abc", "m = \"abc\" is not an integer: allowed 1..65536"},
      {"map --block-m 5000000000", "block_m = 5000000000 is out of range: allowed 1..256"},
      {"map --m 99999999999999999999", "m = 99999999999999999999 is out of range"},
      {"sweep --group-m 1,x", "group_size_m = \"x\" is not an integer"},
      {"run --max-seconds 0", "max_seconds = \"0\" is not allowed: a number in 0.001..1e+06"},
      {"run --machine bogus", "machine = \"bogus\" is unknown: allowed t4 | a100 | h100 | h200"},
      {"run --programs-per-sm 0", "programs_per_sm = 0 is out of range: allowed 1..64"},
      {"run --event-order rounds",
       "event_order = \"rounds\" is unknown: allowed timed | lockstep | staggered"},
      {"run --m 65536 --n 65536 --k 65536 --block-m 16 --block-n 16 --block-k 16",
       "over the budget of 2 min"},
      {"sweep --m 65536 --n 65536 --k 4096 --group-m 1,2,4,8", "over the budget"},
      {"run --block-m 256 --block-n 256 --block-k 256 --m 1024 --n 1024 --k 1024",
       "allows 227 KiB per program"},
      {"run --variant matmul_fast",
       "variant = \"matmul_fast\" is unknown: allowed copy_tiled | copy_vectorized"},
      {"run --variant cublas_sgemm", "is not described to the timed engine"},
      {"sweep --variant matmul_naive --group-m 1,2", "is not described to the timed engine"},
      {"run --variant matmul_mma_sync --dtype fp32", "matmul_mma_sync runs fp16 | bf16, not fp32"},
      {"run --variant copy_tiled --kernel matmul", "copy_tiled runs copy, not matmul"},
  };
  for (const auto& c : cases) {
    const auto r = run_cli(c.args);
    EXPECT_EQ(r.code, 2) << c.args << "\n" << r.out;
    EXPECT_NE(r.out.find(c.message), std::string::npos) << c.args << "\n" << r.out;
  }
}

TEST(CliErrors, UnparsableNumberIsRefusedNamingTheFieldInTheToolsOwnWords) {
  for (const char* args : {"map --m abc", "map --m nan", "map --block-m 1e3"}) {
    const auto r = run_cli(args);
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_NE(r.out.find("is not an integer: allowed 1.."), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("Could not convert"), std::string::npos) << r.out;
  }
}

TEST(CliHelp, DocumentsEverySubcommand) {
  const auto r = run_cli("--help");
  EXPECT_EQ(r.code, 0);
  for (const char* sub : {"map", "footprint", "trace"})
    EXPECT_NE(r.out.find(sub), std::string::npos) << sub;
}

TEST(CliDefaults, ATransposeByFlagsShowsNoMatmulFieldsAndRunsRowMajor) {
  const auto r = run_cli("run --kernel transpose --m 3 --n 4 --block-m 2 --block-n 2");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto first = r.out.substr(0, r.out.find('\n'));
  EXPECT_EQ(first.find("transpose 3x4 fp16, blocks 2x2, row-major order"), 0u) << first;
  for (const char* leaked : {"574", "GROUP_SIZE_M", "x64"})
    EXPECT_EQ(first.find(leaked), std::string::npos) << leaked << ": " << first;
  // --order still wins over the kernel's default.
  const auto g = run_cli("run --kernel copy --m 8 --n 8 --block-m 4 --block-n 4 --order grouped");
  EXPECT_NE(g.out.find("grouped order (GROUP_SIZE_M = 1)"), std::string::npos) << g.out;
}

TEST(CliSweep, RowMajorIsOneRowWhateverTheGroupSizes) {
  const auto r = run_cli("sweep --m 256 --n 256 --k 256 --group-m 1,2,4 --order row-major,grouped");
  ASSERT_EQ(r.code, 0) << r.out;
  std::size_t rows = 0, row_major = 0;
  for (std::size_t at = 0; (at = r.out.find('\n', at)) != std::string::npos; ++at) {
    const auto line = r.out.substr(at + 1, r.out.find('\n', at + 1) - at - 1);
    if (line.rfind("row-major", 0) == 0) ++row_major;
    if (line.rfind("row-major", 0) == 0 || line.rfind("grouped", 0) == 0) ++rows;
  }
  EXPECT_EQ(row_major, 1u) << r.out;
  EXPECT_EQ(rows, 4u) << r.out;
  // Piped stderr (as here: 2>&1 into popen) gets no progress bar.
  EXPECT_EQ(r.out.find('\r'), std::string::npos);
  EXPECT_EQ(r.out.find("[#"), std::string::npos) << r.out;
}

TEST(CliWarps, PrintsBankConflictsPerRequest) {
  const auto r = run_cli(
      "warps --kernel transpose --m 64 --n 64 --block-m 32 --block-n 32 --variant "
      "transpose_smem_tiled");
  ASSERT_EQ(r.code, 0) << r.out;
  // A column read of a 32-wide fp16 tile: lane i reads word 16 * i, so pairs of lanes share
  // a bank's 16 words: 16 wavefronts, 15 conflicts a request. Padding the row removes them.
  EXPECT_NE(r.out.find("15.00 per request"), std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(
      run_cli("warps --kernel transpose --m 64 --n 64 --block-m 32 --block-n 32 --variant "
              "transpose_smem_padded --json")
          .out);
  EXPECT_EQ(j["shared_ld_conflicts_per_request"], 0.0);
}

TEST(CliWarps, SeedThreesBTransposedTileConflictsUnlessPadded) {
  // Per 4 kk a warp reads 16 A words (conflict-free) and, from the unpadded B^T tile, 4 LDS.128
  // (ptxas merges the 4 kk): 8 lanes a phase in the same banks, 32 wavefronts, 31 conflicts
  // each: 4 x 31 / 20 = 6.2 a request on average; padded, none.
  const std::string p = "warps --kernel matmul --m 128 --n 128 --k 64 --json --variant ";
  const auto conflicting = nlohmann::json::parse(run_cli(p + "matmul_fma_bt_conflicting").out);
  EXPECT_EQ(conflicting["shared_ld_conflicts_per_request"], 6.2);
  EXPECT_EQ(conflicting["threads_per_program"], 256);
  const auto padded = nlohmann::json::parse(run_cli(p + "matmul_fma_bt_padded").out);
  EXPECT_EQ(padded["shared_ld_conflicts_per_request"], 0.0);
}

// The templated mma.sync rung (kernels/matmul_mma_sync_tiles.cu): seed 001's configurations are
// instantiated, each is correct where the ladder checks rungs, a tile that needs more shared memory
// than the SM has is refused in Triton's words (not crashed), and the resource query reports
// registers, spills and programs per SM.
#include <gtest/gtest.h>

#include <initializer_list>
#include <tuple>

#include "gpu_skip.hpp"
#include "kernels/matmul_mma_sync_tiles.hpp"

using namespace tilesim;
namespace tiles = kernels::mma_sync_tiles;

namespace {

sim::ProblemSpec problem(std::int64_t m, std::int64_t n, std::int64_t k, const tiles::Config& c,
                         sim::LaunchOrder order) {
  sim::ProblemSpec p;
  p.kernel = sim::Kernel::matmul;
  p.m = m;
  p.n = n;
  p.k = k;
  p.dtype = sim::DType::fp16;
  p.group_size_m = 4;
  p.order = order;
  return tiles::with_config(p, c);
}

}  // namespace

TEST(MmaSyncTiles, SeedOnesFiveConfigurationsAreInstantiatedFirst) {
  const tiles::Config seed[] = {{32, 32, 32, 4, 4},
                                {64, 64, 32, 4, 4},
                                {128, 128, 32, 4, 4},
                                {128, 256, 64, 4, 3},
                                {256, 256, 64, 4, 3}};
  for (int i = 0; i < tiles::kSeedConfigs; ++i) EXPECT_EQ(tiles::kConfigs[i], seed[i]);
  EXPECT_EQ(tiles::label(seed[2]), "128x128x32 w4 s4");
  EXPECT_EQ(tiles::config_of(tiles::with_config(sim::ProblemSpec{}, seed[3])), seed[3]);
}

TEST(MmaSyncTiles, SharedMemoryIsStagesTimesPaddedTiles) {
  // 256 x 256 x 64: A 256 x 72 and B 64 x 264 halves, 70,656 bytes a stage.
  EXPECT_EQ(tiles::shared_bytes({256, 256, 64, 4, 3}), 3 * 70656);
  EXPECT_EQ(tiles::shared_bytes({256, 256, 64, 4, 4}), 282624);  // over an H100's 232,448
  EXPECT_EQ(tiles::shared_bytes({128, 128, 32, 4, 4}), 4 * 2 * (128 * 40 + 32 * 136));
}

static void expect_correct_at(std::initializer_list<std::tuple<int, int, int>> sizes) {
  kernels::RunOptions o;
  o.time = false;
  for (const tiles::Config& c : tiles::kConfigs)
    for (auto [m, n, k] : sizes)
      for (auto order : {sim::LaunchOrder::row_major, sim::LaunchOrder::grouped}) {
        const auto r =
            kernels::run(sim::Problem(problem(m, n, k, c, order)), "matmul_mma_sync_tiles", o);
        EXPECT_TRUE(r.ok) << tiles::label(c) << " " << m << "x" << n << "x" << k << ": " << r.error;
        EXPECT_EQ(r.unwritten, 0) << tiles::label(c);
      }
}

// Small enough for compute-sanitizer (kernels/device_sweep.sh): every edge masked, K not a
// multiple of 8 (element-wise loads), then the cp.async path with partial tiles. (sim::Problem
// takes a block of at most the next power of two above the matrix: M > 128 for 256 rows.)
TEST(MmaSyncTiles, EveryConfigurationIsCorrectAtSmallOddSizes) {
  TILESIM_SKIP_WITHOUT_GPU();
  expect_correct_at({{147, 139, 45}, {130, 264, 72}});
}

TEST(MmaSyncTiles, EveryConfigurationIsCorrectAtLargerSizesAgainstBothReferences) {
  TILESIM_SKIP_WITHOUT_GPU();
  expect_correct_at({{1000, 777, 333}, {2000, 1000, 1504}});
}

TEST(MmaSyncTiles, ATileOverTheSharedMemoryLimitIsRefusedAsTritonSaysIt) {
  TILESIM_SKIP_WITHOUT_GPU();
  const tiles::Config too_big{256, 256, 64, 4, 4};
  const auto res = kernels::mma_sync_tiles_resources(too_big);
  EXPECT_FALSE(res.fits);
  EXPECT_NE(res.error.find("out of resource: shared memory, Required: 282624, Hardware limit: "),
            std::string::npos)
      << res.error;
  const auto r =
      kernels::run(sim::Problem(problem(1024, 1024, 1024, too_big, sim::LaunchOrder::grouped)),
                   "matmul_mma_sync_tiles");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("out of resource: shared memory"), std::string::npos) << r.error;
}

TEST(MmaSyncTiles, ResourcesReportRegistersSpillsAndOccupancy) {
  TILESIM_SKIP_WITHOUT_GPU();
  const auto small = kernels::mma_sync_tiles_resources({64, 64, 32, 4, 4});
  ASSERT_TRUE(small.fits) << small.error;
  EXPECT_GT(small.registers, 0);
  EXPECT_EQ(small.spill_bytes, 0);
  EXPECT_GE(small.programs_per_sm, 2);
  // 512 fp32 accumulators a thread cannot stay in 255 registers.
  const auto big = kernels::mma_sync_tiles_resources({256, 256, 64, 4, 3});
  ASSERT_TRUE(big.fits) << big.error;
  EXPECT_GT(big.spill_bytes, 0);
  EXPECT_EQ(big.programs_per_sm, 1);
}

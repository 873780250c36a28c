// How the timed engine describes each rung (the registry's TimingDescription, rung_timing): every
// matmul rung with tiles is described, the naive kernels and cuBLAS are not, and the problem is
// the one the rung runs (its fixed tile and B layout, as kernels::run applies them).
#include "kernels/rung_timing.hpp"

#include <gtest/gtest.h>

#include "kernels/variants.hpp"

using namespace tilesim;

namespace {

const kernels::Variant& variant(const char* name) {
  const kernels::Variant* v = kernels::find_variant(name);
  if (!v) throw std::runtime_error(std::string("no variant ") + name);
  return *v;
}

}  // namespace

TEST(RungTiming, EveryMatmulRungWithTilesHasADescription) {
  int described = 0;
  for (const auto& v : kernels::variants()) {
    if (v.kernel != sim::Kernel::matmul || v.kind != kernels::VariantKind::rung) continue;
    if (v.name == "matmul_naive") {  // one thread per output: no tile to describe
      EXPECT_FALSE(v.timing);
      continue;
    }
    ASSERT_TRUE(v.timing) << v.name << " has tiles but no timing description";
    if (v.name == "matmul_mma_sync_tiles") {  // its warps and stages are the problem's
      EXPECT_TRUE(v.timing->options.path && !v.timing->num_warps && !v.timing->stages);
      continue;
    }
    EXPECT_TRUE(v.timing->options.path && v.timing->num_warps && v.timing->stages) << v.name;
    ++described;
  }
  EXPECT_EQ(described, 24);  // + ping-pong 6f and its 3 trials, the turned 6h and its two
                             // cluster trials 6i, 6j
}

TEST(RungTiming, CublasBaselinesAndNaiveKernelsAreNotDescribed) {
  for (const char* name :
       {"cublas_sgemm", "cublas_tf32", "cublas_gemmex", "matmul_naive", "transpose_naive"})
    EXPECT_FALSE(kernels::rung_timing(variant(name), sim::ProblemSpec{})) << name;
}

TEST(RungTiming, WgmmaRunsItsOwnTileWithKMajorBOnEightWarpsInFourStages) {
  sim::ProblemSpec spec;  // 64^3 blocks, row-major B, 4 warps, 2 stages
  spec.m = spec.n = spec.k = 4096;
  const auto r = kernels::rung_timing(variant("matmul_wgmma_tma"), spec);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->spec.block_m, 128);
  EXPECT_EQ(r->spec.block_n, 256);
  EXPECT_EQ(r->spec.block_k, 64);
  EXPECT_EQ(r->spec.b_layout, sim::BLayout::transposed);
  EXPECT_EQ(r->spec.num_warps, 8);
  EXPECT_EQ(r->spec.stages, 4);
  EXPECT_EQ(r->timing.path, sim::MathPath::wgmma);
  EXPECT_FALSE(r->timing.layout);  // Triton's default for tensor cores: swizzled
  EXPECT_EQ(r->spec.m, 4096);      // sizes are the problem's
}

// 6h-6j: 6c's description on the turned tile (256 x 128 x 64).
TEST(RungTiming, TurnedPersistentRungsAreDescribedOnTheirTile) {
  sim::ProblemSpec spec;
  spec.m = spec.n = spec.k = 4096;
  for (const char* name : {"matmul_wgmma_persistent_turned", "matmul_wgmma_persistent_turned_mc",
                           "matmul_wgmma_persistent_turned_mcb"}) {
    const auto r = kernels::rung_timing(variant(name), spec);
    ASSERT_TRUE(r) << name;
    EXPECT_EQ(r->spec.block_m, 256) << name;
    EXPECT_EQ(r->spec.block_n, 128) << name;
    EXPECT_EQ(r->spec.block_k, 64) << name;
    EXPECT_EQ(r->spec.num_warps, 8) << name;
    EXPECT_EQ(r->spec.stages, 4) << name;
    EXPECT_EQ(r->timing.path, sim::MathPath::wgmma) << name;
  }
}

TEST(RungTiming, MmaSyncRungsDifferInWarpsAndStages) {
  const sim::ProblemSpec spec;
  EXPECT_EQ(kernels::rung_timing(variant("matmul_mma_sync_warp64"), spec)->spec.num_warps, 4);
  EXPECT_EQ(kernels::rung_timing(variant("matmul_mma_sync_bk64"), spec)->spec.stages, 3);
  EXPECT_EQ(kernels::rung_timing(variant("matmul_mma_sync"), spec)->timing.path,
            sim::MathPath::mma_sync);
}

TEST(RungTiming, SmemTiledKeepsTheProblemsBlocksAndConflictsOnBanks) {
  sim::ProblemSpec spec;
  spec.block_m = spec.block_n = 32;
  const auto r = kernels::rung_timing(variant("matmul_smem_tiled_b_transposed"), spec);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->spec.block_m, 32);
  EXPECT_EQ(r->spec.b_layout, sim::BLayout::transposed);
  EXPECT_EQ(r->timing.path, sim::MathPath::fma);
  EXPECT_EQ(r->timing.layout, sim::SmemLayout::plain);
  EXPECT_EQ(r->spec.stages, 1);
}

TEST(RungTiming, EveryFmaRungWithAWarpModelCountsItsSharedLoadsWithIt) {
  // The model gives an FMA rung's loads per K step whatever its layout (a padded or row-major B
  // tile too); rungs without one (register_blocked) keep the micro-tile formula.
  int with_model = 0;
  for (const auto& v : kernels::variants()) {
    const auto r = kernels::rung_timing(v, sim::ProblemSpec{});
    if (!r || r->timing.path != sim::MathPath::fma) continue;
    EXPECT_EQ(r->timing.variant, v.warp_model) << v.name;
    with_model += v.warp_model.has_value();
  }
  EXPECT_EQ(with_model, 5);  // matmul_smem_tiled(_b_transposed), the three fma_b_layout rungs
  EXPECT_EQ(kernels::rung_timing(variant("matmul_fma_bt_padded"), {})->timing.layout,
            sim::SmemLayout::swizzled);
  EXPECT_FALSE(kernels::rung_timing(variant("matmul_register_blocked"), {})->timing.variant);
}

TEST(RungTiming, TransposeRungsDifferOnlyInTheirSharedLayout) {
  sim::ProblemSpec spec;
  spec.kernel = sim::Kernel::transpose;
  spec.b_layout = sim::BLayout::transposed;  // meaningless outside matmul: dropped
  const auto tiled = kernels::rung_timing(variant("transpose_smem_tiled"), spec);
  const auto padded = kernels::rung_timing(variant("transpose_smem_padded"), spec);
  ASSERT_TRUE(tiled && padded);
  EXPECT_EQ(tiled->timing.layout, sim::SmemLayout::plain);
  EXPECT_EQ(padded->timing.layout, sim::SmemLayout::swizzled);
  EXPECT_EQ(tiled->spec, padded->spec);
  EXPECT_EQ(tiled->spec.b_layout, sim::BLayout::row_major);
  EXPECT_FALSE(tiled->timing.path);
}

TEST(RungTiming, CopiesRunEightWarpsWithTheirOwnLoadsInFlight) {
  sim::ProblemSpec spec;
  spec.kernel = sim::Kernel::copy;
  // copy_tiled: one element per thread in flight; copy_vectorized: four 16-byte loads; the
  // memcpy baseline is a pure DRAM stream (the problem's defaults, the whole tile at once).
  const auto tiled = kernels::rung_timing(variant("copy_tiled"), spec);
  ASSERT_TRUE(tiled);
  EXPECT_EQ(tiled->spec.num_warps, 8);
  EXPECT_EQ(tiled->timing.loads_in_flight, 1);
  EXPECT_EQ(tiled->timing.load_bytes, 0);
  const auto vec = kernels::rung_timing(variant("copy_vectorized"), spec);
  ASSERT_TRUE(vec);
  EXPECT_EQ(vec->timing.loads_in_flight, 4);
  EXPECT_EQ(vec->timing.load_bytes, 16);
  const auto d2d = kernels::rung_timing(variant("copy_memcpy_d2d"), spec);
  ASSERT_TRUE(d2d);
  EXPECT_EQ(d2d->spec, spec);
  sim::TimingOptions cuda;  // CUDA code: Triton's compiler choices do not apply
  cuda.triton = false;
  EXPECT_EQ(d2d->timing, cuda);
}

// The templated rung's tile, warps and stages are the problem's: the engine replays each
// configuration of seed 001's sweep as that instantiation, on the mma.sync path.
TEST(RungTiming, TheTemplatedRungTakesItsTileWarpsAndStagesFromTheProblem) {
  sim::ProblemSpec p;
  p.dtype = sim::DType::fp16;
  p.block_m = 256;
  p.block_n = 128;
  p.block_k = 32;
  p.num_warps = 8;
  p.stages = 3;
  const auto r = kernels::rung_timing(variant("matmul_mma_sync_tiles"), p);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->spec.block_m, 256);
  EXPECT_EQ(r->spec.block_n, 128);
  EXPECT_EQ(r->spec.num_warps, 8);
  EXPECT_EQ(r->spec.stages, 3);
  EXPECT_EQ(r->timing.path, sim::MathPath::mma_sync);
  EXPECT_FALSE(r->timing.triton);
}

// The variant registry (variants.cpp): every fixed tile it declares is the tile its kernel is
// instantiated with (the rung headers' constants), every rung has one launcher row (a function
// exactly when CUDA is built), and the simulator's warp models are found by a registry query, not
// by name.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "kernels/kernels.hpp"
#include "kernels/matmul_fma_b_layout.hpp"
#include "kernels/matmul_mma_sync.hpp"
#include "kernels/matmul_mma_sync_lean.hpp"
#include "kernels/matmul_mma_sync_swizzled.hpp"
#include "kernels/matmul_register_blocked.hpp"
#include "kernels/matmul_wgmma_pingpong.hpp"
#include "kernels/matmul_wgmma_tma.hpp"
#include "kernels/transpose_batched.hpp"

using namespace tilesim;
using kernels::FixedTile;

TEST(VariantRegistry, EveryFixedTileIsTheTileItsKernelIsBuiltWith) {
  namespace k = kernels;
  const std::map<std::string, FixedTile> built_with{
      {"matmul_fma_b_rowmajor", k::fma_b_layout::kTile},
      {"matmul_fma_bt_conflicting", k::fma_b_layout::kTile},
      {"matmul_fma_bt_padded", k::fma_b_layout::kTile},
      {"matmul_register_blocked", k::register_blocked::kTile},
      {"matmul_register_blocked_bk16", k::register_blocked::kTileBk16},
      {"matmul_mma_sync", k::mma_sync::kTile},
      {"matmul_mma_sync_bk64", k::mma_sync::kTileBk64},
      {"matmul_mma_sync_128x256", k::mma_sync::kTile128x256},
      {"matmul_mma_sync_warp64", k::mma_sync::kTileWarp64},
      {"matmul_mma_sync_swizzled", k::mma_sync_swizzled::kTile},
      {"matmul_mma_sync_lean", k::mma_sync_lean::kTile},
      {"matmul_wgmma_tma", k::wgmma_tma::kTile},
      {"matmul_wgmma_tma_store", k::wgmma_tma::kTile},
      {"transpose_smem_padded_batched", k::transpose_batched::kTile},
      {"matmul_wgmma_persistent", k::wgmma_tma::kTile},
      {"matmul_wgmma_persistent_mc", k::wgmma_tma::kTile},
      {"matmul_wgmma_persistent_turned", k::wgmma_tma::kTileTurned},
      {"matmul_wgmma_persistent_turned_mc", k::wgmma_tma::kTileTurned},
      {"matmul_wgmma_persistent_turned_mcb", k::wgmma_tma::kTileTurned},
      {"matmul_wgmma_pingpong", k::wgmma_pingpong::kTile},
      {"matmul_wgmma_pingpong_n256", k::wgmma_pingpong::kTileN256},
      {"matmul_wgmma_pingpong_n256_s5", k::wgmma_pingpong::kTileN256},
      {"matmul_wgmma_pingpong_n256_mc", k::wgmma_pingpong::kTileN256},
  };
  int fixed = 0;
  for (const auto& v : kernels::variants()) {
    if (!v.fixed_tile) {
      EXPECT_FALSE(built_with.count(v.name)) << v.name << " lost its fixed tile";
      continue;
    }
    ++fixed;
    const auto it = built_with.find(v.name);
    ASSERT_NE(it, built_with.end()) << v.name << ": a fixed tile this test does not know";
    EXPECT_EQ(*v.fixed_tile, it->second) << v.name;
  }
  EXPECT_EQ(fixed, static_cast<int>(built_with.size()));
}

TEST(VariantRegistry, EveryImplementedVariantHasALauncherExactlyWhenCudaIsBuilt) {
  for (const auto& v : kernels::variants()) {
    if (!v.implemented) continue;
    const auto& rows = kernels::launchers();
    EXPECT_EQ(std::count_if(rows.begin(), rows.end(), [&](auto& r) { return r.variant == v.name; }),
              1)
        << v.name << " needs exactly one row in launchers.cpp";
    EXPECT_EQ(kernels::find_launcher(v.name) != nullptr, kernels::cuda_built()) << v.name;
  }
}

TEST(VariantRegistry, EveryLauncherRowNamesAVariant) {
  for (const auto& r : kernels::launchers())
    EXPECT_NE(kernels::find_variant(r.variant), nullptr) << r.variant;
}

TEST(VariantRegistry, BTransposedSmemTiledIsModelledByTheSmemTiledWarpModel) {
  EXPECT_TRUE(kernels::is_modelled_by("matmul_smem_tiled_b_transposed",
                                      sim::ThreadVariant::matmul_smem_tiled));
  EXPECT_TRUE(
      kernels::is_modelled_by("transpose_smem_padded", sim::ThreadVariant::transpose_smem_padded));
  // A name that starts like a modelled one is not modelled by it.
  EXPECT_FALSE(kernels::is_modelled_by("transpose_smem_padded_vectorized",
                                       sim::ThreadVariant::transpose_smem_padded));
  EXPECT_FALSE(kernels::is_modelled_by("no_such_variant", sim::ThreadVariant::copy_tiled));
}

TEST(VariantRegistry, SeedThreePairDiffersOnlyInTheBLayoutAndItsSharedLayout) {
  const auto* row = kernels::find_variant("matmul_fma_b_rowmajor");
  const auto* conflicting = kernels::find_variant("matmul_fma_bt_conflicting");
  const auto* padded = kernels::find_variant("matmul_fma_bt_padded");
  ASSERT_TRUE(row && conflicting && padded);
  EXPECT_EQ(row->b_layout, sim::BLayout::row_major);
  EXPECT_EQ(conflicting->b_layout, sim::BLayout::transposed);
  EXPECT_EQ(padded->b_layout, sim::BLayout::transposed);
  for (const auto* v : {row, conflicting, padded}) {
    EXPECT_EQ(v->fixed_tile, row->fixed_tile) << v->name;
    EXPECT_EQ(v->dtypes, std::vector<sim::DType>{sim::DType::fp32}) << v->name;
    EXPECT_EQ(v->baseline, "cublas_sgemm") << v->name;
    ASSERT_TRUE(v->timing) << v->name;
    EXPECT_EQ(v->timing->options.path, sim::MathPath::fma) << v->name;
    EXPECT_EQ(v->timing->num_warps, kernels::fma_b_layout::kThreads / 32) << v->name;
    EXPECT_EQ(v->timing->stages, 1) << v->name;
  }
  EXPECT_EQ(conflicting->timing->options.layout, sim::SmemLayout::plain);
  EXPECT_EQ(row->timing->options.layout, sim::SmemLayout::swizzled);
  EXPECT_EQ(padded->timing->options.layout, sim::SmemLayout::swizzled);
}

TEST(VariantRegistry, SeedThreePairIsModelledByItsOwnWarpModelsWithTheKernelsTile) {
  for (const auto& [name, model] :
       {std::pair{"matmul_fma_b_rowmajor", sim::ThreadVariant::matmul_fma_b_rowmajor},
        std::pair{"matmul_fma_bt_conflicting", sim::ThreadVariant::matmul_fma_bt_conflicting},
        std::pair{"matmul_fma_bt_padded", sim::ThreadVariant::matmul_fma_bt_padded}}) {
    EXPECT_TRUE(kernels::is_modelled_by(name, model)) << name;
    EXPECT_EQ(sim::parse_thread_variant(name), model) << name;
  }
  // The model (sim/, which cannot include kernels/) mirrors the kernel's tile and threads.
  EXPECT_EQ((FixedTile{sim::kFmaBlockM, sim::kFmaBlockN, sim::kFmaBlockK}),
            kernels::fma_b_layout::kTile);
  EXPECT_EQ(sim::kFmaThreads, kernels::fma_b_layout::kThreads);
}

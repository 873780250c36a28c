// Each variant's launcher, by registry name. Apart from the registry (variants.cpp) because a
// launcher names CUDA code: the registry stays CUDA-free for tilesim-cli, this table is linked
// only with the kernels. Compiled in the stub build too (null launchers there), so a test without
// CUDA still checks that every implemented variant has its row.
#include <algorithm>

#include "kernels/baselines_cublas.hpp"
#include "kernels/copy.hpp"
#include "kernels/matmul_fma_b_layout.hpp"
#include "kernels/matmul_mma_sync.hpp"
#include "kernels/matmul_mma_sync_lean.hpp"
#include "kernels/matmul_mma_sync_swizzled.hpp"
#include "kernels/matmul_mma_sync_tiles.hpp"
#include "kernels/matmul_register_blocked.hpp"
#include "kernels/matmul_simt.hpp"
#include "kernels/matmul_wgmma_pingpong.hpp"
#include "kernels/matmul_wgmma_tma.hpp"
#include "kernels/transpose.hpp"
#include "kernels/transpose_batched.hpp"

namespace tilesim::kernels {

const std::vector<LauncherRow>& launchers() {
  static const std::vector<LauncherRow> rows{
      {"copy_tiled", TILESIM_LAUNCHER(launch_copy_tiled)},
      {"copy_vectorized", TILESIM_LAUNCHER(launch_copy_vectorized)},
      {"copy_memcpy_d2d", TILESIM_LAUNCHER(launch_copy_memcpy_d2d)},
      {"transpose_naive", TILESIM_LAUNCHER(launch_transpose_naive)},
      {"transpose_smem_tiled", TILESIM_LAUNCHER(launch_transpose_smem_tiled)},
      {"transpose_smem_padded", TILESIM_LAUNCHER(launch_transpose_smem_padded)},
      {"transpose_smem_padded_vectorized",
       TILESIM_LAUNCHER(launch_transpose_smem_padded_vectorized)},
      {"transpose_smem_padded_batched", TILESIM_LAUNCHER(launch_transpose_smem_padded_batched)},
      {"matmul_naive", TILESIM_LAUNCHER(launch_matmul_naive)},
      {"matmul_smem_tiled", TILESIM_LAUNCHER(launch_matmul_smem_tiled)},
      // The same kernel: the problem's (registry-fixed) b_layout picks the B^T instantiation.
      {"matmul_smem_tiled_b_transposed", TILESIM_LAUNCHER(launch_matmul_smem_tiled)},
      {"matmul_fma_b_rowmajor", TILESIM_LAUNCHER(launch_matmul_fma_b_rowmajor)},
      {"matmul_fma_bt_conflicting", TILESIM_LAUNCHER(launch_matmul_fma_bt_conflicting)},
      {"matmul_fma_bt_padded", TILESIM_LAUNCHER(launch_matmul_fma_bt_padded)},
      {"matmul_register_blocked", TILESIM_LAUNCHER(launch_matmul_register_blocked)},
      {"matmul_register_blocked_bk16", TILESIM_LAUNCHER(launch_matmul_register_blocked_bk16)},
      {"matmul_mma_sync", TILESIM_LAUNCHER(launch_matmul_mma_sync)},
      {"matmul_mma_sync_bk64", TILESIM_LAUNCHER(launch_matmul_mma_sync_bk64)},
      {"matmul_mma_sync_128x256", TILESIM_LAUNCHER(launch_matmul_mma_sync_128x256)},
      {"matmul_mma_sync_warp64", TILESIM_LAUNCHER(launch_matmul_mma_sync_warp64)},
      {"matmul_mma_sync_swizzled", TILESIM_LAUNCHER(launch_matmul_mma_sync_swizzled)},
      {"matmul_mma_sync_lean", TILESIM_LAUNCHER(launch_matmul_mma_sync_lean)},
      // The problem's BLOCK_M/N/K, num_warps and stages pick the instantiation.
      {"matmul_mma_sync_tiles", TILESIM_LAUNCHER(launch_matmul_mma_sync_tiles)},
      {"matmul_wgmma_tma", TILESIM_LAUNCHER(launch_matmul_wgmma_tma)},
      {"matmul_wgmma_tma_store", TILESIM_LAUNCHER(launch_matmul_wgmma_tma_store)},
      {"matmul_wgmma_persistent", TILESIM_LAUNCHER(launch_matmul_wgmma_persistent)},
      {"matmul_wgmma_persistent_mc", TILESIM_LAUNCHER(launch_matmul_wgmma_persistent_mc)},
      {"matmul_wgmma_persistent_turned", TILESIM_LAUNCHER(launch_matmul_wgmma_persistent_turned)},
      {"matmul_wgmma_persistent_turned_mc",
       TILESIM_LAUNCHER(launch_matmul_wgmma_persistent_turned_mc)},
      {"matmul_wgmma_persistent_turned_mcb",
       TILESIM_LAUNCHER(launch_matmul_wgmma_persistent_turned_mcb)},
      {"matmul_wgmma_pingpong", TILESIM_LAUNCHER(launch_matmul_wgmma_pingpong)},
      {"matmul_wgmma_pingpong_n256", TILESIM_LAUNCHER(launch_matmul_wgmma_pingpong_n256)},
      {"matmul_wgmma_pingpong_n256_s5", TILESIM_LAUNCHER(launch_matmul_wgmma_pingpong_n256_s5)},
      {"matmul_wgmma_pingpong_n256_mc", TILESIM_LAUNCHER(launch_matmul_wgmma_pingpong_n256_mc)},
      {"cublas_sgemm", TILESIM_LAUNCHER(launch_cublas_sgemm)},
      {"cublas_tf32", TILESIM_LAUNCHER(launch_cublas_tf32)},
      {"cublas_gemmex", TILESIM_LAUNCHER(launch_cublas_gemmex)},
  };
  return rows;
}

Launcher find_launcher(std::string_view variant) {
  const auto& rows = launchers();
  const auto it = std::find_if(rows.begin(), rows.end(),
                               [&](const LauncherRow& r) { return r.variant == variant; });
  return it == rows.end() ? nullptr : it->launch;
}

}  // namespace tilesim::kernels

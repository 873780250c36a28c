// The launchers each kernel file exports to runtime.cu. Each enqueues one launch on args.stream and
// returns "" or the reason this variant cannot run this problem (tile too large, alignment, arch).
#pragma once

#include <string>

#include "kernels/device_common.cuh"

namespace tilesim::kernels::detail {

std::string launch_copy_tiled(const LaunchArgs& args);
std::string launch_copy_vectorized(const LaunchArgs& args);

std::string launch_transpose_naive(const LaunchArgs& args);
std::string launch_transpose_smem_tiled(const LaunchArgs& args);
std::string launch_transpose_smem_padded(const LaunchArgs& args);
std::string launch_transpose_smem_padded_vectorized(const LaunchArgs& args);

std::string launch_matmul_naive(const LaunchArgs& args);
std::string launch_matmul_smem_tiled(const LaunchArgs& args);        // honours args.b_transposed
std::string launch_matmul_register_blocked(const LaunchArgs& args);  // K steps of 8
std::string launch_matmul_register_blocked_bk16(const LaunchArgs& args);  // K steps of 16
std::string launch_matmul_mma_sync(const LaunchArgs& args);               // 128 x 128 tile
std::string launch_matmul_mma_sync_bk64(const LaunchArgs& args);     // 128 x 128, K steps of 64
std::string launch_matmul_mma_sync_128x256(const LaunchArgs& args);  // 128 x 256 tile
std::string launch_matmul_mma_sync_warp64(const LaunchArgs& args);  // 128 x 128, 64 x 64 warp tiles
std::string launch_matmul_mma_sync_swizzled(
    const LaunchArgs& args);  // 128 x 256, swizzled shared tiles
std::string launch_matmul_wgmma_tma(const LaunchArgs& args);
std::string launch_matmul_wgmma_tma_store(const LaunchArgs& args);  // C leaves by TMA store

// A kernel whose block `pid` writes the device tile_of(pid) to out[2 * pid], out[2 * pid + 1].
void launch_tile_map(const GridMap& g, long long* out, cudaStream_t stream);

}  // namespace tilesim::kernels::detail

// The Hopper rungs (matmul_wgmma_tma.cu: versions 6, 6b, 6c, 6d, 6h-6j): their tiles and launchers.
#pragma once

#include "kernels/launcher.hpp"

namespace tilesim::kernels {

namespace wgmma_tma {
inline constexpr FixedTile kTile{128, 256, 64};
inline constexpr int kStages = 4;
// 6h-6j: the persistent rung with the tile turned (256 rows x 128 columns, cuBLAS's at 4096^3).
inline constexpr FixedTile kTileTurned{256, 128, 64};
}  // namespace wgmma_tma

namespace detail {
std::string launch_matmul_wgmma_tma(const LaunchArgs& args);
std::string launch_matmul_wgmma_tma_store(const LaunchArgs& args);   // C leaves by TMA store
std::string launch_matmul_wgmma_persistent(const LaunchArgs& args);  // 6c: persistent, 4 stages
std::string launch_matmul_wgmma_persistent_mc(
    const LaunchArgs& args);  // 6d: 6c in clusters of 2, B^T multicast
std::string launch_matmul_wgmma_persistent_turned(const LaunchArgs& args);  // 6h: 256 x 128 tiles
std::string launch_matmul_wgmma_persistent_turned_mc(
    const LaunchArgs& args);  // 6i: 6h in clusters of 2 along N, A multicast
std::string launch_matmul_wgmma_persistent_turned_mcb(
    const LaunchArgs& args);  // 6j: 6h in clusters of 2 along M, B^T multicast
}  // namespace detail

}  // namespace tilesim::kernels

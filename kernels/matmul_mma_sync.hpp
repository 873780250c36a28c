// The mma.sync rungs (matmul_mma_sync.cu): their tiles and pipeline depths, which the kernels
// are instantiated with, and their launchers.
#pragma once

#include "kernels/launcher.hpp"

namespace tilesim::kernels {

namespace mma_sync {
inline constexpr FixedTile kTile{128, 128, 32};
inline constexpr int kStages = 4;
inline constexpr FixedTile kTileBk64{128, 128, 64};
inline constexpr int kStagesBk64 = 3;
inline constexpr FixedTile kTile128x256{128, 256, 32};
inline constexpr FixedTile kTileWarp64{128, 128, 32};
}  // namespace mma_sync

namespace detail {
std::string launch_matmul_mma_sync(const LaunchArgs& args);
std::string launch_matmul_mma_sync_bk64(const LaunchArgs& args);
std::string launch_matmul_mma_sync_128x256(const LaunchArgs& args);
std::string launch_matmul_mma_sync_warp64(const LaunchArgs& args);  // 64 x 64 warp tiles
}  // namespace detail

}  // namespace tilesim::kernels

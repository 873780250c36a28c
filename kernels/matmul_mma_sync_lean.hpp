// The lean-addressing mma.sync rung (matmul_mma_sync_lean.cu): its tile and launcher.
#pragma once

#include "kernels/launcher.hpp"

namespace tilesim::kernels {

namespace mma_sync_lean {
inline constexpr FixedTile kTile{128, 256, 32};
inline constexpr int kStages = 4;
}  // namespace mma_sync_lean

namespace detail {
std::string launch_matmul_mma_sync_lean(const LaunchArgs& args);
}  // namespace detail

}  // namespace tilesim::kernels

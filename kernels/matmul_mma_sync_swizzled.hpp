// The swizzled mma.sync rung (matmul_mma_sync_swizzled.cu): its tile and launcher.
#pragma once

#include "kernels/launcher.hpp"

namespace tilesim::kernels {

namespace mma_sync_swizzled {
inline constexpr FixedTile kTile{128, 256, 32};
inline constexpr int kStages = 4;
}  // namespace mma_sync_swizzled

namespace detail {
std::string launch_matmul_mma_sync_swizzled(const LaunchArgs& args);
}  // namespace detail

}  // namespace tilesim::kernels

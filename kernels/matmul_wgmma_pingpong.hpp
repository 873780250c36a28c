// Hopper rung 6f (matmul_wgmma_pingpong.cu): ping-pong consumer warpgroups, its tile and launcher.
#pragma once

#include "kernels/launcher.hpp"

namespace tilesim::kernels {

namespace wgmma_pingpong {
inline constexpr FixedTile kTile{128, 128, 64};  // one consumer warpgroup's tile
inline constexpr int kStages = 6;
}  // namespace wgmma_pingpong

namespace detail {
std::string launch_matmul_wgmma_pingpong(const LaunchArgs& args);
}  // namespace detail

}  // namespace tilesim::kernels

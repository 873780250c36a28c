// Hopper rung 6f (matmul_wgmma_pingpong.cu): ping-pong consumer warpgroups, its tile and launcher.
#pragma once

#include "kernels/launcher.hpp"

namespace tilesim::kernels {

namespace wgmma_pingpong {
inline constexpr FixedTile kTile{128, 128, 64};  // one consumer warpgroup's tile
inline constexpr int kStages = 6;
// Trial (matmul_wgmma_pingpong_n256): a (64, 256) tile per consumer, one wgmma m64n256k16 per k16
// step (4 stages of 8 KB A + 32 KB B^T).
inline constexpr FixedTile kTileN256{64, 256, 64};
}  // namespace wgmma_pingpong

namespace detail {
std::string launch_matmul_wgmma_pingpong(const LaunchArgs& args);
std::string launch_matmul_wgmma_pingpong_n256(const LaunchArgs& args);  // trial: 64 x 256 tiles
}  // namespace detail

}  // namespace tilesim::kernels

// Hopper rung 6f (matmul_wgmma_pingpong.cu): ping-pong consumer warpgroups, its tile and launcher.
#pragma once

#include "kernels/launcher.hpp"

namespace tilesim::kernels {

namespace wgmma_pingpong {
inline constexpr FixedTile kTile{128, 128, 64};  // one consumer warpgroup's tile
inline constexpr int kStages = 6;
// Trials (matmul_wgmma_pingpong_n256, _n256_s5, _n256_mc): a (64, 256) tile per consumer, one
// wgmma m64n256k16 per k16 step (4 stages of 8 KB A + 32 KB B^T; _s5: 5 stages beside smaller C
// panels); _mc: in clusters of two with B^T multicast.
inline constexpr FixedTile kTileN256{64, 256, 64};
inline constexpr int kStagesN256 = 4;
}  // namespace wgmma_pingpong

namespace detail {
std::string launch_matmul_wgmma_pingpong(const LaunchArgs& args);
std::string launch_matmul_wgmma_pingpong_n256(const LaunchArgs& args);     // trial: 64 x 256 tiles
std::string launch_matmul_wgmma_pingpong_n256_s5(const LaunchArgs& args);  // trial: 5 stages
std::string launch_matmul_wgmma_pingpong_n256_mc(
    const LaunchArgs& args);  // trial: 64 x 256 tiles in clusters of 2, B^T multicast
}  // namespace detail

}  // namespace tilesim::kernels

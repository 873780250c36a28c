// The Hopper rungs (matmul_wgmma_tma.cu: versions 6, 6b, 6c, 6d): their tile and launchers.
#pragma once

#include "kernels/launcher.hpp"

namespace tilesim::kernels {

namespace wgmma_tma {
inline constexpr FixedTile kTile{128, 256, 64};
inline constexpr int kStages = 4;
}  // namespace wgmma_tma

namespace detail {
std::string launch_matmul_wgmma_tma(const LaunchArgs& args);
std::string launch_matmul_wgmma_tma_store(const LaunchArgs& args);   // C leaves by TMA store
std::string launch_matmul_wgmma_persistent(const LaunchArgs& args);  // 6c: persistent, 4 stages
std::string launch_matmul_wgmma_persistent_mc(
    const LaunchArgs& args);  // 6d: 6c in clusters of 2, B^T multicast
}  // namespace detail

}  // namespace tilesim::kernels

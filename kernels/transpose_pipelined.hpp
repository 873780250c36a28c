// The pipelined padded transpose (transpose_pipelined.cu): its one tile and thread count, which the
// .cu file instantiates its kernel with and the registry row (variants.cpp) names, and its
// launcher.
#pragma once

#include "kernels/launcher.hpp"

namespace tilesim::kernels {

namespace transpose_pipelined {
inline constexpr FixedTile kTile{64, 64, 1};
inline constexpr int kThreads = 256;  // 4 tile rows per pass: 16 scalar loads per thread per tile
}  // namespace transpose_pipelined

namespace detail {
std::string launch_transpose_smem_padded_pipelined(const LaunchArgs& args);
}  // namespace detail

}  // namespace tilesim::kernels

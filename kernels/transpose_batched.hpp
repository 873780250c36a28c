// The batched padded transpose (transpose_batched.cu): its one tile and thread count, which the
// .cu file instantiates its kernel with and the registry row (variants.cpp) names, and its
// launcher.
#pragma once

#include "kernels/launcher.hpp"

namespace tilesim::kernels {

namespace transpose_batched {
inline constexpr FixedTile kTile{64, 64, 1};
inline constexpr int kThreads = 256;  // 4 tile rows per pass: 16 scalar loads per thread
}  // namespace transpose_batched

namespace detail {
std::string launch_transpose_smem_padded_batched(const LaunchArgs& args);
}  // namespace detail

}  // namespace tilesim::kernels
